/// Paints kept coverage (`CoverageCache`) with one colour straight from its
/// code: no runs are built and no alpha is copied; a segment is three span
/// calls at most (edge, inside, edge). The per-pixel work is that of the
/// span routines `RowPainter` uses (edges of an opaque colour through a
/// blend table made by `blendRGB`), and a pixel's bytes depend only on its
/// coverage, so the bytes are those of the usual path.
enum KeptPainter<C: PixelCodec> {
    /// Paints the rows at `code` (covering `area`) inside `clip` (within
    /// `area`) with `color`, marking the blocks painted in `marks`; or,
    /// with `through` (the 16-bit target an `xrgb8888` canvas is dithered
    /// into) and where `ThroughPainter` paints, into the target as well,
    /// marking nothing: what is not painted through is marked.
    ///
    /// An opaque colour on a 24- or 32-bit surface blends its edges through
    /// a table (`tables`) over `backdrop` (where most edges land: the colour
    /// last cleared to), or else over the colour of the clip's first pixel.
    /// (A 16-bit pixel reads back dithered: it would seldom equal a colour.)
    static func solid(
        _ code: UnsafePointer<UInt8>, area: IntRect, clip: IntRect, surface: Surface,
        color: Color, marks: PaintedBlocks?, tables: BlendTables, backdrop: UInt32?,
        through: DitherTarget? = nil
    ) {
        let rgb = color.rgb
        let alpha = UInt32(color.a)
        var row = code
        for _ in area.y..<clip.y { row = CoverageCode.rowAfter(row) }
        var table: UnsafePointer<UInt32>?
        var dst: UInt32 = 0
        if alpha == 255 && C.bytesPerPixel > 2 {
            dst =
                backdrop
                ?? C.load(surface.base + clip.y &* surface.stride + clip.x &* C.bytesPerPixel)
            if clip.x == area.x && clip.maxX == area.maxX {
                if C.bytesPerPixel == 4 {
                    let encoded = tables.encoded(C.self, rgb: rgb, over: dst)
                    if let through, C.self == XRGB8888Codec.self {
                        ThroughPainter<C>.opaqueWholeRows(
                            row, x: area.x, rows: clip.y..<clip.maxY, canvas: surface,
                            target: through, rgb, C.word(dst), encoded)
                        return
                    }
                    opaqueWholeRows(
                        row, x: area.x, rows: clip.y..<clip.maxY, surface, rgb, C.word(dst),
                        encoded, marks)
                } else {
                    let made = tables.table(rgb: rgb, over: dst)
                    opaqueWholeRows(
                        row, x: area.x, rows: clip.y..<clip.maxY, surface, rgb, dst, made, marks)
                }
                return
            }
            table = tables.table(rgb: rgb, over: dst)
        }
        let x0 = clip.x
        let x1 = clip.maxX
        for y in clip.y..<clip.maxY {
            var p = row
            let line = surface.base + y &* surface.stride
            var painted = RowMarks()
            while true {
                let (sx, a, f, b, values, next, last) = CoverageCode.segment(p)
                p = next
                let x = area.x &+ sx
                if x >= x1 {
                    if !last { p = CoverageCode.rowAfter(p) }
                    break
                }
                let segmentEnd = x &+ a &+ f &+ b
                // (Only an empty row's segment is empty.)
                if segmentEnd > x0 && segmentEnd > x {
                    if x >= x0 && segmentEnd <= x1 {
                        // Wholly inside the clip: no clipping.
                        if a > 0 { edge(line, x, a, y, rgb, alpha, values, dst, table) }
                        if f > 0 { full(line, x &+ a, f, y, rgb, alpha) }
                        if b > 0 {
                            edge(line, x &+ a &+ f, b, y, rgb, alpha, values + a, dst, table)
                        }
                    } else {
                        clipped(line, x, a, f, b, values, x0, x1, y, rgb, alpha, dst, table)
                    }
                    if let marks { painted.add(max(x, x0), min(segmentEnd, x1), y, marks) }
                }
                if last { break }
            }
            row = p
            if let marks { painted.flush(y, marks) }
        }
    }

    /// `solid` for the common case, in a loop of its own that keeps its
    /// values in registers: an opaque colour, rows whole (not cut at the
    /// sides), from the row whose code is at `code`. On a 4-byte format
    /// `dst` is the backdrop's pixel word and `table` its `encoded` table
    /// (`BlendTables`); otherwise the colour and its table of colours.
    private static func opaqueWholeRows(
        _ code: UnsafePointer<UInt8>, x left: Int, rows: Range<Int>, _ surface: Surface,
        _ rgb: UInt32, _ dst: UInt32, _ table: UnsafePointer<UInt32>, _ marks: PaintedBlocks?
    ) {
        var p = code
        var line = surface.base + rows.lowerBound &* surface.stride
        for y in rows {
            var painted = RowMarks()
            while true {
                let (sx, a, f, b, values, next, last) = CoverageCode.segment(p)
                p = next
                let start = left &+ sx
                var x = start
                if a > 0 { edges(line, x, a, y, rgb, values, dst, table) }
                x &+= a
                if f > 0 { Spans<C>.fill(line, x: x, count: f, y: y, rgb: rgb) }
                x &+= f
                if b > 0 { edges(line, x, b, y, rgb, values + a, dst, table) }
                x &+= b
                // (Only an empty row's segment is empty.)
                if let marks, x > start { painted.add(start, x, y, marks) }
                if last { break }
            }
            if let marks { painted.flush(y, marks) }
            line += surface.stride
        }
    }

