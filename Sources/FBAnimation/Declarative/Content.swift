import FBRaster

/// What a loader draws at one time: shapes with their paints, placed and
/// stacked (SwiftUI: a `View`). Built with `@LoaderBuilder`, as a view's body.
///
/// Content is a value made for one frame and turned at once into the
/// rasterizer's shapes; it holds no state between frames.
public protocol LoaderContent {
    /// Appends this content's shapes to `ops`, back to front, placed by
    /// `placement` (design points around the loader's centre).
    func draw(_ placement: Placement, into ops: inout [DrawOp])
}

/// Where content goes: the transform and opacity its modifiers add up to.
public struct Placement: Equatable, Sendable {
    /// From the content's coordinates to the loader's (design points, y down).
    public var transform: Transform
    /// Multiplies the paints' opacity; `0...1`.
    public var opacity: Double

    /// Placed as is, opaque.
    public static let identity = Placement(transform: .identity, opacity: 1)

    /// - Parameters: see the properties.
    public init(transform: Transform, opacity: Double) {
        self.transform = transform
        self.opacity = opacity
    }
}

/// Builds content from the statements of a loader's `body`, drawn in
/// declaration order: later content lies on top (SwiftUI: `ViewBuilder`).
@resultBuilder
public enum LoaderBuilder {
    /// An empty body draws nothing.
    public static func buildBlock() -> EmptyContent { EmptyContent() }
    /// The first statement.
    public static func buildPartialBlock<C: LoaderContent>(first: C) -> C { first }
    /// The next statement, over what came before.
    public static func buildPartialBlock<A: LoaderContent, B: LoaderContent>(
        accumulated: A, next: B
    ) -> Stacked<A, B> {
        Stacked(back: accumulated, front: next)
    }
    /// An `if` without `else`.
    public static func buildOptional<C: LoaderContent>(_ content: C?) -> C? { content }
    /// The `if` branch of an `if`/`else`.
    public static func buildEither<A: LoaderContent, B: LoaderContent>(first: A) -> Either<A, B> {
        .first(first)
    }
    /// The `else` branch.
    public static func buildEither<A: LoaderContent, B: LoaderContent>(second: B) -> Either<A, B> {
        .second(second)
    }
}

/// Nothing to draw.
public struct EmptyContent: LoaderContent {
    /// Nothing.
    public init() {}
    /// Appends nothing.
    public func draw(_ placement: Placement, into ops: inout [DrawOp]) {}
}

/// Two contents, `front` over `back` (what `@LoaderBuilder` makes of two statements).
public struct Stacked<Back: LoaderContent, Front: LoaderContent>: LoaderContent {
    /// Drawn first.
    public var back: Back
    /// Drawn over `back`.
    public var front: Front
    /// Draws the content (see `LoaderContent.draw`).
    public func draw(_ placement: Placement, into ops: inout [DrawOp]) {
        back.draw(placement, into: &ops)
        front.draw(placement, into: &ops)
    }
}

/// One of two contents (an `if`/`else` in a builder).
public enum Either<First: LoaderContent, Second: LoaderContent>: LoaderContent {
    /// The `if` branch, or the `else` branch.
    case first(First), second(Second)
    /// Draws the content (see `LoaderContent.draw`).
    public func draw(_ placement: Placement, into ops: inout [DrawOp]) {
        switch self {
        case .first(let c): c.draw(placement, into: &ops)
        case .second(let c): c.draw(placement, into: &ops)
        }
    }
}

/// An `if` without `else` draws its content or nothing.
extension Optional: LoaderContent where Wrapped: LoaderContent {
    /// Draws the content (see `LoaderContent.draw`).
    public func draw(_ placement: Placement, into ops: inout [DrawOp]) {
        self?.draw(placement, into: &ops)
    }
}

/// Contents stacked back to front, all centred on the loader's centre
/// (SwiftUI: `ZStack` with centre alignment; there is no layout here).
public struct ZStack<Content: LoaderContent>: LoaderContent {
    /// The stacked contents.
    public var content: Content
    /// The contents of `content`, the first at the back.
    public init(@LoaderBuilder content: () -> Content) { self.content = content() }
    /// Draws the content (see `LoaderContent.draw`).
    public func draw(_ placement: Placement, into ops: inout [DrawOp]) {
        content.draw(placement, into: &ops)
    }
}

/// The same content made for each index of a range, the first at the back
/// (SwiftUI: `ForEach` over a range).
public struct ForEach<Content: LoaderContent>: LoaderContent {
    /// The indices, in drawing order.
    public var range: Range<Int>
    /// The content for one index.
    public var content: (Int) -> Content

    /// `content(i)` for each `i` in `range`, in order.
    public init(_ range: Range<Int>, @LoaderBuilder content: @escaping (Int) -> Content) {
        self.range = range
        self.content = content
    }
    /// Draws the content (see `LoaderContent.draw`).
    public func draw(_ placement: Placement, into ops: inout [DrawOp]) {
        for i in range { content(i).draw(placement, into: &ops) }
    }
}

/// Content moved, scaled, turned or faded (what the modifiers make).
public struct Modified<Content: LoaderContent>: LoaderContent {
    /// The content modified.
    public var content: Content
    /// Applied after the content's own placement (outside it).
    public var transform: Transform
    /// Multiplies the paints' opacity, `0...1`.
    public var opacity: Double
    /// Draws the content (see `LoaderContent.draw`).
    public func draw(_ placement: Placement, into ops: inout [DrawOp]) {
        content.draw(
            Placement(
                transform: placement.transform.concatenating(transform),
                opacity: placement.opacity * opacity), into: &ops)
    }
}

extension LoaderContent {
    /// Moves the content by (`x`, `y`) design points (x right, y down).
    public func offset(x: Double = 0, y: Double = 0) -> Modified<Self> {
        offset(Point(x, y))
    }

    /// Moves the content by `offset` design points.
    public func offset(_ offset: Point) -> Modified<Self> {
        Modified(content: self, transform: Transform(translation: offset), opacity: 1)
    }

    /// Scales the content by `scale` (`> 0`) about the loader's centre; strokes
    /// get wider with it. (SwiftUI scales about the view's centre, which is
    /// the loader's centre here. Only uniform scales keep circles circles,
    /// so there is no `x:y:` form.)
    public func scaleEffect(_ scale: Double) -> Modified<Self> {
        precondition(scale > 0 && scale.isFinite, "a scale is a positive ratio")
        return Modified(content: self, transform: .scale(ScaleFactor(scale)), opacity: 1)
    }

    /// Turns the content by `angle` clockwise about the loader's centre.
    public func rotationEffect(_ angle: Angle) -> Modified<Self> {
        Modified(content: self, transform: .rotation(angle), opacity: 1)
    }

    /// Multiplies the opacity of the content's paints by `opacity` (clamped
    /// to `0...1`). Each shape is faded on its own: two overlapping shapes
    /// at 0.5 show each other (SwiftUI fades the group as one layer).
    public func opacity(_ opacity: Double) -> Modified<Self> {
        Modified(content: self, transform: .identity, opacity: min(max(opacity, 0), 1))
    }
}
