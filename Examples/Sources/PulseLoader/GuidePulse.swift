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
