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
                    op(x), bounds: { _ in (IntRect(x: 0, y: 0, width: 10, height: 10), nil) },
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

    /// A shape turned half a turn (a repeating shape: kept, and drawn as its
    /// partner reflected, `HalfTurn`) that stays put goes into the still
    /// layer, which is smaller than the screen and elsewhere: drawn there,
    /// it must give the screen's pixels. Each frame against a full redraw.
    @Test func aTurnedShapeInTheLayerGivesTheScreensPixels() {
        let (w, h) = (161, 121)
        let renderer = FrameRenderer(TurnedAndMoving(), width: w, height: h)
        let reference = FrameRenderer(TurnedAndMoving(), width: w, height: h)
        let buffer = PixelBuffer(width: w, height: h, format: .xrgb8888)
        let whole = PixelBuffer(width: w, height: h, format: .xrgb8888)
        var differing = 0
        for frame in 0..<45 {
            let time = Double(frame) / 30
            _ = renderer.renderDamage(time: time, into: buffer.surface, age: 1)
            reference.render(time: time, into: whole.surface)
            if !buffer.bytes.elementsEqual(whole.bytes) { differing += 1 }
        }
        #expect(renderer.stillShapes == 1)
        #expect(differing == 0)
    }
}

/// A capsule turned 200 degrees, still (drawn so, it and its partner
/// reflected differ in 12 bytes on this screen), then a disc that moves.
struct TurnedAndMoving: Loader {
    var mainColor = Color.white
    func body(in context: LoaderContext) -> some LoaderContent {
        Capsule(width: 14, height: 40).stroke(mainColor, lineWidth: 5)
            .rotationEffect(.degrees(200))
        Circle(radius: 6).fill(mainColor).offset(x: -30 + 20 * context.time, y: 20)
    }
}
