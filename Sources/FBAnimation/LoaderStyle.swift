import FBRaster

/// The built-in loaders, by the names the command line uses.
public enum LoaderKind: String, CaseIterable, Sendable {
    case ring, radar, spinner, orbit
}

/// Rotation of the whole picture, clockwise, for panels mounted sideways.
public enum Rotation: Int, CaseIterable, Sendable {
    case degrees0 = 0, degrees90 = 90, degrees180 = 180, degrees270 = 270

    /// This rotation and `degrees` more clockwise (a multiple of 90,
    /// negative turns back), as in a `--rotate` plus a panel's orientation.
    public func adding(_ degrees: Int) -> Rotation {
        precondition(degrees % 90 == 0, "rotations are quarter turns")
        return Rotation(rawValue: ((rawValue + degrees) % 360 + 360) % 360)!
    }

    /// Whether the picture lies on its side (90 or 270): its width is the framebuffer's height.
    public var isQuarterTurn: Bool { self == .degrees90 || self == .degrees270 }
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

/// Draws one frame of the built-in `kind` at time `t` into a new buffer,
/// with `progress` reported from outside and a `message` line if given.
public func renderFrame(
    _ kind: LoaderKind, width: Int, height: Int, format: PixelFormat, style: LoaderStyle = .init(),
    time: Double, progress: Double? = nil, message: MessageLine? = nil
) -> PixelBuffer {
    renderFrame(
        kind.makeLoader(), width: width, height: height, format: format, style: style, time: time,
        progress: progress, message: message)
}

/// Draws one frame of any `loader` at `time` seconds into a new buffer of
/// `width` x `height` pixels in `format`, with `progress` reported from
/// outside (`-1...1`) and a `message` line if given.
public func renderFrame(
    _ loader: LoaderValue, width: Int, height: Int, format: PixelFormat,
    style: LoaderStyle = .init(), time: Double, progress: Double? = nil,
    message: MessageLine? = nil
) -> PixelBuffer {
    renderFrame(
        FrameRenderer(loader, width: width, height: height, style: style), format: format,
        time: time, progress: progress, message: message)
}

/// Draws one frame of `renderer`'s picture at time `t` into a new buffer.
public func renderFrame(
    _ renderer: FrameRenderer, format: PixelFormat, time: Double, progress: Double? = nil,
    message: MessageLine? = nil
) -> PixelBuffer {
    let buffer = PixelBuffer(width: renderer.width, height: renderer.height, format: format)
    renderer.progress = progress
    renderer.message = message
    renderer.render(time: time, into: buffer.surface)
    return buffer
}
