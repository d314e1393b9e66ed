import FBRaster
import Foundation
import _FBTestSupport

@testable import FBText

// Drawing a laid-out line with fbanim's rasterizer, as the renderer will:
// the path filled once (nonzero) with a solid paint, blended at 8 bits a
// channel; 16-bit formats drawn on an xrgb8888 canvas and dithered into the
// target once (FrameRenderer's way), other formats filled directly.

/// `line` filled at `origin` (the line box's top-left) on `background`,
/// read back as packed 8-bit RGB through `format`.
func drawLine(
    _ line: TextLine, originX: Fixed, originY: Fixed, width: Int, height: Int,
    format: PixelFormat, color: Color, background: Color
) -> [UInt8] {
    let rasterizer = Rasterizer()
    let sixteen = format.bytesPerPixel == 2
    let canvas = PixelBuffer(width: width, height: height, format: sixteen ? .xrgb8888 : format)
    rasterizer.clear(canvas.surface, to: background)
    rasterizer.fill(
        .path(line.path), transform: .translation(originX, originY), paint: .solid(color),
        on: canvas.surface)
    guard sixteen else { return canvas.rgbBytes() }
    let target = PixelBuffer(width: width, height: height, format: format)
    rasterizer.convert(canvas.surface, into: target.surface, in: canvas.surface.bounds)
    return target.rgbBytes()
}

/// The fill's coverage, 0...255 per pixel, row-major: white on black in xrgb8888.
func coverage(_ path: Path, originX: Fixed = .zero, originY: Fixed = .zero, width: Int, height: Int)
    -> [Int]
{
    let rgb = drawLine(
        TextLine(
            path: path, advance: .zero, ascent: .zero, height: .zero, text: "", truncated: false),
        originX: originX, originY: originY, width: width, height: height, format: .xrgb8888,
        color: .white, background: .black)
    return stride(from: 2, to: rgb.count, by: 3).map { Int(rgb[$0]) }
}

/// How a text picture differs from its reference, in 8-bit units.
struct TextDifference: CustomStringConvertible {
    /// Largest |ours - reference| of any channel of any pixel, and where.
    var maxAbs = 0.0
    var maxAt = (x: 0, y: 0)
    /// Pixels the text touches in either picture (some channel off the background by > 0.5).
    var inkPixels = 0
    /// Mean |ours - reference| per channel over the ink pixels.
    var meanAbs = 0.0
    /// Mean (ours - reference) over the ink pixels: a bias, e.g. text drawn bolder.
    var meanSigned = 0.0
    /// Ink pixels with some channel off by more than `threshold`.
    var countOver = 0
    var threshold = 0.0

    init(_ ours: RefImage, _ reference: RefImage, background: Color, threshold: Double) {
        self.threshold = threshold
        let bg = [Double(background.r), Double(background.g), Double(background.b)]
        var sumAbs = 0.0
        var sumSigned = 0.0
        for y in 0..<ours.height {
            for x in 0..<ours.width {
                let i = 3 * (y * ours.width + x)
                var ink = false
                var over = false
                for c in 0..<3 {
                    let a = ours.values[i + c]
                    let e = reference.values[i + c]
                    if abs(a - bg[c]) > 0.5 || abs(e - bg[c]) > 0.5 { ink = true }
                    if abs(a - e) > maxAbs {
                        maxAbs = abs(a - e)
                        maxAt = (x, y)
                    }
                    if abs(a - e) > threshold { over = true }
                }
                guard ink else { continue }
                inkPixels += 1
                if over { countOver += 1 }
                for c in 0..<3 {
                    sumAbs += abs(ours.values[i + c] - reference.values[i + c])
                    sumSigned += ours.values[i + c] - reference.values[i + c]
                }
            }
        }
        let n = Double(max(1, 3 * inkPixels))
        meanAbs = sumAbs / n
        meanSigned = sumSigned / n
    }

    var description: String {
        String(
            format:
                "max %.2f at (%d, %d), mean |d| %.3f, mean d %+.3f over %d ink px, %d over %.0f",
            maxAbs, maxAt.x, maxAt.y, meanAbs, meanSigned, inkPixels, countOver, threshold)
    }
}
