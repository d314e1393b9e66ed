import FBRaster
import Foundation
import Testing
import _FBTestSupport

@testable import FBText

// Glyph pixels against an independent renderer: a line laid out by FBText
// and filled by fbanim's rasterizer, against the same line drawn by
// FreeType's own anti-aliasing rasterizer (_FBTestSupport/FreeTypeReference,
// with its own layout from FreeType's advances and kerning), at 10, 16, 24
// and 40 px, in xrgb8888, rgb888 (filled directly) and rgb565 (drawn at 8
// bits and dithered once, as FrameRenderer does), white at 0.9 over a
// dark grey, the line box's corner at a fraction of a pixel.
//
// TOLERANCES, in 8-bit units, over the pixels the text touches:
// 1. Against the accurate reference (contours rendered 16 times finer,
//    signed: flattening within 1/256 px), both sides compute the same exact
//    signed area of the same outline at the same position. Left: our chords
//    (within 1/128 px: <= 2/3 * 1/128 of a pixel's area on an edge pixel,
//    1.3 levels), the reference's (0.7), our 8-bit coverage and div255
//    (0.5 each), the reference's 8-bit fine coverages (averaged). So max
//    <= 6, mean |d| < 0.75 (rounding alone gives 0.25), |mean d| < 0.3.
//    Measured: max 2.8-4.3, mean 0.40-0.45, bias <= 0.16. The mean is the
//    sharp one: the whole line moved by 1/64 px (a 26.6 -> 16.16
//    conversion off by one unit) gives 1.0-1.8, by 1/256 px 0.5-0.6.
// 2. Against plain FreeType (FT_Render_Glyph: what FreeType users see),
//    FreeType's chords (within 1/16 px: up to 2/3 * 1/16 of an edge
//    pixel, 11 levels, plus the rounding above) dominate: max <= 24, mean
//    |d| < 3, |mean d| < 0.75 (its chords cut outer edges and widen
//    counters, so it draws a little thinner). Measured: max 11-16, mean
//    1.2-2.1 (most at 10 px, where more pixels are edges), bias <= 0.6.
// rgb565: dithering adds up to one 5-bit step (8.2) to each pixel, so the
// max bounds grow by 8 and the means are taken after a 4x4 box blur of both
// pictures (which averages the 4x4 Bayer pattern back to 8 bits); the
// bias is that of the raw pictures (dithering must not bias).
// A glyph one pixel off or a counter filled fails by far (max ~200).

struct PixelCase: Sendable, CustomTestStringConvertible {
    var size: Int
    var format: PixelFormat

    var testDescription: String { "\(size) px \(format.name)" }
}

let pixelCases: [PixelCase] = [10, 16, 24, 40].flatMap { size in
    [PixelFormat.xrgb8888, .rgb565, .rgb888].map { PixelCase(size: size, format: $0) }
}

/// Latin letters with counters, diagonals and kerned pairs (AV, To, Wa),
/// accents, digits, punctuation, an ellipsis and a missing character.
let sampleText = "Hamburgefonstiv AVATo Wa 0123456789 ÆØÅçé ‘quotes’ – ok… Ω?"

/// White at the spec's 0.9 opacity over a dark blue-grey.
let textColor = Color(r: 255, g: 255, b: 255, a: 230)
let textBackground = Color(rgb: 0x1C2430)

@Test(arguments: pixelCases)
func builtInFontAgainstFreeType(_ c: PixelCase) throws {
    let font = Font.builtIn()
    let line = font.layOut(sampleText, pixelSize: Fixed(c.size), maxWidth: Fixed(100_000))
    #expect(!line.truncated)
    #expect(line.text == "Hamburgefonstiv AVATo Wa 0123456789 ÆØÅçé ‘quotes’ – ok… \u{FFFD}?")
    // The box's top-left a fraction of a pixel in: (3 + 21/64, 2 + 37/64).
    let (ox, oy) = (Fixed(raw: (3 * 64 + 21) << 10), Fixed(raw: (2 * 64 + 37) << 10))
    let (width, height) = (line.advance.ceil + 8, line.height.ceil + 6)
    let ours = RefImage(
        width: width, height: height,
        rgb: drawLine(
            line, originX: ox, originY: oy, width: width, height: height, format: c.format,
            color: textColor, background: textBackground))
    for (mode, bounds) in [
        (FreeTypeReference.Mode.contours(oversample: 16), (max: 6.0, mean: 0.75, bias: 0.3)),
        (.freeType, (max: 24, mean: 3, bias: 0.75)),
    ] {
        let reference = try FreeTypeReference.render(
            text: line.text, fontBytes: Font.builtInBytes, pixelSize: Double(c.size),
            originX: 3 + 21.0 / 64, originY: 2 + 37.0 / 64, width: width, height: height,
            paint: RefPaint(textColor, alpha: 230.0 / 255), background: textBackground, mode: mode)
        #expect(line.ascent.raw == Int64(reference.ascent * 65536))
        #expect(line.height.raw == Int64((reference.ascent + reference.descent) * 65536))
        checkText(
            ours, reference.image, name: "text_\(c.size)px_\(c.format.name)_\(mode.fileName)",
            sixteen: c.format.bytesPerPixel == 2, max: bounds.max, mean: bounds.mean,
            bias: bounds.bias)
    }
}

