import Testing
import _FBTestSupport

@testable import FBRaster

/// A kept fill turned half a turn or more is the point reflection, through
/// the surface's centre, of its partner (the same shape turned half a turn
/// less, `HalfTurn`): pixel for pixel, kept or not, and its bounds hold it.
@Suite struct HalfTurnTests {
    /// Pixel `(x, y)` of `a` against pixel `(W - 1 - x, H - 1 - y)` of `b`:
    /// how many differ.
    func unreflected(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        let (w, h) = (a.surface.width, a.surface.height)
        var differing = 0
        for y in 0..<h {
            for x in 0..<w
            where a.surface.pixel(x: x, y: y) != b.surface.pixel(x: w - 1 - x, y: h - 1 - y) {
                differing += 1
            }
        }
        return differing
    }

    func randomTransform(_ rng: inout SeededRandom, _ w: Int, _ h: Int) -> Transform {
        Transform(
            scale: ScaleFactor(raw: Int64.random(in: (1 << 23)...(1 << 25), using: &rng)),
            // Half a turn or more: every one reflected.
            rotation: Angle(raw: UInt32.random(in: (1 << 31)...UInt32.max, using: &rng)),
            translation: Point(
                x: Fixed(raw: Int64.random(in: -(10 << 16)...(Int64(w + 10) << 16), using: &rng)),
                y: Fixed(raw: Int64.random(in: -(10 << 16)...(Int64(h + 10) << 16), using: &rng))))
    }

