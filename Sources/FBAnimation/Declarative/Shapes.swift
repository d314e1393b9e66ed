import FBRaster

/// How a shape is drawn: its inside, or a line along its outline.
public enum DrawMode: Hashable, Sendable {
    /// The inside, by the nonzero rule.
    case fill
    /// A line centred on the outline (SwiftUI: `stroke`).
    case stroke(StrokeStyle)
    /// A line inside the outline, its outer edge on it (SwiftUI: `strokeBorder`).
    case strokeBorder(StrokeStyle)
}

extension DrawMode {
    /// How far inside the outline the line's centre lies: half the line
    /// for `strokeBorder`, else 0.
    var inset: Double {
        if case .strokeBorder(let s) = self { s.lineWidth / 2 } else { 0 }
    }
}

/// A line's width, ends and corners (SwiftUI: `StrokeStyle`, without dashes).
/// `Path` strokes take all of it; the other shapes keep their own corners
/// (round for rounded rectangles and capsules, mitred for `Rectangle`).
public struct StrokeStyle: Hashable, Sendable {
    /// Design points; `> 0`.
    public var lineWidth: Double
    /// How an open line ends (a `Path`, a trimmed circle): `.butt`, `.round`
    /// or `.square`.
    public var lineCap: LineCap
    /// How a `Path`'s corners are drawn.
    public var lineJoin: LineJoin
    /// For `.miter` joins: the longest miter, in line widths, before the
    /// corner is bevelled instead (SwiftUI's default is 10).
    public var miterLimit: Double

    /// A line `lineWidth` design points wide ending in `lineCap`, its corners `lineJoin`.
    public init(
        lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter,
        miterLimit: Double = 10
    ) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
    }
}

/// An outline that can be filled (SwiftUI: `Shape`), in design points
/// around its own centre, which sits on the loader's centre until moved.
public protocol LoaderShape: Sendable {
    /// The rasterizer's shape for this shape drawn with `mode`, `nil` when
    /// nothing shows. `turn` is a rotation about the centre the shape may
    /// take into its own angles (circles do; then they set it to zero):
    /// turning a circle's angles is exact, turning its vertices rounds.
    /// `visible`, when not `nil`, is the only angular range a paint shows
    /// in (an angular gradient clear elsewhere), in the shape's angles
    /// before `turn`: circles draw only that; other shapes refuse it.
    func rasterShape(_ mode: DrawMode, turn: inout Angle, visible: AngularRange?) -> FBRaster.Shape?
    /// The frame a `LinearGradient`'s `UnitPoint`s are relative to (`LinearGradient.swift`).
    var frameBounds: ShapeBounds { get }
}

/// A shape whose outline can also be stroked (every built-in shape).
public protocol StrokableShape: LoaderShape {}

/// A range of directions: from `start`, `sweep` clockwise.
public struct AngularRange: Hashable, Sendable {
    /// The first direction.
    public var start: Angle
    /// How far the range goes clockwise, `0 < sweep <= fullTurn`.
    public var sweep: AngleSpan
}

extension LoaderShape {
    /// The inside filled with `style` (a `Color`, an `AngularGradient`).
    public func fill<S: ShapeStyle>(_ style: S) -> ShapeContent<Self, S> {
        ShapeContent(shape: self, style: style, mode: .fill)
    }
}

extension StrokableShape {
    /// A line of `lineWidth` design points centred on the outline.
    public func stroke<S: ShapeStyle>(_ style: S, lineWidth: Double = 1) -> ShapeContent<Self, S> {
        stroke(style, style: StrokeStyle(lineWidth: lineWidth))
    }
    /// A line centred on the outline, as `strokeStyle` says.
    public func stroke<S: ShapeStyle>(_ style: S, style strokeStyle: StrokeStyle)
        -> ShapeContent<Self, S>
    {
        ShapeContent(shape: self, style: style, mode: .stroke(strokeStyle))
    }
    /// A line of `lineWidth` design points inside the outline.
    public func strokeBorder<S: ShapeStyle>(_ style: S, lineWidth: Double = 1)
        -> ShapeContent<Self, S>
    {
        ShapeContent(
            shape: self, style: style, mode: .strokeBorder(StrokeStyle(lineWidth: lineWidth)))
    }
}

