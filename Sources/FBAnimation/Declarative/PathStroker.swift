import FBRaster

/// How two segments of a stroked path meet at a corner (SwiftUI: `CGLineJoin`).
public enum LineJoin: Hashable, Sendable {
    /// The outer edges extended until they meet; where the miter would be
    /// longer than `StrokeStyle.miterLimit` line widths, `.bevel`.
    case miter
    /// A disc of the half width around the corner.
    case round
    /// The outer corners joined by a straight line.
    case bevel
}

extension Path {
    /// The outline of this path stroked with `style`, as a path to fill
    /// (SwiftUI: `Path.strokedPath(_:)`): fill it with the nonzero rule
    /// (`.fill(_:)`) and it covers what the stroke covers.
    ///
    /// Each subpath is stroked on its own: an open one gets `style.lineCap`
    /// at both ends, a closed one (`closeSubpath()`) a join where it closes.
    /// Corners take `style.lineJoin` (`.miter` falls back to `.bevel` past
    /// `style.miterLimit`); curves are flattened into chords whose offsets
    /// stay within `tolerance` design points of the true offset curves, and
    /// round joins and caps are circular arcs (cubic Béziers the rasterizer
    /// flattens on screen). A subpath whose points all coincide draws a dot
    /// for `.round` and `.square` caps (a square aligned with the axes) and
    /// nothing for `.butt`. The result is made of closed subpaths whose
    /// windings add up (no part cancels another), so overlaps count once.
    ///
    /// Exact coverage at gentle bends and at corners whose inner offsets
    /// cross within the segments (a polygon's corners when its sides are
    /// longer than the line is wide). Where parts of a stroke lie over each
    /// other otherwise (a path crossing itself, a turn of nearly 180
    /// degrees, a cap landing on the line, a line wider than short segments
    /// are long) the inside is covered, nothing spills outside, but a pixel
    /// that edges of two overlapping parts cross is covered too much (as
    /// the sum of the parts' areas there): its shade is off by up to a third
    /// of the step from background to paint in fbanim's tests.
    ///
    /// Costs a few heap allocations: make it once (a stored property of
    /// your loader) when the loader draws it every frame.
    public func strokedPath(_ style: StrokeStyle, tolerance: Double = 1.0 / 64) -> Path {
        var stroker = PathStroker(style: style, tolerance: max(tolerance, 1e-4))
        stroker.stroke(self)
        return stroker.output
    }
}

/// A point or vector in design points, in Double for the stroker's arithmetic.
struct Vec {
    var x: Double
    var y: Double
    init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
    init(_ p: Point) { self.init(Double(p.x.raw) / 65536, Double(p.y.raw) / 65536) }
    static func + (a: Vec, b: Vec) -> Vec { Vec(a.x + b.x, a.y + b.y) }
    static func - (a: Vec, b: Vec) -> Vec { Vec(a.x - b.x, a.y - b.y) }
    static func * (a: Vec, k: Double) -> Vec { Vec(a.x * k, a.y * k) }
    static prefix func - (a: Vec) -> Vec { Vec(-a.x, -a.y) }
    func dot(_ b: Vec) -> Double { x * b.x + y * b.y }
    func cross(_ b: Vec) -> Double { x * b.y - y * b.x }
    var length: Double { (x * x + y * y).squareRoot() }
    /// The vector turned a quarter turn (towards +y from +x).
    var normal: Vec { Vec(-y, x) }
    var unit: Vec {
        let l = length
        return l > 0 ? Vec(x / l, y / l) : Vec(1, 0)
    }
    var point: Point { Point(x, y) }
}

/// Turns a path into the outline of its stroke (`Path.strokedPath`).
///
/// Each subpath is flattened into a polyline, then its outline is built as
/// the left offset walked forward, a cap, the left offset of the reversed
/// polyline (the right side, backward) and a cap: one contour for an open
/// subpath, two for a closed one. At a corner the outer side takes the
/// join; the inner side goes to the point where the two offset lines cross
/// when that lies within the nearer half of both segments, else through the
/// corner itself (the "pivot"). Either way the outline's winding number is
/// the sum of positively wound pieces (each segment's rectangle, each
/// join's wedge, each cap), so the nonzero fill is their union. Crossing
/// points leave no overlap on the inner side; the pivot leaves the two
/// rectangles' overlap, which the rasterizer's coverage (the clamped sum
/// of signed areas in a pixel) counts twice in pixels on the outline.
struct PathStroker {
    let half: Double
    let cap: LineCap
    let join: LineJoin
    let miterLimit: Double
    let tolerance: Double
    var output = Path()
    /// The polyline of the current subpath, and whether each vertex is a
    /// corner (between two elements) or inside a flattened curve.
    private var points: [Vec] = []
    private var corners: [Bool] = []
    /// Whether the subpath has drawn (a line or curve after its move).
    private var drawn = false
    private var contourStart: Vec?
    private var last: Vec?

