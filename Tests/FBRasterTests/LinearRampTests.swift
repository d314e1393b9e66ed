// Oracle tests of the linear ramp paint (LinearRamp.swift) against its
// definition in Double, per pixel: the pixel centre projected on the axis
// start -> end (both placed by the transform), clamped to 0...1, the stops
// mixed in premultiplied sRGB (alpha and alpha * channel linear, the colour
// their ratio), the opacity multiplied in, and the result composited
// source-over with the pixel's coverage onto the background.
//
// The coverage is the one a solid fill of the same shape gives (read from a
// white-on-black render): coverage has its own oracle (CoverageOracle.swift);
// this checks the paint and how it is composed with coverage and the clip.
//
// TOLERANCE (1/255 per channel), and why: the table has 4096 entries, so
// the position is off by at most half a step, 1/8190 of the axis: with
// stops at least 0.2 apart a channel moves at most 255 / 0.2 / 8190 = 0.16
// for it; the table's straight colour is rounded (0.5 times the opacity
// used, at most 0.5), its alpha rounded twice (stop mix, then the opacity:
// 1 alpha step, at most 1 on a channel), the effective opacity rounded by
// div255 (0.5 step: 0.5) and the blend once (0.5): 0.16 + 0.5 + 1 + 0.5 +
// 0.5 = 2.66, so 3. 16-bit formats blend onto the background as they hold
// it (dithered; the reference reads it back) and add the dither's
// quantisation of the result, under one 5-bit step (255 / 31 = 8.3): 12. The mean |error| over a picture in
// 8-bit formats must stay below 0.75 (rounding errors do not all add up).

import Foundation
import Testing
import _FBTestSupport

@testable import FBRaster

/// The definition of a `LinearRamp` in Double, in device space.
private struct RampReference {
    let sx, sy, dx, dy, len2: Double
    let stops: [(c: (Double, Double, Double), a: Double, at: Double)]
    let opacity: Double

    init(_ ramp: LinearRamp, _ t: Transform) {
        let m = DoubleTransform(t)
        let s = m.apply(ramp.start)
        let e = m.apply(ramp.end)
        sx = s.x
        sy = s.y
        dx = e.x - s.x
        dy = e.y - s.y
        len2 = dx * dx + dy * dy
        var previous = 0.0
        stops = ramp.stops.map {
            let at = max(min(max($0.location.double, 0), 1), previous)
            previous = at
            let c = $0.color
            return ((Double(c.r), Double(c.g), Double(c.b)), Double(c.a) / 255, at)
        }
        opacity = Double(ramp.opacity) / 255
    }

    /// Straight colour (0...255) and opacity (0...1) at device point (x, y).
    func color(_ x: Double, _ y: Double) -> (r: Double, g: Double, b: Double, a: Double) {
        let t = min(max(((x - sx) * dx + (y - sy) * dy) / len2, 0), 1)
        var k = 0
        while k + 1 < stops.count && stops[k + 1].at <= t { k += 1 }
        let first = stops[0]
        if t < first.at || k + 1 == stops.count {
            let s = t < first.at ? first : stops[k]
            return (s.c.0, s.c.1, s.c.2, s.a * opacity)
        }
        let (s0, s1) = (stops[k], stops[k + 1])
        let f = (t - s0.at) / (s1.at - s0.at)
        let a = s0.a + (s1.a - s0.a) * f
        func channel(_ c0: Double, _ c1: Double) -> Double {
            a == 0 ? 0 : (c0 * s0.a + (c1 * s1.a - c0 * s0.a) * f) / a
        }
        return (
            channel(s0.c.0, s1.c.0), channel(s0.c.1, s1.c.1), channel(s0.c.2, s1.c.2), a * opacity
        )
    }
}

private struct RampCase {
    var ramp: LinearRamp
    var shape: Shape
    var transform: Transform
    var clip: IntRect
    var side: Int
}

@Suite("Linear ramp oracle")
struct LinearRampTests {
    static let background: UInt32 = 0x20_3048

    /// Random stops (2...4, at least 0.2 apart), axis, shape and transform;
    /// every other case rotated and scaled.
    private static func makeCase(_ seed: Int) -> RampCase {
        var rng = SeededRandom(seed: UInt64(20_000 + seed))
        let side = 96
        let count = 2 + seed % 3
        var stops: [RampStop] = []
        for i in 0..<count {
            let location = Double(i) / Double(count - 1) * 0.6 + (seed % 2 == 0 ? 0 : 0.2)
            let alpha: UInt8 =
                i == 0 && seed % 4 == 1 ? 0 : UInt8.random(in: 128...255, using: &rng)
            let c = Color(
                r: UInt8.random(in: 0...255, using: &rng),
                g: UInt8.random(in: 0...255, using: &rng),
                b: UInt8.random(in: 0...255, using: &rng), a: alpha)
            stops.append(RampStop(color: c, location: Fixed(location)))
        }
        let length = 10 + 40 * rng.unit()
        let angle = 2 * Double.pi * rng.unit()
        let start = Point(-length / 2 * cos(angle), -length / 2 * sin(angle))
        let end = Point(length / 2 * cos(angle), length / 2 * sin(angle))
        let ramp = LinearRamp(
            start: start, end: end, stops: stops,
            opacity: seed % 3 == 2 ? UInt8.random(in: 60...220, using: &rng) : 255)
        let center = Point(48 + rng.unit() - 0.5, 48 + rng.unit() - 0.5)
        let transform =
            seed % 2 == 1
            ? Transform(
                scale: ScaleFactor(0.6 + rng.unit()), rotation: Angle(turns: rng.unit()),
                translation: center)
            : Transform(translation: center)
        var path = Path()
        path.move(to: Point(-30, -25))
        path.line(to: Point(35, -20))
        path.curve(to: Point(-20, 30), control1: Point(40, 30), control2: Point(10, 40))
        path.close()
        let shape: Shape =
            seed % 3 == 0 ? .disc(center: .zero, radius: Fixed(36)) : .path(path)
        return RampCase(
            ramp: ramp, shape: shape, transform: transform,
            clip: IntRect(x: 8, y: 5, width: 70, height: 84), side: side)
    }

