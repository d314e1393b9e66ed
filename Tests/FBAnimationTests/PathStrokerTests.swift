// Tests of the path stroker (Declarative/PathStroker.swift): the outline
// `Path.strokedPath` makes, filled by the rasterizer, against shapes whose
// coverage is known independently: the same region drawn another way (two
// rectangles, an annulus, a disc, a capsule), or the definition of a line
// with round caps and joins, every point within half the width of the
// polyline, sampled on a 16x16 grid per pixel.
//
// TOLERANCES (1/255 of coverage): the rasterizer's coverage of a polygon is
// exact to rounding; what differs is geometry. A stroke of straight lines
// with mitred corners is the very polygon of the two rectangles: 1 (rounding
// of 16.16 points). Curves are flattened within 1/64 design point and their
// offsets within 1/64 more (the stroker's tolerance), and a circle as four
// cubics is 0.027 % off its radius (0.01 px at 36): an edge pixel's
// coverage moves by the distance, 2/64 + 0.01 px = 10/255; the annulus
// itself is flattened within 1/128 px (2/255). The 16x16 grid samples an
// edge pixel's area to 1/32 (8/255); with the edge's own 1: 9, so 10.

import Foundation
import Testing
import _FBTestSupport

@testable import FBAnimation
@testable import FBRaster

/// Coverage (0...255) of `shape` filled white on black at `side` x `side`.
private func coverage(_ shape: FBRaster.Shape, side: Int, transform: Transform = .identity)
    -> [Int]
{
    let buffer = PixelBuffer(width: side, height: side, format: .xrgb8888)
    let r = Rasterizer()
    r.clear(buffer.surface, to: .black)
    r.fill(shape, transform: transform, paint: .solid(.white), on: buffer.surface)
    return withExtendedLifetime(buffer) {
        (0..<side * side).map { Int(buffer.surface.pixel(x: $0 % side, y: $0 / side) & 0xFF) }
    }
}

private func stroked(_ path: Path, _ style: StrokeStyle) -> FBRaster.Shape {
    .path(path.strokedPath(style))
}

/// Largest and mean absolute difference of two coverage pictures.
private func difference(_ a: [Int], _ b: [Int]) -> (max: Int, mean: Double) {
    var worst = 0
    var sum = 0
    for i in a.indices {
        worst = max(worst, abs(a[i] - b[i]))
        sum += abs(a[i] - b[i])
    }
    return (worst, Double(sum) / Double(a.count))
}

/// A closed polygon path through `points`.
private func polygon(_ points: [(Double, Double)], closed: Bool = true) -> Path {
    var p = Path()
    p.move(to: Point(points[0].0, points[0].1))
    for q in points.dropFirst() { p.addLine(to: Point(q.0, q.1)) }
    if closed { p.closeSubpath() }
    return p
}

/// A circle of `r` around (cx, cy) as four cubics (as SwiftUI builds one).
private func cubicCircle(_ cx: Double, _ cy: Double, _ r: Double) -> Path {
    let k = 0.552_284_749_831 * r
    var p = Path()
    p.move(to: Point(cx + r, cy))
    p.addCurve(
        to: Point(cx, cy + r), control1: Point(cx + r, cy + k), control2: Point(cx + k, cy + r))
    p.addCurve(
        to: Point(cx - r, cy), control1: Point(cx - k, cy + r), control2: Point(cx - r, cy + k))
    p.addCurve(
        to: Point(cx, cy - r), control1: Point(cx - r, cy - k), control2: Point(cx - k, cy - r))
    p.addCurve(
        to: Point(cx + r, cy), control1: Point(cx + k, cy - r), control2: Point(cx + r, cy - k))
    p.closeSubpath()
    return p
}

