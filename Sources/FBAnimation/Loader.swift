import FBRaster

/// One shape of a frame: what to fill, where, and with what.
///
/// Coordinates are design points around the loader's centre (0, 0); the
/// frame renderer places them on the screen (centre, `--scale`, `--rotate`).
public struct DrawOp: Equatable, Sendable {
    public var shape: Shape
    public var transform: Transform
    public var paint: Paint
    /// The loader draws this very shape and transform again and again (a
    /// spinner's leaves cycle through the same poses): its coverage is worth
    /// keeping (`Rasterizer.fill(keepCoverage:)`). Changes no pixel.
    public var repeats: Bool

    public init(
        _ shape: Shape, transform: Transform = .identity, paint: Paint, repeats: Bool = false
    ) {
        self.shape = shape
        self.transform = transform
        self.paint = paint
        self.repeats = repeats
    }
}

/// A loader: a description of its frame at any time, as shapes over the
/// rasterizer. It draws nothing itself.
public protocol Loader: Sendable {
    /// The colour `--color` replaces.
    var mainColor: Color { get set }

    /// Appends the frame at `t` seconds (`t >= 0`, finite) to `ops`, in drawing order.
    func frame(at t: Double, into ops: inout [DrawOp])

    /// The time until which the frame at `t` stays the same: a player that
    /// has shown it may sleep that long. `t` itself when it may change at once.
    func stillUntil(_ t: Double) -> Double
}

extension Loader {
    public func stillUntil(_ t: Double) -> Double { t }
}

extension LoaderKind {
    /// The loader as the spec (`shared/spec/loaders.md`) defines it.
    public func makeLoader() -> LoaderValue {
        switch self {
        case .ring: loaderValue(RingLoader())
        case .radar: loaderValue(RadarLoader())
        case .spinner: loaderValue(SpinnerLoader())
        case .orbit: loaderValue(OrbitLoader())
        }
    }
}

/// A circle of radius 82 filled by an arc with round caps (spec: ring).
public struct RingLoader: Loader {
    public var mainColor = Color(rgb: 0xFF2F92)
    public var trackColor = Color(rgb: 0xEBEBF5)
    public init() {}

    public func frame(at t: Double, into ops: inout [DrawOp]) {
        frame(progress: Ring.progress(at: t), into: &ops)
    }

    /// Before the delay only the track shows.
    public func stillUntil(_ t: Double) -> Double { t < Ring.delay ? Ring.delay : t }

    /// The frame at progress `p`, for progress driven from outside: `0...1`
    /// fills clockwise from 12 o'clock, `-1...0` counter-clockwise (a
    /// psplash writer's negative values); clamped into `-1...1`.
    public func frame(progress: Double, into ops: inout [DrawOp]) {
        let p = progress.isFinite ? min(max(progress, -1), 1) : 0
        // The track: a circle of radius 82 stroked 16 wide.
        ops.append(
            DrawOp(
                .annulus(center: .zero, inner: Fixed(74), outer: Fixed(90)),
                paint: .solid(trackColor.withOpacity(0.3))))
        guard p != 0 else { return }
        ops.append(
            DrawOp(
                .arc(
                    center: .zero, radius: Fixed(82), width: Fixed(16),
                    start: Angle(wholeDegrees: -90),
                    sweep: AngleSpan(degrees: 360 * p), cap: .round),
                paint: .solid(mainColor.withOpacity(0.5))))
    }
}

/// A disc with a border and a sweep turning once every 3 s (spec: radar).
public struct RadarLoader: Loader {
    public var mainColor = Color(rgb: 0x34C759)
    public init() {}

