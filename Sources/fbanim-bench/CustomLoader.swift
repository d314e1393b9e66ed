import FBAnimation
import FBRaster

/// A loader written outside FBAnimation, as a user writes one (the
/// Examples package's pulse): the benchmark's `custom` row checks that such
/// a loader's steady frames allocate nothing too. Not here: `ForEach`, whose
/// stored closure costs one allocation a frame in a loader of another
/// module (the built-in spinner's, specialised inside FBAnimation, none).
/// One cycle: 2.4 s.
struct CustomBenchLoader: Loader {
    var mainColor = Color(rgb: 0x0A84FF)
    let logo = Path { p in
        p.move(to: Point(0, -50))
        p.addCurve(to: Point(40, 14), control1: Point(14, -30), control2: Point(40, -12))
        p.addCurve(to: Point(0, 50), control1: Point(40, 36), control2: Point(22, 50))
        p.addCurve(to: Point(-40, 14), control1: Point(-22, 50), control2: Point(-40, 36))
        p.addCurve(to: Point(0, -50), control1: Point(-40, -12), control2: Point(-14, -30))
        p.closeSubpath()
    }

    func body(in context: LoaderContext) -> some LoaderContent {
        let t = context.time
        let breath = Animation.easeInOut(duration: 0.8).repeatForever()
        let turn = Animation.linear(duration: 1.2).repeatForever(autoreverses: false)
        Circle(radius: 80).stroke(Color.white.opacity(0.15), lineWidth: 6)
        Circle(radius: 80).trim(from: 0, to: 0.25)
            .stroke(Color.white, style: StrokeStyle(lineWidth: 6, lineCap: .round))
            .rotationEffect(.degrees(turn.value(from: 0, to: 360, at: t)))
        logo.fill(mainColor).scaleEffect(breath.value(from: 0.9, to: 1.05, at: t))
        if context.progress != nil {
            Circle(radius: 96).trim(from: 0, to: context.progress ?? 0)
                .stroke(mainColor, style: StrokeStyle(lineWidth: 4, lineCap: .round))
        }
    }
}
