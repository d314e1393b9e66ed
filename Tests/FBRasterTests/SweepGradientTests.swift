// Oracle tests of the sweep gradient (the radar): a `.sector` painted with
// `.sweep(SweepGradient)` against the area average of its definition
// (Shape.swift): opacity linear in the direction from `start` to
// `start + sweep` (clockwise), padded with the nearer end outside, times the
// colour's alpha; the picture is white on black, so a pixel's value is the
// mean over its area of inside(p) * alpha(p).
//
// Reference: pixels wholly inside average alpha over a 8x8 grid (32x32 within
// 3 px of the centre); pixels on the sector's edge integrate inside * alpha
// over 128 horizontal bands, exactly in x for the inside-ness and with 8
// (64 near the centre) samples of alpha per inside piece.
//
// TOLERANCES (1/255), and why. The rasterizer takes coverage times alpha at
// the pixel centre (a 4x4 grid within 2 px of the centre), so:
//  - every pixel: 1.5 for the fixed-point gradient (ends rounded by div255,
//    the ramp to 1/65536 and rounded, the product coverage x alpha rounded);
//  - edge pixels: + 3.5 for the coverage (CoverageOracle.swift) + 0.5 for the
//    reference's 128 bands, + half the spread of alpha over the pixel, since
//    the centre's alpha is not the mean alpha of the covered part;
//  - inside pixels: + a quarter of that spread (the centre sample of a
//    smooth ramp; in practice far less);
//  - within 3 px of the centre, either sampling is allowed: the tolerance is
//    the larger of the two strategies' own errors (the spec asks for "at
//    least as good as the mean of a 4x4 grid of samples").
// Over all painted pixels 4 px or more from the centre (nearer, a pixel
// spans a large part of the ramp and the centre sample is a coarse mean by
// design) the mean |error| must stay below 0.5/255.

import Foundation
import Testing
import _FBTestSupport

@testable import FBRaster

/// The gradient's definition in Double (device space).
private struct GradientReference {
    let cx: Double
    let cy: Double
    let start: Double
    let sweep: Double
    let a0: Double
    let a1: Double

    init(_ g: SweepGradient, _ t: Transform) {
        let c = DoubleTransform(t).apply(g.center)
        cx = c.x
        cy = c.y
        start = g.start.radians + DoubleTransform(t).rotation
        sweep = min(max(g.sweep.radians, 1e-12), 2 * Double.pi)
        a0 = Double(g.startAlpha) / 255 * Double(g.color.a) / 255
        a1 = Double(g.endAlpha) / 255 * Double(g.color.a) / 255
    }

    func alpha(_ x: Double, _ y: Double) -> Double {
        var u = (atan2(y - cy, x - cx) - start).truncatingRemainder(dividingBy: 2 * Double.pi)
        if u < 0 { u += 2 * Double.pi }
        if u <= sweep { return a0 + (a1 - a0) * u / sweep }
        return u - sweep < 2 * Double.pi - u ? a1 : a0
    }

    func gridMean(_ px: Int, _ py: Int, _ n: Int) -> Double {
        var sum = 0.0
        for j in 0..<n {
            for i in 0..<n {
                sum += alpha(
                    Double(px) + (Double(i) + 0.5) / Double(n),
                    Double(py) + (Double(j) + 0.5) / Double(n))
            }
        }
        return sum / Double(n * n)
    }

    func spread(_ px: Int, _ py: Int) -> Double {
        var lo = 1.0
        var hi = 0.0
        for j in 0...4 {
            for i in 0...4 {
                let a = alpha(Double(px) + Double(i) / 4, Double(py) + Double(j) / 4)
                lo = min(lo, a)
                hi = max(hi, a)
            }
        }
        return hi - lo
    }
}

private struct SweepCase {
    var gradient: SweepGradient
    var shape: Shape
    var transform: Transform
    var side: Int
}

@Suite("Sweep gradient oracle")
struct SweepGradientTests {
    static let stats = StatsSink("sweep gradient", cases: 12)

    /// Case 0...5: the radar (half-turn sector, clear to opaque); 6...11: random ramps and sweeps.
    private static func makeCase(_ seed: Int) -> SweepCase {
        var rng = SeededRandom(seed: UInt64(10_000 + seed))
        let radius = rng.logUniform(6, 45)
        let side = Int((2 * radius + 8).rounded(.up))
        let c = (Double(side / 2) + rng.unit() - 0.5, Double(side / 2) + rng.unit() - 0.5)
        let transform =
            seed % 3 == 1
            ? Transform(
                scale: .one, rotation: Angle(turns: rng.unit()), translation: Point(c.0, c.1))
            : Transform.translation(Fixed(c.0), Fixed(c.1))
        let start = Angle(turns: rng.unit())
        let radar = seed < 6
        let sweep = radar ? AngleSpan.halfTurn : AngleSpan(turns: rng.logUniform(0.1, 0.95))
        let color = Color(rgb: 0xFFFFFF, alpha: radar || seed % 2 == 0 ? 255 : 200)
        let gradient = SweepGradient(
            center: .zero, start: start, sweep: sweep, color: color,
            startAlpha: radar ? 0 : UInt8.random(in: 0...255, using: &rng),
            endAlpha: radar ? 255 : UInt8.random(in: 0...255, using: &rng))
        return SweepCase(
            gradient: gradient,
            shape: .sector(center: .zero, radius: Fixed(radius), start: start, sweep: sweep),
            transform: transform, side: side)
    }