/// The definition of a round-capped, round-joined line: points within `h`
/// of the polyline, as the mean over a 16x16 grid per pixel (0...255).
private func roundLineReference(_ pts: [(Double, Double)], _ h: Double, side: Int) -> [Int] {
    func distance2(_ x: Double, _ y: Double) -> Double {
        var best = Double.infinity
        for i in 0..<(pts.count - 1) {
            let (ax, ay) = pts[i]
            let (bx, by) = pts[i + 1]
            let dx = bx - ax
            let dy = by - ay
            let t = min(max(((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy), 0), 1)
            let ex = ax + t * dx - x
            let ey = ay + t * dy - y
            best = min(best, ex * ex + ey * ey)
        }
        return best
    }
    return (0..<side * side).map { i in
        let px = Double(i % side)
        let py = Double(i / side)
        var inside = 0
        for j in 0..<16 {
            for k in 0..<16
            where distance2(px + (Double(k) + 0.5) / 16, py + (Double(j) + 0.5) / 16) <= h * h {
                inside += 1
            }
        }
        return Int((Double(inside) * 255 / 256).rounded())
    }
}

@Suite("Path stroker")
struct PathStrokerTests {
    @Test("a stroked closed square is the outer square less the inner one")
    func closedSquare() {
        let square = polygon([(12, 12), (52, 12), (52, 52), (12, 52)])
        let got = coverage(stroked(square, StrokeStyle(lineWidth: 6.5)), side: 64)
        var ring = polygon([(8.75, 8.75), (55.25, 8.75), (55.25, 55.25), (8.75, 55.25)])
        ring.move(to: Point(15.25, 15.25))
        for (x, y) in [(15.25, 48.75), (48.75, 48.75), (48.75, 15.25)] {
            ring.addLine(to: Point(x, y))
        }
        ring.closeSubpath()
        let d = difference(got, coverage(.path(ring), side: 64))
        #expect(d.max <= 1, "max \(d.max)")
    }

    @Test("a stroked cubic circle is an annulus, placed by any transform")
    func cubicCircleIsAnnulus() {
        let transforms = [
            Transform.identity,
            Transform(
                scale: ScaleFactor(1.37), rotation: .degrees(23),
                translation: Point(40.3, 38.6)),
        ]
        for (i, t) in transforms.enumerated() {
            let (cx, cy) = i == 0 ? (40.0, 40.0) : (0.0, 0.0)
            let got = coverage(
                stroked(cubicCircle(cx, cy, 22), StrokeStyle(lineWidth: 7)), side: 80, transform: t)
            let want = coverage(
                .annulus(center: Point(cx, cy), inner: Fixed(18.5), outer: Fixed(25.5)), side: 80,
                transform: t)
            let d = difference(got, want)
            #expect(d.max <= 10 && d.mean < 0.5, "transform \(i): \(d)")
        }
    }

    @Test("a line wider than its circle's diameter fills the disc, no hole")
    func wideLineOnSmallCircle() {
        let got = coverage(stroked(cubicCircle(32, 32, 6), StrokeStyle(lineWidth: 36)), side: 64)
        let want = coverage(.disc(center: Point(32, 32), radius: Fixed(24)), side: 64)
        let d = difference(got, want)
        #expect(d.max <= 10, "\(d)")
        #expect(got[32 * 64 + 32] == 255)
    }

    @Test("caps: butt ends at the end points, square goes on half the width, round is a capsule")
    func caps() {
        let line = polygon([(12, 32), (52, 32)], closed: false)
        let butt = coverage(stroked(line, StrokeStyle(lineWidth: 10)), side: 64)
        let square = coverage(stroked(line, StrokeStyle(lineWidth: 10, lineCap: .square)), side: 64)
        let round = coverage(stroked(line, StrokeStyle(lineWidth: 10, lineCap: .round)), side: 64)
        let box = { (x0: Double, x1: Double) in
            coverage(.path(polygon([(x0, 27), (x1, 27), (x1, 37), (x0, 37)])), side: 64)
        }
        #expect(difference(butt, box(12, 52)).max <= 1)
        #expect(difference(square, box(7, 57)).max <= 1)
        let capsule = coverage(
            .roundedRectStroke(
                center: Point(32, 32), halfWidth: Fixed(20), halfHeight: .zero,
                cornerRadius: .zero, lineWidth: Fixed(10)), side: 64)
        let d = difference(round, capsule)
        #expect(d.max <= 4, "\(d)")
    }

    /// Polylines that overlap themselves only at gentle bends and inner
    /// corners (where the inner offsets cross inside the segments).
    static let cleanLines: [([(Double, Double)], Double)] = [
        ([(10, 50), (30, 12), (52, 48)], 5),
        ([(10, 30), (30, 30), (31, 31), (31, 50)], 6),
        ([(10, 54), (10, 10), (40, 30), (54, 10)], 4),
        ([(8, 40), (20, 30), (34, 26), (46, 28), (56, 36)], 7),
    ]

    /// Polylines whose parts overlap: a 170 degree turn (the rectangles lie
    /// on each other), a path crossing itself, short segments under a wide
    /// line, a U-turn.
    static let overlappingLines: [([(Double, Double)], Double)] = [
        ([(8, 20), (56, 22), (20, 28)], 7.5),
        ([(10, 10), (54, 54), (54, 10), (10, 54)], 3.2),
        ([(12, 40), (20, 36), (24, 34), (26, 30), (27, 26), (40, 20)], 9),
        ([(20, 32), (44, 32), (20, 32.5)], 4),
    ]

    private func roundStroke(_ pts: [(Double, Double)], _ h: Double) -> (got: [Int], want: [Int]) {
        let style = StrokeStyle(lineWidth: 2 * h, lineCap: .round, lineJoin: .round)
        let got = coverage(stroked(polygon(pts, closed: false), style), side: 64)
        return (got, roundLineReference(pts, h, side: 64))
    }

    @Test("round caps and joins are every point within half the width", arguments: 0..<4)
    func roundLine(index: Int) {
        let (pts, h) = Self.cleanLines[index]
        let (got, want) = roundStroke(pts, h)
        let d = difference(got, want)
        #expect(d.max <= 10 && d.mean < 0.6, "line \(index): \(d)")
    }

    /// Where two parts of a stroke overlap, the outline's windings add up
    /// (a union by the nonzero rule) but the rasterizer's coverage is the
    /// clamped sum of the parts' areas in a pixel: an edge pixel that two
    /// overlapping parts' edges cross is covered too much (documented in
    /// `Path.strokedPath`). Never too little, no hole, nothing outside.
    @Test("overlapping parts: no hole, nothing outside, edges only over-covered", arguments: 0..<4)
    func overlappingLine(index: Int) {
        let (pts, h) = Self.overlappingLines[index]
        let (got, want) = roundStroke(pts, h)
        for i in got.indices {
            let at = "line \(index) pixel (\(i % 64), \(i / 64))"
            // 10: the reference's grid (see the tolerances at the top).
            if want[i] == 0 { #expect(got[i] <= 10, "\(at) outside: \(got[i])") }
            if want[i] == 255 { #expect(got[i] >= 245, "\(at) inside: \(got[i])") }
            #expect(got[i] >= want[i] - 10, "\(at): \(got[i]) < \(want[i])")
        }
        #expect(difference(got, want).mean < 0.6)
    }

    @Test(
        "a right-angle corner: miter adds the corner square, bevel half of it, round a quarter disc"
    )
    func joins() {
        let corner = polygon([(10, 40), (40, 40), (40, 10)], closed: false)
        func area(_ join: LineJoin, limit: Double = 10) -> Double {
            let c = coverage(
                stroked(corner, StrokeStyle(lineWidth: 12, lineJoin: join, miterLimit: limit)),
                side: 64)
            return Double(c.reduce(0, +)) / 255
        }
        let bevel = area(.bevel)
        // Outer corner beyond the bevel: the miter a triangle of 6 x 6, the
        // round join a quarter disc of 6 less the bevel's triangle.
        #expect(abs(area(.miter) - bevel - 18) < 0.5)
        #expect(abs(area(.round) - bevel - (Double.pi * 9 - 18)) < 0.5)
        // A miter 1/cos(45 deg) = 1.414 line widths long: a limit below bevels.
        #expect(abs(area(.miter, limit: 1.4) - bevel) < 0.01)
        #expect(abs(area(.miter, limit: 1.42) - bevel - 18) < 0.5)
    }

    @Test("a point draws a dot with round and square caps, nothing with butt")
    func dots() {
        var p = Path()
        p.move(to: Point(32, 32))
        p.addLine(to: Point(32, 32))
        let none = coverage(stroked(p, StrokeStyle(lineWidth: 10)), side: 64)
        #expect(none.allSatisfy { $0 == 0 })
        let disc = coverage(stroked(p, StrokeStyle(lineWidth: 10, lineCap: .round)), side: 64)
        #expect(
            difference(disc, coverage(.disc(center: Point(32, 32), radius: Fixed(5)), side: 64)).max
                <= 4)
    }
}

/// Joins, caps and a gradient through the whole renderer, written to the
/// test output folder when FBANIM_WRITE_PNGS is set (to look at them).
private struct StrokeSampler: Loader {
    var mainColor = Color(rgb: 0x0A84FF)
    let sheen = LinearGradient(
        colors: [Color(rgb: 0xFFD60A), Color(rgb: 0xFF375F), Color(rgb: 0x0A84FF, alpha: 0)],
        startPoint: .topLeading, endPoint: .bottomTrailing)
    let zigzag: [Path] = [LineJoin.miter, .round, .bevel].enumerated().map { i, join in
        Path { p in
            let y = -50.0 + 40 * Double(i)
            p.move(to: Point(-100, y + 12))
            p.addLine(to: Point(-80, y - 8))
            p.addLine(to: Point(-60, y + 12))
            p.addLine(to: Point(-40, y - 8))
        }.strokedPath(
            StrokeStyle(lineWidth: 8, lineCap: [LineCap.butt, .round, .square][i], lineJoin: join))
    }

    func body(in context: LoaderContext) -> some LoaderContent {
        zigzag[0].fill(Color.white)
        zigzag[1].fill(Color.white)
        zigzag[2].fill(Color.white)
        Circle(radius: 50).fill(sheen).offset(x: 50)
        Circle(radius: 50).trim(from: 0.1, to: 0.7)
            .stroke(Color.white, style: StrokeStyle(lineWidth: 6, lineCap: .square))
            .offset(x: 50)
        Path { p in
            p.move(to: Point(20, 40))
            p.addCurve(to: Point(100, 40), control1: Point(40, 90), control2: Point(80, -10))
        }.stroke(sheen, style: StrokeStyle(lineWidth: 12, lineCap: .round))
    }
}

@Test func strokeSamplerPicture() throws {
    guard ProcessInfo.processInfo.environment["FBANIM_WRITE_PNGS"] != nil else { return }
    let frame = renderFrame(StrokeSampler(), width: 240, height: 160, format: .xrgb8888, time: 0)
    let image = RGBImage(width: 240, height: 160, rgb: frame.rgbBytes())
    try writePNG(
        image,
        to: (testOutputDirectory() as NSString).appendingPathComponent("stroke-sampler.png"))
}
