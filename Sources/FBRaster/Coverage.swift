/// Exact area coverage of a polygon, one row of runs at a time.
///
/// Each edge deposits, in every pixel cell it crosses, its signed height
/// times the part of the cell to its right (FreeType's and font-rs's
/// accumulation): a running sum along a row then gives each pixel's covered
/// area. Units: a whole pixel is 2^17 (height in 1/256 px times twice the
/// width in 1/256 px). The sign is the winding; its magnitude is clamped to
/// one pixel, so parts of one shape that overlap count once.
///
/// A bitmap marks the cells edges touched. Between two marked cells the
/// coverage is constant, so a row is resolved in runs: the inside of a disc
/// is one run, the hole of a ring is skipped, and only pixels an edge
/// crosses are looked at one by one. Memory is kept (zeroed) between shapes.
final class CoverageAccumulator {
    /// The current area and views of the memory; hot loops work on a copy
    /// of it (a value of pointers), so they pay no exclusivity checks.
    private(set) var grid = CellGrid()
    private var cellCapacity = 0
    private var markCapacity = 0
    private var pixelCapacity = 0
    private var runCapacity = 0

    var bounds: IntRect { grid.bounds }
    /// Per-pixel alpha of the current row's mask runs, indexed by `x - bounds.x`.
    var alpha: UnsafeMutablePointer<UInt8> { grid.alpha }
    /// The current row's runs, in order, none empty, none of alpha 0.
    var runs: UnsafeMutablePointer<CoverageRun> { grid.runs }

    deinit {
        grid.cells.deallocate()
        grid.marks.deallocate()
        grid.alpha.deallocate()
        grid.runs.deallocate()
    }

    /// Prepares an empty area for `rect` (already clipped to the surface).
    func begin(_ rect: IntRect) {
        var g = grid
        g.bounds = rect
        g.cellStride = rect.width + 2
        g.markStride = (g.cellStride + 63) / 64
        grow(&g.cells, &cellCapacity, g.cellStride * rect.height, zero: 0)
        grow(&g.marks, &markCapacity, g.markStride * rect.height, zero: 0)
        grow(&g.alpha, &pixelCapacity, g.cellStride, zero: 0)
        // At most one run per pixel plus the gaps between them.
        grow(
            &g.runs, &runCapacity, g.cellStride + 1, zero: CoverageRun(start: 0, count: 0, alpha: 0)
        )
        grid = g
    }

    private func grow<T>(
        _ p: inout UnsafeMutablePointer<T>, _ capacity: inout Int, _ needed: Int, zero: T
    ) {
        guard capacity < needed else { return }
        p.deallocate()
        p = .allocate(capacity: needed)
        p.initialize(repeating: zero, count: needed)
        capacity = needed
    }

    /// Adds every closed contour of `polygon` (24.8 device subpixels).
    /// Bands of edges that cannot reach the area's rows are skipped whole
    /// (a ring redrawn inside a small damage rectangle walks a few edges, not
    /// all of them); what is skipped could not have deposited anything.
    func add(_ polygon: Polygon<Subpixel>) {
        let g = grid
        // The edge loop works on raw 24.8 values (`Subpixel.raw`) read once
        // here, so its code is what it was before the unit was a type.
        let ox = Subpixel(pixel: g.bounds.x).raw
        let oy = Subpixel(pixel: g.bounds.y).raw
        let rowsEnd = Subpixel(pixel: g.bounds.y + g.bounds.height).raw
        polygon.rawCoordinates.withUnsafeBufferPointer { v in
            polygon.rawBands.withUnsafeBufferPointer { bands in
                var start = 0
                var band = 0
                for end in polygon.contourEnds {
                    var i = start
                    while i < end {
                        let stop = min(i + polygonBandEdges, end)
                        let (lo, hi) = (bands[2 * band], bands[2 * band + 1])
                        band += 1
                        if hi > oy && lo < rowsEnd {
                            let p = i == start ? end - 1 : i - 1
                            var px = v[2 * p] - ox
                            var py = v[2 * p + 1] - oy
                            for k in i..<stop {
                                // Vertices are clamped to 2^28 (no overflow).
                                let x = v[2 &* k] &- ox
                                let y = v[2 &* k &+ 1] &- oy
                                g.line(px, py, x, y)
                                px = x
                                py = y
                            }
                        }
                        i = stop
                    }
                    start = end
                }
            }
        }
    }

