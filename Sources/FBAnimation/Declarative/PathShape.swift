import FBRaster

/// A path is a shape you can fill or stroke (SwiftUI: `Path`). Its points
/// are design points around the loader's centre; every subpath is closed
/// when filled, by the nonzero rule. A stroke follows the subpaths as they
/// are (open ones get caps) with the style's caps and joins
/// (`strokedPath(_:tolerance:)`); `strokeBorder` strokes a path as `stroke`
/// does (a path has no inside to inset into).
///
/// Build a path once (a stored property of the loader), not in `body`:
/// its elements live on the heap, and a steady frame should not allocate.
/// For the same reason a stroke computed each frame costs allocations:
/// for a path stroked every frame keep `path.strokedPath(style)` and fill it.
extension Path: StrokableShape {
    /// A path made by `build` (SwiftUI: `Path { path in ... }`).
    public init(_ build: (inout Path) -> Void) {
        self.init()
        build(&self)
    }

    /// Starts a new subpath at `point`.
    public mutating func move(to x: Double, _ y: Double) { move(to: Point(x, y)) }

    /// A straight line from the current point to `point`.
    public mutating func addLine(to point: Point) { line(to: point) }

    /// A cubic Bézier from the current point to `end`.
    public mutating func addCurve(to end: Point, control1: Point, control2: Point) {
        curve(to: end, control1: control1, control2: control2)
    }

    /// A quadratic Bézier from the current point to `end`: drawn as the
    /// cubic that is the same curve (its control points 2/3 of the way from
    /// each end to `control`).
    public mutating func addQuadCurve(to end: Point, control: Point) {
        let p0 = currentPoint ?? end
        func twoThirds(_ from: Point, _ to: Point) -> Point {
            Point(
                x: from.x + Fixed(raw: ((to.x - from.x).raw * 2) / 3),
                y: from.y + Fixed(raw: ((to.y - from.y).raw * 2) / 3))
        }
        curve(to: end, control1: twoThirds(p0, control), control2: twoThirds(end, control))
    }

    /// Closes the current subpath with a line back to its start.
    public mutating func closeSubpath() { close() }

    /// Where the next element starts: the last end point, or after a
    /// `close` the start of that subpath; `nil` for an empty path.
    var currentPoint: Point? {
        var start: Point?
        var current: Point?
        for e in elements {
            switch e {
            case .move(let p):
                start = p
                current = p
            case .line(let p): current = p
            case .cubic(_, _, let p): current = p
            case .close: current = start
            }
        }
        return current
    }

    /// The path itself filled, or the outline of its stroke.
    public func rasterShape(_ mode: DrawMode, turn: inout Angle, visible: AngularRange?)
        -> FBRaster.Shape?
    {
        precondition(visible == nil, "a gradient clear over part of the turn fills circles only")
        switch mode {
        case .fill:
            return elements.isEmpty ? nil : .path(self)
        case .stroke(let style), .strokeBorder(let style):
            let outline = strokedPath(style)
            return outline.elements.isEmpty ? nil : .path(outline)
        }
    }
}

extension Point {
    /// A point (`x`, `y`) in design points, rounded to the rasterizer's 1/65536.
    public init(_ x: Double, _ y: Double) { self.init(x: Fixed(x), y: Fixed(y)) }

    /// The point at `radius` design points from the centre in direction
    /// `angle` (clockwise from 3 o'clock), by the rasterizer's exact sines.
    public static func polar(radius: Double, angle: Angle) -> Point {
        Point(polarRadius: radius, angle: angle)
    }
}

extension Angle {
    /// A direction `degrees` clockwise from 3 o'clock (any value; whole turns wrap).
    public static func degrees(_ degrees: Double) -> Angle { Angle(degrees: degrees) }
    /// A direction `radians` clockwise from 3 o'clock.
    public static func radians(_ radians: Double) -> Angle {
        Angle(degrees: radians * 180 / Double.pi)
    }
}

extension Path {
    /// An open arc of `radius` around (0, 0) from `start` over `sweep`
    /// (clockwise when positive), as cubics of at most 1/8 turn (0.0004 %
    /// off the circle): what a trimmed circle with square caps strokes.
    static func arc(radius: Double, start: Angle, sweep: AngleSpan) -> Path {
        let eighths = Double(sweep.raw.magnitude) * 8 / Double(AngleSpan.fullTurn.raw)
        let n = max(1, Int(eighths.rounded(.up)))
        // tan(phi / 4) by its series: |phi / 4| <= pi / 16.
        let x = Double(sweep.raw) / Double(n) / Double(AngleSpan.fullTurn.raw) * Double.pi / 2
        let x2 = x * x
        let tanQuarter = x * (1 + x2 * (1.0 / 3 + x2 * (2.0 / 15 + x2 * 17.0 / 315)))
        let k = 4.0 / 3.0 * tanQuarter * radius
        var path = Path()
        var a = start
        path.move(to: Point.polar(radius: radius, angle: a))
        for i in 1...n {
            let b = start + AngleSpan(raw: sweep.raw * Int64(i) / Int64(n))
            let p0 = Vec(Point.polar(radius: radius, angle: a))
            let p3 = Vec(Point.polar(radius: radius, angle: b))
            // The tangent of a clockwise circle is its radius turned a quarter.
            let t0 = (p0 * (radius > 0 ? 1 / radius : 0)).normal * k
            let t3 = (p3 * (radius > 0 ? 1 / radius : 0)).normal * k
            path.curve(to: p3.point, control1: (p0 + t0).point, control2: (p3 - t3).point)
            a = b
        }
        return path
    }
}