    public func frame(at t: Double, into ops: inout [DrawOp]) {
        ops.append(
            DrawOp(
                .annulus(center: .zero, inner: Fixed(98), outer: Fixed(100)),
                paint: .solid(mainColor)))
        // The sweep is clear for the half turn ahead of the edge at theta and
        // ramps from clear (theta - 180) to opaque (theta) behind it: fill that
        // half disc, so the hard step at theta is an exactly covered edge.
        let theta = 360 * (t / 3).truncatingRemainder(dividingBy: 1)
        let start = Angle(degrees: theta - 180)
        let gradient = SweepGradient(
            center: .zero, start: start, sweep: .halfTurn, color: mainColor, startAlpha: 0,
            endAlpha: 255)
        ops.append(
            DrawOp(
                .sector(center: .zero, radius: Fixed(100), start: start, sweep: .halfTurn),
                paint: .sweep(gradient)))
    }
}

/// Two hearts circling a track, one every 5 s and one every 2 s (spec: orbit).
public struct OrbitLoader: Loader {
    public var mainColor = Color(rgb: 0xFF9500)
    public var trackColor = Color(rgb: 0x5856D6)
    /// A heart 24 wide centred on (0, 0).
    let heart = OrbitLoader.heartPath(width: 24)
    public init() {}

    public func frame(at t: Double, into ops: inout [DrawOp]) {
        ops.append(
            DrawOp(
                .annulus(center: .zero, inner: Fixed(99), outer: Fixed(101)),
                paint: .solid(trackColor)))
        heart(period: 5, at: t, into: &ops)
        heart(period: 2, at: t, into: &ops)
    }

    /// A heart on the track at 360 * ((t / period) mod 1) degrees.
    private func heart(period: Double, at t: Double, into ops: inout [DrawOp]) {
        let angle = Angle(degrees: 360 * (t / period).truncatingRemainder(dividingBy: 1))
        let place = Transform(translation: Point(polarRadius: 100, angle: angle))
        // At a steady frame rate the hearts come back to the same places
        // every period (150 and 60 places at 30 fps).
        ops.append(
            DrawOp(.path(heart), transform: place, paint: .solid(mainColor), repeats: true))
    }

    /// The spec's heart outline for a heart of `width`, centred on (0, 0).
    static func heartPath(width: Double) -> Path {
        let k = width / 2
        func p(_ x: Double, _ y: Double) -> Point { Point(x * k, y * k) }
        let curves: [(Double, Double, Double, Double, Double, Double)] = [
            (-0.2, 0.7, -1, 0.2, -1, -0.35),
            (-1, -0.8, -0.55, -0.95, -0.5, -0.95),
            (-0.25, -0.95, -0.05, -0.8, 0, -0.55),
            (0.05, -0.8, 0.25, -0.95, 0.5, -0.95),
            (0.55, -0.95, 1, -0.8, 1, -0.35),
            (1, 0.2, 0.2, 0.7, 0, 0.9),
        ]
        var path = Path()
        path.move(to: p(0, 0.9))
        for c in curves {
            path.curve(to: p(c.4, c.5), control1: p(c.0, c.1), control2: p(c.2, c.3))
        }
        path.close()
        return path
    }
}

/// Twelve stroked capsules, the current one bright and pulled in (spec: spinner).
public struct SpinnerLoader: Loader {
    /// The colour of the current leaf.
    public var mainColor = Color(rgb: 0xFFFFFF)
    public var restingColor = Color(rgb: 0x8E8E93)
    public init() {}

    public func frame(at t: Double, into ops: inout [DrawOp]) {
        let capsule = Shape.roundedRectStroke(
            center: .zero, halfWidth: Fixed(10), halfHeight: Fixed(25), cornerRadius: Fixed(10),
            lineWidth: Fixed(8))
        for i in 0..<Spinner.leafCount {
            let m = Spinner.mix(leaf: i, at: t)
            // Move by the offset, scale about the centre, rotate about the centre.
            let place = Transform.rotation(Angle(wholeDegrees: 30 * i))
                .concatenating(.scale(ScaleFactor(1 - 0.5 * m)))
                .concatenating(.translation(Fixed(40 - 30 * m), Fixed(70 - 70 * m)))
            ops.append(
                DrawOp(
                    capsule, transform: place,
                    paint: .solid(restingColor.mixed(with: mainColor, by: m)), repeats: true))
        }
    }
}
