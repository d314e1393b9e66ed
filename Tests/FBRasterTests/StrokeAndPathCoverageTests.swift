// Oracle tests: rounded-rectangle strokes (capsules included) and closed
// cubic paths (hearts) under rotation and scale, against the reference
// coverage (tolerances: CoverageOracle.swift); and a rectangle whose
// coverage is worked out by hand.

import Foundation
import Testing
import _FBTestSupport

@testable import FBRaster

/// Area of a rounded rectangle of half sizes (hw, hh) and corner radius r.
private func roundedBoxArea(_ hw: Double, _ hh: Double, _ r: Double) -> Double {
    hw <= 0 || hh <= 0 ? 0 : 4 * hw * hh - (4 - Double.pi) * r * r
}

/// The orbit loader's heart (spec loaders.md) of width `w` centred at (dx, dy):
/// six cubics in units of k = w / 2, from (0, 0.9k), closed.
func heartPath(width w: Double, dx: Double = 0, dy: Double = 0) -> Path {
    let k = w / 2
    func p(_ x: Double, _ y: Double) -> Point { Point(dx + x * k, dy + y * k) }
    let cubics: [((Double, Double), (Double, Double), (Double, Double))] = [
        ((-0.2, 0.7), (-1, 0.2), (-1, -0.35)),
        ((-1, -0.8), (-0.55, -0.95), (-0.5, -0.95)),
        ((-0.25, -0.95), (-0.05, -0.8), (0, -0.55)),
        ((0.05, -0.8), (0.25, -0.95), (0.5, -0.95)),
        ((0.55, -0.95), (1, -0.8), (1, -0.35)),
        ((1, 0.2), (0.2, 0.7), (0, 0.9)),
    ]
    var path = Path()
    path.move(to: p(0, 0.9))
    for (c1, c2, end) in cubics {
        path.curve(to: p(end.0, end.1), control1: p(c1.0, c1.1), control2: p(c2.0, c2.1))
    }
    path.close()
    return path
}

/// The area of a closed polygon (shoelace), for the finely cut reference path.
private func polygonArea(_ segments: [(Double, Double, Double, Double)]) -> Double {
    abs(segments.reduce(0) { $0 + ($1.0 * $1.3 - $1.2 * $1.1) }) / 2
}

@Suite("Coverage oracle: strokes and paths")
struct StrokeAndPathCoverageTests {
    static let capsuleStats = StatsSink("capsule stroke (10, 25, r 10, w 8)", cases: 24)
    static let roundRectStats = StatsSink("rounded-rect stroke", cases: 32)
    static let heartStats = StatsSink("heart (cubic path)", cases: 24)

    @Test(
        "capsule strokes (half sizes 10 x 25, radius 10, width 8) rotated and scaled",
        arguments: 0..<24)
    func capsule(seed: Int) {
        var rng = SeededRandom(seed: UInt64(7000 + seed))
        // The outline's outer edge reaches sqrt(14^2 + 29^2) = 32.2 local units
        // from the centre: scales up to 1.4 keep it on a 100 x 100 surface.
        let side = 100
        let scale = rng.logUniform(0.5, 1.4)
        let quarter = seed % 6 == 0  // exact quarter turns too
        let t = Transform(
            scale: ScaleFactor(scale),
            rotation: quarter ? Angle(raw: UInt32(seed % 4) << 30) : Angle(turns: rng.unit()),
            translation: Point(50 + rng.unit() - 0.5, 50 + rng.unit() - 0.5))
        let shape = Shape.roundedRectStroke(
            center: .zero, halfWidth: Fixed(10), halfHeight: Fixed(25), cornerRadius: Fixed(10),
            lineWidth: Fixed(8))
        let s = t.scale.double
        let exact = s * s * (roundedBoxArea(14, 29, 14) - roundedBoxArea(6, 21, 6))
        checkCoverage(
            shape, transform: t, width: side, height: side, exactArea: exact,
            label: "capsule #\(seed) scale \(s)", sink: Self.capsuleStats)
    }

    @Test("random rounded-rectangle strokes", arguments: 0..<32)
    func roundedRect(seed: Int) {
        var rng = SeededRandom(seed: UInt64(8000 + seed))
        let hw = rng.logUniform(0.5, 30)
        let hh = rng.logUniform(0.5, 30)
        // Corner radii below, at and above the half sizes (clamped by definition).
        let cr = [0, rng.unit() * min(hw, hh), min(hw, hh), 1.5 * max(hw, hh)][seed % 4]
        let lw = rng.logUniform(0.5, 14)
        let extent = (hw * hw + hh * hh).squareRoot() + lw + 2
        let side = Int((2 * extent * 1.3 + 6).rounded(.up))
        let t =
            seed % 3 == 0
            ? Transform.translation(
                Fixed(Double(side / 2) + rng.unit()), Fixed(Double(side / 2) + rng.unit()))
            : rng.transform(around: (Double(side / 2), Double(side / 2)))
        let s = t.scale.double
        let (fhw, fhh, fcr, flw) = (Fixed(hw / s), Fixed(hh / s), Fixed(cr / s), Fixed(lw / s))
        let shape = Shape.roundedRectStroke(
            center: .zero, halfWidth: fhw, halfHeight: fhh, cornerRadius: fcr, lineWidth: flw)
        // Closed form of the definition: outline offset by +-h.
        let (w, h2, h) = (fhw.double, fhh.double, flw.double / 2)
        let r = max(0, min(fcr.double, w, h2))
        var area = roundedBoxArea(w + h, h2 + h, r + h)
        if w > h && h2 > h { area -= roundedBoxArea(w - h, h2 - h, max(r - h, 0)) }
        checkCoverage(
            shape, transform: t, width: side, height: side, exactArea: s * s * area,
            label: "rounded rect #\(seed) \(hw)x\(hh) r \(cr) w \(lw) scale \(s)",
            sink: Self.roundRectStats)
    }