    /// Resolves row `r` (relative to the bounds) into `runs`, clears its
    /// cells, and returns the number of runs.
    func resolveRow(_ r: Int) -> Int { grid.resolve(r) }
}

/// Views of the accumulator's memory for one shape's area.
struct CellGrid {
    var bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
    var cells = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    var marks = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
    var alpha = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    var runs = UnsafeMutablePointer<CoverageRun>.allocate(capacity: 0)
    var cellStride = 0
    var markStride = 0

    /// One edge, in subpixels relative to the bounds' origin.
    ///
    /// Arithmetic here and in `rowSegment` wraps (`&+`, `&*`): vertices are
    /// clamped to 2^28 subpixels (`Flattener`), so no product comes near
    /// 2^63, and the overflow checks would cost more than the work.
    func line(_ x0: Int64, _ y0: Int64, _ x1: Int64, _ y1: Int64) {
        if y0 == y1 { return }
        let (xa, ya, xb, yb, dir): (Int64, Int64, Int64, Int64, Int64) =
            y0 < y1 ? (x0, y0, x1, y1, 1) : (x1, y1, x0, y0, -1)
        let top = max(ya, 0)
        let bottom = min(yb, Int64(bounds.height) << 8)
        if top >= bottom { return }
        // Right of the area an edge changes nothing visible; left of it, it
        // only adds its height, row by row, to every pixel: no x to follow.
        if xa >= Int64(bounds.width) << 8 && xb >= Int64(bounds.width) << 8 { return }
        if xa <= 0 && xb <= 0 {
            var y = top
            while y < bottom {
                let row = y &>> 8
                let next = min(bottom, (row &+ 1) &<< 8)
                let r = Int(truncatingIfNeeded: row)
                CellGrid.deposit(
                    cells + r &* cellStride, marks + r &* markStride, -1, 0, 0, dir &* (next &- y))
                y = next
            }
            return
        }
        // x(y) = xa + floor((dx * (y - ya) + dy / 2) / dy), rounded to nearest.
        // At the edge's ends that is xa and xb; whole rows step it. Only the
        // first row boundary of an edge that starts inside a row, and an end
        // the area cuts off, divide (and the step, if there is a whole row).
        var xs = RoundedSegment(from: ya, to: yb, by: xb &- xa)
        var row = top &>> 8
        let lastRow = (bottom &- 1) &>> 8
        if (top &+ 255) &>> 8 < lastRow { xs.prepareSteps() }  // a whole row to step over
        xs.move(to: top)
        var x = xa &+ xs.q
        var y = top &- (row &<< 8)  // where the edge enters the row
        var cellRow = cells + Int(truncatingIfNeeded: row) &* cellStride
        var markRow = marks + Int(truncatingIfNeeded: row) &* markStride
        while row < lastRow {
            // It leaves the row at its bottom.
            if y == 0 { xs.step() } else { xs.move(to: (row &+ 1) &<< 8) }
            let xNext = xa &+ xs.q
            rowSegment(cellRow, markRow, x, y, xNext, 256, dir)
            x = xNext
            y = 0
            row &+= 1
            cellRow += cellStride
            markRow += markStride
        }
        xs.move(to: bottom)
        rowSegment(cellRow, markRow, x, y, xa &+ xs.q, bottom &- (row &<< 8), dir)
    }

