// The fast conversion and fill loops give the bytes of the plain per-pixel
// code, written out here: `C.store(pixel, XRGB8888Codec.load(source),
// dither: (y & 3) * 4 + (x & 3))` for each pixel of the rect. Every byte of
// the target is compared (padding and pixels outside the rect must keep their
// random bytes), over random sources (X bytes random too), odd rects
// (clipped, any column), odd strides and unaligned rows.

import Testing
import _FBTestSupport

@testable import FBRaster

/// `count` random bytes.
private func randomBytes(_ count: Int, _ rng: inout SeededRandom) -> [UInt8] {
    (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
}

/// A surface over `bytes` from byte `offset` (possibly unaligned).
private func surface(
    _ bytes: UnsafeMutableRawBufferPointer, offset: Int, width: Int, height: Int, stride: Int,
    format: PixelFormat
) -> Surface {
    Surface(
        base: bytes.baseAddress! + offset, width: width, height: height, stride: stride,
        format: format)
}

/// The rects a test tries on a `width` x `height` surface: whole, single
/// pixels and columns, every start column mod 4, clipped on every side.
private func rects(width w: Int, height h: Int, _ rng: inout SeededRandom) -> [IntRect] {
    var out = [
        IntRect(x: 0, y: 0, width: w, height: h),
        IntRect(x: -3, y: -2, width: w + 9, height: h + 5),
        IntRect(x: w - 1, y: h - 1, width: 1, height: 1),
        IntRect(x: w - 2, y: 1, width: 7, height: 2),
        IntRect(x: -5, y: 0, width: 6, height: h),
        IntRect(x: w, y: 0, width: 3, height: h),  // outside: nothing changes
    ]
    for x in 0..<min(w, 8) {
        out.append(IntRect(x: x, y: x % h, width: min(w - x, 1 + x * 3), height: 2))
    }
    for _ in 0..<12 {
        let x = Int.random(in: -4..<w, using: &rng)
        let y = Int.random(in: -2..<h, using: &rng)
        out.append(
            IntRect(
                x: x, y: y, width: Int.random(in: 1...(w + 4), using: &rng),
                height: Int.random(in: 1...(h + 2), using: &rng)))
    }
    return out
}

@Suite("Convert and fill: fast loops against per-pixel code")
struct FastConvertTests {
    @Test("convert gives the per-pixel bytes", arguments: PixelFormat.allCases)
    func convertMatchesPerPixel(format: PixelFormat) {
        var rng = SeededRandom(seed: 4242)
        let bpp = format.bytesPerPixel
        for (w, h) in [(1, 1), (3, 2), (5, 5), (13, 7), (37, 9), (64, 4)] {
            for (pad, offset) in [(0, 0), (1, 1), (3, 2), (6, 3)] {
                let sourceStride = w * 4 + (pad + 1) / 2
                let targetStride = w * bpp + pad
                var source = randomBytes(sourceStride * h + 3, &rng)
                let start = randomBytes(targetStride * h + offset, &rng)
                for rect in rects(width: w, height: h, &rng) {
                    var got = start
                    var expected = start
                    source.withUnsafeMutableBytes { sb in
                        let s = surface(
                            sb, offset: offset % 3, width: w, height: h, stride: sourceStride,
                            format: .xrgb8888)
                        got.withUnsafeMutableBytes { tb in
                            let t = surface(
                                tb, offset: offset, width: w, height: h, stride: targetStride,
                                format: format)
                            Rasterizer().convert(s, into: t, in: rect)
                        }
                        expected.withUnsafeMutableBytes { tb in
                            let t = surface(
                                tb, offset: offset, width: w, height: h, stride: targetStride,
                                format: format)
                            let r = rect.intersection(t.bounds)
                            withCodec(format) { c in
                                for y in r.y..<r.maxY {
                                    for x in r.x..<r.maxX {
                                        c.store(
                                            t.base + y * t.stride + x * bpp,
                                            XRGB8888Codec.load(s.base + y * s.stride + x * 4),
                                            dither: (y & 3) * 4 + (x & 3))
                                    }
                                }
                            }
                        }
                    }
                    #expect(
                        got == expected,
                        "\(format) \(w)x\(h) pad \(pad) offset \(offset) rect \(rect)")
                }
            }
        }
    }

    @Test("Spans.fill gives the per-pixel bytes", arguments: PixelFormat.allCases)
    func fillMatchesPerPixel(format: PixelFormat) {
        var rng = SeededRandom(seed: 4343)
        withCodec(format) { c in
            func run<C: PixelCodec>(_: C.Type) {
                for y in 0..<4 {
                    for x in 0..<6 {
                        for count in 0...23 {
                            for offset in 0..<3 {
                                let start = randomBytes(
                                    offset + (x + count + 3) * C.bytesPerPixel, &rng)
                                let rgb = UInt32.random(in: 0...0xFF_FFFF, using: &rng)
                                var got = start
                                var expected = start
                                got.withUnsafeMutableBytes {
                                    Spans<C>.fill(
                                        $0.baseAddress! + offset, x: x, count: count, y: y,
                                        rgb: rgb)
                                }
                                expected.withUnsafeMutableBytes { p in
                                    for i in x..<(x + count) {
                                        C.store(
                                            p.baseAddress! + offset + i * C.bytesPerPixel, rgb,
                                            dither: (y & 3) * 4 + (i & 3))
                                    }
                                }
                                #expect(
                                    got == expected,
                                    "\(format) x \(x) y \(y) count \(count) offset \(offset)")
                            }
                        }
                    }
                }
            }
            run(c)
        }
    }

    @Test("clear gives the per-pixel bytes", arguments: PixelFormat.allCases)
    func clearMatchesPerPixel(format: PixelFormat) {
        var rng = SeededRandom(seed: 4444)
        let (w, h) = (29, 6)
        let stride = w * format.bytesPerPixel + 5
        let start = randomBytes(stride * h + 1, &rng)
        for rect in rects(width: w, height: h, &rng) {
            let color = Color(rgb: UInt32.random(in: 0...0xFF_FFFF, using: &rng))
            var got = start
            var expected = start
            got.withUnsafeMutableBytes {
                let t = surface($0, offset: 1, width: w, height: h, stride: stride, format: format)
                Rasterizer().clear(t, to: color, in: rect)
            }
            expected.withUnsafeMutableBytes {
                let t = surface($0, offset: 1, width: w, height: h, stride: stride, format: format)
                let r = rect.intersection(t.bounds)
                withCodec(format) { c in
                    for y in r.y..<r.maxY {
                        for x in r.x..<r.maxX {
                            c.store(
                                t.base + y * t.stride + x * c.bytesPerPixel, color.rgb,
                                dither: (y & 3) * 4 + (x & 3))
                        }
                    }
                }
            }
            #expect(got == expected, "\(format) rect \(rect)")
        }
    }
}
