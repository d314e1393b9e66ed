/// Walks a resolved shape's rows and hands each run of coverage to the span
/// routine of the format and paint (chosen here once per shape).
struct RowPainter<Rows: CoverageRows> {
    let rows: Rows
    let surface: Surface
    let mask: UnsafeMutablePointer<UInt8>
    let constant: UnsafeMutablePointer<UInt8>
    /// Blocks to mark where runs are painted, if any.
    let marks: PaintedBlocks?
    /// For a sweep paint: where its directions, opacity per direction and
    /// colour over the backdrop are made (nil for other paints).
    let sweep: RasterCache?
    /// The colour most pixels a sweep paints hold before it (the last clear).
    let backdrop: UInt32?

    func paint<C: PixelCodec>(_: C.Type, _ paint: Paint, _ transform: Transform) {
        switch paint {
        case let .solid(color):
            solid(C.self, color)
        case let .sweep(gradient):
            let sampler = SweepSampler(gradient, transform)
            let cache = sweep!
            let directions = cache.directions
            directions.prepare(
                centerX: sampler.cx, centerY: sampler.cy, covering: rows.bounds)
            let alphas = cache.sweepTable.table(for: sampler)
            let dst = backdrop ?? 0
            let table = cache.tables.table(rgb: sampler.rgb, over: dst)
            sweep(C.self, sampler, directions, alphas, dst, table)
        }
    }

    /// Marks the blocks from the row's first run to its last (holes between
    /// runs too: one mark a row, not one a run).
    @inline(__always)
    private func markRow(
        _ y: Int, _ runs: UnsafeMutablePointer<CoverageRun>, _ count: Int, _ left: Int
    ) {
        guard let marks else { return }
        let first = Int(runs[0].start)
        let last = runs[count - 1]
        marks.mark(y: y, x: left + first, count: Int(last.start + last.count) - first)
    }

    private func solid<C: PixelCodec>(_: C.Type, _ color: Color) {
        let area = rows.bounds
        let rgb = color.rgb
        let alpha = UInt32(color.a)
        let coverage = rows.alpha
        let runs = rows.runs
        for r in 0..<area.height {
            let runCount = rows.resolveRow(r)
            if runCount == 0 { continue }
            let y = area.y + r
            markRow(y, runs, runCount, area.x)
            let row = surface.base + y * surface.stride
            for i in 0..<runCount {
                let run = runs[i]
                let x = area.x + Int(run.start)
                let n = Int(run.count)
                if run.alpha < 0 {
                    Spans<C>.blendMask(
                        row, x: x, count: n, y: y, rgb: rgb, alpha: alpha,
                        mask: coverage + Int(run.start))
                    continue
                }
                let m = div255(alpha * UInt32(run.alpha))
                if m == 255 {
                    Spans<C>.fill(row, x: x, count: n, y: y, rgb: rgb)
                } else if m > 0 {
                    Spans<C>.blend(row, x: x, count: n, y: y, rgb: rgb, m: m)
                }
            }
        }
    }

    private func sweep<C: PixelCodec>(
        _: C.Type, _ sampler: SweepSampler, _ directions: DirectionCache,
        _ alphas: UnsafePointer<UInt8>, _ dst: UInt32, _ table: UnsafePointer<UInt32>
    ) {
        let area = rows.bounds
        let runs = rows.runs
        let alpha = rows.alpha
        for r in 0..<area.height {
            let runCount = rows.resolveRow(r)
            if runCount == 0 { continue }
            let y = area.y + r
            markRow(y, runs, runCount, area.x)
            let row = surface.base + y * surface.stride
            for i in 0..<runCount {
                let run = runs[i]
                let count = Int(run.count)
                let x = area.x + Int(run.start)
                let dirs = directions.row(y: y, x: x)
                let nearCenter = sampler.isNearCenter(y: y)
                if run.alpha == 255 && !nearCenter {
                    // Wholly covered: the opacity is the table's.
                    Spans<C>.blendSweep(
                        row, x: x, count: count, y: y, rgb: sampler.rgb, alphas: alphas,
                        directions: dirs, over: dst, table: table)
                    continue
                }
                let coverage: UnsafePointer<UInt8>
                if run.alpha < 0 {
                    coverage = UnsafePointer(alpha + Int(run.start))
                } else {
                    constant.update(repeating: UInt8(run.alpha), count: count)
                    coverage = UnsafePointer(constant)
                }
                if nearCenter {
                    // Rows by the centre take the 4x4-sampled path.
                    sampler.modulate(
                        x: x, y: y, count: count, coverage: coverage, alphas: alphas,
                        directions: dirs, into: mask)
                    Spans<C>.blendMask(
                        row, x: x, count: count, y: y, rgb: sampler.rgb, alpha: 255, mask: mask)
                } else {
                    Spans<C>.blendSweep(
                        row, x: x, count: count, y: y, rgb: sampler.rgb, alphas: alphas,
                        coverage: coverage, directions: dirs, over: dst, table: table)
                }
            }
        }
    }
}

