// Oracle tests: stroked arcs with butt and round caps, at random sub-pixel
// positions, radii, widths, starts and sweeps (both directions), under random
// transforms, against the reference coverage (tolerances: CoverageOracle.swift).
// Sweeps close to a whole turn make the round caps overlap each other and the
// start of the arc: the shape must still be composited once.

import Foundation
import Testing
import _FBTestSupport

@testable import FBRaster

/// Area of an arc of centre-line radius r, half width h (h <= r), sweep s radians:
/// the annular sector, plus a whole disc of radius h for the two round half-caps.
private func arcArea(r: Double, h: Double, sweep: Double, round: Bool) -> Double {
    2 * r * h * abs(sweep) + (round ? Double.pi * h * h : 0)
}

/// A random arc placed on a surface that holds it.
private struct ArcCase {
    var shape: Shape
    var transform: Transform
    var width: Int
    var height: Int
    /// Closed form when the caps do not overlap (nil otherwise).
    var exactArea: Double?
    var label: String

    init(seed: Int, cap: LineCap, sweepTurns: Double) {
        var rng = SeededRandom(seed: UInt64(seed))
        let radius = rng.logUniform(1.5, 55)  // device px, centre line
        let half = min(rng.logUniform(0.25, 12), radius * 0.9)
        let extent = radius + half + 2
        width = Int((2 * extent + 8).rounded(.up)) + Int.random(in: 0...2, using: &rng)
        height = Int((2 * extent + 8).rounded(.up)) + Int.random(in: 0...2, using: &rng)
        let c = (x: Double(width / 2) + rng.unit() - 0.5, y: Double(height / 2) + rng.unit() - 0.5)
        if seed % 2 == 0 {
            transform = .translation(Fixed(c.x), Fixed(c.y))
        } else {
            transform = rng.transform(around: c)
        }
        let s = transform.scale.double
        let r = Fixed(radius / s)
        let w = Fixed(2 * half / s)
        let sweep = AngleSpan(turns: rng.unit() < 0.3 ? -sweepTurns : sweepTurns)
        shape = .arc(
            center: .zero, radius: r, width: w, start: Angle(turns: rng.unit()), sweep: sweep,
            cap: cap)
        let dr = s * r.double
        let dh = s * w.double / 2
        // Round caps of radius h at the two ends stay apart while the gap
        // between the ends (chord 2 r sin(gap / 2)) is wider than 2h.
        let gap = 2 * Double.pi - abs(sweep.radians)
        let capsApart = 2 * dr * sin(min(gap, Double.pi) / 2) > 2 * dh + 1e-9
        exactArea =
            cap == .butt || capsApart
            ? arcArea(r: dr, h: dh, sweep: sweep.radians, round: cap == .round) : nil
        label = "arc #\(seed) \(cap) r=\(dr) h=\(dh) sweep=\(sweep.raw)"
    }
}

@Suite("Coverage oracle: arcs")
struct ArcCoverageTests {
    static let buttStats = StatsSink("arc, butt caps", cases: 40)
    static let roundStats = StatsSink("arc, round caps", cases: 40)
    static let overlapStats = StatsSink(
        "arc, round caps overlapping (sweep near a turn)", cases: 24)

    @Test("random arcs with butt caps", arguments: 0..<40)
    func butt(seed: Int) {
        var rng = SeededRandom(seed: UInt64(4000 + seed))
        let turns = seed % 4 == 0 ? rng.logUniform(0.002, 0.05) : rng.logUniform(0.05, 0.97)
        let c = ArcCase(seed: 4000 + seed, cap: .butt, sweepTurns: turns)
        checkCoverage(
            c.shape, transform: c.transform, width: c.width, height: c.height,
            exactArea: c.exactArea,
            label: c.label, sink: Self.buttStats)
    }

    @Test("random arcs with round caps", arguments: 0..<40)
    func round(seed: Int) {
        var rng = SeededRandom(seed: UInt64(5000 + seed))
        let turns = seed % 4 == 0 ? rng.logUniform(0.002, 0.05) : rng.logUniform(0.05, 0.8)
        let c = ArcCase(seed: 5000 + seed, cap: .round, sweepTurns: turns)
        checkCoverage(
            c.shape, transform: c.transform, width: c.width, height: c.height,
            exactArea: c.exactArea,
            label: c.label, sink: Self.roundStats)
    }

    @Test(
        "round caps that overlap each other and the arc (sweep close to a turn)", arguments: 0..<24)
    func overlappingCaps(seed: Int) {
        var rng = SeededRandom(seed: UInt64(6000 + seed))
        let turns = 1 - rng.logUniform(0.002, 0.06)
        let c = ArcCase(seed: 6000 + seed, cap: .round, sweepTurns: turns)
        checkCoverage(
            c.shape, transform: c.transform, width: c.width, height: c.height,
            exactArea: c.exactArea,
            label: c.label, sink: Self.overlapStats)
    }

