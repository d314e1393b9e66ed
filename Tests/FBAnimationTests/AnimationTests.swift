import FBAnimation
import Testing
import _FBTestSupport

@Suite struct AnimationTests {
    @Test func delaysAndRepeats() {
        let once = Animation.linear(duration: 2).delay(1)
        #expect(once.value(at: 0.5) == 0)
        #expect(once.value(at: 2) == 0.5)
        #expect(once.value(at: 9) == 1)
        #expect(once.stillUntil(0.5) == 1)
        #expect(once.stillUntil(2) == 2)
        #expect(once.stillUntil(3) == .infinity)
        let loop = Animation.linear(duration: 2).repeatForever(autoreverses: false)
        #expect(loop.value(at: 2.5) == 0.25)
        #expect(loop.stillUntil(7) == 7)
        let swing = Animation.linear(duration: 2).repeatForever()
        #expect(swing.value(at: 0.5) == 0.25)
        #expect(swing.value(at: 2.5) == 0.75)
        #expect(swing.value(at: 4.5) == 0.25)
        #expect(
            abs(
                Animation.easeOut(duration: 4).value(from: 10, to: 20, at: 2)
                    - (10 + 10 * RefEasing.easeOut.value(0.5))) < 1e-12)
    }

    /// The additive sum over every tick, computed the slow way: each
    /// change of the state, times the curve since its tick.
    func bruteForce(
        _ curve: RefEasing, duration: Double, interval: Double, initial: Double, at t: Double,
        _ state: (Int) -> Double
    ) -> Double {
        var value = initial
        var previous = initial
        var k = 0
        while interval * Double(k + 1) <= t {
            let a = interval * Double(k + 1)
            let change = state(k) - previous
            value += change * curve.value(min(max((t - a) / duration, 0), 1))
            previous = state(k)
            k += 1
        }
        return value
    }

    @Test(arguments: [0.05, 0.3, 0.71, 1.0, 2.45, 7.9, 31.3])
    func additiveChangesSumLikeSwiftUI(t: Double) {
        let state: (Int) -> Double = { Double(($0 * 7) % 5) - 2 }
        let got = Animation.easeOut(duration: 1.1).value(
            at: t, ticksEvery: 0.2, initial: 0.5, state: state)
        let want = bruteForce(.easeOut, duration: 1.1, interval: 0.2, initial: 0.5, at: t, state)
        #expect(abs(got - want) < 1e-9, "t = \(t): \(got) vs \(want)")
    }
}