/// A shape drawn with a paint: content (what `fill`, `stroke` and
/// `strokeBorder` make).
///
/// A shape placed by a transform other than the identity (moved, scaled
/// or turned, after a circle takes its turn into its angles) is taken for
/// a fixed outline moving along a loop, whose poses come back: the
/// renderer keeps its coverage (`DrawOp.repeats`). Shapes drawn in place
/// (tracks, growing arcs, sweeps) are kept only while they stay unchanged
/// from frame to frame (the renderer's choice); its still layer serves
/// those that rest.
public struct ShapeContent<S: LoaderShape, Style: ShapeStyle>: LoaderContent {
    /// The outline.
    public var shape: S
    /// What it is painted with.
    public var style: Style
    /// Filled or stroked.
    public var mode: DrawMode

    /// Draws the content (see `LoaderContent.draw`).
    public func draw(_ placement: Placement, into ops: inout [DrawOp]) {
        var transform = placement.transform
        var turn = transform.rotation
        guard let paint = style.resolve(opacity: placement.opacity, for: shape) else { return }
        guard
            let raster = shape.rasterShape(mode, turn: &turn, visible: paint.visible)
        else { return }
        // What the shape did not take stays in the transform.
        let taken = transform.rotation - turn
        transform.rotation = turn
        ops.append(
            DrawOp(
                raster, transform: transform, paint: paint.paint(turn: taken),
                repeats: transform != .identity))
    }
}

/// A circle of `radius` design points around its centre (SwiftUI: `Circle`
/// in a square frame of twice the radius). Its outline starts at 3 o'clock
/// and runs clockwise, which is where `trim` measures from.
public struct Circle: StrokableShape {
    /// Design points; `>= 0`.
    public var radius: Double
    /// The trimmed part of the outline, fractions of a turn from 3 o'clock.
    var from = 0.0
    var to = 1.0
    var trimmed = false

    /// A circle of `radius` design points.
    public init(radius: Double) { self.radius = radius }

    /// Only the outline from `from` to `to` (fractions of a turn, clockwise
    /// from 3 o'clock) is stroked; a `to` below `from` runs counter-clockwise
    /// (SwiftUI draws nothing then), equal ones draw nothing. A trimmed
    /// circle is stroked (`stroke(_:style:)` for round caps), not filled.
    public func trim(from: Double = 0, to: Double = 1) -> Circle {
        var c = self
        c.from = from
        c.to = to
        c.trimmed = true
        return c
    }

    /// The rasterizer's shape (see `LoaderShape.rasterShape`).
    public func rasterShape(_ mode: DrawMode, turn: inout Angle, visible: AngularRange?)
        -> FBRaster.Shape?
    {
        let r = Fixed(radius)
        let rotation = turn
        turn = .zero
        switch mode {
        case .fill:
            if trimmed { return nil }
            guard let v = visible else { return .disc(center: .zero, radius: r) }
            return .sector(center: .zero, radius: r, start: rotation + v.start, sweep: v.sweep)
        case .stroke(let s), .strokeBorder(let s):
            let mid = radius - mode.inset
            if trimmed {
                precondition(visible == nil, "a trimmed circle takes a gradient over a whole turn")
                if from == to { return nil }
                if s.lineCap == .square {  // the path stroker draws square caps
                    let arc = Path.arc(
                        radius: mid, start: rotation + AngleSpan(degrees: 360 * from),
                        sweep: AngleSpan(degrees: 360 * (to - from)))
                    return .path(arc.strokedPath(s))
                }
                return .arc(
                    center: .zero, radius: Fixed(mid), width: Fixed(s.lineWidth),
                    start: rotation + AngleSpan(degrees: 360 * from),
                    sweep: AngleSpan(degrees: 360 * (to - from)), cap: s.lineCap)
            }
            if let v = visible {
                return .arc(
                    center: .zero, radius: Fixed(mid), width: Fixed(s.lineWidth),
                    start: rotation + v.start, sweep: v.sweep, cap: .butt)
            }
            return .annulus(
                center: .zero, inner: Fixed(mid - s.lineWidth / 2),
                outer: Fixed(mid + s.lineWidth / 2))
        }
    }
}

/// A rectangle with rounded corners, `width` x `height` design points
/// centred on its centre (SwiftUI: `RoundedRectangle` in such a frame).
public struct RoundedRectangle: StrokableShape {
    /// Design points, `>= 0`.
    public var width: Double
    /// Design points, `>= 0`.
    public var height: Double
    /// Design points, `0...min(width, height) / 2`.
    public var cornerRadius: Double

    /// A `width` x `height` rectangle whose corners are quarter circles of `cornerRadius`.
    public init(width: Double, height: Double, cornerRadius: Double) {
        self.width = width
        self.height = height
        self.cornerRadius = cornerRadius
    }

