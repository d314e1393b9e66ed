// Oracle tests of the number formats and their rounding (ROUNDING.md):
// every rounding shift and division rounds to nearest with halves towards
// +infinity, on both sides of zero. Expected values come from exact rational
// arithmetic written here, never from the implementation.

import Foundation
import Testing
import _FBTestSupport

@testable import FBRaster

/// `n / d` rounded to nearest, halves up, by the definition: floor(n/d + 1/2) = floor((2n + d) / 2d).
private func referenceRound(_ n: Int64, _ d: Int64) -> Int64 {
    let num = Int128(n) * 2 + Int128(d)
    let den = Int128(d) * 2
    // Floor division for a positive denominator.
    let q = num / den
    return Int64(num % den < 0 ? q - 1 : q)
}

/// `v / 2^30` rounded to nearest, halves up: floor((2v + 2^30) / 2^31).
private func referenceRound128(_ v: Int128) -> Int128 {
    let num = v * 2 + (1 << 30)
    let den: Int128 = 1 << 31
    let q = num / den
    return num % den < 0 ? q - 1 : q
}

@Suite("Fixed point and rounding")
struct FixedPointTests {
    @Test("shiftRounded: hand-worked halves on both sides of zero")
    func shiftRoundedHalves() {
        // +2.5 -> 3, -2.5 -> -2 (towards +infinity), -2.75 -> -3, -2.25 -> -2.
        #expect(shiftRounded(5, 1) == 3)
        #expect(shiftRounded(-5, 1) == -2)
        #expect(shiftRounded(-11, 2) == -3)
        #expect(shiftRounded(-9, 2) == -2)
        #expect(shiftRounded(9, 2) == 2)
        #expect(shiftRounded(-1, 1) == 0)  // -0.5 -> 0
        #expect(shiftRounded(1, 1) == 1)  // 0.5 -> 1
        #expect(shiftRounded(-3, 1) == -1)  // -1.5 -> -1
        #expect(shiftRounded(0x18000, 16) == 2)  // 1.5 -> 2
        #expect(shiftRounded(-0x18000, 16) == -1)  // -1.5 -> -1
    }

    @Test("shiftRounded matches the definition", arguments: [1, 2, 8, 16, 20, 24, 30] as [Int64])
    func shiftRoundedSweep(bits: Int64) {
        var rng = SeededRandom(seed: UInt64(bits))
        for v in Int64(-5000)...5000 {
            #expect(shiftRounded(v, bits) == referenceRound(v, 1 << bits))
        }
        for _ in 0..<20_000 {
            let v = Int64.random(in: -(1 << 60)...(1 << 60), using: &rng)
            let got = shiftRounded(v, bits)
            let expected = referenceRound(v, 1 << bits)
            if got != expected {
                Issue.record("shiftRounded(\(v), \(bits)) = \(got), expected \(expected)")
                return
            }
        }
    }

    @Test("roundedDivide: hand-worked halves and negatives")
    func roundedDivideHalves() {
        #expect(roundedDivide(7, 2) == 4)  // 3.5 -> 4
        #expect(roundedDivide(-7, 2) == -3)  // -3.5 -> -3
        #expect(roundedDivide(-8, 3) == -3)  // -2.67 -> -3
        #expect(roundedDivide(-7, 3) == -2)  // -2.33 -> -2
        #expect(roundedDivide(8, 3) == 3)
        #expect(roundedDivide(-1, 2) == 0)  // -0.5 -> 0
        #expect(roundedDivide(1, 2) == 1)
        #expect(roundedDivide(0, 5) == 0)
        #expect(roundedDivide(-15, 10) == -1)  // -1.5 -> -1
        #expect(roundedDivide(15, 10) == 2)
        #expect(roundedDivide(-25, 10) == -2)
    }