    @Test("sector with a sweep gradient vs the area average of its definition", arguments: 0..<12)
    func sweepOracle(seed: Int) {
        let k = Self.makeCase(seed)
        let buffer = PixelBuffer(width: k.side, height: k.side, format: .xrgb8888)
        defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
        Rasterizer().fill(
            k.shape, transform: k.transform, paint: .sweep(k.gradient), on: buffer.surface)
        let got = withExtendedLifetime(buffer) { readBlueChannel(buffer.surface) }

        let g = GradientReference(k.gradient, k.transform)
        let region = Reference.region(k.shape, k.transform)!
        let coverage = referenceCoverage(width: k.side, height: k.side, bandsPerPixel: 256) {
            region.intervals(y: $0)
        }
        var maxExcess = -Double.infinity
        var worst = ""
        var errorSum = 0.0
        var painted = 0
        var maxError = 0.0
        for py in 0..<k.side {
            for px in 0..<k.side {
                let i = py * k.side + px
                let cov = coverage[i]
                if cov <= 0 && got[i] == 0 { continue }
                let rho = hypot(Double(px) + 0.5 - g.cx, Double(py) + 0.5 - g.cy)
                let nearCenter = rho < 3
                let interior = cov >= 1 - 1e-12
                // The exact mean of inside * alpha over the pixel.
                let exact: Double
                if interior {
                    exact = g.gridMean(px, py, nearCenter ? 32 : 8)
                } else {
                    exact = Self.edgeIntegral(region, g, px, py, samples: nearCenter ? 64 : 8)
                }
                let spread = 255 * g.spread(px, py)
                var tolerance = 1.5 + (interior ? 0.25 * spread : 3.5 + 0.5 + 0.5 * spread)
                if nearCenter {
                    let centreModel = cov * g.alpha(Double(px) + 0.5, Double(py) + 0.5)
                    let gridModel = cov * g.gridMean(px, py, 4)
                    let strategyError = 255 * max(abs(centreModel - exact), abs(gridModel - exact))
                    tolerance = max(tolerance, 1.5 + (interior ? 0 : 4) + strategyError)
                }
                let e = abs(Double(got[i]) - 255 * exact)
                if ProcessInfo.processInfo.environment["FBRASTER_STATS"] == "all" && e > 1 {
                    print(
                        "[px] case \(seed) (\(px),\(py)) rho \(rho) cov \(cov) got \(got[i]) exact \(255 * exact) spread \(spread)"
                    )
                }
                maxError = max(maxError, e)
                if rho >= 4 {
                    errorSum += e
                    painted += 1
                }
                if e - tolerance > maxExcess {
                    maxExcess = e - tolerance
                    worst =
                        "pixel (\(px), \(py)) rho \(rho): got \(got[i]), expected \(255 * exact), tolerance \(tolerance)"
                }
            }
        }
        #expect(maxExcess <= 0, "case \(seed): \(worst)")
        let mean = errorSum / Double(max(painted, 1))
        #expect(
            mean < 0.5,
            "case \(seed): mean |error| \(mean)/255 over \(painted) px 4 px or more from the centre"
        )
        var s = ErrorStats(got: [], reference: [], width: 1)
        s.maxError = maxError
        s.edgeErrorSum = errorSum
        s.edgePixels = painted
        Self.stats.add(s)
    }

    /// Mean over pixel (px, py) of inside * alpha: 128 bands, exact inside-ness along each.
    private static func edgeIntegral(
        _ region: Region, _ g: GradientReference, _ px: Int, _ py: Int, samples: Int
    )
        -> Double
    {
        let bands = 128
        var sum = 0.0
        for b in 0..<bands {
            let y = Double(py) + (Double(b) + 0.5) / Double(bands)
            for s in region.intervals(y: y).spans {
                let lo = max(s.lo, Double(px))
                let hi = min(s.hi, Double(px + 1))
                if lo >= hi { continue }
                var a = 0.0
                for k in 0..<samples {
                    a += g.alpha(lo + (hi - lo) * (Double(k) + 0.5) / Double(samples), y)
                }
                sum += (hi - lo) * a / Double(samples)
            }
        }
        return sum / Double(bands)
    }

    @Test("the gradient's ends and pads, worked out by hand")
    func endsAndPads() {
        // A gradient from 3 o'clock, a quarter turn clockwise (to 6 o'clock),
        // alpha 0 -> 255, on a disc: right of the centre ~0, below ~255, the
        // far side padded with the nearer end (upper left: start, 0; lower left: end, 255).
        let c = Point(50, 50)
        let g = SweepGradient(
            center: c, start: .zero, sweep: AngleSpan(raw: 1 << 30), color: .white, startAlpha: 0,
            endAlpha: 255)
        let buffer = PixelBuffer(width: 100, height: 100, format: .xrgb8888)
        defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
        Rasterizer().fill(.disc(center: c, radius: Fixed(45)), paint: .sweep(g), on: buffer.surface)
        func value(_ x: Int, _ y: Int) -> Int { Int(buffer.surface.pixel(x: x, y: y) & 0xFF) }
        // Middle of the ramp: 45 degrees, (80, 80): alpha 127.5 -> 127 or 128.
        #expect(abs(value(80, 80) - 128) <= 1)
        // A third of the way: 30 degrees below +x: 85.
        let y30 = Int((50 + 30 * tan(Double.pi / 6)).rounded(.down))
        #expect(abs(value(80, y30) - 85) <= 3)
        #expect(value(50, 90) >= 250)  // straight down: the end
        #expect(value(20, 60) == 255)  // lower left: padded with the end
        // The pads split half way round the rest of the turn, at 90 + 135 = 225 degrees.
        #expect(value(20, 40) == 255)  // 198 degrees: nearer the end (108) than the start (162)
        #expect(value(35, 20) == 0)  // 244 degrees: nearer the start
        #expect(value(50, 10) == 0)  // straight up, 270 degrees: start pad
        #expect(value(90, 49) == 0)  // just above +x: 359.x degrees, nearer the start
        withExtendedLifetime(buffer) {}
    }
}
