import FBRaster

/// Colours at locations along a line (SwiftUI: `Gradient`).
public struct Gradient: Equatable, Sendable {
    /// A colour and where it sits, `0...1` along the gradient.
    public struct Stop: Equatable, Sendable {
        /// The colour at `location`.
        public var color: Color
        /// `0...1` (clamped when drawn).
        public var location: Double
        /// See the properties.
        public init(color: Color, location: Double) {
            self.color = color
            self.location = location
        }
    }

    /// The stops as the rasterizer takes them (made once, here: a gradient
    /// kept in a stored property draws without allocating).
    let rampStops: [RampStop]

    /// `colors` evenly spaced from 0 to 1 (one colour: a solid paint).
    /// - Precondition: `colors` is not empty.
    public init(colors: [Color]) {
        precondition(!colors.isEmpty, "a gradient needs a colour")
        let last = max(colors.count - 1, 1)
        self.init(
            stops: colors.enumerated().map {
                Stop(color: $0.element, location: Double($0.offset) / Double(last))
            })
    }

    /// `stops` in order of location (a stop before the one ahead of it is
    /// moved up to it; at equal locations the later stop wins past them).
    /// - Precondition: `stops` is not empty.
    public init(stops: [Stop]) {
        precondition(!stops.isEmpty, "a gradient needs a colour")
        rampStops = stops.map {
            RampStop(color: $0.color, location: Fixed(min(max($0.location, 0), 1)))
        }
    }

    /// The stops (locations as drawn: rounded to 1/65536).
    public var stops: [Stop] {
        rampStops.map { Stop(color: $0.color, location: Double($0.location.raw) / 65536) }
    }
}

/// A point relative to a shape's frame: (0, 0) its top-left corner, (1, 1)
/// its bottom-right (SwiftUI: `UnitPoint`, with `leading` on the left).
public struct UnitPoint: Hashable, Sendable {
    /// `0` the frame's left edge, `1` its right.
    public var x: Double
    /// `0` the frame's top edge, `1` its bottom.
    public var y: Double
    /// See the properties.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    /// The top-left corner.
    public static let zero = UnitPoint(x: 0, y: 0)
    /// The centre.
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    /// The middle of the top edge.
    public static let top = UnitPoint(x: 0.5, y: 0)
    /// The middle of the bottom edge.
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    /// The middle of the left edge.
    public static let leading = UnitPoint(x: 0, y: 0.5)
    /// The middle of the right edge.
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    /// The top-left corner.
    public static let topLeading = UnitPoint(x: 0, y: 0)
    /// The top-right corner.
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    /// The bottom-left corner.
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    /// The bottom-right corner.
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)
}

/// A shape's frame in its own design points (x right, y down): what a
/// `UnitPoint` is relative to. Shapes centred on their centre have a frame
/// centred on (0, 0); a `Path`'s is the box around its points and control
/// points.
public struct ShapeBounds: Hashable, Sendable {
    /// Left, top, right and bottom edges.
    public var minX, minY, maxX, maxY: Double
    /// See the properties.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
    /// A `width` x `height` frame centred on (0, 0).
    public init(width: Double, height: Double) {
        self.init(minX: -width / 2, minY: -height / 2, maxX: width / 2, maxY: height / 2)
    }
    /// The point `unit` names in this frame.
    public func point(_ unit: UnitPoint) -> Point {
        Point(minX + unit.x * (maxX - minX), minY + unit.y * (maxY - minY))
    }
}

/// Colours changing along a line across the shape (SwiftUI: `LinearGradient`).
///
/// A point takes the colour at its projection on the line from
/// `startPoint` to `endPoint`: the first stop's before the start, the
/// last's past the end (pad), and between two stops a mix in premultiplied
/// sRGB at 8 bits a channel (so `.clear` to a colour fades without a dark
/// fringe; SwiftUI may mix in another colour space). `UnitPoint`s are
/// relative to the shape's frame (`ShapeBounds`: a circle's is its square;
/// a path's the box around its points); the `Point` forms take design
/// points in the shape's own coordinates. The gradient moves, turns and
/// scales with the shape.
///
/// Keep a gradient you draw every frame in a stored property (or its
/// `Gradient`): then a frame draws it without allocating.
public struct LinearGradient: ShapeStyle {
    /// The colours.
    public var gradient: Gradient
    /// Where the first colour is: a `UnitPoint` of the frame or a point.
    public var start: Anchor
    /// Where the last colour is.
    public var end: Anchor