    /// Renders `c` in `format` and returns each pixel's error per channel
    /// against the reference (maximum, and mean over painted pixels).
    private static func measure(_ c: RampCase, _ format: PixelFormat) -> (max: Double, mean: Double)
    {
        let coverage = renderCoverage(
            c.shape, transform: c.transform, width: c.side, height: c.side)
        let buffer = PixelBuffer(width: c.side, height: c.side, format: format)
        let rasterizer = Rasterizer()
        rasterizer.clear(buffer.surface, to: Color(rgb: background))
        // The background as the format holds it (16-bit: dithered).
        let before = withExtendedLifetime(buffer) {
            (0..<c.side * c.side).map { buffer.surface.pixel(x: $0 % c.side, y: $0 / c.side) }
        }
        rasterizer.fill(
            c.shape, transform: c.transform, paint: .linear(c.ramp), on: buffer.surface,
            clip: c.clip)
        let reference = RampReference(c.ramp, c.transform)
        var worst = 0.0
        var sum = 0.0
        var painted = 0
        withExtendedLifetime(buffer) {
            for y in 0..<c.side {
                for x in 0..<c.side {
                    let got = buffer.surface.pixel(x: x, y: y)
                    let cov =
                        c.clip.contains(x: x, y: y) ? Double(coverage[y * c.side + x]) / 255 : 0
                    let p = reference.color(Double(x) + 0.5, Double(y) + 0.5)
                    let m = p.a * cov
                    for (shift, value) in [(16, p.r), (8, p.g), (0, p.b)] {
                        let bg = Double(before[y * c.side + x] >> UInt32(shift) & 0xFF)
                        let expected = value * m + bg * (1 - m)
                        let e = abs(Double(got >> UInt32(shift) & 0xFF) - expected)
                        worst = max(worst, e)
                        if cov > 0 {
                            sum += e
                            painted += 1
                        }
                    }
                }
            }
        }
        return (worst, sum / Double(max(painted, 1)))
    }

    @Test("matches the definition in 8-bit formats", arguments: 0..<12)
    func eightBit(seed: Int) {
        let c = Self.makeCase(seed)
        for format in [PixelFormat.xrgb8888, .xbgr8888, .rgb888] {
            let e = Self.measure(c, format)
            #expect(e.max <= 3, "case \(seed) \(format): max \(e.max)")
            #expect(e.mean < 0.75, "case \(seed) \(format): mean \(e.mean)")
        }
    }

    @Test("matches the definition in 16-bit formats, within the dither", arguments: 0..<6)
    func sixteenBit(seed: Int) {
        let c = Self.makeCase(seed)
        for format in [PixelFormat.rgb565, .bgr565] {
            let e = Self.measure(c, format)
            #expect(e.max <= 12, "case \(seed) \(format): max \(e.max)")
        }
    }

    @Test("pads past both ends, and a zero-length axis paints the last stop")
    func padsAndDegenerate() {
        let red = Color(rgb: 0xFF0000)
        let blue = Color(rgb: 0x0000FF)
        let stops = [RampStop(color: red, location: .zero), RampStop(color: blue, location: .one)]
        let buffer = PixelBuffer(width: 40, height: 4, format: .xrgb8888)
        let r = Rasterizer()
        r.clear(buffer.surface, to: .black)
        let ramp = LinearRamp(start: Point(10, 0), end: Point(30, 0), stops: stops)
        var box = Path()
        box.move(to: Point(0, 0))
        box.line(to: Point(40, 0))
        box.line(to: Point(40, 4))
        box.line(to: Point(0, 4))
        r.fill(.path(box), paint: .linear(ramp), on: buffer.surface)
        withExtendedLifetime(buffer) {
            #expect(buffer.surface.pixel(x: 2, y: 1) == 0xFF0000)
            #expect(buffer.surface.pixel(x: 37, y: 1) == 0x0000FF)
            #expect(buffer.surface.pixel(x: 19, y: 1) & 0xFF0000 > 0x700000)
        }
        let flat = LinearRamp(start: Point(10, 0), end: Point(10, 0), stops: stops)
        r.fill(.path(box), paint: .linear(flat), on: buffer.surface)
        withExtendedLifetime(buffer) {
            #expect(buffer.surface.pixel(x: 2, y: 1) == 0x0000FF)
        }
    }

    /// Writes the pictures of a few cases to the test output folder when
    /// FBANIM_WRITE_PNGS is set (to look at them).
    @Test("writes pictures to look at on request")
    func pictures() throws {
        guard ProcessInfo.processInfo.environment["FBANIM_WRITE_PNGS"] != nil else { return }
        for seed in 0..<4 {
            let c = Self.makeCase(seed)
            let buffer = PixelBuffer(width: c.side, height: c.side, format: .rgb565)
            let r = Rasterizer()
            r.clear(buffer.surface, to: Color(rgb: Self.background))
            r.fill(
                c.shape, transform: c.transform, paint: .linear(c.ramp), on: buffer.surface,
                clip: c.clip)
            let image = RGBImage(width: c.side, height: c.side, rgb: buffer.rgbBytes())
            let path = (testOutputDirectory() as NSString).appendingPathComponent(
                "linear-ramp-\(seed).png")
            try writePNG(image, to: path)
        }
    }
}

extension IntRect {
    fileprivate func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }
}