    @Test("roundedDivide matches the definition over small and random operands")
    func roundedDivideSweep() {
        for n in Int64(-300)...300 {
            for d in Int64(1)...40 where roundedDivide(n, d) != referenceRound(n, d) {
                Issue.record(
                    "roundedDivide(\(n), \(d)) = \(roundedDivide(n, d)), expected \(referenceRound(n, d))"
                )
                return
            }
        }
        var rng = SeededRandom(seed: 7)
        for i in 0..<50_000 {
            let n = Int64.random(in: -(1 << 56)...(1 << 56), using: &rng)
            let d = Int64.random(in: 1...(i % 2 == 0 ? 1000 : 1 << 40), using: &rng)
            if roundedDivide(n, d) != referenceRound(n, d) {
                Issue.record(
                    "roundedDivide(\(n), \(d)) = \(roundedDivide(n, d)), expected \(referenceRound(n, d))"
                )
                return
            }
        }
    }

    @Test("Fixed: construction, arithmetic, floor, ceil, half, subpixel")
    func fixedOps() {
        #expect(Fixed(3).raw == 3 << 16)
        #expect(Fixed(-3).raw == -(3 << 16))
        #expect(Fixed(1, over: 3).raw == 21845)  // 65536 / 3 = 21845.33
        #expect(Fixed(2, over: 3).raw == 43691)  // 43690.67
        #expect(Fixed(-1, over: 3).raw == -21845)
        #expect(Fixed(1, over: 131072).raw == 1)  // exactly half a unit: up
        #expect(Fixed(-1, over: 131072).raw == 0)  // -half a unit: up, towards +infinity
        #expect(Fixed(1, over: -2).raw == -32768, "a negative denominator: -0.5 exactly")
        #expect(Fixed(-3, over: -4).raw == 49152, "0.75")

        let a = Fixed(raw: 0x1_8000)  // 1.5
        let b = Fixed(raw: -0x2_4000)  // -2.25
        #expect((a + b).raw == -0xC000)
        #expect((a - b).raw == 0x3_C000)
        #expect((-a).raw == -0x1_8000)
        #expect((a * b).raw == -0x3_6000)  // -3.375 exactly
        #expect(a < Fixed(2) && b < a)
        // Products round to nearest: 1/65536 * 1/2 = half a unit -> up; negative -> towards +inf.
        #expect((Fixed(raw: 1) * Fixed(raw: 0x8000)).raw == 1)
        #expect((Fixed(raw: -1) * Fixed(raw: 0x8000)).raw == 0)
        #expect((Fixed(raw: 3) * Fixed(raw: 0x8000)).raw == 2)  // 1.5 -> 2
        #expect((Fixed(raw: -3) * Fixed(raw: 0x8000)).raw == -1)  // -1.5 -> -1

        #expect(Fixed(raw: 3).half.raw == 2)
        #expect(Fixed(raw: -3).half.raw == -1)
        #expect(a.floor == 1 && a.ceil == 2)
        #expect(b.floor == -3 && b.ceil == -2)
        #expect(Fixed(4).floor == 4 && Fixed(4).ceil == 4)
        #expect(Fixed(-4).floor == -4 && Fixed(-4).ceil == -4)
        #expect(Fixed(raw: -1).floor == -1 && Fixed(raw: -1).ceil == 0)

        // 16.16 -> 24.8: nearest, halves up.
        #expect(Subpixel(Fixed(raw: 0x80)).raw == 1)
        #expect(Subpixel(Fixed(raw: -0x80)).raw == 0)
        #expect(Subpixel(Fixed(raw: -0x81)).raw == -1)
        #expect(Subpixel(Fixed(raw: 0x17F)).raw == 1)
        #expect(Subpixel(Fixed(raw: 0x180)).raw == 2)
    }

    @Test("Fixed product and ratio against exact rationals")
    func fixedRandom() {
        var rng = SeededRandom(seed: 11)
        var wrong: [String] = []
        for _ in 0..<20_000 {
            let a = Int64.random(in: -(1 << 36)...(1 << 36), using: &rng)
            let b = Int64.random(in: -(1 << 24)...(1 << 24), using: &rng)
            if (Fixed(raw: a) * Fixed(raw: b)).raw != referenceRound(a * b, 1 << 16) {
                wrong.append("\(a) * \(b)")
            }
            let n = Int.random(in: -100_000...100_000, using: &rng)
            let d = Int.random(in: -100_000...100_000, using: &rng)
            if d != 0 {
                // A negative denominator: the sign moves to the numerator.
                let expected =
                    d > 0
                    ? referenceRound(Int64(n) << 16, Int64(d))
                    : referenceRound(-Int64(n) << 16, -Int64(d))
                if Fixed(n, over: d).raw != expected { wrong.append("\(n) / \(d)") }
            }
        }
        #expect(wrong.isEmpty, "first: \(wrong.prefix(5))")
    }

