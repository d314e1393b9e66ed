import FBRaster

// The four built-ins, each next to the SwiftUI view it was ported from
// (spec: loaders.md). Their frames are the goldens' bytes.

/// A circle of radius 82 filled by an arc with round caps (spec: ring).
///
///     Circle().stroke(track.opacity(0.3), lineWidth: 16)
///     Circle().trim(from: 0, to: progress)
///         .stroke(color.opacity(0.5), style: StrokeStyle(lineWidth: 16, lineCap: .round))
///         .rotationEffect(.degrees(-90))
///         .animation(.easeOut(duration: 30).delay(0.5).repeatForever(autoreverses: false))
public struct RingLoader: Loader {
    /// The progress arc's colour (drawn at opacity 0.5).
    public var mainColor = Color(rgb: 0xFF2F92)
    /// The track's colour (drawn at opacity 0.3).
    public var trackColor = Color(rgb: 0xEBEBF5)
    /// The ring of the spec.
    public init() {}

    /// The fill: 30 s easeOut after 0.5 s, again and again.
    static let fill = Animation.easeOut(duration: Ring.period).delay(Ring.delay)
        .repeatForever(autoreverses: false)

    /// Progress from outside, `-1...1` (negative: counter-clockwise), else the clock.
    public func body(in context: LoaderContext) -> some LoaderContent {
        let p = context.progress.map { $0.isFinite ? min(max($0, -1), 1) : 0 }
        Circle(radius: 82).stroke(trackColor.opacity(0.3), lineWidth: 16)
        Circle(radius: 82).trim(from: 0, to: p ?? RingLoader.fill.value(at: context.time))
            .stroke(mainColor.opacity(0.5), style: StrokeStyle(lineWidth: 16, lineCap: .round))
            .rotationEffect(.degrees(-90))
    }

    /// Before the delay only the track shows; driven from outside, it
    /// changes only when told to.
    public func stillUntil(_ context: LoaderContext) -> Double {
        context.progress != nil ? .infinity : RingLoader.fill.stillUntil(context.time)
    }

    /// The frame at progress `p` driven from outside (clamped into `-1...1`).
    public func frame(progress: Double, into ops: inout [DrawOp]) {
        frame(LoaderContext(time: 0, progress: progress), into: &ops)
    }
}

/// A disc with a border and a sweep turning once every 3 s (spec: radar).
///
///     Circle().strokeBorder(color, lineWidth: 2)
///     Circle().fill(AngularGradient(colors: [.clear, .clear, color], center: .center))
///         .rotationEffect(.degrees(rotation))
///         .animation(.linear(duration: 3).repeatForever(autoreverses: false))
public struct RadarLoader: Loader {
    /// The border's and the sweep's colour.
    public var mainColor = Color(rgb: 0x34C759)
    /// The radar of the spec.
    public init() {}

    static let turn = Animation.linear(duration: 3).repeatForever(autoreverses: false)

    /// The border, and the sweep turned to its place at `context.time`.
    public func body(in context: LoaderContext) -> some LoaderContent {
        Circle(radius: 100).strokeBorder(mainColor, lineWidth: 2)
        Circle(radius: 100).fill(AngularGradient(colors: [.clear, .clear, mainColor]))
            .rotationEffect(.degrees(RadarLoader.turn.value(from: 0, to: 360, at: context.time)))
    }
}

/// Two hearts circling a track, one every 5 s and one every 2 s (spec: orbit).
///
///     Circle().stroke(track, lineWidth: 2).frame(width: 200, height: 200)
///     Heart().fill(color).frame(width: 24, height: 24).offset(x: 100 * cos(a), y: 100 * sin(a))
///     // a animated .linear(duration: 5) and .linear(duration: 2), repeatForever
public struct OrbitLoader: Loader {
    /// The hearts' colour.
    public var mainColor = Color(rgb: 0xFF9500)
    /// The track's colour.
    public var trackColor = Color(rgb: 0x5856D6)
    /// A heart 24 wide centred on (0, 0), made once.
    let heart = OrbitLoader.heartPath(width: 24)
    /// The orbit of the spec.
    public init() {}

    /// The track, and the hearts where they are at `context.time`.
    public func body(in context: LoaderContext) -> some LoaderContent {
        Circle(radius: 100).stroke(trackColor, lineWidth: 2)
        heart.fill(mainColor).offset(place(period: 5, at: context.time))
        heart.fill(mainColor).offset(place(period: 2, at: context.time))
    }

    /// On the track at 360 * ((t / period) mod 1) degrees.
    private func place(period: Double, at t: Double) -> Point {
        let turn = Animation.linear(duration: period).repeatForever(autoreverses: false)
        return .polar(radius: 100, angle: .degrees(turn.value(from: 0, to: 360, at: t)))
    }

    /// The spec's heart outline for a heart of `width`, centred on (0, 0).
    static func heartPath(width: Double) -> Path {
        let k = width / 2
        func p(_ x: Double, _ y: Double) -> Point { Point(x * k, y * k) }
        return Path { path in
            path.move(to: p(0, 0.9))
            path.addCurve(to: p(-1, -0.35), control1: p(-0.2, 0.7), control2: p(-1, 0.2))
            path.addCurve(to: p(-0.5, -0.95), control1: p(-1, -0.8), control2: p(-0.55, -0.95))
            path.addCurve(to: p(0, -0.55), control1: p(-0.25, -0.95), control2: p(-0.05, -0.8))
            path.addCurve(to: p(0.5, -0.95), control1: p(0.05, -0.8), control2: p(0.25, -0.95))
            path.addCurve(to: p(1, -0.35), control1: p(0.55, -0.95), control2: p(1, -0.8))
            path.addCurve(to: p(0, 0.9), control1: p(1, 0.2), control2: p(0.2, 0.7))
            path.closeSubpath()
        }
    }
}

/// Twelve stroked capsules, the current one bright and pulled in (spec: spinner).
///
///     ForEach(0..<12) { i in
///         Capsule().stroke(current == i ? .white : .gray, lineWidth: 8)
///             .frame(width: 20, height: 50)
///             .offset(current == i ? CGSize(width: 10, height: 0) : CGSize(width: 40, height: 70))
///             .scaleEffect(current == i ? 0.5 : 1)
///             .rotationEffect(.degrees(30 * Double(i)))
///             .animation(.easeIn(duration: 1.5), value: current)
///     }   // current = (current + 1) % 12 every 0.15 s
public struct SpinnerLoader: Loader {
    /// The colour of the current leaf.
    public var mainColor = Color(rgb: 0xFFFFFF)
    /// The colour of a resting leaf.
    public var restingColor = Color(rgb: 0x8E8E93)
    /// The spinner of the spec.
    public init() {}

    /// The twelve leaves, each between resting and current by its mix.
    public func body(in context: LoaderContext) -> some LoaderContent {
        ForEach(0..<Spinner.leafCount) { i in
            let m = Spinner.mix(leaf: i, at: context.time)
            Capsule(width: 20, height: 50)
                .stroke(restingColor.mix(with: mainColor, by: m), lineWidth: 8)
                .offset(x: 40 - 30 * m, y: 70 - 70 * m)
                .scaleEffect(1 - 0.5 * m)
                .rotationEffect(.degrees(Double(30 * i)))
        }
    }
}
