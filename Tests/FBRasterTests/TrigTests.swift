// Angles: the integer trig tables recomputed in Double (they come from
// Scripts/gen-trig-tables.py), fixed-point sin/cos and direction against
// libm, and degrees.

import Foundation
import Testing
import _FBTestSupport

@testable import FBRaster

private let unitsPerTurn = 4_294_967_296.0

/// The signed difference a - b of two angles in units of 2^-32 turn, in -2^31..<2^31.
private func angleDifference(_ a: UInt32, _ b: Double) -> Double {
    var d = Double(a) - b
    d -= (d / unitsPerTurn).rounded() * unitsPerTurn
    return d
}

@Suite("Trigonometry and angles")
struct TrigTests {
    @Test("sine table: round(sin(2 pi k / 4096) * 2^30), k = 0...1024")
    func sineTable() {
        #expect(sineQuarterTableQ30.count == 1025)
        for k in 0...1024 {
            // Same expression order as the generator: (2 pi k) / 4096.
            let expected = Int32((sin(2 * Double.pi * Double(k) / 4096) * 1_073_741_824).rounded())
            #expect(sineQuarterTableQ30[k] == expected, "k = \(k)")
        }
        #expect(sineQuarterTableQ30[0] == 0)
        #expect(sineQuarterTableQ30[1024] == 1 << 30)
    }

    @Test("arctangent table: round(atan(i / 256) / 2 pi * 2^32), i = 0...256")
    func arctangentTable() {
        #expect(arctangentTableTurns.count == 257)
        for i in 0...256 {
            let expected = UInt32(
                (atan(Double(i) / 256) / (2 * Double.pi) * unitsPerTurn).rounded())
            #expect(arctangentTableTurns[i] == expected, "i = \(i)")
        }
        #expect(arctangentTableTurns[256] == 1 << 29)  // atan(1) = 1/8 turn
    }

    @Test("sin and cos at the quarter turns are exact")
    func quarterTurns() {
        let one: Int64 = 1 << 30
        let expected: [(UInt32, Int64, Int64)] = [
            (0, one, 0), (1 << 30, 0, one), (1 << 31, -one, 0), (3 << 30, 0, -one),
        ]
        for (raw, c, s) in expected {
            let a = Angle(raw: raw)
            #expect(a.sinQ30 == s, "sin(\(raw))")
            #expect(a.cosSinQ30.cos == c && a.cosSinQ30.sin == s, "cosSin(\(raw))")
        }
        #expect(Angle(wholeDegrees: 90).sinQ30 == one)
        #expect(Angle(wholeDegrees: 180).cosSinQ30.cos == -one)
        #expect(Angle(wholeDegrees: 270).sinQ30 == -one)
        #expect(Angle(wholeDegrees: 45).sinQ30 == Angle(wholeDegrees: 45).cosSinQ30.cos)
    }

    @Test("sin and cos within 4e-7 of libm at 200000 random angles and near every table node")
    func sinCosAccuracy() {
        // Linear interpolation over steps of h = 2 pi / 4096 errs by at most
        // h^2 / 8 = 2.9e-7, plus half a unit of Q30 from each rounding.
        let bound = 4e-7 * 1_073_741_824
        var rng = SeededRandom(seed: 42)
        var worst = 0.0
        func check(_ raw: UInt32) {
            let a = Angle(raw: raw)
            let radians = Double(raw) / unitsPerTurn * 2 * Double.pi
            let (c, s) = a.cosSinQ30
            let es = abs(Double(s) - sin(radians) * 1_073_741_824)
            let ec = abs(Double(c) - cos(radians) * 1_073_741_824)
            worst = max(worst, es, ec)
            if es > bound || ec > bound {
                Issue.record("angle \(raw): sin \(s) cos \(c), errors \(es) \(ec)")
            }
            if a.sinQ30 != s { Issue.record("angle \(raw): sinQ30 and cosSinQ30 disagree") }
        }
        for _ in 0..<200_000 { check(UInt32.random(in: .min ... .max, using: &rng)) }
        for k in UInt32(0)..<4096 {
            check(k << 20)
            check((k << 20) &+ (1 << 19))  // mid-step, where interpolation errs most
            check((k << 20) &- 1)
        }
        reportStats(
            String(
                format: "sin/cos: max error %.3e (%.1f units of 2^-30)", worst / 1_073_741_824,
                worst))
    }

    @Test("sin is odd and cos even, exactly: sin(-a) = -sin(a), cos(-a) = cos(a)")
    func symmetry() {
        var rng = SeededRandom(seed: 43)
        var wrong: [UInt32] = []
        for _ in 0..<20_000 {
            let raw = UInt32.random(in: .min ... .max, using: &rng)
            let a = Angle(raw: raw)
            let minus = Angle(raw: 0 &- raw)
            let ok =
                minus.sinQ30 == -a.sinQ30 && minus.cosSinQ30.cos == a.cosSinQ30.cos
                // A quarter turn later, sin becomes cos (the definition of cosSinQ30).
                && (a + .quarterTurn).sinQ30 == a.cosSinQ30.cos
                && (a + .halfTurn).sinQ30 == -a.sinQ30
            if !ok { wrong.append(raw) }
        }
        #expect(wrong.isEmpty, "angles: \(wrong.prefix(5))")
    }