    @Test("Transform.apply rounds the exact product, on both sides of its 64-bit path's bounds")
    func transformApplyRoundsTheExactProduct() {
        var rng = SeededRandom(seed: 19)
        // Scales about 2 (where c and s reach 2^31) and beyond; points about
        // 2^31 (32,768 px) in 16.16 and beyond.
        let scales: [Int64] = [1 << 24, (2 << 24) - 1, 2 << 24, (2 << 24) + 1, 5 << 23, 64 << 24]
        let edges: [Int64] = [0, 1, (1 << 31) - 1, 1 << 31, (1 << 31) + 1, 1 << 40]
        for _ in 0..<20_000 {
            let scale = ScaleFactor(
                raw: Bool.random(using: &rng)
                    ? scales.randomElement(using: &rng)!
                    : Int64.random(in: 1...(3 << 24), using: &rng))
            let t = Transform(
                scale: scale, rotation: Angle(raw: UInt32.random(in: 0...UInt32.max, using: &rng)),
                translation: Point(
                    x: Fixed(raw: Int64.random(in: -(1 << 30)...(1 << 30), using: &rng)),
                    y: Fixed(raw: Int64.random(in: -(1 << 30)...(1 << 30), using: &rng))))
            func coordinate() -> Int64 {
                let v =
                    Bool.random(using: &rng)
                    ? edges.randomElement(using: &rng)! + Int64.random(in: -2...2, using: &rng)
                    : Int64.random(in: -(1 << 33)...(1 << 33), using: &rng)
                return Bool.random(using: &rng) ? v : -v
            }
            let p = Point(x: Fixed(raw: coordinate()), y: Fixed(raw: coordinate()))
            // The definition: (c x - s y) / 2^30 and (s x + c y) / 2^30,
            // rounded to nearest with halves up, in 128 bits, plus the translation.
            let m = t.matrix
            let (c, sn, x, y) = (Int128(m.c), Int128(m.s), Int128(p.x.raw), Int128(p.y.raw))
            let ex = Int64(referenceRound128(c * x - sn * y)) + t.translation.x.raw
            let ey = Int64(referenceRound128(sn * x + c * y)) + t.translation.y.raw
            let got = t.apply(p)
            if got.x.raw != ex || got.y.raw != ey {
                Issue.record("\(t) applied to \(p): \(got), expected (\(ex), \(ey))")
                return
            }
        }
    }

    @Test("integerSquareRoot: exhaustive below 2^20")
    func squareRootSmall() {
        var r: Int64 = 0
        for v in Int64(0)..<(1 << 20) {
            // The definition, walked incrementally: r = floor(sqrt(v)).
            if (r + 1) * (r + 1) <= v { r += 1 }
            if integerSquareRoot(v) != r {
                Issue.record("integerSquareRoot(\(v)) = \(integerSquareRoot(v)), expected \(r)")
                return
            }
        }
    }

    @Test("integerSquareRoot: random large values, squares and their neighbours, up to Int64.max")
    func squareRootLarge() {
        func check(_ v: Int64) -> Bool {
            let r = integerSquareRoot(v)
            // r^2 <= v < (r+1)^2, in 128 bits so the check itself cannot overflow.
            let ok =
                r >= 0 && Int128(r) * Int128(r) <= Int128(v)
                && Int128(r + 1) * Int128(r + 1) > Int128(v)
            if !ok { Issue.record("integerSquareRoot(\(v)) = \(r)") }
            return ok
        }
        var rng = SeededRandom(seed: 3)
        for _ in 0..<20_000 {
            let bits = Int.random(in: 20...63, using: &rng)
            let v = Int64(truncatingIfNeeded: rng.next() >> UInt64(64 - bits))
            if !check(v) { return }
            let s = Int64.random(in: 1...3_037_000_499, using: &rng)
            if !check(s * s) || !check(s * s - 1) || !check(s * s + 1) { return }
        }
        // The top of the range: floor(sqrt(2^63 - 1)) = 3037000499.
        let top: [Int64] = [
            Int64.max, Int64.max - 1, 3_037_000_499 * 3_037_000_499, 1 << 62, (1 << 62) - 1,
        ]
        for v in top {
            if !check(v) { return }
        }
    }

