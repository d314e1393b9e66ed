import Testing
import _FBTestSupport

@testable import FBRaster

/// A moving path is flattened once and placed by translation: the placed
/// polygon must be the very one flattening with the whole transform gives.
@Suite struct PolygonCacheTests {
    @Test func placedPathsEqualFlattenedOnes() {
        var rng = SeededRandom(seed: 7)
        func coordinate() -> Fixed {
            Fixed(raw: Int64.random(in: -3_000_000...3_000_000, using: &rng))
        }
        func point() -> Point { Point(x: coordinate(), y: coordinate()) }
        for trial in 0..<1500 {
            var path = Path()
            path.move(to: point())
            for _ in 0..<Int.random(in: 2...4, using: &rng) {
                if Bool.random(using: &rng) {
                    path.line(to: point())
                } else {
                    path.curve(to: point(), control1: point(), control2: point())
                }
            }
            path.close()
            // Every fifth far off (the vertex clamp), the rest on a screen.
            let reach: Int64 = trial % 5 == 0 ? 1 << 37 : 400 << 16
            let t = Transform(
                scale: ScaleFactor(raw: Int64.random(in: (1 << 20)...(1 << 27), using: &rng)),
                rotation: Angle(raw: UInt32.random(in: 0...UInt32.max, using: &rng)),
                translation: Point(
                    x: Fixed(raw: Int64.random(in: -reach...reach, using: &rng)),
                    y: Fixed(raw: Int64.random(in: -(400 << 16)...(400 << 16), using: &rng))))
            var direct = Flattener()
            direct.flatten(.path(path), t)
            var cache = PolygonCache()
            var flattener = Flattener()
            let (placed, _) = cache.polygon(.path(path), t, &flattener)
            #expect(vertices(placed) == vertices(direct.polygon), "trial \(trial)")
            #expect(bands(placed) == bands(direct.polygon), "trial \(trial)")
            #expect(contours(placed) == contours(direct.polygon), "trial \(trial)")
        }
    }

    private func vertices(_ p: Polygon<Subpixel>) -> [SubpixelPoint] {
        (0..<p.vertexCount).map { p.vertex($0) }
    }
    private func bands(_ p: Polygon<Subpixel>) -> [Subpixel] {
        (0..<p.bandCount).flatMap { [p.band($0).low, p.band($0).high] }
    }
    private func contours(_ p: Polygon<Subpixel>) -> [Range<Int>] {
        (0..<p.contourEnds.count).map { p.contour($0) }
    }

    /// Paths of fewer than three vertices have no area and an empty extent:
    /// moving one is no arithmetic overflow, and draws nothing.
    @Test func degeneratePathsMoveWithoutTrapping() {
        var line = Path()
        line.move(to: .zero)
        line.line(to: Point(x: Fixed(5), y: Fixed(5)))
        var lone = Path()
        lone.move(to: Point(x: Fixed(3), y: Fixed(3)))
        let r = Rasterizer()
        let buffer = PixelBuffer(width: 16, height: 16, format: .xrgb8888)
        for path in [Path(), lone, line] {
            let t = Transform.translation(Fixed(10), Fixed(10))
            #expect(r.bounds(of: .path(path), transform: t).isEmpty)
            r.fill(.path(path), transform: t, paint: .solid(.white), on: buffer.surface)
        }
    }
}