    /// The rasterizer's shape (see `LoaderShape.rasterShape`).
    public func rasterShape(_ mode: DrawMode, turn: inout Angle, visible: AngularRange?)
        -> FBRaster.Shape?
    {
        precondition(visible == nil, "a gradient clear over part of the turn fills circles only")
        let hw = width / 2
        let hh = height / 2
        let corner = min(max(cornerRadius, 0), min(hw, hh))
        switch mode {
        case .fill:
            // A fully rounded rectangle (a capsule) is the stroke of its
            // centre line: exact circular ends. Else Bézier corners.
            let half = min(hw, hh)
            if corner == half {
                return .roundedRectStroke(
                    center: .zero, halfWidth: Fixed(hw - half), halfHeight: Fixed(hh - half),
                    cornerRadius: .zero, lineWidth: Fixed(2 * half))
            }
            return .path(RoundedRectangle.outline(hw, hh, corner))
        case .stroke(let s), .strokeBorder(let s):
            let inset = mode.inset
            return .roundedRectStroke(
                center: .zero, halfWidth: Fixed(hw - inset), halfHeight: Fixed(hh - inset),
                cornerRadius: Fixed(max(corner - inset, 0)), lineWidth: Fixed(s.lineWidth))
        }
    }

    /// The outline with quarter circles as cubic Béziers (as SwiftUI's paths are).
    static func outline(_ hw: Double, _ hh: Double, _ r: Double) -> Path {
        let k = 0.552_284_749_831 * r
        var p = Path()
        p.move(to: Point(-hw + r, -hh))
        p.line(to: Point(hw - r, -hh))
        p.curve(
            to: Point(hw, -hh + r), control1: Point(hw - r + k, -hh),
            control2: Point(hw, -hh + r - k))
        p.line(to: Point(hw, hh - r))
        p.curve(
            to: Point(hw - r, hh), control1: Point(hw, hh - r + k), control2: Point(hw - r + k, hh))
        p.line(to: Point(-hw + r, hh))
        p.curve(
            to: Point(-hw, hh - r), control1: Point(-hw + r - k, hh),
            control2: Point(-hw, hh - r + k))
        p.line(to: Point(-hw, -hh + r))
        p.curve(
            to: Point(-hw + r, -hh), control1: Point(-hw, -hh + r - k),
            control2: Point(-hw + r - k, -hh))
        p.close()
        return p
    }
}

/// A rectangle with fully rounded ends, `width` x `height` design points
/// (SwiftUI: `Capsule` in such a frame).
public struct Capsule: StrokableShape {
    /// Design points, `>= 0`.
    public var width: Double
    /// Design points, `>= 0`.
    public var height: Double
    /// A capsule `width` x `height` design points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    /// The rasterizer's shape (see `LoaderShape.rasterShape`).
    public func rasterShape(_ mode: DrawMode, turn: inout Angle, visible: AngularRange?)
        -> FBRaster.Shape?
    {
        RoundedRectangle(width: width, height: height, cornerRadius: min(width, height) / 2)
            .rasterShape(mode, turn: &turn, visible: visible)
    }
}

/// A rectangle, `width` x `height` design points (SwiftUI: `Rectangle`).
/// Its strokes have square (mitred) corners.
public struct Rectangle: StrokableShape {
    /// Design points, `>= 0`.
    public var width: Double
    /// Design points, `>= 0`.
    public var height: Double
    /// A rectangle `width` x `height` design points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    /// The rasterizer's shape (see `LoaderShape.rasterShape`).
    public func rasterShape(_ mode: DrawMode, turn: inout Angle, visible: AngularRange?)
        -> FBRaster.Shape?
    {
        precondition(visible == nil, "a gradient clear over part of the turn fills circles only")
        let hw = width / 2
        let hh = height / 2
        var p = Path()
        func box(_ x: Double, _ y: Double, clockwise: Bool) {
            guard x > 0 && y > 0 else { return }
            let corners = [(-x, -y), (x, -y), (x, y), (-x, y)]
            let order = clockwise ? [0, 1, 2, 3] : [0, 3, 2, 1]
            p.move(to: Point(corners[order[0]].0, corners[order[0]].1))
            for i in order.dropFirst() { p.line(to: Point(corners[i].0, corners[i].1)) }
            p.close()
        }
        switch mode {
        case .fill:
            box(hw, hh, clockwise: true)
        case .stroke(let s), .strokeBorder(let s):
            let inset = mode.inset
            let h = s.lineWidth / 2
            box(hw - inset + h, hh - inset + h, clockwise: true)
            box(hw - inset - h, hh - inset - h, clockwise: false)
        }
        return p.elements.isEmpty ? nil : .path(p)
    }
}
