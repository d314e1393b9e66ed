import FBRaster
import FBText
import Foundation
import Testing
import _FBTestSupport

/// Frames with a message, as `fbanim render --message` writes them, against
/// an independent renderer of the same font: FreeType's own rasterizer
/// (`FreeTypeReference`, contour by contour 8 times finer), drawing the line
/// where boot.md puts the box: centred, its top at H/2 + 124 * scale, moved
/// up to end at H - 4 on small screens, turned with `--rotate`.
@Suite struct MessageFrameTests {
    struct Case: CustomStringConvertible, Sendable {
        var width: Int, height: Int, scale: Double, format: String, rotate: Int
        var description: String { "\(width)x\(height) scale \(scale) \(format) rotate \(rotate)" }
    }

    static let cases = [
        Case(width: 480, height: 480, scale: 1, format: "xrgb8888", rotate: 0),
        Case(width: 320, height: 240, scale: 1, format: "rgb565", rotate: 0),  // moved up
        Case(width: 800, height: 480, scale: 1.5, format: "xrgb8888", rotate: 0),  // moved up
        Case(width: 640, height: 800, scale: 2, format: "rgb888", rotate: 0),
        Case(width: 480, height: 320, scale: 1, format: "xrgb8888", rotate: 90),
        Case(width: 320, height: 480, scale: 1, format: "bgr565", rotate: 270),
    ]

    /// A message whose centred box starts on FreeType's 1/64 px grid (the
    /// reference takes 26.6 positions): the width minus the advance must be
    /// even in 1/64 px.
    func message(pictureWidth: Int, pixelSize: Fixed) -> (String, TextLine) {
        let font = Font.builtIn()
        let base = "Updating firmware 42% — ça va?"
        for text in [base, base + "!", base + ".", base + " ok", base + "!!", base + " :)"] {
            let line = font.layOut(text, pixelSize: pixelSize, maxWidth: Fixed(pictureWidth - 16))
            let advance64 = line.advance.raw / 1024
            if line.advance.raw % 1024 == 0 && (pictureWidth * 64 - Int(advance64)) % 2 == 0 {
                return (text, line)
            }
        }
        Issue.record("no test message lands on the 1/64 px grid at \(pixelSize)")
        return ("", font.layOut("", pixelSize: pixelSize, maxWidth: Fixed(1)))
    }

    @Test(arguments: cases)
    func messageMatchesFreeType(_ c: Case) throws {
        let turned = c.rotate == 90 || c.rotate == 270
        let (pw, ph) = turned ? (c.height, c.width) : (c.width, c.height)
        let size = Fixed(raw: Int64((16 * c.scale * 65536).rounded()))
        let (text, line) = message(pictureWidth: pw, pixelSize: size)
        let dir = try OutputDirectory()
        defer { dir.remove() }
        // The ring at 0 s is its track alone, which ends above the box.
        let run = try Fbanim.run([
            "render", "ring", "--size", "\(c.width)x\(c.height)", "--time", "0",
            "--scale", "\(c.scale)", "--format", c.format, "--rotate", "\(c.rotate)",
            "--message", text, "--background", "203040", "--text-color", "FFE0A0",
            "--output", dir.file("m.ppm"),
        ])
        #expect(run.status == 0, "\(run)")
        let ppm = try #require(dir.read("m.ppm"))
        let pixels = Array(ppm.dropFirst(ppmHeader(c.width, c.height).count))
        // The box, in the picture's own (unrotated) coordinates.
        let advance = Double(line.advance.raw) / 65536
        let height = Double(line.height.raw) / 65536
        let x0 = (Double(pw) - advance) / 2
        var y0 = Double(ph) / 2 + 124 * c.scale
        if y0 + height > Double(ph) - 4 { y0 = Double(ph) - 4 - height }
        let reference = try FreeTypeReference.render(
            text: text, fontBytes: Font.builtInBytes, pixelSize: 16 * c.scale, originX: x0,
            originY: y0, width: pw, height: ph,
            paint: RefPaint(rgb: 0xFFE0A0, alpha: 230.0 / 255), background: Color(rgb: 0x203040),
            mode: .contours(oversample: 8)
        ).image
        // Compare over the box and 2 px around it, reading our frame through the rotation.
        var maxDiff = 0.0
        var sum = 0.0
        var count = 0
        let sixteen = c.format.hasSuffix("565")
        for y in max(0, Int(y0) - 2)..<min(ph, Int(y0 + height) + 3) {
            for x in max(0, Int(x0) - 2)..<min(pw, Int(x0 + advance) + 3) {
                // Picture (x, y) lands on the framebuffer turned clockwise.
                let (fx, fy): (Int, Int) =
                    switch c.rotate {
                    case 90: (c.width - 1 - y, x)
                    case 180: (c.width - 1 - x, c.height - 1 - y)
                    case 270: (y, c.height - 1 - x)
                    default: (x, y)
                    }
                for ch in 0..<3 {
                    let ours = Double(pixels[3 * (fy * c.width + fx) + ch])
                    let ref = reference.values[3 * (y * pw + x) + ch]
                    maxDiff = max(maxDiff, abs(ours - ref))
                    sum += abs(ours - ref)
                    count += 1
                }
            }
        }
        let mean = sum / Double(max(count, 1))
        // 8-bit: the glyph tests' bounds (max 6). 16-bit: one 5-bit step
        // more per pixel (8), and dithering noise on every pixel of the box.
        #expect(maxDiff <= (sixteen ? 14 : 6), "\(c): max \(maxDiff), mean \(mean)")
        #expect(mean < (sixteen ? 3 : 0.75), "\(c): mean \(mean)")
        #expect(count > 1000, "\(c): the box is only \(count / 3) pixels")
    }
}