    /// A point a gradient runs from or to.
    public enum Anchor: Hashable, Sendable {
        /// Relative to the shape's frame.
        case unit(UnitPoint)
        /// Design points in the shape's own coordinates.
        case point(Point)
    }

    /// `gradient` from `startPoint` to `endPoint` of the shape's frame.
    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        self.gradient = gradient
        start = .unit(startPoint)
        end = .unit(endPoint)
    }

    /// `colors` evenly spaced from `startPoint` to `endPoint` of the frame.
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }

    /// `stops` from `startPoint` to `endPoint` of the frame.
    public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }

    /// `gradient` from `start` to `end`, design points in the shape's coordinates.
    public init(gradient: Gradient, start: Point, end: Point) {
        self.gradient = gradient
        self.start = .point(start)
        self.end = .point(end)
    }

    /// Without a frame: `UnitPoint`s taken in an empty frame at (0, 0).
    public func resolve(opacity: Double) -> ResolvedPaint? {
        resolve(opacity: opacity, bounds: ShapeBounds(width: 0, height: 0))
    }

    /// The rasterizer's linear ramp, its axis placed in `shape`'s frame.
    public func resolve<S: LoaderShape>(opacity: Double, for shape: S) -> ResolvedPaint? {
        resolve(opacity: opacity, bounds: shape.frameBounds)
    }

    /// The rasterizer's linear ramp, its axis placed in `bounds`.
    public func resolve(opacity: Double, bounds: ShapeBounds) -> ResolvedPaint? {
        let alpha = UInt8((min(max(opacity, 0), 1) * 255).rounded())
        if alpha == 0 || gradient.rampStops.allSatisfy({ $0.color.a == 0 }) { return nil }
        func place(_ anchor: Anchor) -> Point {
            switch anchor {
            case .unit(let u): bounds.point(u)
            case .point(let p): p
            }
        }
        return ResolvedPaint(
            paint: .linear(
                LinearRamp(
                    start: place(start), end: place(end), stops: gradient.rampStops,
                    opacity: alpha)))
    }
}

// The frames `UnitPoint`s are relative to (`LoaderShape.frameBounds`).

extension LoaderShape {
    /// No frame: an empty one at (0, 0). Shapes of your own that take
    /// `LinearGradient`s with `UnitPoint`s return theirs.
    public var frameBounds: ShapeBounds { ShapeBounds(width: 0, height: 0) }
}

extension Circle {
    /// The square around the circle (a trimmed circle's too).
    public var frameBounds: ShapeBounds { ShapeBounds(width: 2 * radius, height: 2 * radius) }
}

extension RoundedRectangle {
    /// The rectangle.
    public var frameBounds: ShapeBounds { ShapeBounds(width: width, height: height) }
}

extension Capsule {
    /// The rectangle around the capsule.
    public var frameBounds: ShapeBounds { ShapeBounds(width: width, height: height) }
}

extension Rectangle {
    /// The rectangle.
    public var frameBounds: ShapeBounds { ShapeBounds(width: width, height: height) }
}

extension Path {
    /// The box around the path's points and control points (empty at (0, 0)
    /// for an empty path).
    public var frameBounds: ShapeBounds {
        var box: ShapeBounds?
        func add(_ p: Point) {
            let x = Double(p.x.raw) / 65536
            let y = Double(p.y.raw) / 65536
            guard var b = box else {
                box = ShapeBounds(minX: x, minY: y, maxX: x, maxY: y)
                return
            }
            b.minX = min(b.minX, x)
            b.minY = min(b.minY, y)
            b.maxX = max(b.maxX, x)
            b.maxY = max(b.maxY, y)
            box = b
        }
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p)
            case .cubic(let c1, let c2, let p):
                add(c1)
                add(c2)
                add(p)
            case .close: break
            }
        }
        return box ?? ShapeBounds(width: 0, height: 0)
    }
}
