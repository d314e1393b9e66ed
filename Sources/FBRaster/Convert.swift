/// `Rasterizer.convert`: a rect of an `xrgb8888` picture into a target's format.
///
/// One plain loop per row and format, giving the bytes of
/// `C.store(target, XRGB8888Codec.load(source), dither: cell)` pixel by pixel:
///
/// - 16-bit targets look each channel up in `Dither.fields565`, whose
///   entries are already shifted into place: three loads and two ORs a
///   pixel. Four pixels at a time from a column that is a multiple of 4, so
///   each of the four uses its own fixed cell (a constant offset).
/// - 32-bit targets load a word and store a word: LLVM vectorises it. The
///   source's X byte is not trusted (a fresh buffer holds zeros there), so
///   the loop writes 0xFF into it as `XRGB8888Codec.store` does, not `memcpy`.
/// - `rgb888` stores three bytes a pixel through its codec.
enum Convert {
    static func run(_ source: Surface, into target: Surface, in rect: IntRect) {
        precondition(source.format == .xrgb8888, "convert reads xrgb8888")
        precondition(
            source.width == target.width && source.height == target.height, "sizes differ")
        let r = rect.intersection(target.bounds)
        if r.isEmpty { return }
        let (x, n) = (r.x, r.width)
        switch target.format {
        case .rgb565:
            let fields = Dither.fields565
            rows(source, target, r) { row16($0, $1, x: x, count: n, y: $2, fields, hi: 2, lo: 0) }
        case .bgr565:
            let fields = Dither.fields565
            rows(source, target, r) { row16($0, $1, x: x, count: n, y: $2, fields, hi: 0, lo: 2) }
        case .xrgb8888, .argb8888:
            rows(source, target, r) { from, to, _ in words(XRGB8888Codec.self, from, to, n) }
        case .xbgr8888:
            rows(source, target, r) { from, to, _ in words(XBGR8888Codec.self, from, to, n) }
        case .rgb888:
            rows(source, target, r) { from, to, _ in words(RGB888Codec.self, from, to, n) }
        }
    }

    /// `run` over the pixels of `rect` in blocks `marked` (or `other`) marks:
    /// one format switch for all their runs.
    static func runs(
        _ source: Surface, into target: Surface, in rect: IntRect, marked: PaintedBlocks,
        or other: PaintedBlocks?
    ) {
        precondition(source.format == .xrgb8888, "convert reads xrgb8888")
        precondition(
            source.width == target.width && source.height == target.height
                && marked.width == target.width && marked.height == target.height, "sizes differ")
        let r = rect.intersection(target.bounds)
        if r.isEmpty { return }
        let bytes = target.format.bytesPerPixel
        @inline(__always) func each(
            _ body: (UnsafeRawPointer, UnsafeMutableRawPointer, Int, Int, Int) -> Void
        ) {
            marked.forEachMarkedRun(in: r, or: other) { y, x, n in
                body(
                    UnsafeRawPointer(source.base + y &* source.stride + x &* 4),
                    target.base + y &* target.stride + x &* bytes, x, n, y)
            }
        }
        // The table once, not once a run (a lazy global checks on each use).
        let fields = Dither.fields565
        switch target.format {
        case .rgb565: each { row16($0, $1, x: $2, count: $3, y: $4, fields, hi: 2, lo: 0) }
        case .bgr565: each { row16($0, $1, x: $2, count: $3, y: $4, fields, hi: 0, lo: 2) }
        case .xrgb8888, .argb8888: each { f, t, _, n, _ in words(XRGB8888Codec.self, f, t, n) }
        case .xbgr8888: each { f, t, _, n, _ in words(XBGR8888Codec.self, f, t, n) }
        case .rgb888: each { f, t, _, n, _ in words(RGB888Codec.self, f, t, n) }
        }
    }

    /// Calls `body(from, to, y)` with the first pixel of `r` on each row of
    /// the source and the target.
    @inline(__always)
    private static func rows(
        _ s: Surface, _ t: Surface, _ r: IntRect,
        _ body: (UnsafeRawPointer, UnsafeMutableRawPointer, Int) -> Void
    ) {
        let bytes = t.format.bytesPerPixel
        for y in r.y..<r.maxY {
            body(
                UnsafeRawPointer(s.base + y * s.stride + r.x * 4),
                t.base + y * t.stride + r.x * bytes, y)
        }
    }

    /// `count` pixels through a codec of any width (no dither: 8-bit formats).
    @inline(__always)
    private static func words<C: PixelCodec>(
        _: C.Type, _ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer, _ count: Int
    ) {
        for i in 0..<count {
            C.store(to + i &* C.bytesPerPixel, XRGB8888Codec.load(from + i &* 4), dither: 0)
        }
    }

    /// `count` pixels from column `x` of row `y` into a 16-bit format whose
    /// top 5 bits come from source byte `hi` and low 5 from byte `lo` (bytes
    /// of an xrgb8888 pixel in memory: B, G, R, X), through `fields`
    /// (`Dither.fields565`).
    @inline(__always)
    private static func row16(
        _ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer, x: Int, count: Int, y: Int,
        _ fields: UnsafePointer<UInt16>, hi: Int, lo: Int
    ) {
        // The row's four cells, 768 entries apart: column c uses cells + (c & 3) * 768.
        let cells = fields + ((y & 3) << 2) * 768
        @inline(__always) func pixel(_ i: Int, _ column: Int) {
            let s = from + i &* 4
            let t = cells + column &* 768
            let v =
                t[Int(s.load(fromByteOffset: hi, as: UInt8.self))]
                | t[256 &+ Int(s.load(fromByteOffset: 1, as: UInt8.self))]
                | t[512 &+ Int(s.load(fromByteOffset: lo, as: UInt8.self))]
            (to + i &* 2).storeBytes(of: v.littleEndian, as: UInt16.self)
        }
        var i = 0
        // Up to the first column that is a multiple of 4.
        while i < count && (x &+ i) & 3 != 0 {
            pixel(i, (x &+ i) & 3)
            i &+= 1
        }
        while i &+ 4 <= count {
            pixel(i, 0)
            pixel(i &+ 1, 1)
            pixel(i &+ 2, 2)
            pixel(i &+ 3, 3)
            i &+= 4
        }
        while i < count {
            pixel(i, (x &+ i) & 3)
            i &+= 1
        }
    }
}
