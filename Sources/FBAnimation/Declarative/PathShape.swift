import FBRaster

/// A path is a shape you can fill (SwiftUI: `Path`). Its points are design
/// points around the loader's centre; every subpath is closed when filled,
/// by the nonzero rule. Paths are not stroked: the rasterizer has no
/// stroker for lines and curves yet.
///
/// Build a path once (a stored property of the loader), not in `body`:
/// its elements live on the heap, and a steady frame should not allocate.
extension Path: LoaderShape {
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

    /// The path itself, filled.
    public func rasterShape(_ mode: DrawMode, turn: inout Angle, visible: AngularRange?)
        -> FBRaster.Shape?
    {
        precondition(visible == nil, "a gradient clear over part of the turn fills circles only")
        return elements.isEmpty ? nil : .path(self)
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
