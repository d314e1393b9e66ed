/// A shape a loader draws again and again (`Rasterizer.fill(keepCoverage:)`)
/// turned half a turn or more is drawn as the point reflection, through the
/// centre of the surface, of the same shape turned half a turn less: its
/// *partner*. A spinner's leaf `i + 6` is leaf `i` turned half a turn about
/// the spinner's centre, so when that centre is the surface's, the partner
/// of each pose of leaf `i + 6` is a pose leaf `i` took before: its
/// coverage is kept already, and reflecting kept coverage costs a small part
/// of rasterizing it.
///
/// This is *the* way such a fill is drawn, kept or not, cache full or not,
/// and `Rasterizer.bounds(of:transform:cache:keptOn:)` gives the reflected
/// bounds: a frame's bytes never depend on what the cache holds. (The
/// rasterizer rounds to nearest, ties up, so a shape turned half a turn is
/// not always, to the last subpixel, the reflection of the shape.)
///
/// Geometry: `T = (s, θ, t)` with `θ` at least half a turn maps `p` to
/// `K - T'(p)` for `T' = (s, θ - half turn, K - t)`, with `K` the surface's
/// size. Pixel `(x, y)` of `T` is pixel `(W - 1 - x, H - 1 - y)` of `T'`,
/// and the reflection maps the surface onto itself, so what the surface
/// cuts off one it cuts off the other.
enum HalfTurn {
    /// Whether a fill with `transform` gives the same bytes with
    /// `keepCoverage` as without: a shape turned less than half a turn is
    /// drawn as it is either way; one turned further is drawn, once kept,
    /// as its partner's reflection, which may differ from it in the last
    /// bit. A shape kept only for a while (`fill(stayedPut:)`) must be one
    /// of the first kind.
    static func keepingChangesNothing(for transform: Transform) -> Bool {
        transform.rotation.raw < Angle.halfTurn.raw
    }

    /// The partner of `transform` on `surface` (bounds at the origin), or
    /// `nil` when it is turned less than half a turn (drawn as it is).
    @inline(__always)
    static func partner(of transform: Transform, on surface: IntRect) -> Transform? {
        guard transform.rotation.raw >= Angle.halfTurn.raw else { return nil }
        let t = transform.translation
        return Transform(
            scale: transform.scale, rotation: transform.rotation - .halfTurn,
            translation: Point(
                x: Fixed(raw: Fixed(surface.width).raw &- t.x.raw),
                y: Fixed(raw: Fixed(surface.height).raw &- t.y.raw)))
    }

    /// `rect` reflected through the centre of `surface` (bounds at the origin).
    static func mirror(_ rect: IntRect, on surface: IntRect) -> IntRect {
        IntRect(
            x: surface.width - rect.maxX, y: surface.height - rect.maxY, width: rect.width,
            height: rect.height)
    }

    /// The key a fill of `shape` by `transform` on `surface` keeps its
    /// coverage under: a reflected one names the surface's size, whose
    /// centre it is reflected through.
    static func key(_ shape: Shape, _ transform: Transform, on surface: IntRect, reflected: Bool)
        -> CoverageCache.Key
    {
        CoverageCache.Key(
            shape: shape, transform: transform,
            mirror: reflected ? surface.width << 32 | surface.height : 0)
    }
}

/// Buffers for rows turned end to end, reused from shape to shape.
final class RowMirror {
    private(set) var runs = UnsafeMutablePointer<CoverageRun>.allocate(capacity: 0)
    private(set) var alpha = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var capacity = 0

    deinit {
        runs.deallocate()
        alpha.deallocate()
    }

    /// Room for rows `width` pixels wide: `runs` and `alpha` stay put
    /// while rows no wider are flipped (a painter reads them once).
    func reserve(_ width: Int) {
        guard capacity < width else { return }
        runs.deallocate()
        alpha.deallocate()
        capacity = width
        runs = .allocate(capacity: width + 1)
        alpha = .allocate(capacity: width)
    }

