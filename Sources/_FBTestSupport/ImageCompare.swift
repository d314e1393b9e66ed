import FBImage
import Foundation

// Comparing two frames over a loader's area, and pictures of the difference.

extension RefImage {
    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3, "RGB bytes do not match the size")
        self.init(width: width, height: height, values: rgb.map(Double.init))
    }

    /// Each channel averaged over the size x size window starting
    /// `(size - 1) / 2` pixels up and left (clipped at the frame's borders).
    /// With size 4, the window covers each cell of a 4x4 ordered-dither
    /// matrix exactly once, so dithered flat areas average back to their
    /// 8-bit value.
    public func boxBlurred(_ size: Int = 4) -> RefImage {
        let back = (size - 1) / 2
        var out = values
        for y in 0..<height {
            for x in 0..<width {
                var sum = (0.0, 0.0, 0.0)
                var n = 0.0
                for yy in max(0, y - back)..<min(height, y - back + size) {
                    for xx in max(0, x - back)..<min(width, x - back + size) {
                        let i = 3 * (yy * width + xx)
                        sum.0 += values[i]
                        sum.1 += values[i + 1]
                        sum.2 += values[i + 2]
                        n += 1
                    }
                }
                let o = 3 * (y * width + x)
                out[o] = sum.0 / n
                out[o + 1] = sum.1 / n
                out[o + 2] = sum.2 / n
            }
        }
        return RefImage(width: width, height: height, values: out)
    }
}

/// Where two frames are compared: pixels whose centre lies in a disc.
public struct CompareRegion: Sendable, CustomStringConvertible {
    public var cx: Double, cy: Double, radius: Double

    public init(cx: Double, cy: Double, radius: Double) {
        self.cx = cx
        self.cy = cy
        self.radius = radius
    }

    /// The loader's drawn extent plus `margin` pixels, at the frame centre.
    public static func loader(
        _ loader: String, width: Int, height: Int, scale: Double, margin: Double = 2
    ) -> CompareRegion {
        CompareRegion(
            cx: Double(width) / 2, cy: Double(height) / 2,
            radius: ReferenceRenderer.extentRadius(loader: loader, scale: scale) + margin)
    }

    public func contains(_ x: Int, _ y: Int) -> Bool {
        let dx = Double(x) + 0.5 - cx
        let dy = Double(y) + 0.5 - cy
        return dx * dx + dy * dy <= radius * radius
    }

    public var description: String {
        "disc r=\(fmt(radius)) at (\(fmt(cx)), \(fmt(cy)))"
    }
}

/// How far one frame is from another over a region, in 8-bit units.
public struct ImageDifference: Sendable, CustomStringConvertible {
    public var pixels = 0
    /// Mean |actual - expected| per channel (R, G, B).
    public var meanAbs = [0.0, 0.0, 0.0]
    /// Mean (actual - expected) per channel: a bias, e.g. from wrong rounding.
    public var meanSigned = [0.0, 0.0, 0.0]
    /// The largest |actual - expected| of any channel, and where.
    public var maxAbs = 0.0
    public var maxAt = (x: 0, y: 0)
    /// Pixels with some channel off by more than `threshold`.
    public var countOver = 0
    public var threshold = 0.0

    public var worstMeanAbs: Double { meanAbs.max() ?? 0 }
    public var worstMeanSigned: Double { meanSigned.map(abs).max() ?? 0 }

    public var description: String {
        "mean|d| RGB (\(meanAbs.map(fmt).joined(separator: ", "))), "
            + "mean d (\(meanSigned.map(fmt).joined(separator: ", "))), "
            + "max \(fmt(maxAbs)) at (\(maxAt.x), \(maxAt.y)), "
            + "\(countOver) of \(pixels) px over \(fmt(threshold))"
    }
}

