import FBRaster
import Testing

@testable import FBAnimation

/// What a loader promises about stillness must hold for its frames: a
/// player sleeps on the promise, so a wrong one would freeze the animation.
@Suite struct StillUntilTests {
    func ops(_ loader: any Loader, _ t: Double) -> [DrawOp] {
        var ops: [DrawOp] = []
        loader.frame(at: t, into: &ops)
        return ops
    }

    @Test(arguments: LoaderKind.allCases)
    func framesStayTheSameUntilThePromisedTime(_ kind: LoaderKind) {
        let loader = kind.makeLoader()
        // Times spread over the ring's and the others' cycles, and points
        // spread over each promised interval.
        for i in 0..<400 {
            let t = Double(i) * 0.1 + 0.013 * Double(i % 7)
            let until = loader.stillUntil(t)
            #expect(until >= t)
            for f in [0.1, 0.5, 0.99] where until > t {
                let later = t + (until - t) * f
                #expect(ops(loader, later) == ops(loader, t), "\(kind) at \(later) vs \(t)")
            }
        }
    }

    /// The ring shows only its track for its first half second: a player
    /// sleeps through it. Frames that move promise nothing.
    @Test func theRingSleepsThroughItsDelay() {
        let ring = RingLoader()
        #expect(ring.stillUntil(0) == 0.5)
        #expect(ring.stillUntil(0.49) == 0.5)
        #expect(ring.stillUntil(0.5) == 0.5)
        #expect(ring.stillUntil(7.25) == 7.25)
        for kind in [LoaderKind.radar, .spinner, .orbit] {
            #expect(kind.makeLoader().stillUntil(0.2) == 0.2)
        }
        let renderer = FrameRenderer(kind: .ring, width: 64, height: 64)
        #expect(renderer.stillUntil(0.1) == 0.5)
    }
}
