import FBRaster
import Testing

@testable import FBAnimation

/// Shapes that stay put for `settleFrames` drawn frames go into the still
/// layer; the damage tracking tells it which stayed (no second comparison).
@Suite struct StillLayerTests {
    @Test func theDamageSaysWhichShapesStayed() {
        var damage = FrameDamage(maxAge: 3)
        let screen = IntRect(x: 0, y: 0, width: 100, height: 100)
        func op(_ x: Int) -> DrawOp {
            DrawOp(
                .disc(center: Point(x: Fixed(x), y: Fixed(50)), radius: Fixed(5)),
                transform: .identity, paint: .solid(Color(rgb: 0xFFFFFF)))
        }
        func frame(_ xs: [Int]) -> [Bool] {
            damage.begin()
            for x in xs {
                damage.add(
                    op(x), bounds: { _ in IntRect(x: 0, y: 0, width: 10, height: 10) },
                    arcChange: { _, _ in nil })
            }
            _ = damage.end(screen: screen, age: 1)
            return damage.unchanged
        }
        #expect(frame([10, 20]) == [false, false])
        #expect(frame([10, 30]) == [true, false])
        #expect(frame([10, 30, 40]) == [true, true, false])
        #expect(frame([11, 30]) == [false, true])
    }

    @Test(arguments: [(LoaderKind.orbit, 1), (.ring, 1), (.spinner, 0)])
    func stillShapesGoIntoTheLayer(kind: LoaderKind, still: Int) {
        // 320x240 holds every loader at scale 1: every frame is drawn.
        let renderer = FrameRenderer(kind: kind, width: 320, height: 240)
        let buffer = PixelBuffer(width: 320, height: 240, format: .xrgb8888)
        var held: [Int] = []
        for frame in 0..<150 {
            _ = renderer.renderDamage(time: Double(frame) / 30, into: buffer.surface, age: 1)
            held.append(renderer.stillShapes)
        }
        // Nothing before the shapes have stayed put for 30 frames.
        #expect(held[..<30].allSatisfy { $0 == 0 })
        #expect(held.last == still, "\(kind): \(held)")
    }
}
