import Testing
import _FBTestSupport

@testable import FBRaster

/// Painting through (`Rasterizer.fill(through:)`): a 16-bit target that
/// gets a canvas's kept opaque shapes as they are painted, and the rest
/// from the blocks marked, must end up with the bytes of converting the
/// whole canvas.
@Suite struct ThroughPainterTests {
    /// Random shapes, paints and clips (as `KeptCoverageTests`) on an
    /// `xrgb8888` canvas painted through into a 16-bit target over
    /// backdrops cleared in both. After each fill, the blocks it marked are
    /// converted; the target must then equal the whole canvas converted.
    @Test(arguments: [PixelFormat.rgb565, .bgr565])
    func targetEqualsTheCanvasConverted(format: PixelFormat) {
        var rng = SeededRandom(seed: 77)
        let (w, h) = (KeptCoverageTests.width, KeptCoverageTests.height)
        let rasterizer = Rasterizer()
        let cache = RasterCache()
        let canvas = PixelBuffer(width: w, height: h, format: .xrgb8888)
        let target = PixelBuffer(width: w, height: h, format: format)
        let expected = PixelBuffer(width: w, height: h, format: format)
        let through = DitherTarget(target.surface)!
        let marks = PaintedBlocks(width: w, height: h)
        let screen = IntRect(x: 0, y: 0, width: w, height: h)
        var (mismatches, unmarkedThrough) = (0, 0)
        for i in 0..<120 {
            if i % 10 == 0 {
                let backdrop = Color(rgb: UInt32.random(in: 0...0xFF_FFFF, using: &rng))
                rasterizer.clear(canvas.surface, to: backdrop, cache: cache)
                rasterizer.clear(target.surface, to: backdrop)
            }
            let shape = KeptCoverageTests.randomShape(&rng)
            let transform = KeptCoverageTests.randomTransform(width: w, height: h, &rng)
            for _ in 0..<2 {
                let paint = KeptCoverageTests.randomPaint(&rng)
                let clip: IntRect? =
                    Bool.random(using: &rng)
                    ? nil
                    : IntRect(
                        x: Int.random(in: -5..<w, using: &rng),
                        y: Int.random(in: -5..<h, using: &rng),
                        width: Int.random(in: 1...w, using: &rng),
                        height: Int.random(in: 1...h, using: &rng))
                marks.unmarkAll()
                let before = Array(canvas.bytes)
                rasterizer.fill(
                    shape, transform: transform, paint: paint, on: canvas.surface, clip: clip,
                    cache: cache, keepCoverage: true, marking: marks, through: through)
                // A fill that changed the canvas and marked nothing went through.
                if !marks.anyMarked(in: screen) && Array(canvas.bytes) != before {
                    unmarkedThrough += 1
                }
                rasterizer.convert(canvas.surface, into: target.surface, in: screen, marked: marks)
                rasterizer.convert(canvas.surface, into: expected.surface, in: screen)
                if differingBytes(target, expected) != 0 { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(format): \(mismatches) fills left the target wrong")
        // The path is taken: opaque kept shapes not cut at the sides.
        #expect(unmarkedThrough > 10, "\(format): \(unmarkedThrough) fills went through")
    }

    /// `DitherPattern.fill` stores what the codec stores pixel by pixel:
    /// every start column, short and long runs (16 pixels a pass).
    @Test func patternFillsMatchPerPixelStores() {
        var rng = SeededRandom(seed: 78)
        func check<M: PixelCodec>(_: M.Type) {
            for y in 0..<4 {
                for x in 0..<5 {
                    for count in 0...40 {
                        let rgb = UInt32.random(in: 0...0xFF_FFFF, using: &rng)
                        let start = (0..<((x + count + 2) * 2)).map { _ in
                            UInt8.random(in: 0...255, using: &rng)
                        }
                        var got = start
                        var expected = start
                        got.withUnsafeMutableBytes {
                            DitherPattern.fill(
                                $0.baseAddress!, x: x, count: count,
                                DitherPattern(rgb, M.self).row(y))
                        }
                        expected.withUnsafeMutableBytes { p in
                            for i in x..<(x + count) {
                                M.store(p.baseAddress! + i * 2, rgb, dither: (y & 3) * 4 + (i & 3))
                            }
                        }
                        #expect(got == expected, "\(M.self) x \(x) y \(y) count \(count)")
                    }
                }
            }
        }
        check(RGB565Codec.self)
        check(BGR565Codec.self)
    }

    /// `PaintedBlocks.anyMarked(in:)` against the blocks a rectangle
    /// touches, marked one by one.
    @Test func anyMarkedSeesEveryBlockARectangleTouches() {
        var rng = SeededRandom(seed: 79)
        let (w, h) = (300, 9)
        let map = PaintedBlocks(width: w, height: h)
        for _ in 0..<400 {
            map.unmarkAll()
            var marked = Set<[Int]>()
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                let (x, y) = (
                    Int.random(in: 0..<w, using: &rng), Int.random(in: 0..<h, using: &rng)
                )
                map.mark(y: y, x: x, count: 1)
                marked.insert([x / 4, y])
            }
            let x = Int.random(in: 0..<w, using: &rng)
            let y = Int.random(in: 0..<h, using: &rng)
            let r = IntRect(
                x: x, y: y, width: Int.random(in: 1...(w - x), using: &rng),
                height: Int.random(in: 1...(h - y), using: &rng))
            let touched = marked.contains {
                $0[0] >= r.x / 4 && $0[0] <= (r.maxX - 1) / 4 && $0[1] >= r.y && $0[1] < r.maxY
            }
            #expect(map.anyMarked(in: r) == touched, "\(r), marked \(marked)")
        }
    }
}
