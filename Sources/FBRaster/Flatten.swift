/// Turns shapes into polygons in device space, 24.8 subpixel vertices.
///
/// Curves are cut into chords at most 1/128 px from the curve. Circular arcs
/// put their vertices slightly outside the circle so each chord's area
/// error cancels (the polygon's area matches the circle's). Buffers are kept
/// between shapes, so a warm flattener allocates nothing.
struct Polygon<Unit> {
    /// Vertices, x and y interleaved, as raw values of `Unit`: `Subpixel`
    /// (24.8) for a polygon ready to fill, `Fixed` (16.16) for one the
    /// cache will still move and round (`PolygonCache`). Read them typed
    /// through `vertex(_:)`; the loops over every vertex (the accumulator's,
    /// the extent's, placing) read the raw values, so their code is the same.
    var rawCoordinates: [Int64] = []
    /// Index into `rawCoordinates / 2` one past each closed contour's last vertex.
    var contourEnds: [Int] = []
    /// For each run of `polygonBandEdges` edges of each contour, in order,
    /// the lowest and highest y its edges reach (interleaved, raw `Unit`):
    /// drawing inside a small clip skips the runs that cannot reach the clip's rows.
    var rawBands: [Int64] = []

    init() {}

    /// The same values read in another unit (only the flattener does this:
    /// it fills one buffer in either unit).
    fileprivate init<Other>(reinterpreting other: Polygon<Other>) {
        rawCoordinates = other.rawCoordinates
        contourEnds = other.contourEnds
        rawBands = other.rawBands
    }

    mutating func removeAll() {
        rawCoordinates.removeAll(keepingCapacity: true)
        contourEnds.removeAll(keepingCapacity: true)
        rawBands.removeAll(keepingCapacity: true)
    }

    var vertexCount: Int { rawCoordinates.count / 2 }

    /// Appends `count` vertices that `write` puts in the buffer it is given
    /// (x and y interleaved, raw values), the array growing as by `append`.
    @inline(__always)
    mutating func appendVertices(
        _ count: Int, _ write: (UnsafeMutablePointer<Int64>) -> Void
    ) {
        if count <= 0 { return }
        let old = rawCoordinates.count
        let needed = old + 2 * count
        if rawCoordinates.capacity < needed {
            rawCoordinates.reserveCapacity(max(needed, 2 * rawCoordinates.capacity))
        }
        rawCoordinates.append(contentsOf: repeatElement(0, count: 2 * count))
        rawCoordinates.withUnsafeMutableBufferPointer { write($0.baseAddress! + old) }
    }

    /// Appends the bands of the contour of vertices `start..<end`, and
    /// widens `box` (raw values) to hold its vertices. Edge `i` runs from
    /// vertex `i - 1` (for the first, the last vertex) to vertex `i`.
    mutating func addBands(
        _ start: Int, _ end: Int, box: inout (minX: Int64, minY: Int64, maxX: Int64, maxY: Int64)
    ) {
        var b = box
        let bandCount = (end - start + polygonBandEdges - 1) / polygonBandEdges
        let first = rawBands.count
        rawBands.append(contentsOf: repeatElement(0, count: 2 * bandCount))
        // Over every vertex: unchecked, the indices are the contour's.
        rawCoordinates.withUnsafeBufferPointer { v in
            rawBands.withUnsafeMutableBufferPointer { bands in
                var i = start
                var out = first
                while i < end {
                    let stop = min(i + polygonBandEdges, end)
                    var lo = v[2 * (i == start ? end - 1 : i - 1) + 1]
                    var hi = lo
                    for k in i..<stop {
                        let (x, y) = (v[2 &* k], v[2 &* k &+ 1])
                        lo = min(lo, y)
                        hi = max(hi, y)
                        b.minX = min(b.minX, x)
                        b.maxX = max(b.maxX, x)
                    }
                    bands[out] = lo
                    bands[out + 1] = hi
                    b.minY = min(b.minY, lo)
                    b.maxY = max(b.maxY, hi)
                    out += 2
                    i = stop
                }
            }
        }
        box = b
    }
}

