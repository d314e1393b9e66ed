/// The whole pixels a stroked arc's polygon touches, found without
/// flattening it: what `Rasterizer.bounds(of:)` gives for an `.arc`, or a
/// pixel more on a side at most.
///
/// Every vertex `Flattener` puts on an arc lies on one of its circles (the
/// outer and inner edges, the round caps) at a direction inside that
/// circle's part of the outline. Between two quarter-turn directions a
/// vertex's x and y move one way only (the sine table rises through a
/// quarter), and `mulShiftRounded30` and the rounding to 24.8 keep order, so
/// each part's vertices lie in the box of its two ends and of the
/// quarter-turn directions it passes, all put as vertices are. The grid of a
/// circle is a multiple of 4, so a quarter-turn direction inside a part is a
/// vertex: the box is the polygon's, except where a cap's first direction
/// (not a vertex: the edge's end stands for it) reaches out further.
///
/// A frame asks this of the part of a ring's arc that grew (its damage),
/// which it never fills: flattening it cost a sixth of the ring's frame.
struct ArcBox {
    private let matrix: Matrix
    private let scale: ScaleFactor
    private let rotation: Angle
    private var minX = Int64.max
    private var minY = Int64.max
    private var maxX = Int64.min
    private var maxY = Int64.min

    /// The box of `.arc(center: c, radius: r, width: w, start:, sweep:, cap:)`
    /// placed by `transform`, in whole pixels; empty where the flattener
    /// puts no polygon.
    static func pixels(
        _ c: Point, _ r: Fixed, _ w: Fixed, _ start: Angle, _ sweep: AngleSpan, _ cap: LineCap,
        transform: Transform
    ) -> IntRect {
        guard w.raw > 0, r.raw > 0, sweep.raw != 0 else {
            return IntRect(x: 0, y: 0, width: 0, height: 0)
        }
        var box = ArcBox(transform)
        let h = w.half
        let inner = max(r - h, .zero)
        if sweep.raw.magnitude >= AngleSpan.fullTurn.raw.magnitude {
            // A ring: its two circles (the inner one may be pushed out past
            // the outer one by a hair, for a stroke under 1/1000 px).
            box.add(c, r + h, .zero, .fullTurn)
            box.add(c, inner, .zero, .fullTurn)
            return box.pixels
        }
        // As the flattener: clockwise from a0. Round caps that meet across
        // the gap put their vertices on the same parts of the same circles.
        let (a0, s) = sweep.raw > 0 ? (start, sweep) : (start + sweep, -sweep)
        let a1 = a0 + s
        box.add(c, r + h, a0, s)
        box.add(c, inner, a0, s)
        if cap == .round {
            box.add(Flattener.pointOnCircle(c, r, a1), h, a1, .halfTurn)
            box.add(Flattener.pointOnCircle(c, r, a0), h, a0 + AngleSpan.halfTurn, .halfTurn)
        }
        return box.pixels
    }

    private init(_ transform: Transform) {
        matrix = transform.matrix
        scale = transform.scale
        rotation = transform.rotation
    }

    /// Adds the vertices the flattener may put on the circle of local centre
    /// `c` and radius `r` from `start` over `sweep` (clockwise, at most a turn).
    private mutating func add(_ c: Point, _ r: Fixed, _ start: Angle, _ sweep: AngleSpan) {
        let center = matrix.apply(c)
        guard r.raw > 0 else {
            put(center, 0, .zero, 0)
            return
        }
        let (_, radius) = Flattener.vertexCircle(radius: r, scale: scale)
        let a = start + rotation
        put(center, radius, a, 0)
        put(center, radius, a, sweep.raw)
        // The quarter-turn directions the part passes.
        for q in 0..<4 as Range<UInt32> {
            let passed = Int64(q << 30 &- a.raw)
            if passed < sweep.raw { put(center, radius, Angle(raw: q << 30), 0) }
        }
    }

    /// Adds the point at direction `a + offset` (2^32 a turn) on the circle.
    private mutating func put(_ center: Point, _ radius: Int64, _ a: Angle, _ offset: Int64) {
        let (cos, sin) = Angle(raw: a.raw &+ UInt32(truncatingIfNeeded: offset)).cosSinQ30
        let x = Subpixel(clamping: Fixed(raw: center.x.raw + mulShiftRounded30(radius, cos))).raw
        let y = Subpixel(clamping: Fixed(raw: center.y.raw + mulShiftRounded30(radius, sin))).raw
        minX = min(minX, x)
        maxX = max(maxX, x)
        minY = min(minY, y)
        maxY = max(maxY, y)
    }

    private var pixels: IntRect {
        var e = Extent<Subpixel>()
        (e.minX, e.minY, e.maxX, e.maxY) = (minX, minY, maxX, maxY)
        return e.pixels
    }
}
