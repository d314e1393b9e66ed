import FBAnimation
import FBRaster

/// A loader of another module with a linear gradient and a stroked path:
/// the benchmark's `gradient` row checks that its steady frames allocate
/// nothing when the gradient and the stroke's outline are stored (the
/// outline made once by `strokedPath`, the gradient's stops kept, its
/// opacity changing every frame: the colour table is remade, in place).
/// One cycle: 2.4 s.
struct GradientBenchLoader: Loader {
    var mainColor = Color(rgb: 0x0A84FF)
    let sheen = LinearGradient(
        colors: [Color(rgb: 0x0A84FF), Color(rgb: 0xFFFFFF), Color(rgb: 0x0A84FF, alpha: 0)],
        startPoint: .topLeading, endPoint: .bottomTrailing)
    let zigzag = Path { p in
        p.move(to: Point(-60, 20))
        p.addLine(to: Point(-30, -20))
        p.addQuadCurve(to: Point(0, 20), control: Point(-15, 30))
        p.addCurve(to: Point(60, -20), control1: Point(20, -30), control2: Point(40, 30))
    }.strokedPath(StrokeStyle(lineWidth: 8, lineCap: .round, lineJoin: .round))

    func body(in context: LoaderContext) -> some LoaderContent {
        let t = context.time
        let turn = Animation.linear(duration: 2.4).repeatForever(autoreverses: false)
        let breath = Animation.easeInOut(duration: 1.2).repeatForever()
        Circle(radius: 80).fill(sheen)
            .opacity(breath.value(from: 0.4, to: 1, at: t))
            .rotationEffect(.degrees(turn.value(from: 0, to: 360, at: t)))
        zigzag.fill(sheen).rotationEffect(.degrees(turn.value(from: 0, to: -360, at: t)))
    }
}