/// Edges per band of a polygon.
let polygonBandEdges = 16

extension Polygon<Subpixel> {
    /// Vertex `i`.
    func vertex(_ i: Int) -> SubpixelPoint {
        SubpixelPoint(
            x: Subpixel(raw: rawCoordinates[2 * i]), y: Subpixel(raw: rawCoordinates[2 * i + 1]))
    }

    /// Band `b`: the lowest and highest y its edges reach.
    func band(_ b: Int) -> (low: Subpixel, high: Subpixel) {
        (Subpixel(raw: rawBands[2 * b]), Subpixel(raw: rawBands[2 * b + 1]))
    }

    /// The vertex indices of closed contour `c` (of `contourEnds.count`).
    func contour(_ c: Int) -> Range<Int> { (c == 0 ? 0 : contourEnds[c - 1])..<contourEnds[c] }

    var bandCount: Int { rawBands.count / 2 }
}

struct Flattener {
    /// The last shape flattened (unless with `fixedPoint`: `unplacedPolygon`).
    var polygon: Polygon<Subpixel> { precondition(!fixedPoint); return output }
    /// The last shape flattened with `fixedPoint`: vertices in 16.16.
    var unplacedPolygon: Polygon<Fixed> {
        precondition(fixedPoint)
        return Polygon(reinterpreting: output)
    }
    /// Hands the last polygon flattened (not `fixedPoint`) to `polygon`,
    /// taking its memory for the next: a cache keeps it without copying.
    mutating func movePolygon(into polygon: inout Polygon<Subpixel>) {
        precondition(!fixedPoint)
        swap(&output, &polygon)
        output.removeAll()
        box = Flattener.emptyBox
    }

    /// The smallest box holding `polygon`'s vertices (none below three),
    /// found as its bands are.
    var extent: Extent<Subpixel> { precondition(!fixedPoint); return Extent(box) }
    /// The smallest box holding `unplacedPolygon`'s vertices.
    var unplacedExtent: Extent<Fixed> { precondition(fixedPoint); return Extent(box) }
    /// Vertices in 24.8, or in 16.16 with `fixedPoint` (read as `Polygon<Fixed>`).
    private var output = Polygon<Subpixel>()
    private var matrix = Matrix(.identity)
    private var scale = ScaleFactor.one
    private let gridDirections = GridDirections()
    private var placedCircles = PlacedCircles()
    private var rotation = Angle.zero
    private var contourStart = 0
    /// The box of the closed contours' vertices so far (raw values).
    private var box = Flattener.emptyBox
    private static let emptyBox = (
        minX: Int64.max, minY: Int64.max, maxX: Int64.min, maxY: Int64.min
    )
    /// Whether vertices stay in 16.16 (unrounded, unclamped) instead of 24.8.
    private var fixedPoint = false

    /// Flattens `shape` placed by `transform`, replacing the polygon. With
    /// `fixedPoint`, the polygon is `unplacedPolygon`: the vertices (and
    /// bands) in 16.16 before their rounding to 24.8 subpixels and clamping.
    mutating func flatten(_ shape: Shape, _ transform: Transform, fixedPoint: Bool = false) {
        self.fixedPoint = fixedPoint
        output.removeAll()
        contourStart = 0
        box = Flattener.emptyBox
        matrix = transform.matrix
        scale = transform.scale
        rotation = transform.rotation
        switch shape {
        case let .disc(c, r):
            guard r.raw > 0 else { return }
            circle(c, r, clockwise: true)
        case let .annulus(c, inner, outer):
            guard outer > inner, outer.raw > 0 else { return }
            circle(c, outer, clockwise: true)
            if inner.raw > 0 { circle(c, inner, clockwise: false) }
        case let .arc(c, r, w, start, sweep, cap):
            strokedArc(c, r, w, start, sweep, cap)
        case let .sector(c, r, start, sweep):
            guard r.raw > 0, sweep.raw != 0 else { return }
            if sweep.raw.magnitude >= AngleSpan.fullTurn.raw.magnitude {
                circle(c, r, clockwise: true)
                return
            }
            vertex(c)
            arcVertices(c, r, start, sweep, first: true)
            closeContour()
        case let .roundedRectStroke(c, hw, hh, cr, lw):
            guard lw.raw > 0, hw.raw >= 0, hh.raw >= 0 else { return }
            let h = lw.half
            roundedRect(c, hw + h, hh + h, max(cr, .zero) + h, clockwise: true)
            if hw > h && hh > h {
                roundedRect(c, hw - h, hh - h, max(cr - h, .zero), clockwise: false)
            }
        case let .path(path):
            flattenPath(path)
        }
    }

