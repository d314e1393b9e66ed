import FBAnim

/// A logo (a rounded "play" triangle in a drop, lit from the top by a
/// linear gradient and outlined by a stroked path) that breathes, and an
/// arc turning around it once every 1.2 s: a custom loader in fbanim's
/// declarative API.
public struct PulseLoader: Loader {
    /// The logo's colour; `fbanim`'s `--color` (and `LoaderStyle.color`) replace it.
    public var mainColor = Color(rgb: 0x0A84FF)
    /// The arc's colour.
    public var arcColor = Color(rgb: 0xFFFFFF)

    /// Paths, outlines and gradients are made once: a frame then allocates nothing.
    let logo = PulseLoader.logoPath()
    /// The drop's outline stroked 3 points wide with round joins: a path to fill.
    let outline = PulseLoader.dropPath().strokedPath(
        StrokeStyle(lineWidth: 3, lineJoin: .round))
    /// White light from the top fading out by the bottom, over the logo's own colour.
    let sheen = LinearGradient(
        stops: [
            .init(color: Color.white.opacity(0.55), location: 0),
            .init(color: .clear, location: 0.7),
        ], startPoint: .top, endPoint: .bottom)

    public init() {}

    public func body(in context: LoaderContext) -> some LoaderContent {
        let t = context.time
        // Breathe: 0.9 to 1.05 and back, easeInOut, 0.8 s each way.
        let breath = Animation.easeInOut(duration: 0.8).repeatForever(autoreverses: true)
        let scale = breath.value(from: 0.9, to: 1.05, at: t)
        // The arc: a quarter of a circle, one turn every 1.2 s.
        let turn = Animation.linear(duration: 1.2).repeatForever(autoreverses: false)

        Circle(radius: 80).stroke(arcColor.opacity(0.15), lineWidth: 6)
        Circle(radius: 80).trim(from: 0, to: 0.25)
            .stroke(arcColor, style: StrokeStyle(lineWidth: 6, lineCap: .round))
            .rotationEffect(.degrees(turn.value(from: 0, to: 360, at: t)))
        logo.fill(mainColor)
            .scaleEffect(scale)
            .opacity(breath.value(from: 0.7, to: 1, at: t))
        logo.fill(sheen).scaleEffect(scale)
        outline.fill(arcColor.opacity(0.8)).scaleEffect(scale)
        // Progress from outside (a boot, an updater), if anyone reports it.
        if let p = context.progress {
            Circle(radius: 96).trim(from: 0, to: p)
                .stroke(mainColor.opacity(0.6), style: StrokeStyle(lineWidth: 4, lineCap: .round))
                .rotationEffect(.degrees(-90))
        }
    }

    /// A drop 100 design points tall with a rounded triangle cut out of it
    /// (the inner outline runs the other way round: a hole by the nonzero rule).
    static func logoPath() -> Path {
        Path { p in
            p = dropPath()
            // The triangle, counter-clockwise, its corners rounded by quadratic curves.
            p.move(to: Point(-10, -6))
            p.addLine(to: Point(-10, 26))
            p.addQuadCurve(to: Point(-4, 29), control: Point(-10, 32))
            p.addLine(to: Point(20, 14))
            p.addQuadCurve(to: Point(20, 6), control: Point(24, 10))
            p.addLine(to: Point(-4, -9))
            p.addQuadCurve(to: Point(-10, -6), control: Point(-10, -12))
            p.closeSubpath()
        }
    }

    /// The drop: a point at the top, a round belly below, 100 design points tall.
    static func dropPath() -> Path {
        Path { p in
            p.move(to: Point(0, -50))
            p.addCurve(to: Point(40, 14), control1: Point(14, -30), control2: Point(40, -12))
            p.addCurve(to: Point(0, 50), control1: Point(40, 36), control2: Point(22, 50))
            p.addCurve(to: Point(-40, 14), control1: Point(-22, 50), control2: Point(-40, 36))
            p.addCurve(to: Point(0, -50), control1: Point(-40, -12), control2: Point(-14, -30))
            p.closeSubpath()
        }
    }
}
