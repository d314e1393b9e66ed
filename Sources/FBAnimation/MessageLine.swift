import FBRaster

/// One line of text shown over the picture (boot.md, Message line): the
/// glyph outlines of the laid-out line as one path, filled like any shape.
public struct MessageLine: Equatable, Sendable {
    /// The glyphs' outlines in pixels, with the origin at the top-left of
    /// the line's box and y down (the baseline is at the font's ascent).
    public var path: Path
    /// The box: the line's advance width and the font's ascent + descent, pixels.
    public var width: Double
    public var height: Double
    /// `#FFFFFF` at alpha 0.9 unless the user chose another.
    public var color: Color

    /// The message's colour when none is chosen.
    public static let defaultColor = Color(rgb: 0xFFFFFF).withOpacity(0.9)

    /// - Precondition: `width` and `height` finite and not negative.
    public init(path: Path, width: Double, height: Double, color: Color = MessageLine.defaultColor)
    {
        precondition(width.isFinite && width >= 0 && height.isFinite && height >= 0, "bad box")
        self.path = path
        self.width = width
        self.height = height
        self.color = color
    }

    /// The widest a line may be on a picture `pictureWidth` wide (before
    /// rotation): `W - 16`; wider lines are cut with an ellipsis.
    public static func maximumWidth(pictureWidth: Int) -> Double {
        Double(max(pictureWidth - 16, 1))
    }

    /// Where the box's top-left corner goes on a picture of `width` x
    /// `height` (before rotation) at `scale`: centred horizontally, its top
    /// at H/2 + 124 * scale, moved up to end at H - 4 where it would end
    /// below (over the loader, on small panels).
    public func origin(pictureWidth width: Int, height: Int, scale: Double) -> (
        x: Double, y: Double
    ) {
        let x = (Double(width) - self.width) / 2
        let top = Double(height) / 2 + 124 * scale
        let bottom = Double(height) - 4
        return (x, top + self.height > bottom ? bottom - self.height : top)
    }
}

extension FrameRenderer {
    /// The picture's size before rotation: the framebuffer's, turned for 90 and 270.
    var pictureSize: (width: Int, height: Int) {
        style.rotation == .degrees90 || style.rotation == .degrees270
            ? (height, width) : (width, height)
    }

    /// Lists the frame's shapes at `time` into `ops`: the loader's first
    /// (in design points around its centre), then the message's (placed on
    /// the screen already). Returns how many are the loader's.
    func listOps(at time: Double) -> Int {
        ops.removeAll(keepingCapacity: true)
        loader.frame(LoaderContext(time: time, progress: progress, message: message), into: &ops)
        let count = ops.count
        if let message {
            let picture = pictureSize
            let o = message.origin(
                pictureWidth: picture.width, height: picture.height, scale: style.scale)
            // The picture's centre is the screen's, and the whole picture
            // turns about it; the text is not scaled (its size is in pixels).
            let place = Transform(rotation: root.rotation, translation: root.translation)
                .concatenating(
                    .translation(
                        Fixed(o.x - Double(picture.width) / 2),
                        Fixed(o.y - Double(picture.height) / 2)))
            ops.append(
                DrawOp(
                    .path(message.path), transform: place, paint: .solid(message.color),
                    repeats: true))
        }
        return count
    }
}
