// Fast paths give the bytes of the general path (pixman's habit: compare
// them). The span routines are called directly, for every codec, at every
// dither phase; then whole pictures: four 8-bit formats give one picture,
// and a quarter turn of the transform gives the picture turned.

import Foundation
import Testing
import _FBTestSupport

@testable import FBRaster

/// A row of `width` pixels of random colours, stored through the codec
/// (so the X byte of 32-bit formats is 0xFF, as fbanim writes it).
private func randomRow(_ c: any PixelCodec.Type, width: Int, rng: inout SeededRandom) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: width * c.bytesPerPixel)
    bytes.withUnsafeMutableBytes { p in
        for i in 0..<width {
            c.store(
                p.baseAddress! + i * c.bytesPerPixel, UInt32.random(in: 0...0xFF_FFFF, using: &rng),
                dither: i & 3)
        }
    }
    return bytes
}

private enum SpanRoutine { case fill, blendMaskFull, blend, perPixel }

/// Applies one span routine of codec `C` to a copy of `row` and returns the bytes.
private func apply<C: PixelCodec>(
    _: C.Type, _ row: [UInt8], _ how: SpanRoutine, x: Int, count: Int, y: Int, rgb: UInt32,
    m: UInt32
) -> [UInt8] {
    var out = row
    let mask = [UInt8](repeating: 255, count: count)
    out.withUnsafeMutableBytes { p in
        let base = p.baseAddress!
        mask.withUnsafeBufferPointer { mk in
            switch how {
            case .fill: Spans<C>.fill(base, x: x, count: count, y: y, rgb: rgb)
            case .blendMaskFull:
                Spans<C>.blendMask(
                    base, x: x, count: count, y: y, rgb: rgb, alpha: m, mask: mk.baseAddress!)
            case .blend: Spans<C>.blend(base, x: x, count: count, y: y, rgb: rgb, m: m)
            case .perPixel:
                // The general path, one pixel at a time, written out here.
                for i in x..<(x + count) {
                    let p = base + i * C.bytesPerPixel
                    C.store(p, blendRGB(rgb, C.load(p), m), dither: (y & 3) * 4 + (i & 3))
                }
            }
        }
    }
    return out
}