    /// Random shapes (some hanging off the edges), on an odd and an even
    /// surface: each fill turned half a turn or more against its partner
    /// filled plain on a surface of its own. Kept first (half of them from
    /// their partner's kept coverage, the others from their partner
    /// rasterized), replayed, and with no budget at all: the reflection each time.
    @Test(arguments: [(67, 53), (64, 48)])
    func aReflectedFillIsItsPartnerTurnedAbout(size: (Int, Int)) {
        let (w, h) = size
        var rng = SeededRandom(seed: 21)
        let keeping = Rasterizer()
        let cache = RasterCache()
        let unkept = Rasterizer()
        let none = RasterCache(keptBytes: 0)
        var checked = 0
        for i in 0..<60 {
            let shape = KeptCoverageTests.randomShape(&rng)
            let transform = randomTransform(&rng, w, h)
            let surface = IntRect(x: 0, y: 0, width: w, height: h)
            let partner = HalfTurn.partner(of: transform, on: surface)!
            #expect(partner.rotation.raw < Angle.halfTurn.raw)
            let paint = Paint.solid(Color(rgb: UInt32.random(in: 0...0xFF_FFFF, using: &rng)))
            let expected = PixelBuffer(width: w, height: h, format: .xrgb8888)
            Rasterizer().fill(shape, transform: partner, paint: paint, on: expected.surface)
            if i % 2 == 0 {
                // The partner drawn (and kept) first: its code is reflected.
                let scratch = PixelBuffer(width: w, height: h, format: .xrgb8888)
                keeping.fill(
                    shape, transform: partner, paint: paint, on: scratch.surface, cache: cache,
                    keepCoverage: true)
            }
            for pass in 0..<2 {
                let kept = PixelBuffer(width: w, height: h, format: .xrgb8888)
                keeping.fill(
                    shape, transform: transform, paint: paint, on: kept.surface, cache: cache,
                    keepCoverage: true)
                #expect(unreflected(kept, expected) == 0, "kept, pass \(pass)")
            }
            let drawn = PixelBuffer(width: w, height: h, format: .xrgb8888)
            unkept.fill(
                shape, transform: transform, paint: paint, on: drawn.surface, cache: none,
                keepCoverage: true)
            #expect(unreflected(drawn, expected) == 0, "not kept")
            let bounds = keeping.bounds(
                of: shape, transform: transform, cache: cache, keptOn: surface)
            #expect(
                bounds
                    == HalfTurn.mirror(
                        Rasterizer().bounds(of: shape, transform: partner), on: surface))
            #expect(
                unkept.bounds(of: shape, transform: transform, cache: none, keptOn: surface)
                    == bounds)
            #expect(paintedOutside(bounds, drawn) == 0)
            checked += 1
        }
        // The reflected shapes on the surface were kept, and half their
        // partners: more than the 60 fills alone.
        #expect(cache.keptCoverage.shapes > 70)
        #expect(checked == 60)
    }

    /// Pixels of `buffer` not black outside `bounds`.
    func paintedOutside(_ bounds: IntRect, _ buffer: PixelBuffer) -> Int {
        var count = 0
        for y in 0..<buffer.surface.height {
            for x in 0..<buffer.surface.width
            where buffer.surface.pixel(x: x, y: y) != 0
                && bounds.intersection(IntRect(x: x, y: y, width: 1, height: 1)).isEmpty
            {
                count += 1
            }
        }
        return count
    }

    /// The code turned end to end where its long forms are: gaps of 255
    /// pixels or more on either side once reflected, and rows of 255 bytes
    /// or more (a sliver near one edge of a wide surface, an annulus).
    @Test func longGapsAndLongRowsReflect() {
        let (w, h) = (620, 600)
        let surface = IntRect(x: 0, y: 0, width: w, height: h)
        var sliver = Path()
        sliver.move(to: Point(x: Fixed(5), y: Fixed(20)))
        sliver.line(to: Point(x: Fixed(300), y: Fixed(22)))
        sliver.line(to: Point(x: Fixed(5), y: Fixed(23)))
        sliver.close()
        let annulus = Shape.annulus(center: .zero, inner: Fixed(250), outer: Fixed(270))
        let cases: [(Shape, Transform)] = [
            (
                .path(sliver),
                Transform(rotation: .halfTurn, translation: Point(x: Fixed(610), y: Fixed(300)))
            ),
            (
                .path(sliver),
                Transform(rotation: .halfTurn, translation: Point(x: Fixed(320), y: Fixed(590)))
            ),
            (
                annulus,
                Transform(rotation: .halfTurn, translation: Point(x: Fixed(310), y: Fixed(300)))
            ),
        ]
        // Reflected from the partner's kept code, then from the partner rasterized.
        for partnerKept in [true, false] {
            let r = Rasterizer()
            let cache = RasterCache()
            for (shape, transform) in cases {
                let partner = HalfTurn.partner(of: transform, on: surface)!
                let expected = PixelBuffer(width: w, height: h, format: .xrgb8888)
                r.fill(
                    shape, transform: partner, paint: .solid(.white), on: expected.surface,
                    cache: cache, keepCoverage: partnerKept)
                for pass in 0..<2 {
                    let kept = PixelBuffer(width: w, height: h, format: .xrgb8888)
                    r.fill(
                        shape, transform: transform, paint: .solid(.white), on: kept.surface,
                        cache: cache, keepCoverage: true)
                    #expect(unreflected(kept, expected) == 0, "pass \(pass)")
                }
            }
            #expect(cache.keptCoverage.shapes == (partnerKept ? 6 : 3))
        }
    }

    /// A shape turned half a turn whose reflection differs from it: its
    /// left vertex lands on a rounding tie (half a subpixel), which rounds
    /// up either way, so the shape and its partner reflected are a subpixel
    /// apart and their bounds a pixel. The bounds are the reflection's
    /// (they hold what is painted), kept or not.
    @Test func boundsAreTheReflectionsWhereTheShapeDiffers() {
        let surface = IntRect(x: 0, y: 0, width: 40, height: 30)
        var triangle = Path()
        // 10 pixels left of the translation, less half a subpixel: 128 raw.
        triangle.move(to: Point(x: Fixed(raw: (10 << 16) + 128), y: Fixed(0)))
        triangle.line(to: Point(x: Fixed(-5), y: Fixed(6)))
        triangle.line(to: Point(x: Fixed(-5), y: Fixed(-6)))
        triangle.close()
        let shape = Shape.path(triangle)
        let transform = Transform(
            rotation: .halfTurn, translation: Point(x: Fixed(20), y: Fixed(15)))
        let partner = HalfTurn.partner(of: transform, on: surface)!
        let mirrored = HalfTurn.mirror(
            Rasterizer().bounds(of: shape, transform: partner), on: surface)
        let direct = Rasterizer().bounds(of: shape, transform: transform)
        #expect(mirrored != direct, "no tie: the test shows nothing")
        let kept = Rasterizer()
        let cache = RasterCache()
        let buffer = PixelBuffer(width: 40, height: 30, format: .xrgb8888)
        kept.fill(
            shape, transform: transform, paint: .solid(.white), on: buffer.surface, cache: cache,
            keepCoverage: true)
        #expect(
            kept.bounds(of: shape, transform: transform, cache: cache, keptOn: surface) == mirrored)
        let none = RasterCache(keptBytes: 0)
        #expect(
            Rasterizer().bounds(of: shape, transform: transform, cache: none, keptOn: surface)
                == mirrored)
        #expect(paintedOutside(mirrored, buffer) == 0)
        // Not kept, it is drawn as it is, and so are its bounds.
        #expect(Rasterizer().bounds(of: shape, transform: transform, cache: none) == direct)
    }

    /// Fills turned less than half a turn, or not kept, are drawn as they are.
    @Test func onlyKeptFillsTurnedHalfATurnAreReflected() {
        let surface = IntRect(x: 0, y: 0, width: 10, height: 10)
        #expect(HalfTurn.partner(of: .rotation(Angle(raw: (1 << 31) - 1)), on: surface) == nil)
        let turned = HalfTurn.partner(of: .rotation(.halfTurn), on: surface)
        #expect(turned == Transform(translation: Point(x: Fixed(10), y: Fixed(10))))
        #expect(
            HalfTurn.mirror(IntRect(x: 1, y: 2, width: 3, height: 4), on: surface)
                == IntRect(x: 6, y: 4, width: 3, height: 4))
    }
}