    @Test(
        "hearts (the orbit's six cubics) at random sizes, positions and rotations",
        arguments: 0..<24)
    func heart(seed: Int) {
        var rng = SeededRandom(seed: UInt64(9000 + seed))
        let size = rng.logUniform(2, 90)  // the heart's width, px
        let side = Int((1.5 * size + 8).rounded(.up))
        let c = (Double(side / 2) + rng.unit() - 0.5, Double(side / 2) + rng.unit() - 0.5)
        let t =
            seed % 2 == 0
            ? Transform.translation(Fixed(c.0), Fixed(c.1))
            : Transform(
                scale: ScaleFactor(1), rotation: Angle(turns: rng.unit()),
                translation: Point(c.0, c.1))
        let path = heartPath(width: size, dx: rng.unit() - 0.5, dy: rng.unit() - 0.5)
        let reference = ReferencePolygon(
            path.elements, DoubleTransform(t), chords: 512, height: side)
        checkCoverage(
            .path(path), transform: t, width: side, height: side,
            exactArea: polygonArea(reference.segments), label: "heart #\(seed) size \(size)",
            sink: Self.heartStats)
    }

    @Test("a rectangle's coverage, worked out by hand")
    func handWorkedRectangle() {
        // x from 3.5 to 6.25, y from 2.5 to 5.75. Coverage of a pixel is the
        // product of its x and y overlaps; the value is round(255 * coverage), halves up.
        var path = Path()
        path.move(to: Point(3.5, 2.5))
        path.line(to: Point(6.25, 2.5))
        path.line(to: Point(6.25, 5.75))
        path.line(to: Point(3.5, 5.75))
        path.close()
        let got = renderCoverage(.path(path), width: 8, height: 8)
        let xs: [Double] = [0, 0, 0, 0.5, 1, 1, 0.25, 0]
        let ys: [Double] = [0, 0, 0.5, 1, 1, 0.75, 0, 0]
        // e.g. (3, 2): 0.25 -> 63.75 -> 64; (4, 2): 0.5 -> 127.5 -> 128;
        // (6, 5): 0.1875 -> 47.8 -> 48; (4, 5): 0.75 -> 191.25 -> 191.
        for y in 0..<8 {
            for x in 0..<8 {
                let expected = Int((255 * xs[x] * ys[y] + 0.5).rounded(.down))
                #expect(got[y * 8 + x] == expected, "pixel (\(x), \(y))")
            }
        }
        #expect(
            got[2 * 8 + 3] == 64 && got[2 * 8 + 4] == 128 && got[5 * 8 + 6] == 48
                && got[5 * 8 + 4] == 191)
        // The same rectangle drawn counter-clockwise: the same coverage (nonzero rule).
        var reversed = Path()
        reversed.move(to: Point(3.5, 2.5))
        reversed.line(to: Point(3.5, 5.75))
        reversed.line(to: Point(6.25, 5.75))
        reversed.line(to: Point(6.25, 2.5))
        reversed.close()
        #expect(renderCoverage(.path(reversed), width: 8, height: 8) == got)
    }

    @Test("overlapping subpaths of one path are composited once (nonzero)")
    func overlappingSubpaths() {
        // Two squares overlapping on whole pixels, same direction: winding 2 in the middle.
        var path = Path()
        for (x0, y0) in [(2.0, 2.0), (5.0, 5.0)] {
            path.move(to: Point(x0, y0))
            path.line(to: Point(x0 + 6, y0))
            path.line(to: Point(x0 + 6, y0 + 6))
            path.line(to: Point(x0, y0 + 6))
            path.close()
        }
        let got = renderCoverage(
            .path(path), width: 14, height: 14, color: Color(rgb: 0xFFFFFF, alpha: 100))
        for y in 0..<14 {
            for x in 0..<14 {
                let inside =
                    (x >= 2 && x < 8 && y >= 2 && y < 8) || (x >= 5 && x < 11 && y >= 5 && y < 11)
                #expect(got[y * 14 + x] == (inside ? 100 : 0), "pixel (\(x), \(y))")
            }
        }
    }
}