    @Test("overlapping caps are composited once: half-opaque paint never passes its alpha")
    func compositedOnce() {
        // White at alpha 128 over black: once gives at most div255(255 * 128) = 128
        // per pixel; blending twice would give up to 128 + 127 * 128/255 = 192.
        for (i, turns) in [0.999, 0.99, 0.97, 0.95].enumerated() {
            let shape = Shape.arc(
                center: Point(32.3, 31.8), radius: Fixed(20), width: Fixed(12),
                start: Angle(turns: 0.1 * Double(i)),
                sweep: AngleSpan(turns: turns), cap: .round)
            let got = renderCoverage(
                shape, width: 64, height: 64, color: Color(rgb: 0xFFFFFF, alpha: 128))
            let full = renderCoverage(shape, width: 64, height: 64)
            for p in got.indices {
                // The same pixel at opacity 128 x coverage, rounded once.
                let expected = Int(div255(128 * UInt32(full[p])))
                if got[p] != expected {
                    Issue.record(
                        "sweep \(turns): pixel \(p % 64),\(p / 64) = \(got[p]), expected \(expected)"
                    )
                    break
                }
            }
            #expect(got.max()! <= 128)
        }
    }

    /// Round caps meeting across a gap of a few raw units (1/2^32 of a turn)
    /// or around a hole of a raw unit: the directions from a cap's centre
    /// to the crossings may round to just before a cap part's start, and
    /// the part must then be empty, not wrap round to almost a whole turn
    /// (a second loop round the cap: 4 and 5 pixels off the ring in two of
    /// these cases before it was).
    @Test("caps that meet across the smallest gaps close the ring")
    func smallestGaps() {
        let cases: [(r: Int64, h: Int64, gap: Int64, start: UInt32)] = [
            (2_250_344, 2_250_343, 127, 2_260_793_588),
            (1_310_720, 1_310_719, 1000, 7),
            (1_310_720, 1_245_184, 400, 1 << 30),
            (2_000_000, 1_500_000, 3, 3_000_000_000),
            (2_000_000, 1_999_999, 4000, 123_456_789),
        ]
        let c = Point(40.3, 39.6)
        for (r, h, gap, start) in cases {
            let arc = renderCoverage(
                .arc(
                    center: c, radius: Fixed(raw: r), width: Fixed(raw: 2 * h),
                    start: Angle(raw: start), sweep: AngleSpan(raw: (1 << 32) - gap), cap: .round),
                width: 80, height: 80)
            // The caps close a gap far below a pixel: the ring, but for
            // the few vertices where the caps meet.
            let ring = renderCoverage(
                .annulus(center: c, inner: Fixed(raw: r - h), outer: Fixed(raw: r + h)),
                width: 80, height: 80)
            let off = zip(arc, ring).filter { abs($0 - $1) > 8 }.count
            #expect(off == 0, "r \(r) h \(h) gap \(gap): \(off) pixels off the ring")
        }
    }

    @Test("a whole turn or more is the ring, whatever the caps")
    func wholeTurn() {
        let c = Point(25.5, 24.25)
        let ring = renderCoverage(
            .annulus(center: c, inner: Fixed(14), outer: Fixed(20)), width: 50, height: 50)
        for turns in [1.0, -1.0, 1.25, 2.0] {
            for cap in [LineCap.butt, .round] {
                let arc = renderCoverage(
                    .arc(
                        center: c, radius: Fixed(17), width: Fixed(6), start: Angle(turns: 0.37),
                        sweep: AngleSpan(turns: turns), cap: cap), width: 50, height: 50)
                #expect(arc == ring, "sweep \(turns), \(cap)")
            }
        }
    }

    static let stepStats = StatsSink("arc, radius 120, sweep in 1/65536-turn steps", cases: 6)

    @Test(
        "angles at 1/65536 turn: each step of an arc's sweep is drawn where it is", arguments: 0..<6
    )
    func fineSteps(k: Int) {
        // LVGL steps arcs by whole degrees: 2 px at radius 120. Here the end
        // must sit where the sweep says to within the oracle's tolerance
        // (3.5/255 of a pixel's area: ~0.014 px for an edge), while one step
        // of 1/65536 turn moves it by 120 * 2 pi / 65536 = 0.0115 px.
        let sweep = AngleSpan(raw: (1 << 30) + Int64(k) * (1 << 16))
        let shape = Shape.arc(
            center: Point(130.3, 129.6), radius: Fixed(120), width: Fixed(8),
            start: Angle(turns: 0.05),
            sweep: sweep, cap: .butt)
        checkCoverage(
            shape, width: 260, height: 260, exactArea: 2 * 120 * 4 * sweep.radians,
            label: "step \(k)",
            sink: Self.stepStats)
        // And from one step to the next, pixels change by slivers only.
        if k > 0 {
            let before = renderCoverage(
                .arc(
                    center: Point(130.3, 129.6), radius: Fixed(120), width: Fixed(8),
                    start: Angle(turns: 0.05),
                    sweep: AngleSpan(raw: sweep.raw - (1 << 16)), cap: .butt), width: 260,
                height: 260)
            let after = renderCoverage(shape, width: 260, height: 260)
            let change = zip(before, after).map { abs($0 - $1) }.max()!
            // 0.0115 px of an 8 px end: at most ~3/255 per pixel, plus rounding.
            #expect(change <= 5, "step \(k): a pixel changed by \(change)/255")
        }
    }
}