/// The direction of every pixel centre in a rectangle from one centre point,
/// computed once and kept while the centre stays: a radar's gradient turns
/// every frame, its geometry does not, so a frame costs a subtraction per
/// pixel instead of an arctangent. Kept in 2^-16 turn (rounded; 0.0055
/// degrees, under 1/50 px at 600 px from the centre): half the memory of a
/// full angle, 320 KB for a radar's disc at 800x480.
final class DirectionCache {
    private var values = UnsafeMutablePointer<UInt16>.allocate(capacity: 0)
    private var capacity = 0
    private var rect = IntRect(x: 0, y: 0, width: 0, height: 0)
    private var cx: Int64 = .min
    private var cy: Int64 = .min

    deinit { values.deallocate() }

    /// Forgets the centre (the memory stays): the next `prepare` computes every direction.
    func forget() {
        cx = .min
        cy = .min
        rect = IntRect(x: 0, y: 0, width: 0, height: 0)
    }

    /// Makes `row(y:x:)` valid for every pixel of `area` around `(cx, cy)` (24.8).
    func prepare(centerX: Int64, centerY: Int64, covering area: IntRect) {
        if centerX == cx && centerY == cy && rect.intersection(area) == area { return }
        // Grow to hold what was asked before too: the requests of a turning
        // gradient differ frame to frame but settle inside one square.
        let keep = centerX == cx && centerY == cy && !rect.isEmpty
        let r = keep ? DirectionCache.grown(rect.union(area), centerX, centerY) : area
        // Directions already worked out are moved, not worked out again: a
        // turning sector's bounds grow over many frames, and each direction
        // costs a division.
        let old = (values: values, rect: rect)
        let fresh: UnsafeMutablePointer<UInt16>
        if keep || capacity < r.width * r.height {
            fresh = .allocate(capacity: r.width * r.height)
            capacity = r.width * r.height
        } else {
            fresh = values  // a new centre: nothing to keep, the memory is enough
        }
        cx = centerX
        cy = centerY
        for y in 0..<r.height {
            let out = fresh + y * r.width
            let oldRow = r.y + y - old.rect.y
            if keep && oldRow >= 0 && oldRow < old.rect.height {
                let left = old.rect.x - r.x
                compute(out, y: r.y + y, x: r.x, count: left)
                (out + left).update(
                    from: old.values + oldRow * old.rect.width, count: old.rect.width)
                let right = left + old.rect.width
                compute(out + right, y: r.y + y, x: r.x + right, count: r.width - right)
            } else {
                compute(out, y: r.y + y, x: r.x, count: r.width)
            }
        }
        if fresh != old.values { old.values.deallocate() }
        values = fresh
        rect = r
    }

    /// `union` grown to the square around the centre that holds it (cut at
    /// column and row 0 where the union does not pass them), unless that is over 4 times as large: what a
    /// turning gradient asks for in the end, so it grows once or twice, not
    /// on many frames, each time holding old and new directions at once.
    static func grown(_ union: IntRect, _ cx: Int64, _ cy: Int64) -> IntRect {
        let px = Int(cx >> 8)
        let py = Int(cy >> 8)
        let h = max(px - union.x, union.maxX - px, py - union.y, union.maxY - py)
        let x = max(px - h, min(union.x, 0))
        let y = max(py - h, min(union.y, 0))
        let square = IntRect(x: x, y: y, width: px + h - x, height: py + h - y)
        return square.width * square.height <= 4 * union.width * union.height ? square : union
    }

    /// The directions of `count` pixel centres from column `x` of row `y`, into `out`.
    private func compute(_ out: UnsafeMutablePointer<UInt16>, y: Int, x: Int, count: Int) {
        let dy = (Int64(y) << 8) + 128 - cy
        for i in 0..<count {
            let dx = (Int64(x + i) << 8) + 128 - cx
            out[i] = UInt16(
                truncatingIfNeeded: (Angle.direction(dx: dx, dy: dy).raw &+ 0x8000) >> 16)
        }
    }

    /// The directions of row `y` from column `x` on.
    @inline(__always)
    func row(y: Int, x: Int) -> UnsafePointer<UInt16> {
        UnsafePointer(values + (y - rect.y) * rect.width + (x - rect.x))
    }
}
