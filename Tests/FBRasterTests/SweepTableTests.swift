// The sweep gradient's per-direction table (SweepTable) and the table-driven
// sweep spans: the table must hold, for every one of the 65536 directions,
// the opacity `SweepSampler.alpha(direction:)` computes from the angle (the
// arithmetic it replaces, swept exhaustively over many gradients), and a
// sweep painted over any pixels must give, pixel by pixel, the exact rounded
// blend of that opacity times the shape's coverage, whether the pixel holds
// the backdrop (a blend-table lookup) or not (a blend).

import Testing
import _FBTestSupport

@testable import FBRaster

struct SweepTableTests {
    /// Gradients at the awkward places (start on a table step or a unit past
    /// it, sweeps of one unit, a whole turn, decreasing ramps, equal ends)
    /// and random ones.
    static func gradients() -> [SweepGradient] {
        var out: [SweepGradient] = []
        let color = Color(rgb: 0x34C759)
        for start: UInt32 in [0, 1, 0xFFFF, 0x1_0000, 0x8000_0000, 0xFFFF_FFFF, 0x1234_5678] {
            for sweep: Int64 in [1, 0xFFFF, 0x1_0000, 1 << 31, (1 << 32) - 1, 1 << 32] {
                for (a0, a1): (UInt8, UInt8) in [(0, 255), (255, 0), (7, 200), (90, 90)] {
                    out.append(
                        SweepGradient(
                            center: .zero, start: Angle(raw: start), sweep: AngleSpan(raw: sweep),
                            color: color, startAlpha: a0, endAlpha: a1))
                }
            }
        }
        var rng = SeededRandom(seed: 1414)
        for _ in 0..<60 {
            out.append(
                SweepGradient(
                    center: .zero,
                    start: Angle(raw: UInt32.random(in: 0...UInt32.max, using: &rng)),
                    sweep: AngleSpan(raw: Int64.random(in: 1...(1 << 32), using: &rng)),
                    color: Color(
                        rgb: UInt32.random(in: 0...0xFF_FFFF, using: &rng),
                        alpha: UInt8.random(in: 0...255, using: &rng)),
                    startAlpha: UInt8.random(in: 0...255, using: &rng),
                    endAlpha: UInt8.random(in: 0...255, using: &rng)))
        }
        return out
    }

    @Test("the table holds the sampler's opacity in every direction, for every gradient")
    func tableEqualsArithmetic() {
        let table = SweepTable()
        var bad = 0
        var first = ""
        for g in SweepTableTests.gradients() {
            let sampler = SweepSampler(g, .identity)
            let values = table.table(for: sampler)
            for d in 0..<SweepTable.count {
                let expected = sampler.alpha(direction: UInt32(d) << 16)
                if Int64(values[d]) != expected {
                    if bad == 0 { first = "\(g) direction \(d): \(values[d]), not \(expected)" }
                    bad += 1
                }
            }
        }
        #expect(bad == 0, "\(bad) wrong entries; first: \(first)")
    }

    @Test("a table made for another gradient is remade, not reused")
    func remadeForEachGradient() {
        let table = SweepTable()
        let a = SweepSampler(SweepTableTests.gradients()[0], .identity)
        let b = SweepSampler(SweepTableTests.gradients()[5], .identity)
        for sampler in [a, b, a] {
            let values = table.table(for: sampler)
            let wrong = (0..<SweepTable.count).filter {
                Int64(values[$0]) != sampler.alpha(direction: UInt32($0) << 16)
            }
            #expect(wrong.isEmpty)
        }
    }