    init(style: StrokeStyle, tolerance: Double) {
        half = max(style.lineWidth, 0) / 2
        cap = style.lineCap
        join = style.lineJoin
        miterLimit = max(style.miterLimit, 1)
        self.tolerance = tolerance
    }

    mutating func stroke(_ path: Path) {
        guard half > 0 else { return }
        var start = Vec(0, 0)
        for element in path.elements {
            switch element {
            case .move(let p):
                finish(closed: false)
                start = Vec(p)
                add(start, corner: true)
            case .line(let p):
                if points.isEmpty { add(start, corner: true) }
                drawn = true
                add(Vec(p), corner: true)
            case .cubic(let c1, let c2, let end):
                if points.isEmpty { add(start, corner: true) }
                drawn = true
                cubic(points[points.count - 1], Vec(c1), Vec(c2), Vec(end))
            case .close:
                if !points.isEmpty {
                    if drawn { add(start, corner: true) }
                    finish(closed: true)
                }
            }
        }
        finish(closed: false)
    }

    private mutating func add(_ p: Vec, corner: Bool) {
        // Points closer than this are one point: no direction between them.
        if let q = points.last, (p - q).length < 1e-9 {
            corners[corners.count - 1] = corners[corners.count - 1] || corner
            return
        }
        points.append(p)
        corners.append(corner)
    }