/// Checks a text picture against a reference within the bounds (for
/// 16-bit formats: max + 8, the mean after a 4x4 box blur); on failure,
/// records an issue naming the pictures written.
func checkText(
    _ ours: RefImage, _ reference: RefImage, name: String, sixteen: Bool, max: Double,
    mean: Double, bias: Double, sourceLocation: SourceLocation = #_sourceLocation
) {
    let raw = TextDifference(ours, reference, background: textBackground, threshold: 16)
    let blurred =
        sixteen
        ? TextDifference(
            ours.boxBlurred(4), reference.boxBlurred(4), background: textBackground, threshold: 16)
        : raw
    print("TEXT \(name): \(raw)" + (sixteen ? " | blurred4 \(blurred)" : ""))
    var failures: [String] = []
    if raw.maxAbs > max + (sixteen ? 8 : 0) { failures.append("max") }
    if blurred.meanAbs >= mean { failures.append("mean") }
    if abs(raw.meanSigned) >= bias { failures.append("bias") }
    guard !failures.isEmpty else { return }
    let path = writeFailurePictures(name: name, actual: ours, expected: reference.rounded())
    let message =
        "\(name): \(failures.joined(separator: ", ")) out of bounds: \(raw). "
        + "Pictures: \(path) (reference | ours | diff x8)."
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

extension FreeTypeReference.Mode {
    /// For the names of failure pictures.
    var fileName: String {
        switch self {
        case .freeType: "freetype"
        case .contours(let k): "contours\(k)x"
        }
    }
}

extension RefImage {
    /// Rounded to 8 bits a channel, as a picture of it shows it.
    func rounded() -> RefImage { RefImage(width: width, height: height, rgb: rgb8()) }
}

/// A CFF (cubic) font: a few DejaVu Sans glyphs converted exactly to cubics
/// (Scripts/gen-test-cff-font.py), so FreeType hands our decomposer cubics
/// and its rasterizer flattens them its own way. Sizes include fractional
/// ones (this font's head table allows them, DejaVu's TrueType one does not).
/// Against the accurate reference the bounds are those above (measured: max
/// 1.5-1.9, mean 0.38-0.41). FreeType flattens cubics more coarsely than
/// quadratics (it splits until the control points are within 1/6 px of the
/// chord's trisection points: the curve within about 1/8 px on each axis,
/// up to 0.12 of an edge pixel, 30 levels), so against plain FreeType: max
/// <= 48, mean |d| < 4.5, |mean d| < 1 (measured: max 23-35, mean 2.0-3.4,
/// bias <= 0.75).
@Test(arguments: [10, 13.5, 16, 24, 40.25])
func cffFontAgainstFreeType(_ size: Double) throws {
    let url = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent()
        .appendingPathComponent("Fixtures/DejaVuSansCFFSample.otf")
    let bytes = [UInt8](try Data(contentsOf: url))
    let font = try Font(bytes: bytes)
    #expect(font.kind == .outline && font.name == "DejaVu Sans CFF Sample Book")
    let text = "Hamburgefonstiv AVATo Wa 0123 ÆØÅçé? …"
    let line = font.layOut(
        text, pixelSize: Fixed(raw: Int64(size * 65536)), maxWidth: Fixed(100_000))
    #expect(line.text == text)
    let (ox, oy) = (Fixed(raw: (5 * 64 + 3) << 10), Fixed(raw: (1 * 64 + 50) << 10))
    let (width, height) = (line.advance.ceil + 10, line.height.ceil + 4)
    let ours = RefImage(
        width: width, height: height,
        rgb: drawLine(
            line, originX: ox, originY: oy, width: width, height: height, format: .xrgb8888,
            color: textColor, background: textBackground))
    for (mode, bounds) in [
        (FreeTypeReference.Mode.contours(oversample: 16), (max: 6.0, mean: 0.75, bias: 0.3)),
        (.freeType, (max: 48, mean: 4.5, bias: 1)),
    ] {
        let reference = try FreeTypeReference.render(
            text: line.text, fontBytes: bytes, pixelSize: size, originX: 5 + 3.0 / 64,
            originY: 1 + 50.0 / 64, width: width, height: height,
            paint: RefPaint(textColor, alpha: 230.0 / 255), background: textBackground, mode: mode)
        #expect(line.ascent.raw == Int64(reference.ascent * 65536))
        checkText(
            ours, reference.image, name: "cff_\(size)px_\(mode.fileName)", sixteen: false,
            max: bounds.max,
            mean: bounds.mean, bias: bounds.bias)
    }
}
