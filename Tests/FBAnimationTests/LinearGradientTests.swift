// The declarative `LinearGradient`: its axis from `UnitPoint`s of the
// shape's frame, turning with the shape, and its pixels through the whole
// renderer. (The paint's pixels against their definition: the raster
// oracle, FBRasterTests/LinearRampTests.swift.)

import FBAnimation
import FBRaster
import Testing

private struct GradientLoader<C: LoaderContent>: Loader {
    var mainColor = Color.white
    let content: @Sendable () -> C
    func body(in context: LoaderContext) -> C { content() }
}

private func ops<C: LoaderContent>(_ content: @escaping @Sendable () -> C) -> [DrawOp] {
    var ops: [DrawOp] = []
    GradientLoader(content: content).frame(LoaderContext(time: 0), into: &ops)
    return ops
}

private let red = Color(rgb: 0xFF0000)
private let blue = Color(rgb: 0x0000FF)

@Suite struct LinearGradientTests {
    @Test func unitPointsAreRelativeToTheShapesFrame() throws {
        let g = LinearGradient(
            colors: [red, blue], startPoint: .leading, endPoint: .bottomTrailing)
        let drawn = ops { Rectangle(width: 100, height: 50).fill(g) }
        let op = try #require(drawn.first)
        guard case .linear(let ramp) = op.paint else {
            Issue.record("not a linear paint: \(op.paint)")
            return
        }
        #expect(ramp.start == Point(-50, 0))
        #expect(ramp.end == Point(50, 25))
        #expect(ramp.stops.map(\.location) == [.zero, .one])
        #expect(ramp.opacity == 255)

        var path = Path()
        path.move(to: Point(10, 20))
        path.addCurve(to: Point(30, 60), control1: Point(50, 20), control2: Point(0, 40))
        let onPath = ops { [path] in path.fill(g).opacity(0.5) }
        guard case .linear(let pathRamp) = onPath.first?.paint else {
            Issue.record("not a linear paint")
            return
        }
        // The box around the points and control points: x 0...50, y 20...60.
        #expect(pathRamp.start == Point(0, 40))
        #expect(pathRamp.end == Point(50, 60))
        #expect(pathRamp.opacity == 128)
    }

    @Test func stopsKeepTheirLocationsAndClearDrawsNothing() {
        let g = Gradient(stops: [
            .init(color: red, location: 0.25), .init(color: blue, location: 0.75),
        ])
        #expect(g.stops.map(\.location) == [0.25, 0.75])
        let clear = LinearGradient(colors: [.clear, .clear], startPoint: .top, endPoint: .bottom)
        #expect(ops { Circle(radius: 10).fill(clear) }.isEmpty)
        let faded = LinearGradient(colors: [red, blue], startPoint: .top, endPoint: .bottom)
        #expect(ops { Circle(radius: 10).fill(faded).opacity(0) }.isEmpty)
    }

    /// Red at the top, blue at the bottom; turned a quarter clockwise, the
    /// top comes to the right: a circle takes the turn into its angles, so
    /// the paint must turn by it too.
    @Test func theGradientTurnsWithTheShape() {
        let g = LinearGradient(colors: [red, blue], startPoint: .top, endPoint: .bottom)
        func picture(_ degrees: Double) -> PixelBuffer {
            renderFrame(
                GradientLoader { Circle(radius: 40).fill(g).rotationEffect(.degrees(degrees)) },
                width: 100, height: 100, format: .xrgb8888, time: 0)
        }
        let still = picture(0)
        let turned = picture(90)
        withExtendedLifetime((still, turned)) {
            let s = still.surface
            let t = turned.surface
            #expect(s.pixel(x: 50, y: 12) >> 16 > 0xE0)  // top: red
            #expect(s.pixel(x: 50, y: 87) & 0xFF > 0xE0)  // bottom: blue
            #expect(t.pixel(x: 87, y: 50) >> 16 > 0xE0)  // right: red
            #expect(t.pixel(x: 12, y: 50) & 0xFF > 0xE0)  // left: blue
            // Across the axis the colour does not change.
            #expect(s.pixel(x: 20, y: 50) == s.pixel(x: 80, y: 50))
        }
    }
}
