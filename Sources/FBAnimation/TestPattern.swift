import FBRaster

/// The bring-up picture of `fbanim testpattern` (boot.md, Commands), as
/// shapes the frame renderer fills like a loader's.
///
/// Laid out on the picture before `--rotate` (`width` x `height` pixels,
/// y down), on the renderer's black background: the top third holds an
/// arrow pointing up and the word TOP side by side, centred, in white, and
/// under them the lines of text the caller gives (device, mode, format,
/// fps); the middle third (H/3 to 2H/3) four bars W/4 wide, pure red,
/// green, blue and white from the left, labelled R G B W in black near
/// their bottoms; the bottom third a yellow bar W/16 wide whose left edge is
/// at W * (t mod 1), on whole pixels. Only that bar moves, and it comes
/// last: the renderer keeps everything else still and redraws the bar's
/// old and new rectangles.
///
/// Coordinates are pixels around the picture's centre: the renderer must
/// draw it at scale 1. The text comes laid out (FBText is no dependency of
/// this module): a path each, its origin the line box's top-left corner.
public struct TestPattern: Loader {
    /// One laid-out line of text: its glyphs and its box, pixels.
    public struct Label: Equatable, Sendable {
        public var path: Path
        public var width: Double
        public var height: Double

        public init(path: Path, width: Double, height: Double) {
            self.path = path
            self.width = width
            self.height = height
        }
    }

    /// The picture's size before rotation, pixels.
    public let width: Int
    public let height: Int
    /// "TOP", at `sizes.top`.
    public var top: Label?
    /// "R", "G", "B", "W", at `sizes.label`.
    public var barLabels: [Label]
    /// The lines under the arrow, at `sizes.info`, each at most `infoWidth` wide.
    public var info: [Label]
    /// The moving bar's colour.
    public var mainColor = Color(rgb: 0xFFFF00)

    /// The bars' colours, left to right.
    public static let barColors = [
        Color(rgb: 0xFF0000), Color(rgb: 0x00FF00), Color(rgb: 0x0000FF), Color(rgb: 0xFFFFFF),
    ]

    /// - Precondition: `width, height > 0`.
    public init(width: Int, height: Int, top: Label?, barLabels: [Label], info: [Label]) {
        precondition(width > 0 && height > 0, "picture size must be positive")
        self.width = width
        self.height = height
        self.top = top
        self.barLabels = barLabels
        self.info = info
    }

    /// The em sizes, in pixels, to lay the text out at for a picture of
    /// `width` x `height`: TOP as tall as the arrow (0.34 of the top third),
    /// the bar labels at most 0.3 of a third and half a bar, the info lines
    /// (three fit under the arrow) at most 0.15 of a third and W/22 (but 10
    /// at least).
    public static func textSizes(width: Int, height: Int) -> (
        top: Double, label: Double, info: Double
    ) {
        let third = Double(height) / 3
        let w = Double(width)
        return (
            arrowHeight(width: width, height: height),
            min(0.3 * third, w / 8),
            min(0.15 * third, max(w / 22, 10))
        )
    }

    /// The widest an info line may be: the picture's width less 8 pixels a side.
    public static func infoWidth(pictureWidth: Int) -> Double { Double(max(pictureWidth - 16, 1)) }

    /// The left edge of the moving bar at `t` seconds: W * (t mod 1), down to a whole pixel.
    public static func barX(width: Int, at t: Double) -> Int {
        let fraction = t - t.rounded(.down)
        return min(Int((Double(width) * fraction).rounded(.down)), width - 1)
    }

    private static func arrowHeight(width: Int, height: Int) -> Double {
        min(0.34 * Double(height) / 3, 0.2 * Double(width))
    }

    public func body(in context: LoaderContext) -> Frame {
        Frame(pattern: self, time: context.time)
    }

    /// The pattern's shapes at one time, already made as rasterizer shapes.
    public struct Frame: LoaderContent {
        let pattern: TestPattern
        let time: Double
        public func draw(_ placement: Placement, into ops: inout [DrawOp]) {
            let first = ops.count
            pattern.shapes(at: time, into: &ops)
            guard placement != .identity else { return }
            for i in first..<ops.count {
                ops[i].transform = placement.transform.concatenating(ops[i].transform)
            }
        }
    }

    func shapes(at t: Double, into ops: inout [DrawOp]) {
        let w = Double(width)
        let h = Double(height)
        let third = h / 3
        // The arrow and TOP, side by side and centred as one row.
        let a = TestPattern.arrowHeight(width: width, height: height)
        let gap = top == nil ? 0 : 0.25 * a
        let rowWidth = 0.6 * a + gap + (top?.width ?? 0)
        let rowTop = 0.06 * third
        let left = (w - rowWidth) / 2
        ops.append(DrawOp(.path(arrow(x: left, y: rowTop, height: a)), paint: .solid(.white)))
        if let top {
            place(top, x: left + 0.6 * a + gap, y: rowTop + (a - top.height) / 2, .white, &ops)
        }
        var y = rowTop + a + 0.06 * third
        for line in info {
            place(line, x: (w - line.width) / 2, y: y, .white, &ops)
            y += line.height
        }
        for (i, color) in TestPattern.barColors.enumerated() {
            let x0 = w * Double(i) / 4
            ops.append(
                DrawOp(
                    .path(rect(x0, third, w * Double(i + 1) / 4, 2 * third)), paint: .solid(color)))
        }
        for (i, label) in barLabels.prefix(4).enumerated() {
            let centre = w * (Double(i) + 0.5) / 4
            place(
                label, x: centre - label.width / 2, y: 2 * third - 0.06 * third - label.height,
                .black, &ops)
        }
        let x = Double(TestPattern.barX(width: width, at: t))
        ops.append(DrawOp(.path(rect(x, 2 * third, x + w / 16, h)), paint: .solid(mainColor)))
    }

    /// A text line with its box's top-left corner at (`x`, `y`) of the picture.
    private func place(
        _ label: Label, x: Double, y: Double, _ color: Color, _ ops: inout [DrawOp]
    ) {
        let place = Transform.translation(
            Fixed(x - Double(width) / 2), Fixed(y - Double(height) / 2))
        ops.append(DrawOp(.path(label.path), transform: place, paint: .solid(color)))
    }

    /// The rectangle from (`x0`, `y0`) to (`x1`, `y1`) of the picture, around its centre.
    private func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        var path = Path()
        path.move(to: Point(x0 - cx, y0 - cy))
        path.line(to: Point(x1 - cx, y0 - cy))
        path.line(to: Point(x1 - cx, y1 - cy))
        path.line(to: Point(x0 - cx, y1 - cy))
        path.close()
        return path
    }

    /// An arrow pointing up in a box `0.6 * height` wide whose top-left is
    /// (`x`, `y`): a head 0.45 of it tall over a shaft 0.2 of it wide.
    private func arrow(x: Double, y: Double, height a: Double) -> Path {
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        let mid = x + 0.3 * a
        let neck = y + 0.45 * a
        let points = [
            (mid, y), (x + 0.6 * a, neck), (mid + 0.1 * a, neck), (mid + 0.1 * a, y + a),
            (mid - 0.1 * a, y + a), (mid - 0.1 * a, neck), (x, neck),
        ]
        var path = Path()
        path.move(to: Point(points[0].0 - cx, points[0].1 - cy))
        for p in points.dropFirst() { path.line(to: Point(p.0 - cx, p.1 - cy)) }
        path.close()
        return path
    }
}
