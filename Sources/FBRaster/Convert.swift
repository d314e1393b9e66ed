/// `Rasterizer.convert`: a rect of an `xrgb8888` picture into a target's format.
///
/// One plain loop per row and format (`PixelCodec.storeRow`), giving the bytes of
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
        withCodec(for: target.format, Rect(source: source, target: target, rect: r))
    }

    /// `run` over the pixels of `rect` in blocks `marked` (or `other`) marks:
    /// one format dispatch for all their runs.
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
        withCodec(
            for: target.format,
            MarkedRuns(source: source, target: target, rect: r, marked: marked, other: other))
    }

    /// The rows of `rect`, each in one piece.
    private struct Rect: CodecWork {
        let source: Surface
        let target: Surface
        let rect: IntRect

        func run<C: PixelCodec>(_: C.Type) {
            // The table once, not once a row (a lazy global checks on each use).
            let fields = Dither.fields565
            let (x, n) = (rect.x, rect.width)
            for y in rect.y..<rect.maxY {
                C.storeRow(
                    fromXRGB: UnsafeRawPointer(source.base + y &* source.stride + x &* 4),
                    to: target.base + y &* target.stride + x &* C.bytesPerPixel, x: x, count: n,
                    y: y, fields565: fields)
            }
        }
    }

    /// The runs of marked blocks of `rect`.
    private struct MarkedRuns: CodecWork {
        let source: Surface
        let target: Surface
        let rect: IntRect
        let marked: PaintedBlocks
        let other: PaintedBlocks?

        func run<C: PixelCodec>(_: C.Type) {
            let fields = Dither.fields565
            let (source, target) = (source, target)
            marked.forEachMarkedRun(in: rect, or: other) { y, x, n in
                C.storeRow(
                    fromXRGB: UnsafeRawPointer(source.base + y &* source.stride + x &* 4),
                    to: target.base + y &* target.stride + x &* C.bytesPerPixel, x: x, count: n,
                    y: y, fields565: fields)
            }
        }
    }

    /// `count` pixels through a codec of any width (no dither: 8-bit formats).
    @inline(__always)
    static func words<C: PixelCodec>(
        _: C.Type, _ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer, _ count: Int
    ) {
        for i in 0..<count {
            C.store(to + i &* C.bytesPerPixel, XRGB8888Codec.load(from + i &* 4), dither: 0)
        }
    }

    /// One pixel into a 16-bit format (see `row16`) through `cell`, the
    /// fields of its cell of the dither matrix.
    @inline(__always)
    static func pixel16(
        _ s: UnsafeRawPointer, _ to: UnsafeMutableRawPointer, _ cell: UnsafePointer<UInt16>,
        hi: Int, lo: Int
    ) {
        let v =
            cell[Int(s.load(fromByteOffset: hi, as: UInt8.self))]
            | cell[256 &+ Int(s.load(fromByteOffset: 1, as: UInt8.self))]
            | cell[512 &+ Int(s.load(fromByteOffset: lo, as: UInt8.self))]
        to.storeBytes(of: v.littleEndian, as: UInt16.self)
    }

    /// `count` pixels from column `x` of row `y` into a 16-bit format whose
    /// top 5 bits come from source byte `hi` and low 5 from byte `lo` (bytes
    /// of an xrgb8888 pixel in memory: B, G, R, X), through `fields`
    /// (`Dither.fields565`).
    @inline(__always)
    static func row16(
        _ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer, x: Int, count: Int, y: Int,
        _ fields: UnsafePointer<UInt16>, hi: Int, lo: Int
    ) {
        // The row's four cells, 768 entries apart: column c uses cells + (c & 3) * 768.
        let cells = fields + ((y & 3) << 2) * 768
        @inline(__always) func pixel(_ i: Int, _ column: Int) {
            pixel16(from + i &* 4, to + i &* 2, cells + column &* 768, hi: hi, lo: lo)
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