    @Test("direction(dx:dy:) within 1/65536 turn of atan2, all octants, axes, tiny and huge")
    func directionAccuracy() {
        // The issue asks for angles at 1/65536 turn or finer: 65536 units of 2^-32 turn.
        let bound = 65536.0
        var worst = 0.0
        func check(_ dx: Int64, _ dy: Int64) {
            let got = Angle.direction(dx: dx, dy: dy).raw
            var turns = atan2(Double(dy), Double(dx)) / (2 * Double.pi)
            if turns < 0 { turns += 1 }
            let e = abs(angleDifference(got, turns * unitsPerTurn))
            worst = max(worst, e)
            if e > bound {
                Issue.record(
                    "direction(\(dx), \(dy)) = \(got), atan2 gives \(turns) turn (error \(e) units)"
                )
            }
        }
        var rng = SeededRandom(seed: 44)
        for i in 0..<100_000 {
            // Magnitudes from 1 to 2^62, both signs: every octant.
            let bits = Int64(i % 62 + 1)
            let m: Int64 = 1 << bits
            check(Int64.random(in: -m...m, using: &rng), Int64.random(in: -m...m, using: &rng))
        }
        // Axes and diagonals, small and huge.
        for m in [1, 2, 3, 255, 256, 65536, 1 << 20, 1 << 39, 1 << 40, 1 << 62, Int64.max]
            as [Int64]
        {
            for (sx, sy) in [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)]
                as [(Int64, Int64)]
            {
                check(sx * m, sy * m)
            }
            check(m, 1)
            check(1, m)
            check(-m, 1)
            check(-m, -1)
        }
        check(Int64.min, 0)
        check(0, Int64.min)
        check(Int64.min, Int64.min)
        check(Int64.max, Int64.min)
        // Tiny vectors: every point of a 33x33 grid around the origin.
        for dx in Int64(-16)...16 {
            for dy in Int64(-16)...16 where dx != 0 || dy != 0 { check(dx, dy) }
        }
        // Exact values: the axes and the diagonals.
        #expect(Angle.direction(dx: 5, dy: 0) == .zero)
        #expect(Angle.direction(dx: 0, dy: 5) == .quarterTurn)
        #expect(Angle.direction(dx: -5, dy: 0) == .halfTurn)
        #expect(Angle.direction(dx: 0, dy: -5).raw == 3 << 30)
        #expect(Angle.direction(dx: 7, dy: 7).raw == 1 << 29)
        #expect(Angle.direction(dx: -7, dy: -7).raw == 5 << 29)
        #expect(Angle.direction(dx: 0, dy: 0) == .zero)
        reportStats(
            String(
                format: "direction: max error %.0f units of 2^-32 turn (%.4f of 1/65536 turn)",
                worst, worst / 65536))
    }

    @Test(
        "Angle(wholeDegrees:)",
        arguments: [
            0, 1, 30, 45, 90, 135, 180, 270, 359, 360, 361, 720, -1, -90, -360, -450, 1_000_000,
        ])
    func wholeDegrees(degrees: Int) {
        var m = degrees % 360
        if m < 0 { m += 360 }
        // round(m / 360 * 2^32) by exact integers, halves up.
        let expected = UInt32(truncatingIfNeeded: (Int64(m) << 33 + 360) / 720)
        #expect(Angle(wholeDegrees: degrees).raw == expected)
        #expect(abs(angleDifference(expected, Double(m) / 360 * unitsPerTurn)) <= 0.5)
    }

    @Test("Angle arithmetic wraps, AngleSpan holds whole turns")
    func angleArithmetic() {
        #expect(Angle(wholeDegrees: 270) + Angle(wholeDegrees: 180) == Angle(wholeDegrees: 90))
        #expect(Angle(wholeDegrees: 10) - Angle(wholeDegrees: 20) == Angle(wholeDegrees: 350))
        #expect(Angle(wholeDegrees: 90) + AngleSpan.fullTurn == Angle(wholeDegrees: 90))
        #expect(Angle(wholeDegrees: 90) + (-AngleSpan.halfTurn) == Angle(wholeDegrees: 270))
        #expect(AngleSpan.fullTurn.raw == 1 << 32)
        #expect(-AngleSpan.fullTurn < AngleSpan.zero)
        #expect(Angle.quarterTurn.raw == 1 << 30 && Angle.halfTurn.raw == 1 << 31)
    }
}