    // MARK: Shapes

    private mutating func circle(_ c: Point, _ r: Fixed, clockwise: Bool) {
        let sweep = clockwise ? AngleSpan.fullTurn : -AngleSpan.fullTurn
        arcVertices(c, r, .zero, sweep, first: true, last: false)
        closeContour()
    }

    private mutating func strokedArc(
        _ c: Point, _ r: Fixed, _ w: Fixed, _ start: Angle, _ sweep: AngleSpan, _ cap: LineCap
    ) {
        guard w.raw > 0, r.raw > 0, sweep.raw != 0 else { return }
        let h = w.half
        let inner = max(r - h, .zero)
        // A whole turn is a ring: its caps would lie on the ring itself.
        if sweep.raw.magnitude >= AngleSpan.fullTurn.raw.magnitude {
            circle(c, r + h, clockwise: true)
            if inner.raw > 0 { circle(c, inner, clockwise: false) }
            return
        }
        // Normalise to a clockwise sweep.
        let (a0, s) = sweep.raw > 0 ? (start, sweep) : (start + sweep, -sweep)
        let a1 = a0 + s
        if cap == .round && inner.raw > 0 && overlappingCaps(c, r, h, a0, s) { return }
        arcVertices(c, r + h, a0, s, first: true)
        if cap == .round {
            arcVertices(Flattener.pointOnCircle(c, r, a1), h, a1, .halfTurn, first: false)
        }
        arcVertices(c, inner, a1, -s, first: cap != .round)
        if cap == .round {
            arcVertices(
                Flattener.pointOnCircle(c, r, a0), h, a0 + AngleSpan.halfTurn, .halfTurn,
                first: false)
        }
        closeContour()
    }