    /// The part of an edge inside the row of `cellRow` and `markRow`, going
    /// down (`ya < yb`, heights in 0...256 of the row).
    private func rowSegment(
        _ cellRow: UnsafeMutablePointer<Int32>, _ markRow: UnsafeMutablePointer<UInt64>,
        _ xa: Int64, _ ya: Int64, _ xb: Int64, _ yb: Int64, _ dir: Int64
    ) {
        // Walk left to right. y is monotonic along the edge, so a piece from
        // y0 to y1 has the height `sign * (y1 - y0)` (with the edge's direction).
        let (lx, ly, rx, ry, sign) =
            xa <= xb ? (xa, ya, xb, yb, dir) : (xb, yb, xa, ya, 0 &- dir)
        let height = dir &* (yb &- ya)
        let width = bounds.width
        let right = Int64(width) &<< 8
        if lx >= right { return }  // only pixels past the right edge would change
        if rx <= 0 {
            CellGrid.deposit(cellRow, markRow, -1, 0, 0, height)
            return
        }
        let first = lx &>> 8
        let last = rx &>> 8
        if first == last {
            // Most edges of a curve stay in one cell of a row.
            let c = Int(truncatingIfNeeded: first)
            CellGrid.deposit(
                cellRow, markRow, c, lx &- (first &<< 8), rx &- (first &<< 8), height)
            return
        }
        // y at each column boundary X is ly + floor((dy * (X - lx) + dx / 2) / dx),
        // rounded to nearest: one division for the first boundary crossed
        // inside the area, one more for the step if there are more. Every
        // value comes from the whole segment, never from a clipped piece of
        // it, so a shape drawn with a clip gives the very bytes it gives
        // without one. Cell -1 is all of the row left of the area (where an
        // edge only adds its height to every pixel); right of it, nothing.
        var ys = RoundedSegment(from: lx, to: rx, by: ry &- ly)
        if first >= 0 && last == first &+ 1 && last < Int64(width) {
            // The next most common: two cells inside the area.
            let boundary = last &<< 8
            ys.move(to: boundary)
            let by = ly &+ ys.q
            let c = Int(truncatingIfNeeded: first)
            CellGrid.deposit(cellRow, markRow, c, lx &- (first &<< 8), 256, sign &* (by &- ly))
            CellGrid.deposit(cellRow, markRow, c &+ 1, 0, rx &- boundary, sign &* (ry &- by))
            return
        }
        let firstX = max(first &+ 1, 0)  // the boundaries crossed inside the area
        let lastX = min(last, Int64(width))
        ys.move(to: firstX &<< 8)
        if lastX > firstX { ys.prepareSteps() }
        var c = firstX &- 1
        var px = lx
        var py = ly
        while true {
            let by = ly &+ ys.q
            CellGrid.deposit(
                cellRow, markRow, Int(truncatingIfNeeded: c), px &- (c &<< 8), 256,
                sign &* (by &- py))
            c &+= 1
            px = c &<< 8
            py = by
            if c == lastX { break }
            ys.step()
        }
        if last < Int64(width) {
            CellGrid.deposit(
                cellRow, markRow, Int(truncatingIfNeeded: last), 0, rx &- px, sign &* (ry &- py))
        }
    }

    /// Deposits a piece of edge of signed height `h` crossing cell `c` between
    /// x offsets `fx0` and `fx1` (0...256), and marks the cells it changed;
    /// `c < 0`: left of the area, the whole height goes to cell 0.
    @inline(__always)
    private static func deposit(
        _ cellRow: UnsafeMutablePointer<Int32>, _ markRow: UnsafeMutablePointer<UInt64>, _ c: Int,
        _ fx0: Int64, _ fx1: Int64, _ h: Int64
    ) {
        if h == 0 { return }
        if c < 0 {
            cellRow[0] &+= Int32(truncatingIfNeeded: h &* 512)
            markRow[0] |= 1
            return
        }
        let inside = h &* (512 &- fx0 &- fx1)
        cellRow[c] &+= Int32(truncatingIfNeeded: inside)
        cellRow[c &+ 1] &+= Int32(truncatingIfNeeded: h &* 512 &- inside)
        // Cells c and c + 1: one word unless c is the last bit of its word.
        markRow[c &>> 6] |= 3 &<< UInt64(truncatingIfNeeded: c & 63)
        if c & 63 == 63 { markRow[(c &>> 6) &+ 1] |= 1 }
    }

    @inline(__always)
    private static func alphaOf(_ sum: Int64) -> UInt8 {
        let area = sum < 0 ? -sum : sum
        return UInt8(truncatingIfNeeded: min((area &* 255 &+ 65536) >> 17, 255))
    }

    /// Resolves row `r` into `runs`, clears its cells, returns the run count.
    func resolve(_ r: Int) -> Int {
        var runCount = 0
        let width = bounds.width
        let cellRow = cells + r * cellStride
        let markRow = marks + r * markStride
        var sum: Int64 = 0
        var x = 0  // first pixel not yet in a run
        var word = 0
        while word < markStride {
            var bits = markRow[word]
            markRow[word] = 0
            while bits != 0 {
                let c = word << 6 + bits.trailingZeroBitCount
                bits &= bits &- 1
                let deposit = Int64(cellRow[c])
                cellRow[c] = 0
                guard c < width else {
                    sum &+= deposit
                    continue
                }
                // Pixels between two marked cells share one coverage.
                if c > x { emitConstant(x, c - x, CellGrid.alphaOf(sum), &runCount) }
                sum &+= deposit
                alpha[c] = CellGrid.alphaOf(sum)
                emitMask(c, &runCount)
                x = c + 1
            }
            word += 1
        }
        // Edges beyond the right side were not deposited: the rest of the row
        // keeps the last coverage (0 for a shape inside the bounds).
        if x < width { emitConstant(x, width - x, CellGrid.alphaOf(sum), &runCount) }
        return runCount
    }