    @Test("ScaleFactor: product and apply, rounded to nearest")
    func scaleFactor() {
        let half = ScaleFactor(raw: 1 << 23)
        let three = ScaleFactor(raw: 3 << 24)
        #expect((half * three).raw == 3 << 23)
        #expect((ScaleFactor.one * three) == three)
        #expect(half.apply(Fixed(raw: 3)).raw == 2)  // 1.5 -> 2
        #expect(half.apply(Fixed(raw: -3)).raw == -1)  // -1.5 -> -1
        #expect(three.apply(Fixed(7)).raw == 21 << 16)
        // Products never reach 0: a tiny scale times a tiny scale stays positive.
        #expect((ScaleFactor(raw: 1) * ScaleFactor(raw: 1)).raw == 1)
        var rng = SeededRandom(seed: 5)
        var wrong: [String] = []
        for i in 0..<10_000 {
            let s = Int64.random(in: 1...(1 << 30), using: &rng)
            // Half the lengths up to 2^42 (64 million px): products past 64 bits.
            let v = Int64.random(
                in: -(1 << (i % 2 == 0 ? 32 : 42))...(1 << (i % 2 == 0 ? 32 : 42)), using: &rng)
            let exact = Int128(s) * Int128(v)
            let expected = Int64((exact + (1 << 23)) >> 24)  // floor((x + 2^23) / 2^24): halves up
            if ScaleFactor(raw: s).apply(Fixed(raw: v)).raw != expected {
                wrong.append("apply \(s) \(v)")
            }
            let t = Int64.random(in: 1...(1 << 30), using: &rng)
            if (ScaleFactor(raw: s) * ScaleFactor(raw: t)).raw
                != max(1, referenceRound(s * t, 1 << 24))
            {
                wrong.append("\(s) * \(t)")
            }
        }
        #expect(wrong.isEmpty, "first: \(wrong.prefix(5))")
    }

    @Test("Transform: exact quarter turns, composition, apply against Double")
    func transforms() {
        let p = Point(x: Fixed(raw: 123_457), y: Fixed(raw: -98_765))
        // Clockwise quarter turn on screen (y down): (x, y) -> (-y, x), exactly.
        let q = Transform.rotation(.quarterTurn).apply(p)
        #expect(q == Point(x: Fixed(raw: 98_765), y: Fixed(raw: 123_457)))
        let h = Transform.rotation(.halfTurn).apply(p)
        #expect(h == Point(x: Fixed(raw: -123_457), y: Fixed(raw: 98_765)))

        let t = Transform(
            scale: ScaleFactor(2.5), rotation: Angle(turns: 0.1), translation: Point(3, -4))
        let u = Transform(
            scale: ScaleFactor(0.75), rotation: Angle(turns: 0.3), translation: Point(-1.5, 2))
        let tu = t.concatenating(u)
        // Angles add exactly (no rounding in the composition).
        #expect(tu.rotation.raw == t.rotation.raw &+ u.rotation.raw)
        #expect(abs(tu.scale.double - 1.875) < 1e-7)
        var rng = SeededRandom(seed: 9)
        for _ in 0..<1000 {
            let x = Double.random(in: -500...500, using: &rng)
            let y = Double.random(in: -500...500, using: &rng)
            let pt = Point(x, y)
            let once = tu.apply(pt)
            let twice = t.apply(u.apply(pt))
            let inner = DoubleTransform(u).apply(pt.dx, pt.dy)
            let ref = DoubleTransform(t).apply(inner.x, inner.y)
            // sin/cos are within 3e-7 and the scale within 2^-24: about 1e-6 of
            // the distance from the origin (here up to ~1400 px), plus 16.16 rounding.
            let tolerance = 1e-6 * 1400 + 3.0 / 65536
            #expect(abs(once.dx - ref.x) < tolerance && abs(once.dy - ref.y) < tolerance)
            #expect(abs(twice.dx - ref.x) < tolerance && abs(twice.dy - ref.y) < tolerance)
        }
    }
}
