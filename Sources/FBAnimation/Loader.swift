import FBRaster

/// One shape of a frame: what to fill, where, and with what.
///
/// Coordinates are design points around the loader's centre (0, 0); the
/// frame renderer places them on the screen (centre, `--scale`, `--rotate`).
public struct DrawOp: Equatable, Sendable {
    /// The outline to fill, in its own coordinates.
    public var shape: FBRaster.Shape
    /// From the shape's coordinates to the loader's.
    public var transform: Transform
    /// What fills it.
    public var paint: Paint
    /// The loader draws this very shape and transform again and again (a
    /// spinner's leaves cycle through the same poses): its coverage is worth
    /// keeping (the renderer's `RasterCache`). Changes no pixel.
    public var repeats: Bool

    /// See the properties.
    public init(
        _ shape: FBRaster.Shape, transform: Transform = .identity, paint: Paint,
        repeats: Bool = false
    ) {
        self.shape = shape
        self.transform = transform
        self.paint = paint
        self.repeats = repeats
    }
}

/// What drives a loader's frame: the time, and what the outside says.
/// The renderer makes one per frame and hands it to `Loader.body(in:)`.
public struct LoaderContext: Sendable {
    /// Seconds since the loader appeared; finite, `>= 0`.
    public var time: Double
    /// Progress reported from outside (a boot, an updater), `-1...1`
    /// (negative: counter-clockwise, as psplash writers send), or `nil`
    /// when nobody reports. The splash eases it already (0.3 s easeOut).
    public var progress: Double?
    /// The message line the renderer draws under the loader, or `nil`.
    public var message: MessageLine?

    /// See the properties.
    public init(time: Double, progress: Double? = nil, message: MessageLine? = nil) {
        self.time = time
        self.progress = progress
        self.message = message
    }
}

/// A loader: what it draws at any time, declared like a SwiftUI view.
///
///     struct Pulse: Loader {
///         var mainColor = Color(rgb: 0x0A84FF)
///         func body(in context: LoaderContext) -> some LoaderContent {
///             let s = Animation.easeInOut(duration: 1).repeatForever()
///                 .value(from: 0.8, to: 1, at: context.time)
///             Circle(radius: 40).fill(mainColor).scaleEffect(s)
///         }
///     }
///
/// The frame renderer evaluates `body` for each frame it draws and turns
/// the content into rasterizer shapes; damage regions, kept coverage and
/// the still layer come from it, for any loader.
public protocol Loader: Sendable {
    /// What `body` returns (let Swift infer it: `some LoaderContent`).
    associatedtype Body: LoaderContent

    /// The colour `--color` (and `FBAnim.play(_:on:style:)`'s style) replaces.
    var mainColor: Color { get set }

    /// The frame at `context.time`, back to front (SwiftUI: `body`).
    @LoaderBuilder func body(in context: LoaderContext) -> Body

    /// The time until which the frame stays what it is at `context.time`:
    /// a player that has shown it may sleep that long. The default,
    /// `context.time`, says it may change at once.
    func stillUntil(_ context: LoaderContext) -> Double

    /// Appends the frame for `context` to `ops`, in drawing order. Keep
    /// the default (it evaluates `body`): as a requirement it is made for
    /// each loader type, so the whole body is specialised and inlined, and
    /// a frame allocates nothing.
    func frame(_ context: LoaderContext, into ops: inout [DrawOp])
}

extension Loader {
    /// By default the frame may change at once: `context.time`.
    public func stillUntil(_ context: LoaderContext) -> Double { context.time }

    /// Appends the frame for `context` to `ops`, in drawing order.
    public func frame(_ context: LoaderContext, into ops: inout [DrawOp]) {
        body(in: context).draw(.identity, into: &ops)
    }

    /// Appends the frame at `t` seconds (`t >= 0`, finite) to `ops`, in drawing order.
    public func frame(at t: Double, into ops: inout [DrawOp]) {
        frame(LoaderContext(time: t), into: &ops)
    }

    /// `stillUntil` at `t` seconds with nothing reported from outside.
    public func stillUntil(_ t: Double) -> Double { stillUntil(LoaderContext(time: t)) }
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
