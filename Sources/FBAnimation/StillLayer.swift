import FBRaster

/// The background and a frame's first shapes, drawn once, while those
/// shapes stay put (an orbit's track, a ring's track, a radar's border).
///
/// A damage-only frame restores each damaged rectangle by copying it from
/// here instead of clearing it and filling the still shapes clipped to it:
/// the same bytes (a clipped fill gives the pixels inside its clip the bytes
/// of a whole fill), for a copy. Shapes count as still once they have been
/// equal for `settleFrames` drawn frames in a row, so shapes that rest only
/// briefly (a spinner's leaves) never cost a rebuild. The layer is a
/// whole-screen buffer in the format drawn into, made on first use.
final class StillLayer {
    static let settleFrames = 30

    private let width: Int
    private let height: Int
    private var layer: PixelBuffer?
    /// The shapes drawn in the layer, over the background `background`.
    private var baked: [DrawOp] = []
    private var background = Color.black
    /// The last frame's shapes, and for each, the frames in a row it has been equal.
    private var previous: [DrawOp] = []
    private var streaks: [Int] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Notes the frame about to be drawn, `ops`, and brings the layer up to
    /// date for `format`. Returns how many of `ops`' first shapes the layer
    /// holds: `restore` stands for clearing and filling them.
    func prepare(
        _ ops: [DrawOp], format: PixelFormat, background: Color, rasterizer: Rasterizer
    ) -> Int {
        var still = 0
        for i in ops.indices {
            let same = i < previous.count && previous[i] == ops[i]
            if i < streaks.count {
                streaks[i] = same ? streaks[i] + 1 : 0
            } else {
                streaks.append(0)
            }
            if still == i && streaks[i] >= StillLayer.settleFrames { still += 1 }
        }
        if streaks.count > ops.count { streaks.removeLast(streaks.count - ops.count) }
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: ops)

        if still == 0 {
            baked.removeAll(keepingCapacity: true)
            return 0
        }
        let current =
            layer?.surface.format == format && self.background == background
            && baked.count == still && baked.indices.allSatisfy { baked[$0] == ops[$0] }
        if !current {
            if layer?.surface.format != format {
                layer = PixelBuffer(width: width, height: height, format: format)
            }
            let surface = layer!.surface
            rasterizer.clear(surface, to: background)
            baked.removeAll(keepingCapacity: true)
            for op in ops[0..<still] {
                rasterizer.fill(op.shape, transform: op.transform, paint: op.paint, on: surface)
                baked.append(op)
            }
            self.background = background
        }
        return still
    }

    /// Copies `rect` of the layer into `surface` (clipped to both).
    func restore(_ rect: IntRect, into surface: Surface) {
        guard let layer else { return }
        let source = layer.surface
        let r = rect.intersection(source.bounds).intersection(surface.bounds)
        if r.isEmpty { return }
        let bpp = source.format.bytesPerPixel
        for y in r.y..<r.maxY {
            (surface.base + y * surface.stride + r.x * bpp).copyMemory(
                from: source.base + y * source.stride + r.x * bpp, byteCount: r.width * bpp)
        }
    }
}
