import FBRaster

/// The built-in loaders, by the names the command line uses.
public enum LoaderKind: String, CaseIterable, Sendable {
    case ring, radar, spinner, orbit
}

/// Rotation of the whole picture, clockwise, for panels mounted sideways.
public enum Rotation: Int, CaseIterable, Sendable {
    case degrees0 = 0, degrees90 = 90, degrees180 = 180, degrees270 = 270
}

/// How a loader looks: size, colours, rotation.
public struct LoaderStyle: Sendable {
    /// Design points per pixel; every length of the spec is multiplied by it. `0 < scale <= 64`.
    public var scale: Double = 1
    /// Replaces the loader's main colour (its alpha is kept); `nil` keeps the spec's colour.
    public var color: Color? = nil
    /// The opaque colour behind the loader.
    public var background: Color = .black
    public var rotation: Rotation = .degrees0

    public init(
        scale: Double = 1, color: Color? = nil, background: Color = .black,
        rotation: Rotation = .degrees0
    ) {
        self.scale = scale
        self.color = color
        self.background = background
        self.rotation = rotation
    }
}

/// Draws one frame of a loader at time `t` into a new buffer.
public func renderFrame(
    _ kind: LoaderKind, width: Int, height: Int, format: PixelFormat, style: LoaderStyle = .init(),
    time: Double
) -> PixelBuffer {
    let buffer = PixelBuffer(width: width, height: height, format: format)
    let renderer = FrameRenderer(kind: kind, width: width, height: height, style: style)
    renderer.render(time: time, into: buffer.surface)
    return buffer
}

/// Draws frames of one loader at one size: keeps the rasterizer's scratch
/// memory between frames, so a steady frame allocates nothing.
public final class FrameRenderer {
    public let kind: LoaderKind
    public let width: Int
    public let height: Int
    public let style: LoaderStyle

    private var loader: any Loader
    private let root: Transform
    private let rasterizer = Rasterizer()
    private var ops: [DrawOp] = []

    /// - Precondition: `width, height > 0`; `style.scale` finite, in `0 < scale <= 64`.
    public init(kind: LoaderKind, width: Int, height: Int, style: LoaderStyle = .init()) {
        precondition(width > 0 && height > 0, "frame size must be positive")
        precondition(style.scale.isFinite && style.scale > 0 && style.scale <= 64, "scale out of range")
        self.kind = kind
        self.width = width
        self.height = height
        self.style = style
        loader = kind.makeLoader()
        if let color = style.color { loader.mainColor = color }
        // The loader's centre is the frame's centre, exactly (a pixel corner
        // for an even size); the whole picture turns about it.
        root = Transform(
            scale: ScaleFactor(style.scale), rotation: Angle(wholeDegrees: style.rotation.rawValue),
            translation: Point(x: Fixed(width, over: 2), y: Fixed(height, over: 2)))
    }

    /// Draws the whole frame at `time` seconds into `surface` (of this renderer's size).
    ///
    /// - Precondition: `time` finite and `>= 0`.
    public func render(time: Double, into surface: Surface) {
        precondition(time.isFinite && time >= 0, "time must be finite and not negative")
        rasterizer.clear(surface, to: style.background)
        ops.removeAll(keepingCapacity: true)
        loader.frame(at: time, into: &ops)
        for op in ops {
            rasterizer.fill(
                op.shape, transform: root.concatenating(op.transform), paint: op.paint, on: surface)
        }
    }
}
