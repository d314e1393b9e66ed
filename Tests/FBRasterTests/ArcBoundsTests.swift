import Testing
import _FBTestSupport

@testable import FBRaster

/// `Rasterizer.arcBounds` (the box of an arc's polygon found without
/// flattening it) against the box of the polygon the flattener puts: never
/// smaller (a frame's damage would miss pixels), at most a pixel larger on
/// a side, and most often the same.
@Suite struct ArcBoundsTests {
    /// Random arcs: sweeps from a sliver to beyond a turn both ways (round
    /// caps meeting across the gap included), widths past the diameter (no
    /// hole), both caps, any start, turned, scaled and moved.
    @Test func theBoxHoldsThePolygonsBox() {
        var random = SeededRandom(seed: 0xA4C_B0C5)
        let rasterizer = Rasterizer()
        var (same, checked) = (0, 0)
        for i in 0..<4000 {
            // Every eighth up to 20,000 px (and scales to 8: past the clamp).
            let radius = Fixed(
                Double.random(in: 0.3...(i % 8 == 0 ? 20_000 : 260), using: &random))
            // Every tenth past the diameter (no hole); others leave a hole of
            // a raw unit or two.
            let width =
                i % 10 == 0
                ? Fixed(2 * radius.double + Double.random(in: 0...20, using: &random))
                : i % 10 == 5
                    ? Fixed(raw: 2 * radius.raw - Int64.random(in: 1...4, using: &random))
                    : Fixed(Double.random(in: 0.05...60, using: &random))
            let turns: Double =
                switch i % 5 {
                case 0: Double.random(in: -0.01...0.01, using: &random)
                case 1: Double.random(in: 0.9...1, using: &random) * (i % 2 == 0 ? 1 : -1)
                // Caps meeting across a gap of a few raw units.
                case 4 where i % 20 == 4:
                    1 - Double(Int.random(in: 1...5000, using: &random)) / 4_294_967_296
                case 2: Double.random(in: 1...1.5, using: &random)
                default: Double.random(in: -1...1, using: &random)
                }
            let center = Point(
                Double.random(in: -300...300, using: &random),
                Double.random(in: -300...300, using: &random))
            let start = Angle(turns: Double.random(in: 0..<1, using: &random))
            let sweep = AngleSpan(turns: turns)
            let cap: LineCap = i % 3 == 0 ? .butt : .round
            let transform = Transform(
                scale: ScaleFactor(Double.random(in: 0.2...(i % 8 == 0 ? 8 : 4), using: &random)),
                rotation: Angle(
                    turns: i % 4 == 0
                        ? 0.25 * Double(i % 16 / 4) : Double.random(in: 0..<1, using: &random)),
                translation: Point(
                    Double.random(in: -100...900, using: &random),
                    Double.random(in: -100...600, using: &random)))
            let polygon = rasterizer.bounds(
                of: .arc(
                    center: center, radius: radius, width: width, start: start, sweep: sweep,
                    cap: cap),
                transform: transform)
            let box = Rasterizer.arcBounds(
                center: center, radius: radius, width: width, start: start, sweep: sweep, cap: cap,
                transform: transform)
            if polygon.isEmpty { continue }
            checked += 1
            let what = "arc \(i): r \(radius.double) w \(width.double) sweep \(turns) \(cap)"
            #expect(box.union(polygon) == box, "\(what): \(box) misses \(polygon)")
            #expect(
                polygon.x - box.x <= 1 && polygon.y - box.y <= 1
                    && box.maxX - polygon.maxX <= 1 && box.maxY - polygon.maxY <= 1,
                "\(what): \(box) is more than a pixel larger than \(polygon)")
            if box == polygon { same += 1 }
        }
        #expect(checked > 3900)
        #expect(same * 100 >= checked * 99, "\(same) of \(checked) the same")
    }

    /// Shapes the flattener puts no polygon for give an empty box.
    @Test func nothingDrawnIsEmpty() {
        let c = Point(10, 10)
        for (r, w, s) in [(0.0, 4.0, 0.3), (10.0, 0.0, 0.3), (10.0, 4.0, 0.0)] {
            let box = Rasterizer.arcBounds(
                center: c, radius: Fixed(r), width: Fixed(w), start: .zero,
                sweep: AngleSpan(turns: s), cap: .round, transform: .identity)
            #expect(box.isEmpty, "r \(r) w \(w) sweep \(s)")
        }
    }
}