    /// Round caps that meet across the gap of an almost whole turn: emits the
    /// outline of the union, an outer and an inner contour that never overlap
    /// themselves. (Nonzero winding clamps a pixel's total, but where two
    /// layers each cover part of a pixel it adds them: the edge pixels of the
    /// overlap came out up to 108/255 too dark.) Returns false, emitting
    /// nothing, when the caps stay apart.
    private mutating func overlappingCaps(
        _ c: Point, _ r: Fixed, _ h: Fixed, _ a0: Angle, _ s: AngleSpan
    ) -> Bool {
        let gap = AngleSpan.fullTurn.raw - s.raw  // 0 < gap < a turn
        // Caps face away from each other while the arc spans half a turn or less.
        guard gap < AngleSpan.halfTurn.raw else { return false }
        let (cosHalf, sinHalf) = Angle(raw: UInt32(truncatingIfNeeded: gap / 2)).cosSinQ30
        // The cap centres are 2 r sin(gap / 2) apart: they overlap below 2h.
        let q = mulShiftRounded30(r.raw, sinHalf)
        guard q < h.raw, h.raw < 1 << 31 else { return false }
        // The cap circles cross on the gap's bisector, m +- t from the centre.
        let m = mulShiftRounded30(r.raw, cosHalf)
        let t = integerSquareRoot((h.raw - q) * (h.raw + q))
        let a1 = a0 + s
        let bisector = a1 + AngleSpan(raw: gap / 2)
        let outerMeet = Flattener.pointOnCircle(c, Fixed(raw: m + t), bisector)
        let innerMeet = Flattener.pointOnCircle(c, Fixed(raw: m - t), bisector)
        let end = Flattener.pointOnCircle(c, r, a1)
        let begin = Flattener.pointOnCircle(c, r, a0)
        func direction(_ from: Point, _ to: Point) -> Angle {
            Angle.direction(dx: to.x.raw - from.x.raw, dy: to.y.raw - from.y.raw)
        }
        // Each part of a cap runs forward by less than half a turn. Where
        // its true span is a few raw units, the rounded directions to the
        // crossings may fall just before its start: that part is empty
        // (wrapped, it would run almost a whole turn, a second layer).
        func span(_ from: Angle, _ to: Angle) -> AngleSpan {
            let d = to.raw &- from.raw
            return AngleSpan(raw: d > 1 << 31 ? 0 : Int64(d))
        }
        // Outer contour: the outer circle, the end cap out to the crossing, the start cap back.
        arcVertices(c, r + h, a0, s, first: true)
        let endOut = direction(end, outerMeet)
        arcVertices(end, h, a1, span(a1, endOut), first: false)
        let beginOut = direction(begin, outerMeet)
        arcVertices(begin, h, beginOut, span(beginOut, a0), first: false, last: false)
        closeContour()
        // Inner contour, the hole (counter-clockwise): the start cap's inner
        // side to the inner crossing, the end cap's, then the inner circle back.
        let beginIn = direction(begin, innerMeet)
        arcVertices(begin, h, a0 + Angle.halfTurn, span(a0 + Angle.halfTurn, beginIn), first: true)
        let endIn = direction(end, innerMeet)
        arcVertices(end, h, endIn, span(endIn, a1 + Angle.halfTurn), first: false)
        arcVertices(c, r - h, a1, -s, first: false, last: false)
        closeContour()
        return true
    }

    /// Corners clockwise from the top right (y down); counter-clockwise reverses them.
    private mutating func roundedRect(
        _ c: Point, _ hw: Fixed, _ hh: Fixed, _ radius: Fixed, clockwise: Bool
    ) {
        let r = min(radius, min(hw, hh))
        let dx = hw - r
        let dy = hh - r
        let quarter = AngleSpan(raw: 1 << 30)
        // Corner k's centre sits in the quadrant its arc starts k quarters from -90 degrees.
        for i in 0..<4 {
            let k = clockwise ? i : 3 - i
            let sx = k == 0 || k == 1 ? dx : -dx
            let sy = k == 1 || k == 2 ? dy : -dy
            let start = Angle(raw: UInt32(truncatingIfNeeded: (k - 1) << 30))
            let center = Point(x: c.x + sx, y: c.y + sy)
            if clockwise {
                arcVertices(center, r, start, quarter, first: true, exactEnds: true)
            } else {
                arcVertices(center, r, start + quarter, -quarter, first: true, exactEnds: true)
            }
        }
        closeContour()
    }

    static func pointOnCircle(_ c: Point, _ r: Fixed, _ a: Angle) -> Point {
        let (cos, sin) = a.cosSinQ30
        return Point(
            x: c.x + Fixed(raw: mulShiftRounded30(r.raw, cos)),
            y: c.y + Fixed(raw: mulShiftRounded30(r.raw, sin)))
    }

    // MARK: Curves

    /// Chords per turn for a circle of device radius `r` (16.16): at most
    /// 1/128 px from the circle, r (2 pi / n)^2 / 8 <= 1/128, so
    /// n >= 8 pi sqrt(r) ~ 25.13 sqrt(r); a multiple of 4, so the vertices of
    /// a picture turned by a quarter turn are the turned vertices.
    static func chordsPerTurn(deviceRadius r: Int64) -> Int64 {
        let sqrtQ8 = integerSquareRoot(max(r, 1))
        let n = (sqrtQ8 * 6434 + 0xFFFF) >> 16
        return min(max((n + 3) & ~3, 4), 1 << 16)
    }