    @Test("directions kept while the area grows equal directions worked out at once")
    func directionCacheGrows() {
        let c = SubpixelPoint(x: Subpixel(raw: 30 * 256 + 77), y: Subpixel(raw: 27 * 256 + 180))
        let moved = SubpixelPoint(x: Subpixel(raw: c.x.raw + 300), y: c.y)
        let grown = DirectionCache()
        // A turning sector's bounds: growing on every side, and back.
        let areas = [
            IntRect(x: 30, y: 27, width: 5, height: 9), IntRect(x: 20, y: 25, width: 12, height: 4),
            IntRect(x: 28, y: 10, width: 20, height: 30),
            IntRect(x: 29, y: 12, width: 3, height: 3),
            IntRect(x: 5, y: 30, width: 50, height: 22),
        ]
        let all = areas.dropFirst().reduce(areas[0]) { $0.union($1) }
        for a in areas { grown.prepare(center: c, covering: a) }
        let once = DirectionCache()
        once.prepare(center: c, covering: all)
        var wrong = 0
        for y in all.y..<all.maxY {
            let g = grown.row(y: y, x: all.x)
            let o = once.row(y: y, x: all.x)
            for i in 0..<all.width where g[i] != o[i] { wrong += 1 }
        }
        #expect(wrong == 0)
        // A new centre replaces them all.
        grown.prepare(center: moved, covering: areas[2])
        once.prepare(center: moved, covering: areas[2])
        for y in areas[2].y..<areas[2].maxY {
            let g = grown.row(y: y, x: areas[2].x)
            let o = once.row(y: y, x: areas[2].x)
            for i in 0..<areas[2].width where g[i] != o[i] { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test(
        "a sweep over the backdrop and over random pixels: each pixel is the exact blend",
        arguments: PixelFormat.allCases)
    func sweepBlendExact(format: PixelFormat) {
        // Pixels outside the rows by the centre (where the 4x4 grid is
        // sampled) have effective opacity m = div255(alpha(d) * coverage),
        // alpha from the direction of the pixel centre rounded to 2^-16 turn
        // (the DirectionCache's) and coverage from the shape drawn white on
        // black; the pixel must be blendRGB(colour, before, m), stored
        // through the codec as any blend is.
        let (w, h) = (64, 56)
        let center = Point(30.4, 27.7)
        let g = SweepGradient(
            center: center, start: Angle(turns: 0.61), sweep: AngleSpan(turns: 0.55),
            color: Color(rgb: 0x34C759), startAlpha: 10, endAlpha: 240)
        let shape = Shape.sector(
            center: center, radius: Fixed(25.3), start: Angle(turns: 0.61),
            sweep: AngleSpan(turns: 0.8))
        let coverage = renderCoverage(shape, width: w, height: h)
        let sampler = SweepSampler(g, .identity)
        var rng = SeededRandom(seed: 1415)
        let buffer = PixelBuffer(width: w, height: h, format: format)
        defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
        let s = buffer.surface
        let rasterizer = Rasterizer()
        // The backdrop (the last clear) under most pixels, random colours
        // under every third.
        rasterizer.clear(s, to: Color(rgb: 0x10_2030))
        withCodec(format) { c in
            for y in 0..<h {
                for x in 0..<w where (x + 2 * y) % 3 == 0 {
                    c.store(
                        s.base + y * s.stride + x * c.bytesPerPixel,
                        UInt32.random(in: 0...0xFF_FFFF, using: &rng),
                        dither: (y & 3) << 2 | (x & 3))
                }
            }
        }
        var before: [UInt32] = []
        for y in 0..<h { for x in 0..<w { before.append(s.pixel(x: x, y: y)) } }
        rasterizer.fill(shape, paint: .sweep(g), on: s)
        // The same blend, stored through the codec, read back as the surface reads.
        let expectedBuffer = PixelBuffer(width: w, height: h, format: format)
        defer { withExtendedLifetime(expectedBuffer) {} }
        let e = expectedBuffer.surface
        var wrong = 0
        var checked = 0
        withCodec(format) { c in
            for y in 0..<h where !sampler.isNearCenter(y: y) {
                for x in 0..<w {
                    let dx = Subpixel(pixelCenter: x).raw - sampler.center.x.raw
                    let dy = Subpixel(pixelCenter: y).raw - sampler.center.y.raw
                    let d = (Angle.direction(dx: dx, dy: dy).raw &+ 0x8000) >> 16
                    let a = UInt32(sampler.alpha(direction: d << 16))
                    let m = div255(a * UInt32(coverage[y * w + x]))
                    checked += 1
                    if m == 0 {
                        // Not painted: unchanged.
                        if s.pixel(x: x, y: y) != before[y * w + x] { wrong += 1 }
                        continue
                    }
                    c.store(
                        e.base + y * e.stride + x * c.bytesPerPixel,
                        blendRGB(sampler.rgb, before[y * w + x], m), dither: (y & 3) << 2 | (x & 3))
                    if e.pixel(x: x, y: y) != s.pixel(x: x, y: y) { wrong += 1 }
                }
            }
        }
        #expect(checked > 2500)
        #expect(wrong == 0, "\(format): \(wrong) of \(checked) pixels differ from the exact blend")
    }
}
