import FBAnimation
import FBRaster
import Foundation
import Testing
import _FBTestSupport

/// One frame to draw: a loader at a time, size, scale, style and pixel format.
struct FrameCase: Sendable, CustomTestStringConvertible {
    var loader: LoaderKind
    var time: Double
    var width = 240
    var height = 240
    var scale = 1.0
    var rotation: Rotation = .degrees0
    var color: Color? = nil
    var background: Color = .black
    var format: PixelFormat = .xrgb8888
    /// The ring's progress from outside, instead of its clock.
    var progress: Double? = nil

    var style: LoaderStyle {
        LoaderStyle(scale: scale, color: color, background: background, rotation: rotation)
    }

    var testDescription: String {
        var s = "\(loader) t=" + String(format: "%g", time)
        s += " \(width)x\(height) s" + String(format: "%g", scale) + " r\(rotation.rawValue)"
        if let c = color { s += " color=" + String(format: "%06X", c.rgb) }
        if background != .black { s += " bg=" + String(format: "%06X", background.rgb) }
        if let p = progress { s += " p=" + String(format: "%g", p) }
        return s + " " + format.name
    }

    /// A file-name-safe version of the description.
    var fileName: String {
        String(testDescription.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }

    /// Our renderer's frame, as packed RGB8 read back through the format.
    ///
    /// The buffer is kept alive explicitly: `Surface` does not own its
    /// memory, so `renderFrame(...).surface.rgbBytes()` may read the pixels
    /// after the temporary `PixelBuffer` has been freed (it did, in debug).
    func ours() -> [UInt8] {
        let buffer = renderFrame(
            loader, width: width, height: height, format: format, style: style, time: time,
            progress: progress)
        return withExtendedLifetime(buffer) { buffer.surface.rgbBytes() }
    }

    /// The independent reference, in Double precision.
    func reference() -> RefImage {
        ReferenceRenderer.render(
            RefParams(
                loader: loader.rawValue, width: width, height: height, time: time, scale: scale,
                color: color, background: background, rotation: rotation.rawValue,
                progress: progress))
    }

    /// The loader's area: the disc of its drawn extent plus 2 px, at the centre.
    var region: CompareRegion {
        .loader(loader.rawValue, width: width, height: height, scale: scale, margin: 2)
    }
}
