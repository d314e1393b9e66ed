/// Rows of coverage a `RowPainter` paints: a shape's accumulated cells, or
/// a kept entry replayed.
protocol CoverageRows {
    /// The pixels painted; runs' starts are relative to its left edge.
    var bounds: IntRect { get }
    var alpha: UnsafeMutablePointer<UInt8> { get }
    var runs: UnsafeMutablePointer<CoverageRun> { get }
    /// Fills `runs` (and `alpha` for mask runs) with row `r` of `bounds`; the run count.
    func resolveRow(_ r: Int) -> Int
}

extension CoverageAccumulator: CoverageRows {}

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
    /// A linear ramp's colour table, made per ramp (`LinearRamp.swift`).
    let ramps: LinearRampTable

    func paint<C: PixelCodec>(_: C.Type, _ paint: Paint, _ transform: Transform) {
        switch paint {
        case let .solid(color):
            solid(C.self, color)
        case let .sweep(gradient):
            let sampler = SweepSampler(gradient, transform)
            let cache = sweep!
            let directions = cache.directions
            directions.prepare(center: sampler.center, covering: rows.bounds)
            let alphas = cache.sweepTable.table(for: sampler)
            let dst = backdrop ?? 0
            let table = cache.tables.table(rgb: sampler.rgb, over: dst)
            sweep(C.self, sampler, directions, alphas, dst, table)
        case let .linear(ramp):
            linear(C.self, ramp, transform, ramps)
        }
    }

    /// Marks the blocks from the row's first run to its last (holes between
    /// runs too: one mark a row, not one a run).
    @inline(__always)
    func markRow(
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
                let coverage = coverage(of: run, alpha)
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

extension RowPainter {
    /// A run's coverage a pixel: the row's alphas from `alpha` where they
    /// vary (`run.alpha < 0`), else the run's one value repeated in `constant`.
    @inline(__always)
    func coverage(of run: CoverageRun, _ alpha: UnsafeMutablePointer<UInt8>)
        -> UnsafePointer<UInt8>
    {
        if run.alpha < 0 { return UnsafePointer(alpha + Int(run.start)) }
        constant.update(repeating: UInt8(run.alpha), count: Int(run.count))
        return UnsafePointer(constant)
    }
}
