import FBAnimation
import FBRaster
import Testing
import _FBTestSupport

// Whole frames of our renderer against the independent reference renderer
// (_FBTestSupport), over each loader's area (its drawn extent plus 2 px).
//
// Tolerances, in 8-bit units, for the 8-bit formats:
// - mean |ours - reference| per channel < 1.0: the acceptance bar of issue 2
//   (1/255), against the reference rounded to 8 bits as any rasterizer
//   writing 8-bit pixels would give it.
// - structure: no channel of any pixel off by more than 48, and at most 0.5%
//   of the area's pixels off by more than 16. Honest anti-aliasing
//   differences stay well inside both: the reference's coverage is good to
//   ~1/1000 of a pixel, a 256-level fixed-point coverage to ~1/256 plus its
//   sub-pixel geometry (a few units on an edge pixel), and
//   the spec allows the radar's sweep to be averaged on a 4x4 grid, off by up
//   to 1/8 on pixels the hard edge crosses (25 units of 199, about 100
//   pixels along the edge, under 0.5% of the disc). A structural error
//   exceeds them. Checked by breaking the reference on purpose: the ring's
//   radii 0.25 px too large (mean 0.69, passing the mean alone) left 620
//   pixels over 16 (2.3%); the centre half a pixel off (ring mean 0.88),
//   the radar's edge 1 degree late, leaves turned 1 degree, hearts 25 wide
//   instead of 24, the ring's delay 0.45 s: every frame failed (max 74-199).
// For rgb565 (bgr565 is checked equal to it in GoldenTests), per-pixel
// quantisation alone gives about 2 units of mean error (steps of 8.2 and
// 4.0, ordered dithering): the mean is taken after a 4x4 box blur of both
// frames, which averages each flat dithered area back to its 8-bit value
// (a 4x4 window covers every cell of a 4x4 Bayer matrix once), plus a bound
// of 0.5 on the mean signed error of the raw frames (dithering must not
// bias); the structural bounds grow by one 5-bit step (8) to 56 and 24.

let ringTimes = [0.2, 0.501, 7, 15.5, 29.9, 30.6]
let radarTimes = [0, 0.75, 1.6, 2.99]
let spinnerTimes = [0, 0.1, 0.2, 0.95, 2.0, 3.33]
let orbitTimes = [0, 1.0, 2.5, 4.9]

/// Every timeline at 240x240, scale 1.
let timeCases: [FrameCase] =
    ringTimes.map { FrameCase(loader: .ring, time: $0) }
    + radarTimes.map { FrameCase(loader: .radar, time: $0) }
    + spinnerTimes.map { FrameCase(loader: .spinner, time: $0) }
    + orbitTimes.map { FrameCase(loader: .orbit, time: $0) }

/// A time of each loader where nothing is symmetric.
let midTimes: [(LoaderKind, Double)] = [
    (.ring, 15.5), (.radar, 1.6), (.spinner, 3.33), (.orbit, 2.5),
]

/// Other frame sizes (odd ones put the centre mid-pixel) and scales.
let sizeScaleCases: [FrameCase] = midTimes.flatMap { kind, t in
    [
        FrameCase(loader: kind, time: t, width: 320, height: 240),
        FrameCase(loader: kind, time: t, width: 241, height: 199),
        FrameCase(loader: kind, time: t + 0.37, width: 120, height: 120, scale: 0.5),
        FrameCase(loader: kind, time: t, width: 345, height: 341, scale: 1.5),
        FrameCase(loader: kind, time: t + 1.1, width: 480, height: 480, scale: 2),
    ]
}

/// Rotations, colours, backgrounds.
let styleCases: [FrameCase] =
    midTimes.flatMap { kind, t in
        [Rotation.degrees90, .degrees180, .degrees270].map {
            FrameCase(loader: kind, time: t - 0.9, width: 320, height: 240, rotation: $0)
        }
            + [
                FrameCase(
                    loader: kind, time: t, color: Color(rgb: 0x00A0FF),
                    background: Color(rgb: 0x202830)),
                FrameCase(
                    loader: kind, time: t + 0.2, width: 241, height: 199, rotation: .degrees90),
            ]
    }

/// rgb565 at several times, sizes and a rotation.
let rgb565Cases: [FrameCase] = midTimes.flatMap { kind, t in
    [
        FrameCase(loader: kind, time: t, format: .rgb565),
        FrameCase(loader: kind, time: t + 0.6, format: .rgb565),
        FrameCase(loader: kind, time: t, width: 241, height: 199, format: .rgb565),
        FrameCase(
            loader: kind, time: t, width: 320, height: 240, rotation: .degrees90,
            color: Color(rgb: 0xFF3B30), format: .rgb565),
    ]
}

@Test(arguments: timeCases) func oracleTimeline(_ c: FrameCase) { checkAgainstReference(c) }
@Test(arguments: sizeScaleCases) func oracleSizeAndScale(_ c: FrameCase) {
    checkAgainstReference(c)
}
@Test(arguments: styleCases) func oracleStyle(_ c: FrameCase) { checkAgainstReference(c) }
@Test(arguments: rgb565Cases) func oracleRGB565(_ c: FrameCase) { checkAgainstReference(c) }

func checkAgainstReference(_ c: FrameCase, sourceLocation: SourceLocation = #_sourceLocation) {
    let ours = RefImage(width: c.width, height: c.height, rgb: c.ours())
    let exact = c.reference()
    let rounded = RefImage(width: c.width, height: c.height, rgb: exact.rgb8())
    let region = c.region
    let allowed = max(4, region.clippedPixelCount(width: c.width, height: c.height) / 200)
    var failures: [String] = []
    if c.format.bytesPerPixel == 2 {
        let blurred = compareImages(
            ours.boxBlurred(4), exact.boxBlurred(4), region: region, threshold: 24)
        let raw = compareImages(ours, rounded, region: region, threshold: 24)
        print("ORACLE \(c.testDescription): blurred4 \(blurred) | raw \(raw)")
        if blurred.worstMeanAbs >= 1 { failures.append("mean error after 4x4 blur \(blurred)") }
        if raw.worstMeanSigned >= 0.5 { failures.append("biased: mean signed error \(raw)") }
        if raw.maxAbs > 56 { failures.append("max error over 56: \(raw)") }
        if raw.countOver > allowed { failures.append("over 24 on more than \(allowed) px: \(raw)") }
    } else {
        let d = compareImages(ours, rounded, region: region, threshold: 16)
        print("ORACLE \(c.testDescription): \(d)")
        if d.worstMeanAbs >= 1 { failures.append("mean error \(d)") }
        if d.maxAbs > 48 { failures.append("max error over 48: \(d)") }
        if d.countOver > allowed { failures.append("over 16 on more than \(allowed) px: \(d)") }
    }
    if !failures.isEmpty {
        let path = writeFailurePictures(
            name: c.fileName, actual: ours, expected: rounded, region: region)
        let message =
            "\(c.testDescription) vs reference over \(region): "
            + failures.joined(separator: "; ")
            + ". Pictures: \(path) (reference | ours | diff x8)."
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}
