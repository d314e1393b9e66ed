import FBAnim

// The loader of docs/write-your-own-loader.md, word for word, so CI checks
// that the guide compiles.

struct Pulse: Loader {
    /// The colour `--color` / `LoaderStyle.color` replaces. Required.
    var mainColor = Color(rgb: 0x0A84FF)

    func body(in context: LoaderContext) -> some LoaderContent {
        let breath = Animation.easeInOut(duration: 0.8).repeatForever()
        let turn = Animation.linear(duration: 1.2).repeatForever(autoreverses: false)

        Circle(radius: 80).stroke(Color.white.opacity(0.15), lineWidth: 6)
        Circle(radius: 80).trim(from: 0, to: 0.25)
            .stroke(.white, style: StrokeStyle(lineWidth: 6, lineCap: .round))
            .rotationEffect(.degrees(turn.value(from: 0, to: 360, at: context.time)))
        Circle(radius: 40).fill(mainColor)
            .scaleEffect(breath.value(from: 0.9, to: 1.05, at: context.time))
    }
}

// "Gradients and strokes" in the guide.

struct Badge: Loader {
    var mainColor = Color(rgb: 0x0A84FF)
    // Made once, stored: a frame then allocates nothing.
    let sheen = LinearGradient(
        colors: [Color.white.opacity(0.6), .clear], startPoint: .top, endPoint: .bottom)
    let check = Path { p in
        p.move(to: Point(-26, 0))
        p.addLine(to: Point(-8, 18))
        p.addQuadCurve(to: Point(28, -24), control: Point(6, -8))
    }.strokedPath(StrokeStyle(lineWidth: 10, lineCap: .round, lineJoin: .round))

    func body(in context: LoaderContext) -> some LoaderContent {
        let breath = Animation.easeInOut(duration: 0.8).repeatForever()
        RoundedRectangle(width: 120, height: 120, cornerRadius: 28).fill(mainColor)
        RoundedRectangle(width: 120, height: 120, cornerRadius: 28).fill(sheen)
        Circle(radius: 76).stroke(sheen, lineWidth: 4)
        check.fill(Color.white).opacity(breath.value(from: 0.6, to: 1, at: context.time))
    }
}
