// Oracle tests: discs, annuli (stroked circles) and sectors at random
// sub-pixel positions, radii from 0.5 px to 60 px, under random transforms,
// against the reference coverage (tolerances: CoverageOracle.swift).

import Foundation
import Testing
import _FBTestSupport

@testable import FBRaster

/// A random placement: the surface size and the transform that puts the
/// local origin at a random sub-pixel point near the middle of it.
private func placement(_ rng: inout SeededRandom, extent: Double, transformed: Bool)
    -> (width: Int, height: Int, transform: Transform, scale: Double)
{
    let width = Int((2 * extent + 10).rounded(.up)) + Int.random(in: 0...3, using: &rng)
    let height = Int((2 * extent + 10).rounded(.up)) + Int.random(in: 0...3, using: &rng)
    let c = (x: Double(width / 2) + rng.unit() - 0.5, y: Double(height / 2) + rng.unit() - 0.5)
    if !transformed {
        return (width, height, .translation(Fixed(c.x), Fixed(c.y)), 1)
    }
    let t = rng.transform(around: c)
    return (width, height, t, t.scale.double)
}

@Suite("Coverage oracle: circles")
struct CircleCoverageTests {
    static let discStats = StatsSink("disc", cases: 48)
    static let annulusStats = StatsSink("annulus", cases: 40)
    static let sectorStats = StatsSink("sector", cases: 48)

    @Test("random discs", arguments: 0..<48)
    func disc(seed: Int) {
        var rng = SeededRandom(seed: UInt64(1000 + seed))
        let deviceRadius = rng.logUniform(0.5, 60)
        let p = placement(&rng, extent: deviceRadius + 2, transformed: seed % 2 == 1)
        // A local centre off the origin, so the transform moves it too.
        let center = Point(rng.unit() - 0.5, rng.unit() - 0.5)
        let radius = Fixed(deviceRadius / p.scale)
        let exact = Double.pi * pow(p.scale * radius.double, 2)
        checkCoverage(
            .disc(center: center, radius: radius), transform: p.transform, width: p.width,
            height: p.height, exactArea: exact, label: "disc #\(seed) r=\(deviceRadius)",
            sink: Self.discStats)
    }

    @Test("random annuli (stroked circles)", arguments: 0..<40)
    func annulus(seed: Int) {
        var rng = SeededRandom(seed: UInt64(2000 + seed))
        let outerDevice = rng.logUniform(1, 60)
        // Stroke widths from 0.5 px to most of the radius.
        let widthDevice = min(rng.logUniform(0.5, 40), outerDevice * 0.95)
        let p = placement(&rng, extent: outerDevice + 2, transformed: seed % 3 == 2)
        let outer = Fixed(outerDevice / p.scale)
        let inner = Fixed((outerDevice - widthDevice) / p.scale)
        let exact = Double.pi * (pow(p.scale * outer.double, 2) - pow(p.scale * inner.double, 2))
        checkCoverage(
            .annulus(center: .zero, inner: inner, outer: outer), transform: p.transform,
            width: p.width, height: p.height, exactArea: exact,
            label: "annulus #\(seed) outer=\(outerDevice) width=\(widthDevice)",
            sink: Self.annulusStats)
    }

    @Test("random sectors, both directions, tiny to almost whole sweeps", arguments: 0..<48)
    func sector(seed: Int) {
        var rng = SeededRandom(seed: UInt64(3000 + seed))
        let radiusDevice = rng.logUniform(0.5, 60)
        let p = placement(&rng, extent: radiusDevice + 2, transformed: seed % 2 == 0)
        let turns: Double
        switch seed % 4 {
        case 0: turns = rng.logUniform(0.001, 0.05)  // thin slices
        case 1: turns = 1 - rng.logUniform(0.001, 0.05)  // almost whole
        default: turns = rng.unit()
        }
        let sweep = AngleSpan(turns: seed % 5 == 3 ? -turns : turns)
        let radius = Fixed(radiusDevice / p.scale)
        let exact = pow(p.scale * radius.double, 2) * abs(sweep.radians) / 2
        checkCoverage(
            .sector(center: .zero, radius: radius, start: Angle(turns: rng.unit()), sweep: sweep),
            transform: p.transform, width: p.width, height: p.height, exactArea: exact,
            label: "sector #\(seed) r=\(radiusDevice) sweep=\(sweep.raw)", sink: Self.sectorStats)
    }

    @Test("a sector of a whole turn or more is the disc")
    func wholeTurnSector() {
        let r = Fixed(17.3)
        let c = Point(20.25, 19.75)
        let disc = renderCoverage(.disc(center: c, radius: r), width: 40, height: 40)
        for turns in [1.0, 1.5, -1.0, 3.0] {
            let sector = renderCoverage(
                .sector(
                    center: c, radius: r, start: Angle(turns: 0.3), sweep: AngleSpan(turns: turns)),
                width: 40, height: 40)
            #expect(sector == disc, "sweep \(turns) turns")
        }
    }
}