    /// The grid (chords per turn) and the device radius (16.16) of the
    /// circle an arc of local radius `r` puts its vertices on: pushed out by
    /// (1 + d^2 / 12), d the chord's angle in radians, so each chord's area
    /// matches the arc's ((2 pi)^2 / 12 * 2^10 ~ 3369).
    static func vertexCircle(radius r: Fixed, scale: ScaleFactor) -> (n: Int64, radius: Int64) {
        let n = Flattener.chordsPerTurn(deviceRadius: scale.apply(r).raw)
        let g = ((1 << 32) / n) >> 12
        let factorQ30 = (Int64(1) << 30) + ((g * g * 3369) >> 20)
        return (n, scale.apply(Fixed(raw: mulShiftRounded30(r.raw, factorQ30))).raw)
    }

    /// Vertices along an arc of local radius `r`, from `start` over `sweep`.
    ///
    /// Between the two ends, vertices sit on a fixed grid of directions (a
    /// whole number of chords per turn), not spread evenly over the sweep: an
    /// arc that grows keeps every vertex it had, so its edge does not shimmer
    /// from frame to frame and only its growing end changes pixels.
    private mutating func arcVertices(
        _ c: Point, _ r: Fixed, _ start: Angle, _ sweep: AngleSpan, first: Bool, last: Bool = true,
        exactEnds: Bool = false
    ) {
        if r.raw == 0 {
            vertex(c)
            return
        }
        let (n, radius) = Flattener.vertexCircle(radius: r, scale: scale)
        // A similarity maps the circle to a circle: place the vertices on it
        // in device space directly (centre, radius and angle transformed once).
        let center = matrix.apply(c)
        // Ends that join straight sides stay on the circle: pushed out, they
        // would move the whole side out by r d^2 / 12 (up to 1/192 px).
        let endRadius = exactEnds ? scale.apply(r).raw : radius
        let a = Int64((start + rotation).raw)
        let e = a + sweep.raw
        let unit = gridDirections.table(n)
        func put(_ cos: Int64, _ sin: Int64, _ radius: Int64) {
            deviceVertex(
                Point(
                    x: Fixed(raw: center.x.raw + mulShiftRounded30(radius, cos)),
                    y: Fixed(raw: center.y.raw + mulShiftRounded30(radius, sin))))
        }
        func put(angle: Int64, _ radius: Int64) {
            let (cos, sin) = Angle(raw: UInt32(truncatingIfNeeded: angle)).cosSinQ30
            put(cos, sin, radius)
        }
        if first { put(angle: a, endRadius) }
        if sweep.raw != 0 {
            // Grid directions strictly between a and e, in order, walked
            // without dividing (a ring's arc has hundreds a frame).
            let forward = sweep.raw > 0
            var grid = GridWalk(k: floorDivMod(a * n, 1 << 32).0 + (forward ? 0 : 1), n: n)
            // A circle placed again (a growing arc's, every frame) has its
            // vertices kept: the arc copies its part of them.
            let placed =
                fixedPoint
                ? nil
                : placedCircles.vertices(
                    center, radius, n, unit, forward: forward,
                    count: Int64((UInt64(sweep.raw.magnitude) &* UInt64(n)) >> 32))
            if forward {
                while grid.angle <= a { grid.next() }
            } else {
                while grid.angle >= a { grid.previous() }
            }
            let count = grid.count(toward: e, forward: forward)
            if let placed {
                // `placed` runs backwards going back: direction i is its entry n - 1 - i.
                output.appendCircleVertices(
                    placed, from: forward ? grid.index : Int(n) - 1 - grid.index, count: count)
            } else {
                let fixed = fixedPoint
                output.appendVertices(count) { out in
                    writeGridVertices(
                        out, count: count, from: grid.index, n: Int(n), forward: forward,
                        center: center, radius: radius, unit: unit, fixedPoint: fixed)
                }
            }
        }
        if last && sweep.raw != 0 { put(angle: e, endRadius) }
    }