@Suite("Fast paths and whole pictures")
struct FastPathTests {
    @Test(
        "opaque fill = blendMask(mask 255) = blend(m 255) = per-pixel blend, at every dither phase",
        arguments: PixelFormat.allCases)
    func opaqueSpans(format: PixelFormat) {
        withCodec(format) { c in
            func run<C: PixelCodec>(_: C.Type) {
                var rng = SeededRandom(seed: 77)
                for y in 0..<4 {
                    for x in 0..<5 {
                        // Every count up to the row's end: the 32-bit fill
                        // stores 8, then 4, then an overlapping last 4.
                        for count in 1...19 {
                            let row = randomRow(C.self, width: 24, rng: &rng)
                            let rgb = UInt32.random(in: 0...0xFF_FFFF, using: &rng)
                            let a = apply(
                                C.self, row, .fill, x: x, count: count, y: y, rgb: rgb, m: 255)
                            let b = apply(
                                C.self, row, .blendMaskFull, x: x, count: count, y: y, rgb: rgb,
                                m: 255)
                            let d = apply(
                                C.self, row, .blend, x: x, count: count, y: y, rgb: rgb, m: 255)
                            let e = apply(
                                C.self, row, .perPixel, x: x, count: count, y: y, rgb: rgb, m: 255)
                            #expect(
                                a == b && a == d && a == e, "\(format) x \(x) y \(y) count \(count)"
                            )
                        }
                    }
                }
            }
            run(c)
        }
    }

    @Test(
        "constant opacity: blend(m) = blendMask(alpha m, mask 255) = blendMask(alpha 255, mask m) = per pixel",
        arguments: PixelFormat.allCases)
    func translucentSpans(format: PixelFormat) {
        withCodec(format) { c in
            func run<C: PixelCodec>(_: C.Type) {
                var rng = SeededRandom(seed: 78)
                for m in UInt32(0)...255 {
                    let y = Int(m) & 3
                    let x = Int(m >> 2) & 3
                    let row = randomRow(C.self, width: 16, rng: &rng)
                    let rgb = UInt32.random(in: 0...0xFF_FFFF, using: &rng)
                    let viaBlend = apply(C.self, row, .blend, x: x, count: 9, y: y, rgb: rgb, m: m)
                    let viaMaskAlpha = apply(
                        C.self, row, .blendMaskFull, x: x, count: 9, y: y, rgb: rgb, m: m)
                    let perPixel = apply(
                        C.self, row, .perPixel, x: x, count: 9, y: y, rgb: rgb, m: m)
                    var viaMask = row
                    let mask = [UInt8](repeating: UInt8(m), count: 9)
                    viaMask.withUnsafeMutableBytes { p in
                        mask.withUnsafeBufferPointer {
                            Spans<C>.blendMask(
                                p.baseAddress!, x: x, count: 9, y: y, rgb: rgb, alpha: 255,
                                mask: $0.baseAddress!)
                        }
                    }
                    #expect(
                        viaBlend == perPixel && viaMaskAlpha == perPixel && viaMask == perPixel,
                        "\(format) m \(m)")
                }
            }
            run(c)
        }
    }

    @Test("opaque blendMask through a blend table = blendMask", arguments: PixelFormat.allCases)
    func blendMaskThroughTable(format: PixelFormat) {
        withCodec(format) { c in
            func run<C: PixelCodec>(_: C.Type) {
                var rng = SeededRandom(seed: 79)
                let tables = BlendTables()
                let b = C.bytesPerPixel
                var wrong = 0
                // 16 pixels a row, 16 rows: every mask value once.
                for trial in 0..<16 {
                    var row = randomRow(C.self, width: 16, rng: &rng)
                    // About half the pixels hold the table's destination:
                    // one pixel's bytes, copied (as a 16-bit pixel reads back).
                    let source = Int.random(in: 0..<16, using: &rng)
                    for i in 0..<16 where Bool.random(using: &rng) {
                        for k in 0..<b { row[i * b + k] = row[source * b + k] }
                    }
                    let dst = row.withUnsafeBytes { C.load($0.baseAddress! + source * b) }
                    let rgb = UInt32.random(in: 0...0xFF_FFFF, using: &rng)
                    let table = tables.table(rgb: rgb, over: dst)
                    let mask = (0..<16).map { UInt8(trial * 16 + $0) }
                    var plain = row
                    var viaTable = row
                    mask.withUnsafeBufferPointer { m in
                        plain.withUnsafeMutableBytes {
                            Spans<C>.blendMask(
                                $0.baseAddress!, x: 0, count: 16, y: trial & 3, rgb: rgb,
                                alpha: 255, mask: m.baseAddress!)
                        }
                        viaTable.withUnsafeMutableBytes {
                            Spans<C>.blendMask(
                                $0.baseAddress!, x: 0, count: 16, y: trial & 3, rgb: rgb,
                                mask: m.baseAddress!, over: dst, table: table)
                        }
                    }
                    if viaTable != plain { wrong += 1 }
                }
                #expect(wrong == 0, "\(format)")
            }
            run(c)
        }
    }

    @Test(
        "16-bit: storing a loaded pixel gives its bytes back, at every dither cell",
        arguments: [PixelFormat.rgb565, .bgr565])
    func storeLoadIdempotent(format: PixelFormat) {
        // Blending at m = 0 (or over a pixel unchanged) must not drift: the
        // expanded levels are exact values, which never dither.
        withCodec(format) { c in
            var bad = 0
            var word = [UInt8](repeating: 0, count: 2)
            var out = [UInt8](repeating: 0, count: 2)
            for v in 0..<65536 {
                word[0] = UInt8(v & 0xFF)
                word[1] = UInt8(v >> 8)
                let rgb = word.withUnsafeBytes { c.load($0.baseAddress!) }
                let cell = v % 16
                out.withUnsafeMutableBytes { c.store($0.baseAddress!, rgb, dither: cell) }
                if out != word { bad += 1 }
            }
            #expect(bad == 0, "\(format): \(bad) of 65536 words change when re-stored")
        }
    }

    @Test(
        "a shape blended over random pixels: each byte is the exact rounded blend (8-bit formats)",
        arguments: [PixelFormat.xrgb8888, .xbgr8888, .argb8888, .rgb888])
    func rasterizerBlendExact(format: PixelFormat) {
        // White-on-black gives each pixel's coverage; the same shape in colour
        // over random pixels must give round((s m + d (255 - m)) / 255), m = div255(alpha * coverage).
        var rng = SeededRandom(seed: 79)
        let (w, h) = (24, 20)
        let shape = Shape.arc(
            center: Point(11.7, 10.2), radius: Fixed(7.3), width: Fixed(5),
            start: Angle(turns: 0.3), sweep: AngleSpan(turns: 0.7), cap: .round)
        let coverage = renderCoverage(shape, width: w, height: h)
        for alpha in [255, 200, 128, 17] as [UInt8] {
            let buffer = PixelBuffer(width: w, height: h, format: format)
            defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
            var before: [UInt32] = []
            withCodec(format) { c in
                for y in 0..<h {
                    for x in 0..<w {
                        c.store(
                            buffer.surface.base + y * buffer.surface.stride + x * c.bytesPerPixel,
                            UInt32.random(in: 0...0xFF_FFFF, using: &rng), dither: 0)
                        before.append(buffer.surface.pixel(x: x, y: y))
                    }
                }
            }
            let color = Color(rgb: 0xE0_7F_13, alpha: alpha)
            Rasterizer().fill(shape, paint: .solid(color), on: buffer.surface)
            var wrong = 0
            for i in 0..<(w * h) {
                let m = (2 * UInt32(alpha) * UInt32(coverage[i]) + 255) / 510
                var expected: UInt32 = 0
                for shift in [16, 8, 0] as [UInt32] {
                    let s = color.rgb >> shift & 0xFF
                    let d = before[i] >> shift & 0xFF
                    expected |= ((2 * (s * m + d * (255 - m)) + 255) / 510) << shift
                }
                if buffer.surface.pixel(x: i % w, y: i / w) != expected { wrong += 1 }
            }
            #expect(wrong == 0, "\(format) alpha \(alpha): \(wrong) pixels")
        }
    }

    /// A scene with every primitive and paint, in local coordinates around the origin.
    static func scene() -> [(Shape, Transform, Paint)] {
        let g = SweepGradient(
            center: .zero, start: Angle(turns: 0.15), sweep: .halfTurn, color: Color(rgb: 0x34C759),
            startAlpha: 0, endAlpha: 255)
        return [
            (
                .disc(center: Point(3.25, -2.5), radius: Fixed(27.4)), .identity,
                .solid(Color(rgb: 0x2040A0, alpha: 200))
            ),
            (
                .annulus(center: .zero, inner: Fixed(22), outer: Fixed(26)), .identity,
                .solid(Color(rgb: 0xEBEBF5, alpha: 77))
            ),
            (
                .sector(
                    center: .zero, radius: Fixed(24), start: Angle(turns: 0.15), sweep: .halfTurn),
                .identity, .sweep(g)
            ),
            (
                .arc(
                    center: .zero, radius: Fixed(18), width: Fixed(5), start: Angle(turns: 0.75),
                    sweep: AngleSpan(turns: 0.62), cap: .round), .identity,
                .solid(Color(rgb: 0xFF2F92, alpha: 128))
            ),
            (
                .roundedRectStroke(
                    center: .zero, halfWidth: Fixed(5), halfHeight: Fixed(12.5),
                    cornerRadius: Fixed(5), lineWidth: Fixed(4)),
                Transform(
                    scale: ScaleFactor(0.75), rotation: Angle(turns: 1.0 / 12),
                    translation: Point(-9.5, 4)), .solid(Color(rgb: 0x8E8E93))
            ),
            (
                .path(heartPath(width: 14)), Transform(translation: Point(10.3, 9.1)),
                .solid(Color(rgb: 0xFF9500, alpha: 230))
            ),
        ]
    }

    /// Draws `scene()` placed by `outer` (clear first) and returns the picture
    /// as packed RGB (the buffer is released after reading: a `Surface` does
    /// not keep its memory alive).
    static func draw(_ format: PixelFormat, side: Int, outer: Transform) -> [UInt8] {
        let buffer = PixelBuffer(
            width: side, height: side, format: format, stride: side * format.bytesPerPixel + 4)
        return withExtendedLifetime(buffer) {
            let r = Rasterizer()
            r.clear(buffer.surface, to: Color(rgb: 0x101418))
            for (shape, t, paint) in scene() {
                r.fill(shape, transform: outer.concatenating(t), paint: paint, on: buffer.surface)
            }
            return buffer.surface.rgbBytes()
        }
    }

    @Test("the four 8-bit formats give the same picture")
    func eightBitFormatsAgree() {
        let centre = Transform(translation: Point(32.4, 31.7))
        let reference = Self.draw(.xrgb8888, side: 64, outer: centre)
        for format in [PixelFormat.xbgr8888, .argb8888, .rgb888] {
            #expect(Self.draw(format, side: 64, outer: centre) == reference, "\(format)")
        }
        // The 16-bit formats: ordered dithering spreads each pixel over the two
        // nearest levels (steps of 8 or 9 for 5 bits, 4 or 5 for 6), and each
        // layer blends over the dithered value of the last, so a pixel may be
        // off by up to two steps; but dithering averages out: the mean signed
        // difference per channel over the picture stays within 1/255.
        for format in [PixelFormat.rgb565, .bgr565] {
            let got = Self.draw(format, side: 64, outer: centre)
            var worstSteps = 0.0
            var sums = [0.0, 0.0, 0.0]
            for i in got.indices {
                let d = Double(Int(got[i]) - Int(reference[i]))
                sums[i % 3] += d
                worstSteps = max(worstSteps, abs(d) / (i % 3 == 1 ? 4.2 : 8.5))
            }
            let means = sums.map { $0 / Double(got.count / 3) }
            #expect(worstSteps <= 2, "\(format): off by \(worstSteps) quantisation steps")
            #expect(means.allSatisfy { abs($0) < 1 }, "\(format): mean differences \(means)")
            reportStats(
                "\(format) vs xrgb8888: worst \(worstSteps) steps, mean differences \(means)")
        }
    }

    /// Pixels that differ between the picture drawn upright and turned a
    /// quarter clockwise about the centre of a square surface (pixel centres
    /// map to pixel centres): turned, the pixel at (x, y) shows what was at
    /// (y, side - 1 - x). Returns the count and the largest channel difference.
    static func quarterTurnDifferences(_ format: PixelFormat) -> (count: Int, worst: Int) {
        let side = 64
        let upright = draw(format, side: side, outer: Transform(translation: Point(32, 32)))
        let turned = draw(
            format, side: side, outer: Transform(rotation: .quarterTurn, translation: Point(32, 32))
        )
        var count = 0
        var worst = 0
        for y in 0..<side {
            for x in 0..<side {
                let a = 3 * (y + (side - 1 - x) * side)  // upright pixel (y, side - 1 - x)
                let b = 3 * (x + y * side)
                let d = (0..<3).map { abs(Int(upright[a + $0]) - Int(turned[b + $0])) }.max()!
                if d > 0 {
                    count += 1
                    worst = max(worst, d)
                }
            }
        }
        return (count, worst)
    }

    // Not pixel for pixel: the accumulator rounds edge crossings to 1/256 px
    // at row borders for x and at column borders for y, and a quarter turn
    // swaps the two (Transform.swift says so).
    @Test(
        "a quarter turn changes pixels by at most 1/255, and few of them",
        arguments: [PixelFormat.xrgb8888, .rgb888])
    func quarterTurnClose(format: PixelFormat) {
        let (count, worst) = Self.quarterTurnDifferences(format)
        #expect(
            worst <= 1 && count <= 41, "\(format): \(count) pixels differ, by up to \(worst)/255")
    }
}
