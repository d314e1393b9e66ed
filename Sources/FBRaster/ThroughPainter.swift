/// A 16-bit surface that an `xrgb8888` canvas of its size is dithered
/// into, painted through (`Rasterizer.fill(through:)`). Plain values, no
/// owner: handed down to every fill of a frame without reference counting.
package struct DitherTarget {
    let base: UnsafeMutableRawPointer
    let stride: Int
    let width: Int
    let height: Int
    /// The source bytes of the pixel's top and low fields (`Convert.row16`).
    let hi: Int
    let lo: Int

    /// `surface` as a target, `nil` unless its format has 16 bits.
    package init?(_ surface: Surface) {
        switch surface.format {
        case .rgb565: (hi, lo) = (2, 0)
        case .bgr565: (hi, lo) = (0, 2)
        default: return nil
        }
        (base, stride, width, height) =
            (surface.base, surface.stride, surface.width, surface.height)
    }

    /// `rgb`'s pattern in this target's format.
    func pattern(_ rgb: UInt32) -> DitherPattern {
        hi == 2 ? DitherPattern(rgb, RGB565Codec.self) : DitherPattern(rgb, BGR565Codec.self)
    }
}

/// `KeptPainter`'s opaque whole rows painted through: each pixel goes into
/// the `xrgb8888` canvas and, at once, into the 16-bit target the canvas is
/// dithered into, so the target needs no conversion of those pixels after
/// (`FrameRenderer`'s frames drawn through, for `rgb565` panels: a spinner
/// frame's leaves dithered as they are painted, not found again block by
/// block in a map and read back).
///
/// The target gets the bytes `Convert` gives: an edge pixel is converted
/// from the canvas by `Convert.pixel16` as soon as it is blended; inside
/// pixels, all of the colour, take the colour's pattern (`DitherPattern`).
enum ThroughPainter<C: PixelCodec> {
    /// Paints the rows at `code` (segments from column `left`) on `rows`
    /// of `canvas` with opaque `rgb`, edges blended through `table`
    /// (`BlendTables.encoded`) over the canvas word `dst`, and each pixel
    /// into `target` (of the canvas's size).
    static func opaqueWholeRows(
        _ code: UnsafePointer<UInt8>, x left: Int, rows: Range<Int>, canvas: Surface,
        target: DitherTarget, _ rgb: UInt32, _ dst: UInt32, _ table: UnsafePointer<UInt32>
    ) {
        let fields = Dither.fields565
        let pattern = target.pattern(rgb)
        let (hi, lo) = (target.hi, target.lo)
        var p = code
        var line = canvas.base + rows.lowerBound &* canvas.stride
        var out = target.base + rows.lowerBound &* target.stride
        for y in rows {
            let cells = fields + ((y & 3) << 2) &* 768
            let word = pattern.row(y)
            while true {
                let (sx, a, f, b, values, next, last) = CoverageCode.segment(p)
                p = next
                var x = left &+ sx
                if a > 0 { edges(line, out, x, a, cells, hi, lo, rgb, values, dst, table) }
                x &+= a
                if f > 0 {
                    Spans<C>.fill(line, x: x, count: f, y: y, rgb: rgb)
                    DitherPattern.fill(out, x: x, count: f, word)
                }
                x &+= f
                if b > 0 { edges(line, out, x, b, cells, hi, lo, rgb, values + a, dst, table) }
                if last { break }
            }
            line += canvas.stride
            out += target.stride
        }
    }

    /// `n` edge pixels from `x`: blended as `Spans.blendMask(overWord:)`
    /// blends them, each converted as soon as it is in the canvas
    /// (`cells`: the row's cells of the dither matrix).
    @inline(__always)
    private static func edges(
        _ line: UnsafeMutableRawPointer, _ out: UnsafeMutableRawPointer, _ x: Int, _ n: Int,
        _ cells: UnsafePointer<UInt16>, _ hi: Int, _ lo: Int, _ rgb: UInt32,
        _ mask: UnsafePointer<UInt8>, _ dstWord: UInt32, _ encoded: UnsafePointer<UInt32>
    ) {
        for i in 0..<n {
            let s = line + (x &+ i) &* 4
            let m = Int(mask[i])
            if s.loadUnaligned(as: UInt32.self) == dstWord {
                s.storeBytes(of: encoded[m], as: UInt32.self)
            } else if m != 0 {
                C.store(s, m == 255 ? rgb : blendRGB(rgb, C.load(s), UInt32(m)), dither: 0)
            }
            Convert.pixel16(
                s, out + (x &+ i) &* 2, cells + ((x &+ i) & 3) &* 768, hi: hi, lo: lo)
        }
    }
}

/// One opaque colour as a 16-bit target shows it: for each row of the
/// dither matrix, the pixels of its four columns in one word (in memory
/// order), so a run of the colour is a word stored every four pixels.
struct DitherPattern {
    private var words = SIMD4<UInt64>()

    /// `rgb` as 16-bit codec `M` stores it in each cell of the matrix:
    /// the bytes `Convert` gives a run of it (`Dither.fields565` is made
    /// from the codecs' tables).
    init<M: PixelCodec>(_ rgb: UInt32, _: M.Type) {
        precondition(M.bytesPerPixel == 2, "a pattern holds 16-bit pixels")
        for row in 0..<4 {
            var word: UInt64 = 0
            withUnsafeMutableBytes(of: &word) { out in
                for column in 0..<4 {
                    M.store(out.baseAddress! + column &* 2, rgb, dither: row << 2 | column)
                }
            }
            words[row] = word
        }
    }

    /// The word of row `y`.
    @inline(__always)
    func row(_ y: Int) -> UInt64 { words[y & 3] }

    /// `count` pixels from column `x` of the row at `line`, from its row's `word`.
    @inline(__always)
    static func fill(_ line: UnsafeMutableRawPointer, x: Int, count: Int, _ word: UInt64) {
        // The word turned to start at column x & 3: pixel i is column (x + i) & 3.
        let turn = UInt64((x & 3) &* 16)
        #if _endian(little)
            var from = word &>> turn | word &<< ((64 &- turn) & 63)
        #else
            var from = word &<< turn | word &>> ((64 &- turn) & 63)
        #endif
        if turn == 0 { from = word }
        var p = line + x &* 2
        var n = count
        // Long runs (a clear) 16 pixels a pass.
        let pair = SIMD2<UInt64>(repeating: from)
        while n >= 16 {
            p.storeBytes(of: pair, as: SIMD2<UInt64>.self)
            p.storeBytes(of: pair, toByteOffset: 16, as: SIMD2<UInt64>.self)
            p += 32
            n &-= 16
        }
        while n >= 4 {
            p.storeBytes(of: from, as: UInt64.self)
            p += 8
            n &-= 4
        }
        // The last 1...3 pixels: the word's first.
        while n > 0 {
            #if _endian(little)
                p.storeBytes(of: UInt16(truncatingIfNeeded: from), as: UInt16.self)
                from &>>= 16
            #else
                p.storeBytes(of: UInt16(truncatingIfNeeded: from &>> 48), as: UInt16.self)
                from &<<= 16
            #endif
            p += 2
            n &-= 1
        }
    }
}