    private mutating func flattenPath(_ path: Path) {
        var current = Point.zero
        var open = false
        for element in path.elements {
            switch element {
            case let .move(p):
                if open { closeContour() }
                vertex(p)
                current = p
                open = true
            case let .line(p):
                if !open { vertex(current) }
                vertex(p)
                current = p
                open = true
            case let .cubic(c1, c2, end):
                if !open { vertex(current) }
                cubic(current, c1, c2, end)
                current = end
                open = true
            case .close:
                if open { closeContour() }
                open = false
            }
        }
        if open { closeContour() }
    }

    /// A cubic flattened in device space: n chords with Wang's bound
    /// n = sqrt(3/4 * L / tolerance), L the larger second difference.
    private mutating func cubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
        let d0 = matrix.apply(p0)
        let d1 = matrix.apply(p1)
        let d2 = matrix.apply(p2)
        let d3 = matrix.apply(p3)
        func second(_ a: Point, _ b: Point, _ c: Point) -> Int64 {
            let m = max(
                (a.x.raw - 2 * b.x.raw + c.x.raw).magnitude,
                (a.y.raw - 2 * b.y.raw + c.y.raw).magnitude)
            return Int64(min(m, 1 << 40)) * 3 / 2  // max norm * 1.5 >= the Euclidean norm
        }
        let l = max(second(d0, d1, d2), second(d1, d2, d3))
        // tolerance 1/128 px: n^2 = 0.75 * L * 128 = 96 L (L in px, raw / 65536).
        let n = Int64(min(max((integerSquareRoot(96 * l) + 255) >> 8, 1), 256))
        let n3 = n * n * n
        for k in 1...n {
            let t = k
            let u = n - k
            let w0 = u * u * u
            let w1 = 3 * u * u * t
            let w2 = 3 * u * t * t
            let w3 = t * t * t
            let x = w0 * d0.x.raw + w1 * d1.x.raw + w2 * d2.x.raw + w3 * d3.x.raw
            let y = w0 * d0.y.raw + w1 * d1.y.raw + w2 * d2.y.raw + w3 * d3.y.raw
            deviceVertex(
                Point(x: Fixed(raw: roundedDivide(x, n3)), y: Fixed(raw: roundedDivide(y, n3))))
        }
    }

    // MARK: Output

    private mutating func vertex(_ local: Point) { deviceVertex(matrix.apply(local)) }

    private mutating func deviceVertex(_ p: Point) {
        if fixedPoint {
            output.rawCoordinates.append(p.x.raw)
            output.rawCoordinates.append(p.y.raw)
            return
        }
        output.rawCoordinates.append(Subpixel(clamping: p.x).raw)
        output.rawCoordinates.append(Subpixel(clamping: p.y).raw)
    }

    private mutating func closeContour() {
        let end = output.vertexCount
        if end - contourStart >= 3 {
            output.contourEnds.append(end)
            output.addBands(contourStart, end, box: &box)
        } else {
            // Fewer than three vertices enclose nothing.
            output.rawCoordinates.removeLast(2 * (end - contourStart))
        }
        contourStart = output.vertexCount
    }
}

/// `a * b / 2^30`, rounded to nearest (halves up, as `shiftRounded`), with the
/// product in 128 bits: a radius of 2^17 px or more in 16.16 times a Q30
/// sine overflows 64 bits (a million-pixel disc trapped).
@inline(__always)
func mulShiftRounded30(_ a: Int64, _ b: Int64) -> Int64 {
    // The common case fits 64 bits: |a| < 2^32 (65536 px) and |b| <= 2^30.
    if a.magnitude < 1 << 32 && b.magnitude <= 1 << 30 { return (a * b + (1 << 29)) >> 30 }
    return Int64(truncatingIfNeeded: (Int128(a) * Int128(b) + (1 << 29)) >> 30)
}
