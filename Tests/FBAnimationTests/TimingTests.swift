import FBAnimation
import Testing
import _FBTestSupport

// The easing curves, the ring's progress and the spinner's mix against
// values computed independently (_FBTestSupport/RefTiming.swift: bisection
// on the Bézier to 2^-80, and the spinner's sum over every tick, written
// literally from the spec). Tolerance 1e-9: both sides are Double; any
// correct solve agrees to ~1e-12, while a wrong curve, delay, period or a
// missed tick is off by 1e-3 or more.

let easingPairs: [(Easing, RefEasing)] = [
    (.linear, .linear), (.easeIn, .easeIn), (.easeOut, .easeOut), (.easeInOut, .easeInOut),
]

/// 0, 1 and 199 points in between, denser near the ends where curves are flat or steep.
let easingXs: [Double] = {
    var xs = (0...100).map { Double($0) / 100 }
    xs += [1e-9, 1e-6, 1e-4, 0.001, 0.003, 0.0101, 0.333_333, 0.5 + 1e-12, 0.999, 0.999_999]
    xs += (0..<88).map { Double($0) * 0.011_3 + 0.004_7 }
    return xs
}()

@Test(arguments: 0..<4)
func easingMatchesAnIndependentSolve(_ index: Int) {
    let (curve, reference) = easingPairs[index]
    for x in easingXs {
        let got = curve.value(at: x)
        let want = reference.value(x)
        #expect(abs(got - want) < 1e-9, "\(curve) at x = \(x): \(got), expected \(want)")
    }
}

@Test func easingHandKnownPoints() {
    for (curve, _) in easingPairs {
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
        #expect(curve.value(at: -0.5) == 0, "x is clamped to 0...1")
        #expect(curve.value(at: 1.5) == 1, "x is clamped to 0...1")
    }
    #expect(abs(Easing.easeInOut.value(at: 0.5) - 0.5) < 1e-12, "symmetric about (0.5, 0.5)")
    for x in stride(from: 0.0, through: 1.0, by: 0.0625) {
        #expect(Easing.linear.value(at: x) == x)
        // easeOut's control points are easeIn's turned by 180 degrees about (0.5, 0.5).
        #expect(abs(Easing.easeIn.value(at: x) - (1 - Easing.easeOut.value(at: 1 - x))) < 1e-9)
        #expect(
            abs(Easing.easeInOut.value(at: x) - (1 - Easing.easeInOut.value(at: 1 - x))) < 1e-9)
        // easeIn is below the diagonal, easeOut above.
        #expect(Easing.easeIn.value(at: x) <= x + 1e-12)
        #expect(Easing.easeOut.value(at: x) >= x - 1e-12)
    }
}

@Test func ringProgressFollowsTheSpec() {
    // Nothing during the 0.5 s delay.
    for t in [0, 0.1, 0.25, 0.499, 0.499_999_999] {
        #expect(Ring.progress(at: t) == 0, "t = \(t)")
    }
    // Continuous at the start of every fill.
    #expect(Ring.progress(at: 0.5) < 1e-9)
    #expect(Ring.progress(at: 0.5 + 1e-6) < 1e-6)
    #expect(Ring.progress(at: 0.5 + 1e-6) > 0)
    // Nearly full just before 30.5 s, then it starts again (repeat, no reverse).
    #expect(Ring.progress(at: 30.499_999) > 0.999_99)
    #expect(Ring.progress(at: 30.5) < 1e-9)
    #expect(Ring.progress(at: 30.6) < 0.02)
    // Against the independent solve, and periodic with 30 s after the delay.
    var t = 0.0
    while t < 125 {
        let got = Ring.progress(at: t)
        #expect(abs(got - RefTiming.ringProgress(t)) < 1e-9, "t = \(t)")
        #expect(got >= 0 && got < 1, "t = \(t)")
        if t >= 0.5 {
            #expect(abs(Ring.progress(at: t + 30) - got) < 1e-9, "t = \(t)")
        }
        t += 0.0731
    }
    // A value worked by hand: at t = 15.5, easeOut(0.5).
    #expect(abs(Ring.progress(at: 15.5) - RefEasing.easeOut.value(0.5)) < 1e-12)
}

/// Times around and between ticks, over several full cycles of 12 leaves
/// (1.8 s), and late times where many finished animations lie behind.
let spinnerMixTimes: [Double] = {
    var ts = stride(from: 0.0, through: 12.0, by: 0.0137).map { $0 }
    for k in 1...30 {
        let tick = 0.15 * Double(k)
        ts += [tick - 1e-7, tick, tick + 1e-7, tick + 0.075]
    }
    ts += [100.003, 257.2, 999.931, 1000.05]
    return ts
}()

@Test(arguments: 0..<12)
func spinnerMixMatchesTheBruteForceSum(_ leaf: Int) {
    for t in spinnerMixTimes {
        let got = Spinner.mix(leaf: leaf, at: t)
        let want = RefTiming.spinnerMix(leaf: leaf, at: t)
        #expect(abs(got - want) < 1e-9, "leaf \(leaf) at t = \(t): \(got), expected \(want)")
        #expect(got >= -1e-12 && got <= 1 + 1e-12)
    }
}

@Test func spinnerMixHandKnownValues() {
    // Before the first tick (t = 0.15) every leaf rests.
    for leaf in 0..<12 {
        #expect(Spinner.mix(leaf: leaf, at: 0) == 0)
        #expect(Spinner.mix(leaf: leaf, at: 0.149) == 0)
    }
    // At t = 0.3 only leaf 0 has moved: easeIn(0.15 / 1.5) - easeIn(0) = easeIn(0.1).
    #expect(abs(Spinner.mix(leaf: 0, at: 0.3) - RefEasing.easeIn.value(0.1)) < 1e-12)
    #expect(Spinner.mix(leaf: 1, at: 0.3) == 0)
    // Leaf 0's first pulse is over 1.65 s after its tick (t = 1.8); its
    // second tick is at 0.15 * 13 = 1.95.
    #expect(abs(Spinner.mix(leaf: 0, at: 1.9)) < 1e-12)
}