    /// `opaqueWholeRows`' edge pixels: through the encoded table on a 4-byte
    /// format, the table of colours otherwise.
    @inline(__always)
    private static func edges(
        _ line: UnsafeMutableRawPointer, _ x: Int, _ n: Int, _ y: Int, _ rgb: UInt32,
        _ values: UnsafePointer<UInt8>, _ dst: UInt32, _ table: UnsafePointer<UInt32>
    ) {
        if C.bytesPerPixel == 4 {
            Spans<C>.blendMask(
                line, x: x, count: n, rgb: rgb, mask: values, overWord: dst, encoded: table)
        } else {
            Spans<C>.blendMask(
                line, x: x, count: n, y: y, rgb: rgb, mask: values, over: dst, table: table)
        }
    }

    /// `n` fully covered pixels from `x`: the colour at its opacity.
    @inline(__always)
    private static func full(
        _ line: UnsafeMutableRawPointer, _ x: Int, _ n: Int, _ y: Int, _ rgb: UInt32,
        _ alpha: UInt32
    ) {
        // div255(alpha * 255) is alpha.
        if alpha == 255 {
            Spans<C>.fill(line, x: x, count: n, y: y, rgb: rgb)
        } else {
            Spans<C>.blend(line, x: x, count: n, y: y, rgb: rgb, m: alpha)
        }
    }

    /// A segment that crosses the clip's edges: each part clipped.
    private static func clipped(
        _ line: UnsafeMutableRawPointer, _ x: Int, _ a: Int, _ f: Int, _ b: Int,
        _ values: UnsafePointer<UInt8>, _ x0: Int, _ x1: Int, _ y: Int, _ rgb: UInt32,
        _ alpha: UInt32, _ dst: UInt32, _ table: UnsafePointer<UInt32>?
    ) {
        var lo = max(x, x0)
        var hi = min(x + a, x1)
        if lo < hi { edge(line, lo, hi - lo, y, rgb, alpha, values + (lo - x), dst, table) }
        lo = max(x + a, x0)
        hi = min(x + a + f, x1)
        if lo < hi { full(line, lo, hi - lo, y, rgb, alpha) }
        lo = max(x + a + f, x0)
        hi = min(x + a + f + b, x1)
        if lo < hi {
            edge(line, lo, hi - lo, y, rgb, alpha, values + a + (lo - x - a - f), dst, table)
        }
    }

    /// `n` edge pixels from `x` whose coverages `values` holds: through the
    /// table when there is one (an opaque colour).
    @inline(__always)
    private static func edge(
        _ line: UnsafeMutableRawPointer, _ x: Int, _ n: Int, _ y: Int, _ rgb: UInt32,
        _ alpha: UInt32, _ values: UnsafePointer<UInt8>, _ dst: UInt32,
        _ table: UnsafePointer<UInt32>?
    ) {
        if let table {
            Spans<C>.blendMask(
                line, x: x, count: n, y: y, rgb: rgb, mask: values, over: dst, table: table)
        } else {
            Spans<C>.blendMask(line, x: x, count: n, y: y, rgb: rgb, alpha: alpha, mask: values)
        }
    }

}

/// The blocks painted on a row, gathered in a word (bit `i`: block
/// `window + i`) and put in the map at once, not a call a span.
struct RowMarks {
    private var window = 0
    private var painted: UInt64 = 0

    /// Pixels `lo..<hi` of row `y` (not empty, left of none added before) are painted.
    @inline(__always)
    mutating func add(_ lo: Int, _ hi: Int, _ y: Int, _ marks: PaintedBlocks) {
        let first = lo >> 2
        let last = (hi &- 1) >> 2
        if painted == 0 { window = first }
        if last &- window < 64 {
            painted |= PaintedBlocks.blocks(first &- window, through: last &- window)
        } else {
            spill(lo, hi, y, marks)
        }
    }

    /// `add` past the word's reach: the word is put in the map and starts
    /// again at `lo`.
    @inline(never)
    private mutating func spill(_ lo: Int, _ hi: Int, _ y: Int, _ marks: PaintedBlocks) {
        flush(y, marks)
        let first = lo >> 2
        let last = (hi &- 1) >> 2
        if last &- first >= 64 {
            marks.mark(y: y, x: lo, count: hi &- lo)
        } else {
            window = first
            painted = PaintedBlocks.blocks(0, through: last &- first)
        }
    }

    @inline(__always)
    mutating func flush(_ y: Int, _ marks: PaintedBlocks) {
        if painted != 0 { marks.mark(y: y, fromBlock: window, blocks: painted) }
        painted = 0
    }
}
