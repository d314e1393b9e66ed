/// A shape to fill, in its own (local) coordinates; a `Transform` places it.
///
/// Strokes are shapes too: a stroked circle is an annulus, a stroked arc its
/// outline with caps. Every shape is filled with the nonzero rule and
/// composited once, so the parts of one shape that overlap (round caps that
/// meet) are never blended twice.
public enum Shape: Hashable, Sendable {
    /// A filled circle.
    case disc(center: Point, radius: Fixed)
    /// The ring between two radii (a circle stroked with width `outer - inner`).
    case annulus(center: Point, inner: Fixed, outer: Fixed)
    /// A circular arc of `radius` (the stroke's centre line) stroked with
    /// `width`, from `start` sweeping clockwise by `sweep` (negative:
    /// counter-clockwise). A sweep of a whole turn or more is a closed ring.
    case arc(
        center: Point, radius: Fixed, width: Fixed, start: Angle, sweep: AngleSpan, cap: LineCap)
    /// A pie slice: the centre, then the arc from `start` over `sweep`, closed.
    case sector(center: Point, radius: Fixed, start: Angle, sweep: AngleSpan)
    /// The outline of a rounded rectangle (a capsule when the corner radius
    /// is half the width) stroked with `lineWidth`, centred on the outline.
    case roundedRectStroke(
        center: Point, halfWidth: Fixed, halfHeight: Fixed, cornerRadius: Fixed, lineWidth: Fixed)
    /// A path of lines and cubic Béziers, every subpath closed, filled.
    case path(Path)
}

/// How an open stroke ends.
public enum LineCap: Hashable, Sendable {
    /// Square at the end point.
    case butt
    /// A half disc of the stroke's half width around the end point.
    case round
    /// A half square (the line goes on by its half width). Drawn by
    /// FBAnimation's path stroker; an `.arc` shape ends it as `.butt`.
    case square
}

/// Lines and cubic Béziers in local coordinates; subpaths are closed when filled.
public struct Path: Hashable, Sendable {
    public enum Element: Hashable, Sendable {
        case move(Point)
        case line(Point)
        case cubic(Point, Point, Point)
        case close
    }

    public private(set) var elements: [Element] = []

    public init() {}

    public mutating func move(to p: Point) { elements.append(.move(p)) }
    public mutating func line(to p: Point) { elements.append(.line(p)) }
    /// A cubic Bézier from the current point: two control points, then the end.
    public mutating func curve(to end: Point, control1: Point, control2: Point) {
        elements.append(.cubic(control1, control2, end))
    }
    public mutating func close() { elements.append(.close) }
}

/// What a shape is painted with.
public enum Paint: Equatable, Sendable {
    /// One colour; its alpha is the shape's opacity.
    case solid(Color)
    /// One colour whose opacity varies with the direction around a centre.
    case sweep(SweepGradient)
    /// Colours that change along an axis (`LinearRamp.swift`).
    case linear(LinearRamp)
}

/// An angular gradient of one colour: opacity `startAlpha` at angle `start`,
/// changing linearly (in premultiplied alpha, so with no dark fringe) to
/// `endAlpha` at `start + sweep`, clockwise. Outside that range each point
/// takes the value of the nearer end (pad), as SwiftUI's `AngularGradient`
/// with start and end angles does. A hard edge where the ends meet is drawn
/// as geometry (fill a `sector` over the range), where it gets exact coverage.
public struct SweepGradient: Equatable, Sendable {
    public var center: Point
    public var start: Angle
    /// `0 < sweep <= fullTurn`; clamped into that range when drawn.
    public var sweep: AngleSpan
    public var color: Color
    public var startAlpha: UInt8
    public var endAlpha: UInt8

    public init(
        center: Point, start: Angle, sweep: AngleSpan, color: Color, startAlpha: UInt8,
        endAlpha: UInt8
    ) {
        self.center = center
        self.start = start
        self.sweep = sweep
        self.color = color
        self.startAlpha = startAlpha
        self.endAlpha = endAlpha
    }
}