/// Compares `actual` with `expected` over the pixels of `region`.
public func compareImages(
    _ actual: RefImage, _ expected: RefImage, region: CompareRegion, threshold: Double
) -> ImageDifference {
    precondition(actual.width == expected.width && actual.height == expected.height)
    var d = ImageDifference()
    d.threshold = threshold
    for y in 0..<actual.height {
        for x in 0..<actual.width where region.contains(x, y) {
            d.pixels += 1
            var over = false
            for c in 0..<3 {
                let i = 3 * (y * actual.width + x) + c
                let e = actual.values[i] - expected.values[i]
                d.meanAbs[c] += abs(e)
                d.meanSigned[c] += e
                if abs(e) > d.maxAbs {
                    d.maxAbs = abs(e)
                    d.maxAt = (x, y)
                }
                if abs(e) > threshold { over = true }
            }
            if over { d.countOver += 1 }
        }
    }
    let n = Double(max(1, d.pixels))
    d.meanAbs = d.meanAbs.map { $0 / n }
    d.meanSigned = d.meanSigned.map { $0 / n }
    return d
}

/// A picture of a difference, three panels side by side: expected, actual,
/// and |actual - expected| per channel times 8 over a quarter-bright copy of
/// the expected frame, with the compared region's rim drawn in grey.
public func differencePicture(
    actual: RefImage, expected: RefImage, region: CompareRegion? = nil
) -> RGBImage {
    let w = actual.width
    let h = actual.height
    var out = [UInt8](repeating: 0, count: 3 * w * h * 3)
    func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
    for y in 0..<h {
        for x in 0..<w {
            let rim = region.map { r in r.contains(x, y) && !r.contains(x + 1, y) } ?? false
            for c in 0..<3 {
                let i = 3 * (y * w + x) + c
                let row = 3 * (y * 3 * w)
                out[row + 3 * x + c] = clamp(expected.values[i])
                out[row + 3 * (w + x) + c] = clamp(actual.values[i])
                let diff = abs(actual.values[i] - expected.values[i]) * 8
                out[row + 3 * (2 * w + x) + c] =
                    rim ? 96 : clamp(diff + expected.values[i] / 4)
            }
        }
    }
    return RGBImage(width: 3 * w, height: h, rgb: out)
}

/// Where tests put pictures of failures: `$FBANIM_TEST_OUT`, else
/// `<tmp>/fbanim-test-out`. Created on first use.
public func testOutputDirectory() -> String {
    let env = ProcessInfo.processInfo.environment["FBANIM_TEST_OUT"]
    let dir = env ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("fbanim-test-out")
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

/// Writes `image` as PNG (FBImage's encoder) at `path`.
public func writePNG(_ image: RGBImage, to path: String) throws {
    let bytes = try encodePNG(rgb: image.rgb, width: image.width, height: image.height)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// Writes `<name>_actual.png`, `<name>_expected.png` and `<name>_err.png`
/// into the test output directory; returns the `_err` picture's path.
@discardableResult
public func writeFailurePictures(
    name: String, actual: RefImage, expected: RefImage, region: CompareRegion? = nil
) -> String {
    let dir = testOutputDirectory()
    let base = (dir as NSString).appendingPathComponent(name)
    try? writePNG(
        RGBImage(width: actual.width, height: actual.height, rgb: actual.rgb8()),
        to: base + "_actual.png")
    try? writePNG(
        RGBImage(width: expected.width, height: expected.height, rgb: expected.rgb8()),
        to: base + "_expected.png")
    try? writePNG(
        differencePicture(actual: actual, expected: expected, region: region),
        to: base + "_err.png")
    return base + "_err.png"
}

func fmt(_ v: Double) -> String {
    String(format: "%.3f", v)
}

extension CompareRegion {
    /// How many pixels of a width x height frame the region holds.
    public func clippedPixelCount(width: Int, height: Int) -> Int {
        var n = 0
        for y in 0..<height {
            for x in 0..<width where contains(x, y) { n += 1 }
        }
        return n
    }
}