    @inline(__always)
    private func emitConstant(_ x: Int, _ count: Int, _ a: UInt8, _ runCount: inout Int) {
        if a == 0 { return }
        runs[runCount] = CoverageRun(start: Int32(x), count: Int32(count), alpha: Int16(a))
        runCount += 1
    }

    /// Adds pixel `c` to a mask run (extending the previous one when adjacent).
    @inline(__always)
    private func emitMask(_ c: Int, _ runCount: inout Int) {
        let a = alpha[c]
        if a == 0 { return }
        if runCount > 0 {
            let last = runs[runCount - 1]
            if last.alpha < 0 && Int(last.start + last.count) == c {
                runs[runCount - 1].count += 1
                return
            }
        }
        runs[runCount] = CoverageRun(start: Int32(c), count: 1, alpha: -1)
        runCount += 1
    }
}

/// `count` pixels from `start` (relative to the accumulator's bounds) with
/// one alpha (`1...255`), or each its own in `alpha[]` (`alpha == -1`).
struct CoverageRun {
    var start: Int32
    var count: Int32
    var alpha: Int16
}

/// A segment's coordinate `v` at `t`, from `(t0, v0)` to `(t1, v0 + dv)`
/// with `t0 < t1`: `v0 + floor((dv * (t - t0) + dt / 2) / dt)` with
/// `dt = t1 - t0`, rounded to nearest. It is kept as the quotient `q` (the
/// offset from `v0`) and its remainder, so whole pixels (256 subpixels) step
/// it without dividing: a DDA with an exact remainder.
struct RoundedSegment {
    private let t0: Int64
    private let t1: Int64
    private let dv: Int64
    private let dt: Int64
    private let half: Int64
    /// `v(t) - v0` at the current `t`.
    private(set) var q: Int64 = 0
    private var r: Int64
    private var stepQ: Int64 = 0
    private var stepR: Int64 = 0

    /// Starts at `t0`.
    @inline(__always)
    init(from t0: Int64, to t1: Int64, by dv: Int64) {
        self.t0 = t0
        self.t1 = t1
        self.dv = dv
        dt = t1 &- t0
        half = dt &>> 1
        r = half
    }

    /// Moves to `t`; at either end that is the end itself, with no division.
    @inline(__always)
    mutating func move(to t: Int64) {
        if t == t0 {
            (q, r) = (0, half)
        } else if t == t1 {
            (q, r) = (dv, half)
        } else {
            (q, r) = floorDivMod(dv &* (t &- t0) &+ half, dt)
        }
    }

    /// Divides once, for `step`.
    @inline(__always)
    mutating func prepareSteps() { (stepQ, stepR) = floorDivMod(dv &<< 8, dt) }

    /// Moves 256 subpixels on (`prepareSteps` first).
    @inline(__always)
    mutating func step() {
        q &+= stepQ
        r &+= stepR
        if r >= dt {
            q &+= 1
            r &-= dt
        }
    }
}

/// `(floor(n / d), n - d * floor(n / d))` for `d > 0`: the remainder is in `0..<d`.
///
/// On a 32-bit CPU, in 32 bits when both fit (an edge of a shape under
/// 2^15 subpixels across): 32-bit ARM divides them in hardware or a short
/// routine, where 64 bits take a long one (`__udivmoddi4`); the quotient
/// is the same. A 64-bit CPU divides in one instruction either way (the
/// test is folded away).
@inline(__always)
func floorDivMod(_ n: Int64, _ d: Int64) -> (Int64, Int64) {
    let q: Int64
    if Int.bitWidth == 32 && d <= Int64(Int32.max) && n == Int64(Int32(truncatingIfNeeded: n)) {
        q = Int64(Int32(truncatingIfNeeded: n) / Int32(truncatingIfNeeded: d))
    } else {
        q = n / d
    }
    let r = n &- q &* d  // |r| < d: nothing here can overflow
    return r < 0 ? (q &- 1, r &+ d) : (q, r)
}