    /// A cubic as chords: Wang's bound for `tolerance`, and at most the
    /// turn that keeps each chord's offset within `tolerance` of the offset
    /// curve (a chord turning `a` misses the offset arc by about `h a^2 / 8`).
    private mutating func cubic(_ p0: Vec, _ p1: Vec, _ p2: Vec, _ p3: Vec) {
        let l = max((p0 - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
        let wang = (0.75 * l / tolerance).squareRoot()
        // The control polygon turns at least as much as the curve; the angle
        // between unit vectors is at most pi/2 times their distance.
        var turn = 0.0
        var previous: Vec?
        for d in [p1 - p0, p2 - p1, p3 - p2] where d.length > 1e-12 {
            if let e = previous { turn += Double.pi / 2 * (d.unit - e).length }
            previous = d.unit
        }
        let step = min((8 * tolerance / half).squareRoot(), Double.pi / 8)
        let n = Int(min(max(wang, turn / step, 1).rounded(.up), 1024))
        for k in 1...n {
            let t = Double(k) / Double(n)
            let u = 1 - t
            let p =
                p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)
            add(p, corner: k == n)
        }
    }

    /// Strokes the collected subpath and starts a new one.
    private mutating func finish(closed: Bool) {
        defer {
            points.removeAll(keepingCapacity: true)
            corners.removeAll(keepingCapacity: true)
            drawn = false
        }
        guard drawn, let first = points.first else { return }
        var pts = points
        var isCorner = corners
        if closed && pts.count > 2 && (pts[pts.count - 1] - first).length < 1e-9 {
            pts.removeLast()
            isCorner.removeLast()
            isCorner[0] = true
        }
        if pts.count == 1 {
            lone(first)
            return
        }
        if closed {
            side(pts, isCorner, closed: true)
            closeContour()
            // Over two points the one contour is the whole outline already.
            if pts.count > 2 {
                side(pts.reversed(), isCorner.reversed(), closed: true)
                closeContour()
            }
            return
        }
        side(pts, isCorner, closed: false)
        endCap(pts[pts.count - 1], (pts[pts.count - 1] - pts[pts.count - 2]).unit)
        side(pts.reversed(), isCorner.reversed(), closed: false)
        endCap(pts[0], (pts[0] - pts[1]).unit)
        closeContour()
    }

    /// The left offset of `pts` walked forward, joins at its vertices.
    private mutating func side(_ p: [Vec], _ corner: [Bool], closed: Bool) {
        let n = p.count
        func direction(_ i: Int) -> Vec { (p[(i + 1) % n] - p[i]).unit }
        func length(_ i: Int) -> Double { (p[(i + 1) % n] - p[i]).length }
        /// How far back along both segments the inner offsets cross at
        /// vertex `j` (h tan(turn / 2)); 0 where this side is not the inner one.
        func trim(_ j: Int) -> Double {
            guard closed || (j > 0 && j < n - 1) else { return 0 }
            let a = direction((j + n - 1) % n)
            let b = direction(j)
            let cross = a.cross(b)
            guard cross > 0 else { return 0 }
            let dot = a.dot(b)
            return dot > -1 + 1e-12 ? half * cross / (1 + dot) : .infinity
        }
        if !closed { emit(p[0] + direction(0).normal * half) }
        let range = closed ? 0..<n : 1..<(n - 1)
        // The trim taken at the start of the segment into the vertex.
        var taken = closed ? trim(n - 1) : 0
        for j in range {
            let i = (j + n - 1) % n
            // The crossing is used when both segments are long enough for
            // it and for the trims at their other ends (the next one counted
            // as if taken).
            let e = trim(j)
            let fits = e + taken <= length(i) && e + trim((j + 1) % n) <= length(j)
            joint(p[j], direction(i), direction(j), crossing: fits, corner: corner[j])
            taken = fits ? e : 0
        }
        if !closed { emit(p[n - 1] + direction(n - 2).normal * half) }
    }

    /// The left side at vertex `v` from direction `a` into `b`; `crossing`:
    /// whether the inner side may go to where the offsets cross.
    private mutating func joint(_ v: Vec, _ a: Vec, _ b: Vec, crossing: Bool, corner: Bool) {
        let na = a.normal
        let nb = b.normal
        let cross = a.cross(b)
        let dot = a.dot(b)
        if abs(cross) < 1e-12 && dot > 0 {
            emit(v + na * half)
            return
        }
        if cross > 0 && dot > -1 + 1e-12 {
            // Turning towards this side: the inner side.
            if crossing {
                emit(v + (na + nb) * (half / (1 + dot)))
            } else {
                emit(v + na * half)
                emit(v)
                emit(v + nb * half)
            }
            return
        }
        // The outer side.
        emit(v + na * half)
        if !corner {
            emit(v + (na + nb).unit * half)
        } else {
            switch join {
            case .bevel: break
            case .miter:
                // Miter length over line width: 1 / cos(turn / 2).
                let cosHalf = ((1 + dot) / 2).squareRoot()
                if cosHalf * miterLimit >= 1 && dot > -1 + 1e-12 {
                    emit(v + (na + nb) * (half / (1 + dot)))
                }
            case .round:
                arc(v, from: na, to: nb, bulge: a)
            }
        }
        emit(v + nb * half)
    }

    /// The cap at the end `p` of a line arriving in direction `d`, from the
    /// left offset to the right one.
    private mutating func endCap(_ p: Vec, _ d: Vec) {
        let n = d.normal
        switch cap {
        case .butt: break
        case .square:
            emit(p + n * half + d * half)
            emit(p - n * half + d * half)
        case .round:
            arc(p, from: n, to: d, bulge: d)
            arc(p, from: d, to: -n, bulge: d)
        }
    }

    /// A subpath of one point: a disc for round caps, a square for square ones.
    private mutating func lone(_ p: Vec) {
        switch cap {
        case .butt: return
        case .square:
            emit(p + Vec(-half, -half))
            emit(p + Vec(half, -half))
            emit(p + Vec(half, half))
            emit(p + Vec(-half, half))
        case .round:
            emit(p + Vec(half, 0))
            for k in 0..<4 {
                let from = [Vec(1, 0), Vec(0, 1), Vec(-1, 0), Vec(0, -1)][k]
                arc(p, from: from, to: from.normal, bulge: from.normal)
            }
        }
        closeContour()
    }

    /// The arc of radius `half` around `c` from direction `u0` to `u1` (the
    /// way through `bulge` when they are opposite), as cubics of at most a
    /// quarter turn; the current point is `c + u0 * half`.
    private mutating func arc(_ c: Vec, from u0: Vec, to u1: Vec, bulge: Vec) {
        let dot = u0.dot(u1)
        if dot < 0.5 {
            // Over 60 degrees: halve it.
            let sum = u0 + u1
            let mid = sum.length < 1e-9 ? bulge.unit : sum.unit
            arc(c, from: u0, to: mid, bulge: bulge)
            arc(c, from: mid, to: u1, bulge: bulge)
            return
        }
        let cross = u0.cross(u1)
        let tanHalf = abs(cross) / (1 + dot)
        let k = 4.0 / 3.0 * tanHalf / (1 + (1 + tanHalf * tanHalf).squareRoot()) * half
        let sign: Double = cross >= 0 ? 1 : -1
        let p0 = c + u0 * half
        let p3 = c + u1 * half
        let c1 = p0 + u0.normal * (sign * k)
        let c2 = p3 - u1.normal * (sign * k)
        flush(p0)
        output.curve(to: p3.point, control1: c1.point, control2: c2.point)
        last = p3
    }

    private mutating func emit(_ p: Vec) {
        if let l = last, (p - l).length < 1e-9 { return }
        if contourStart == nil {
            output.move(to: p.point)
            contourStart = p
        } else {
            output.line(to: p.point)
        }
        last = p
    }

    /// Makes `p` the current point of the output (a move or a line to it).
    private mutating func flush(_ p: Vec) { emit(p) }

    private mutating func closeContour() {
        if contourStart != nil { output.close() }
        contourStart = nil
        last = nil
    }
}
