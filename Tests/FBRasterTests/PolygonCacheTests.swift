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

    /// The box the flattener keeps as it closes contours is the box of the
    /// polygon's vertices, for every kind of shape (degenerate ones too),
    /// in 24.8 and in 16.16; a polygon handed to a cache keeps its vertices.
    @Test func theFlattenersBoxIsThePolygons() {
        var rng = SeededRandom(seed: 11)
        func length(_ max: Int64) -> Fixed { Fixed(raw: Int64.random(in: 0...max, using: &rng)) }
        func point() -> Point {
            Point(
                x: Fixed(raw: Int64.random(in: -(300 << 16)...(900 << 16), using: &rng)),
                y: Fixed(raw: Int64.random(in: -(300 << 16)...(700 << 16), using: &rng)))
        }
        func angle() -> Angle { Angle(raw: UInt32.random(in: 0...UInt32.max, using: &rng)) }
        func span() -> AngleSpan {
            AngleSpan(raw: Int64.random(in: -(5 << 31)...(5 << 31), using: &rng))
        }
        var flattener = Flattener()
        var kept = Polygon<Subpixel>()
        for trial in 0..<1200 {
            let shape: Shape
            switch trial % 6 {
            case 0: shape = .disc(center: point(), radius: length(200 << 16))
            case 1:
                shape = .annulus(center: point(), inner: length(90 << 16), outer: length(200 << 16))
            case 2:
                shape = .arc(
                    center: point(), radius: length(200 << 16), width: length(60 << 16),
                    start: angle(), sweep: span(), cap: Bool.random(using: &rng) ? .round : .butt)
            case 3:
                shape = .sector(
                    center: point(), radius: length(200 << 16), start: angle(), sweep: span())
            case 4:
                shape = .roundedRectStroke(
                    center: point(), halfWidth: length(60 << 16), halfHeight: length(60 << 16),
                    cornerRadius: length(30 << 16), lineWidth: length(20 << 16))
            default:
                var path = Path()
                path.move(to: point())
                path.curve(to: point(), control1: point(), control2: point())
                path.line(to: point())
                path.close()
                shape = .path(path)
            }
            let t = Transform(
                scale: ScaleFactor(raw: Int64.random(in: (1 << 22)...(1 << 26), using: &rng)),
                rotation: angle(), translation: point())
            flattener.flatten(shape, t)
            let polygon = flattener.polygon
            let (want, got) = (box(of: polygon), flattener.extent)
            #expect(
                [got.minX, got.minY, got.maxX, got.maxY] == [
                    want.minX, want.minY, want.maxX, want.maxY,
                ]
                    || (want.minX > want.maxX && got.minX > got.maxX),
                "trial \(trial): \(shape)")
            // Copies taken before the move (`polygon` shares the flattener's storage).
            let (flatVertices, flatBands) = (vertices(polygon), bands(polygon))
            flattener.movePolygon(into: &kept)
            #expect(vertices(kept) == flatVertices, "trial \(trial)")
            #expect(bands(kept) == flatBands, "trial \(trial)")
            #expect(flattener.extent.minX > flattener.extent.maxX, "an empty flattener's box")
            flattener.flatten(
                shape, Transform(scale: t.scale, rotation: t.rotation), fixedPoint: true)
            let unplaced = flattener.unplacedPolygon
            let (fixedWant, fixedGot) = (box(of: unplaced), flattener.unplacedExtent)
            #expect(
                [fixedGot.minX, fixedGot.minY, fixedGot.maxX, fixedGot.maxY]
                    == [fixedWant.minX, fixedWant.minY, fixedWant.maxX, fixedWant.maxY]
                    || (fixedWant.minX > fixedWant.maxX && fixedGot.minX > fixedGot.maxX),
                "trial \(trial) in 16.16")
        }
    }

    /// The box of every vertex of `polygon` (none below three), vertex by vertex.
    private func box<Unit>(of polygon: Polygon<Unit>) -> Extent<Unit> {
        var e = Extent<Unit>()
        guard polygon.vertexCount >= 3 else { return e }
        for i in stride(from: 0, to: polygon.rawCoordinates.count, by: 2) {
            e.minX = min(e.minX, polygon.rawCoordinates[i])
            e.maxX = max(e.maxX, polygon.rawCoordinates[i])
            e.minY = min(e.minY, polygon.rawCoordinates[i + 1])
            e.maxY = max(e.maxY, polygon.rawCoordinates[i + 1])
        }
        return e
    }
}