    /// `count` runs of a row `width` pixels wide (starts relative to its
    /// left edge, mask values in `alpha` at their pixels), end to end.
    func flip(
        _ source: UnsafePointer<CoverageRun>, _ values: UnsafePointer<UInt8>, _ count: Int,
        width: Int
    ) -> Int {
        reserve(width)
        for i in 0..<count {
            let run = source[count - 1 - i]
            let s = Int(run.start)
            let n = Int(run.count)
            let start = width - s - n
            runs[i] = CoverageRun(start: Int32(start), count: run.count, alpha: run.alpha)
            if run.alpha < 0 {
                for k in 0..<n { alpha[start + k] = values[s + n - 1 - k] }
            }
        }
        return count
    }
}

/// The rows of `source` reflected through their centre: row `r` of `bounds`
/// is row `height - 1 - r` of the source's, turned end to end. Each row of
/// the source is resolved once (an accumulator's cells are cleared so).
struct MirroredRows<Source: CoverageRows>: CoverageRows {
    let source: Source
    let mirror: RowMirror
    /// Where the rows land: the source's bounds, reflected.
    let bounds: IntRect

    var alpha: UnsafeMutablePointer<UInt8> { mirror.alpha }
    var runs: UnsafeMutablePointer<CoverageRun> { mirror.runs }

    init(source: Source, mirror: RowMirror, bounds: IntRect) {
        (self.source, self.mirror, self.bounds) = (source, mirror, bounds)
        mirror.reserve(bounds.width)
    }

    func resolveRow(_ r: Int) -> Int {
        let count = source.resolveRow(bounds.height - 1 - r)
        return mirror.flip(source.runs, source.alpha, count, width: bounds.width)
    }
}

/// Kept coverage code turned half a turn: rows in reverse order, each
/// row's segments end to end, code to code (no runs in between).
final class ReflectedCode {
    private var rows = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: 0)
    private var rowCapacity = 0
    private var segments = UnsafeMutablePointer<(x: Int, code: UnsafePointer<UInt8>)>
        .allocate(capacity: 0)
    private var segmentCapacity = 0

    deinit {
        rows.deallocate()
        segments.deallocate()
    }

    /// Keeps `entry`'s coverage (whose code starts at `code`), reflected,
    /// as the pending entry of `kept` (`CoverageCache.begin`); `false` when
    /// the budget cannot hold it (then the entry is abandoned).
    func keep(
        _ code: UnsafePointer<UInt8>, area: IntRect, into kept: inout CoverageCache
    ) -> Bool {
        if rowCapacity < area.height {
            rows.deallocate()
            rowCapacity = area.height
            rows = .allocate(capacity: rowCapacity)
        }
        if segmentCapacity < area.width {
            segments.deallocate()
            segmentCapacity = area.width
            segments = .allocate(capacity: segmentCapacity)
        }
        var row = code
        for r in 0..<area.height {
            rows[r] = row
            row = CoverageCode.rowAfter(row)
        }
        // The rows' ends: the next row's start, and for the last, `row`.
        for r in stride(from: area.height - 1, through: 0, by: -1) {
            let first = rows[r]
            let end = r + 1 < area.height ? rows[r + 1] : row
            // A row turned end to end takes the bytes it took.
            let width = area.width
            let written = kept.appendRow(maxBytes: end - first) { out in
                self.write(first, width, out)
            }
            if !written { return false }
        }
        return true
    }

    /// The row whose code starts at `p` (a row `width` pixels wide) turned
    /// end to end, written at `out`; the bytes written.
    private func write(
        _ p: UnsafePointer<UInt8>, _ width: Int, _ out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var count = 0
        var p = p
        while true {
            let s = CoverageCode.segment(p)
            segments[count] = (s.x, p)
            count &+= 1
            p = s.next
            if s.last { break }
        }
        var q = out
        for j in stride(from: count - 1, through: 0, by: -1) {
            let s = CoverageCode.segment(segments[j].code)
            let n = s.a &+ s.b
            // An empty row stays one empty segment at 0.
            let x = n &+ s.f == 0 ? 0 : width &- segments[j].x &- (n &+ s.f)
            // `a` and `b` trade places; the values, left edge then right,
            // all run backwards.
            CoverageCode.putHeader(q, x: x, a: s.b, f: s.f, b: s.a, last: j == 0)
            for i in 0..<n { q[4 &+ i] = s.values[n &- 1 &- i] }
            q += 4 &+ n
        }
        return q - out
    }
}
