/// The inner loops: plain loops over a row, one specialisation per pixel format.
///
/// Chosen once per shape, by format (`withCodec`) and paint (`RowPainter`), and once per
/// run by coverage (whole pixels or a mask); nothing inside a loop dispatches.
/// Every routine blends with `blendRGB`, the one rounding rule, so a fast
/// path gives the bytes the general path would.
enum Spans<C: PixelCodec> {
    /// Opaque colour over `count` pixels from column `x` of row `y`.
    ///
    /// 32-bit formats do not dither: one word, stored `count` times, 4 at a
    /// time. Otherwise one colour on one row repeats every 4 pixels (the
    /// dither matrix's width): the first 4 are encoded, the rest copied from
    /// 4 pixels back, 16-bit formats 8 bytes (4 pixels) at a time.
    @inline(__always)
    static func fill(_ row: UnsafeMutableRawPointer, x: Int, count: Int, y: Int, rgb: UInt32) {
        let start = row + x &* C.bytesPerPixel
        if C.bytesPerPixel == 4 {
            let word = C.word(rgb)
            let quad = SIMD4<UInt32>(repeating: word)
            // 4 to 8 pixels (the inside of a stroke's row, most fills of a
            // spinner frame): two stores that may overlap, one test. Under
            // an emulator each branch taken costs a block dispatch.
            if UInt(bitPattern: count &- 4) <= 4 {
                start.storeBytes(of: quad, as: SIMD4<UInt32>.self)
                start.storeBytes(
                    of: quad, toByteOffset: (count &- 4) &* 4, as: SIMD4<UInt32>.self)
                return
            }
            // 9 to 16 (a stroke's inside at scale 2): four, the same way.
            if UInt(bitPattern: count &- 9) <= 7 {
                let end = (count &- 8) &* 4
                start.storeBytes(of: quad, as: SIMD4<UInt32>.self)
                start.storeBytes(of: quad, toByteOffset: 16, as: SIMD4<UInt32>.self)
                start.storeBytes(of: quad, toByteOffset: end, as: SIMD4<UInt32>.self)
                start.storeBytes(of: quad, toByteOffset: end &+ 16, as: SIMD4<UInt32>.self)
                return
            }
            guard count >= 4 else {
                for i in 0..<count {
                    start.storeBytes(of: word, toByteOffset: i &* 4, as: UInt32.self)
                }
                return
            }
            // 4 pixels a store; the last store overlaps the one before it
            // rather than finishing pixel by pixel (runs are short).
            var i = 0
            // Long runs (clears) 32 pixels a pass: under an emulator (the
            // VM of Tests/VM) each pass of a loop costs a block dispatch.
            while i &+ 32 <= count {
                for k in 0..<8 {
                    start.storeBytes(
                        of: quad, toByteOffset: (i &+ 4 &* k) &* 4, as: SIMD4<UInt32>.self)
                }
                i &+= 32
            }
            while i &+ 8 <= count {
                start.storeBytes(of: quad, toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
                start.storeBytes(of: quad, toByteOffset: i &* 4 &+ 16, as: SIMD4<UInt32>.self)
                i &+= 8
            }
            if i &+ 4 <= count {
                start.storeBytes(of: quad, toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
                i &+= 4
            }
            if i < count {
                start.storeBytes(of: quad, toByteOffset: (count &- 4) &* 4, as: SIMD4<UInt32>.self)
            }
            return
        }
        let cellRow = (y & 3) << 2
        let head = min(count, 4)
        for i in 0..<head {
            C.store(start + i * C.bytesPerPixel, rgb, dither: cellRow | ((x + i) & 3))
        }
        guard count > 4 else { return }
        let period = 4 * C.bytesPerPixel
        var p = start + period
        let end = start + count * C.bytesPerPixel
        if C.bytesPerPixel == 2 {
            let pattern = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
            while end - p >= 8 {
                p.storeBytes(of: pattern, as: UInt64.self)
                p += 8
            }
        }
        while p < end {
            C.copy(from: p - period, to: p)
            p += C.bytesPerPixel
        }
    }

    /// Colour at constant opacity `m` (1...254) over `count` pixels.
    @inline(__always)
    static func blend(
        _ row: UnsafeMutableRawPointer, x: Int, count: Int, y: Int, rgb: UInt32, m: UInt32
    ) {
        var p = row + x &* C.bytesPerPixel
        let cellRow = (y & 3) << 2
        for i in 0..<count {
            C.store(p, blendRGB(rgb, C.load(p), m), dither: cellRow | ((x &+ i) & 3))
            p += C.bytesPerPixel
        }
    }

    /// Colour at opacity `alpha` times `mask[i]` (both 0...255) over `count` pixels.
    @inline(__always)
    static func blendMask(
        _ row: UnsafeMutableRawPointer, x: Int, count: Int, y: Int, rgb: UInt32, alpha: UInt32,
        mask: UnsafePointer<UInt8>
    ) {
        var p = row + x &* C.bytesPerPixel
        let cellRow = (y & 3) << 2
        if alpha == 255 {
            // div255(255 * v) is v: the mask is the opacity.
            for i in 0..<count {
                let m = UInt32(mask[i])
                if m != 0 {
                    let out = m == 255 ? rgb : blendRGB(rgb, C.load(p), m)
                    C.store(p, out, dither: cellRow | ((x &+ i) & 3))
                }
                p += C.bytesPerPixel
            }
            return
        }
        for i in 0..<count {
            let m = div255(alpha &* UInt32(mask[i]))
            if m != 0 {
                let out = m == 255 ? rgb : blendRGB(rgb, C.load(p), m)
                C.store(p, out, dither: cellRow | ((x &+ i) & 3))
            }
            p += C.bytesPerPixel
        }
    }

    /// `blendMask` of an opaque colour, looking up the pixels that hold
    /// `dst` in `table` (`BlendTables`): the same bytes, most of them
    /// (edges over a cleared background) for a lookup instead of a blend.
    @inline(__always)
    static func blendMask(
        _ row: UnsafeMutableRawPointer, x: Int, count: Int, y: Int, rgb: UInt32,
        mask: UnsafePointer<UInt8>, over dst: UInt32, table: UnsafePointer<UInt32>
    ) {
        var p = row + x &* C.bytesPerPixel
        let cellRow = (y & 3) << 2
        for i in 0..<count {
            let m = UInt32(mask[i])
            let d = C.load(p)
            // One test for the common pixel (covered, over `dst`), not two:
            // under an emulator each branch taken costs a block dispatch.
            // (m - 1) >> 31 is 1 for m = 0 only.
            if (d ^ dst) | ((m &- 1) &>> 31) == 0 {
                C.store(p, table[Int(m)], dither: cellRow | ((x &+ i) & 3))
            } else if m != 0 {
                C.store(p, m == 255 ? rgb : blendRGB(rgb, d, m), dither: cellRow | ((x &+ i) & 3))
            }
            p += C.bytesPerPixel
        }
    }

    /// `blendMask` of an opaque colour on a 4-byte format, the table
    /// `encoded` (`BlendTables.encoded`: pixel words) over the pixel word
    /// `dstWord`: a pixel that holds that word takes its entry as it is (at
    /// coverage 0, the word it holds), the others blend. The same bytes as
    /// the table of `blendMask(_:x:count:y:rgb:mask:over:table:)`, in about
    /// half its instructions a pixel: one compare, no conversion.
    @inline(__always)
    static func blendMask(
        _ row: UnsafeMutableRawPointer, x: Int, count: Int, rgb: UInt32,
        mask: UnsafePointer<UInt8>, overWord dstWord: UInt32, encoded: UnsafePointer<UInt32>
    ) {
        let p = row + x &* 4
        for i in 0..<count {
            let m = Int(mask[i])
            let d = p.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
            if d == dstWord {
                p.storeBytes(of: encoded[m], toByteOffset: i &* 4, as: UInt32.self)
            } else if m != 0 {
                let out = m == 255 ? rgb : blendRGB(rgb, C.load(p + i &* 4), UInt32(m))
                C.store(p + i &* 4, out, dither: 0)
            }
        }
    }

    /// A sweep gradient's colour at its opacity in each pixel's direction
    /// (`alphas`, a `SweepTable`, indexed by the `DirectionCache` row
    /// `directions`) times `coverage[i]`: what `SweepSampler.modulate` then
    /// `blendMask` do, in one pass (rows away from the gradient's centre).
    /// Pixels that hold `dst` (the backdrop) look their colour up in `table`
    /// (`BlendTables`), the others blend: the same bytes either way. Not
    /// inlined: a run is long, and alone the loop keeps its values in registers.
    @inline(never)
    static func blendSweep(
        _ row: UnsafeMutableRawPointer, x: Int, count: Int, y: Int, rgb: UInt32,
        alphas: UnsafePointer<UInt8>, coverage: UnsafePointer<UInt8>,
        directions: UnsafePointer<UInt16>, over dst: UInt32, table: UnsafePointer<UInt32>
    ) {
        var p = row + x &* C.bytesPerPixel
        let cellRow = (y & 3) << 2
        for i in 0..<count {
            let m = div255(UInt32(alphas[Int(directions[i])]) &* UInt32(coverage[i]))
            if m != 0 {
                let d = C.load(p)
                let out = d == dst ? table[Int(m)] : m == 255 ? rgb : blendRGB(rgb, d, m)
                C.store(p, out, dither: cellRow | ((x &+ i) & 3))
            }
            p += C.bytesPerPixel
        }
    }

    /// `blendSweep` of wholly covered pixels: the opacity is the table's
    /// (`div255(a * 255)` is `a`), one lookup a pixel.
    @inline(never)
    static func blendSweep(
        _ row: UnsafeMutableRawPointer, x: Int, count: Int, y: Int, rgb: UInt32,
        alphas: UnsafePointer<UInt8>, directions: UnsafePointer<UInt16>, over dst: UInt32,
        table: UnsafePointer<UInt32>
    ) {
        var p = row + x &* C.bytesPerPixel
        let cellRow = (y & 3) << 2
        for i in 0..<count {
            let m = UInt32(alphas[Int(directions[i])])
            if m != 0 {
                let d = C.load(p)
                let out = d == dst ? table[Int(m)] : m == 255 ? rgb : blendRGB(rgb, d, m)
                C.store(p, out, dither: cellRow | ((x &+ i) & 3))
            }
            p += C.bytesPerPixel
        }
    }
}
