/// Exact area coverage of a polygon, one row of alpha at a time.
///
/// Each edge deposits, in every pixel cell it crosses, its signed height
/// times the part of the cell to its right (FreeType's and font-rs's
/// accumulation): a running sum along a row then gives each pixel's covered
/// area. Units: a whole pixel is 2^17 (height in 1/256 px times twice the
/// width in 1/256 px). The sign is the winding; its magnitude is clamped to
/// one pixel, so parts of one shape that overlap count once.
///
/// Cells are kept zeroed between uses and only the rows' touched ranges are
/// read, so a thin ring costs its outline, not its bounding box.
struct CoverageAccumulator {
    private(set) var bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
    private var cells: [Int32] = []
    private var rowMin: [Int32] = []
    private var rowMax: [Int32] = []
    /// Alpha of the current row, indexed by `x - bounds.x`.
    private(set) var alpha: [UInt8] = []

    private static let fullPixel: Int64 = 1 << 17

    /// Prepares an empty area for `rect` (already clipped to the surface).
    mutating func begin(_ rect: IntRect) {
        bounds = rect
        let stride = rect.width + 2
        if cells.count < stride * rect.height {
            cells = [Int32](repeating: 0, count: stride * rect.height)
        }
        if rowMin.count < rect.height {
            rowMin = [Int32](repeating: 0, count: rect.height)
            rowMax = [Int32](repeating: 0, count: rect.height)
        }
        if alpha.count < rect.width { alpha = [UInt8](repeating: 0, count: rect.width) }
        for r in 0..<rect.height {
            rowMin[r] = Int32.max
            rowMax[r] = Int32.min
        }
    }

    /// Adds every closed contour of `polygon` (24.8 device subpixels).
    mutating func add(_ polygon: Polygon) {
        let ox = Int64(bounds.x) << 8
        let oy = Int64(bounds.y) << 8
        polygon.coordinates.withUnsafeBufferPointer { v in
            var start = 0
            for end in polygon.contourEnds {
                var px = v[2 * (end - 1)] - ox
                var py = v[2 * (end - 1) + 1] - oy
                for i in start..<end {
                    let x = v[2 * i] - ox
                    let y = v[2 * i + 1] - oy
                    line(px, py, x, y)
                    px = x
                    py = y
                }
                start = end
            }
        }
    }

    /// One edge, in subpixels relative to the bounds' origin.
    private mutating func line(_ x0: Int64, _ y0: Int64, _ x1: Int64, _ y1: Int64) {
        if y0 == y1 { return }
        let (xa, ya, xb, yb, dir): (Int64, Int64, Int64, Int64, Int64) =
            y0 < y1 ? (x0, y0, x1, y1, 1) : (x1, y1, x0, y0, -1)
        let top = max(ya, 0)
        let bottom = min(yb, Int64(bounds.height) << 8)
        if top >= bottom { return }
        let dx = xb - xa
        let dy = yb - ya
        var rowTop = top
        var xTop = xa + roundedDivide(dx * (rowTop - ya), dy)
        while rowTop < bottom {
            let row = rowTop >> 8
            let rowBottom = min(bottom, (row + 1) << 8)
            let xBottom = xa + roundedDivide(dx * (rowBottom - ya), dy)
            rowSegment(Int(row), xTop, rowTop - (row << 8), xBottom, rowBottom - (row << 8), dir)
            rowTop = rowBottom
            xTop = xBottom
        }
    }

    /// The part of an edge inside one row: heights `y` in 0...256 of the row.
    private mutating func rowSegment(
        _ row: Int, _ xa: Int64, _ ya: Int64, _ xb: Int64, _ yb: Int64, _ dir: Int64
    ) {
        // Walk left to right; each piece keeps the edge's direction.
        var (lx, ly, rx, ry) = xa <= xb ? (xa, ya, xb, yb) : (xb, yb, xa, ya)
        let right = Int64(bounds.width) << 8
        if lx >= right { return }  // only pixels past the right edge would change
        if rx <= 0 {
            cell(row, -1, 0, 0, dir * (ry - ly).magnitudeAsInt64)
            return
        }
        if lx < 0 {
            // Left of the area, an edge only adds its height to every pixel.
            let y0 = ly + roundedDivide((ry - ly) * -lx, rx - lx)
            cell(row, -1, 0, 0, dir * (y0 - ly).magnitudeAsInt64)
            lx = 0
            ly = y0
        }
        if rx > right {
            ry = ly + roundedDivide((ry - ly) * (right - lx), rx - lx)
            rx = right
        }
        var c = lx >> 8
        let last = rx >> 8
        if c == last {
            cell(row, Int(c), lx - (c << 8), rx - (c << 8), dir * (ry - ly).magnitudeAsInt64)
            return
        }
        var px = lx
        var py = ly
        while c < last {
            let bx = (c + 1) << 8
            let by = ly + roundedDivide((ry - ly) * (bx - lx), rx - lx)
            cell(row, Int(c), px - (c << 8), 256, dir * (by - py).magnitudeAsInt64)
            px = bx
            py = by
            c += 1
        }
        cell(row, Int(last), 0, rx - (last << 8), dir * (ry - py).magnitudeAsInt64)
    }

    /// Deposits a piece of edge of signed height `h` crossing cell `c` between
    /// x offsets `fx0` and `fx1` (0...256). `c < 0`: left of the area.
    @inline(__always)
    private mutating func cell(_ row: Int, _ c: Int, _ fx0: Int64, _ fx1: Int64, _ h: Int64) {
        if h == 0 { return }
        let base = row * (bounds.width + 2)
        if c < 0 {
            cells[base] &+= Int32(truncatingIfNeeded: h * 512)
            rowMin[row] = min(rowMin[row], 0)
            rowMax[row] = max(rowMax[row], 0)
            return
        }
        if c >= bounds.width { return }
        let inside = h * (512 - fx0 - fx1)
        cells[base + c] &+= Int32(truncatingIfNeeded: inside)
        cells[base + c + 1] &+= Int32(truncatingIfNeeded: h * 512 - inside)
        rowMin[row] = min(rowMin[row], Int32(c))
        rowMax[row] = max(rowMax[row], Int32(c + 1))
    }

    /// Turns row `r` (relative to the bounds) into alpha and clears its cells.
    /// Returns the range of `alpha` indices that may be non-zero, or `nil`.
    mutating func resolveRow(_ r: Int) -> Range<Int>? {
        let lo = Int(rowMin[r])
        let hi = Int(rowMax[r])
        if lo > hi { return nil }
        let width = bounds.width
        let end = min(hi, width - 1)
        let base = r * (width + 2)
        cells.withUnsafeMutableBufferPointer { cells in
            alpha.withUnsafeMutableBufferPointer { alpha in
                var sum: Int64 = 0
                if lo <= end {
                    for x in lo...end {
                        sum += Int64(cells[base + x])
                        cells[base + x] = 0
                        let area = sum < 0 ? -sum : sum
                        alpha[x] = UInt8(truncatingIfNeeded: min((area * 255 + 65536) >> 17, 255))
                    }
                }
                // Cells past the last pixel only held the rest of the row's sum.
                var x = end + 1
                while x <= hi {
                    cells[base + x] = 0
                    x += 1
                }
            }
        }
        return lo <= end ? lo..<(end + 1) : nil
    }
}

extension Int64 {
    @inline(__always) fileprivate var magnitudeAsInt64: Int64 { self < 0 ? -self : self }
}
