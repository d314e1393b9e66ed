import FBAnimation
import FBRaster
import Testing

/// Loaders whose shapes come back (`DrawOp.repeats`) keep each pose once: a
/// third cycle at 30 fps finds every shape kept (a key that hashed apart
/// from its equal would keep it again, and only cost time).
@Suite struct KeptShapesTests {
    @Test(arguments: [(LoaderKind.spinner, 1.8), (.orbit, 10.0)])
    func aLaterCycleKeepsNothingNew(kind: LoaderKind, cycle: Double) {
        let renderer = FrameRenderer(
            kind: kind, width: 160, height: 120, style: LoaderStyle(scale: 0.5))
        let buffer = PixelBuffer(width: 160, height: 120, format: .xrgb8888)
        let frames = Int((cycle * 30).rounded())
        func play(cycle n: Int) {
            for i in 0..<frames {
                let t = Double(n * frames + i) / 30
                _ = renderer.renderDamage(
                    time: t, into: buffer.surface, age: n == 0 && i == 0 ? 0 : 1)
            }
        }
        play(cycle: 0)
        play(cycle: 1)
        let kept = renderer.keptCoverage.shapes
        play(cycle: 2)
        #expect(kept > 0)
        #expect(renderer.keptCoverage.shapes == kept, "\(kind): shapes kept again")
    }
}
