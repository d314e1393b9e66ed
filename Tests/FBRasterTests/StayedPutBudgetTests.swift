import Testing

@testable import FBRaster

/// Shapes kept only for having stayed put (`fill(stayedPut:)`: a track
/// before the still layer takes it) never come back once the still layer
/// has them, and kept entries are never dropped: they may take only
/// `RasterCache.stayedPutBudget` of the coverage block, and one that does
/// not fit must not close the block to shapes that repeat. Found in review:
/// a loader whose in-place circle stepped every few frames filled the
/// block with circles that never returned.
@Suite struct StayedPutBudgetTests {
    static let paint = Paint.solid(Color(rgb: 0x5856D6))

    static func ring(_ radius: Int, _ i: Int) -> Shape {
        .annulus(
            center: Point(x: Fixed(200), y: Fixed(200)),
            inner: Fixed(raw: Fixed(radius).raw + Int64(i) * 4096), outer: Fixed(radius + 3))
    }

    @Test func shapesThatStayedPutTakeAtMostTheirShare() {
        let buffer = PixelBuffer(width: 400, height: 400, format: .xrgb8888)
        let cache = RasterCache()
        let rasterizer = Rasterizer()
        // Rings of 190 px: a few KB of code each, a hundred of them far
        // more than the share.
        for i in 0..<100 {
            rasterizer.fill(
                Self.ring(190, i), paint: Self.paint, on: buffer.surface, cache: cache,
                stayedPut: true)
        }
        let stayed = cache.keptCoverage
        #expect(stayed.shapes > 1, "some are kept")
        #expect(stayed.bytes <= RasterCache.stayedPutBudget)
        #expect(cache.stayedPutBytes <= RasterCache.stayedPutBudget)
        // A shape that repeats is still kept.
        rasterizer.fill(
            .disc(center: Point(x: Fixed(50), y: Fixed(50)), radius: Fixed(20)), paint: Self.paint,
            on: buffer.surface, cache: cache, keepCoverage: true)
        #expect(cache.keptCoverage.shapes == stayed.shapes + 1)
        #expect(!cache.keptFull)
    }

    @Test func aShapeThatStayedPutAndDoesNotFitLeavesTheBlockOpen() {
        let buffer = PixelBuffer(width: 400, height: 400, format: .xrgb8888)
        // A block too small for the big ring, big enough for a small disc.
        let cache = RasterCache(keptBytes: 2 << 10)
        let rasterizer = Rasterizer()
        rasterizer.fill(
            Self.ring(190, 0), paint: Self.paint, on: buffer.surface, cache: cache,
            stayedPut: true)
        #expect(cache.keptCoverage.shapes == 0)
        #expect(!cache.keptFull)
        // Its kind is not tried again (each try rasterizes a whole shape).
        rasterizer.fill(
            Self.ring(20, 0), paint: Self.paint, on: buffer.surface, cache: cache,
            stayedPut: true)
        #expect(cache.keptCoverage.shapes == 0)
        rasterizer.fill(
            .disc(center: Point(x: Fixed(50), y: Fixed(50)), radius: Fixed(10)), paint: Self.paint,
            on: buffer.surface, cache: cache, keepCoverage: true)
        #expect(cache.keptCoverage.shapes == 1)
    }
}
