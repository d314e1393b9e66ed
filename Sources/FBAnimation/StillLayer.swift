import FBRaster

/// The background and a frame's first shapes, drawn once, while those
/// shapes stay put (an orbit's track, a ring's track, a radar's border).
///
/// A damage-only frame restores each damaged rectangle by copying it from
/// here instead of clearing it and filling the still shapes clipped to it:
/// the same bytes (a clipped fill gives the pixels inside its clip the bytes
/// of a whole fill), for a copy. Shapes count as still once they have been
/// equal for `settleFrames` drawn frames in a row, so shapes that rest only
/// briefly (a spinner's leaves) never cost a rebuild. The layer is a buffer
/// in the format drawn into, only as large as the still shapes' bounds
/// (outside them a restore is a clear): a ring's track at 800x480 keeps
/// 0.5 MB, not a screen's 1.5 MB.
final class StillLayer {
    static let settleFrames = 30

    private let width: Int
    private let height: Int
    private var layer: PixelBuffer?
    /// Where the layer lies on the screen: the still shapes' bounds, its
    /// origin on a multiple of 4 (the dither matrix's period: a safeguard, as
    /// 16-bit targets are drawn through an 8-bit canvas and the layer is
    /// never dithered).
    private var area = IntRect(x: 0, y: 0, width: 0, height: 0)
    /// The shapes drawn in the layer, over the background `background`.
    private var baked: [DrawOp] = []
    private var background = Color.black
    /// For each shape in its place, the frames in a row it has been equal.
    private var streaks: [Int] = []
    /// Counts changes of the still picture (shapes baked or dropped): blocks
    /// marked against one picture say nothing about another.
    private(set) var generation = 0
    /// What the last `prepare` returned: the shapes the layer holds.
    private(set) var holds = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Notes the frame about to be drawn, `ops`, each of them equal or not
    /// to the shape in its place in the frame compared before (`unchanged`,
    /// `FrameDamage`'s), and brings the layer up to date for `format`.
    /// Returns how many of `ops`' first shapes the layer holds: `restore`
    /// stands for clearing and filling them.
    func prepare(
        _ ops: [DrawOp], unchanged: [Bool], format: PixelFormat, background: Color,
        rasterizer: Rasterizer, cache: RasterCache
    ) -> Int {
        precondition(unchanged.count == ops.count, "one flag a shape")
        var still = 0
        for i in ops.indices {
            if i < streaks.count {
                streaks[i] = unchanged[i] ? streaks[i] + 1 : 0
            } else {
                streaks.append(0)
            }
            if still == i && streaks[i] >= StillLayer.settleFrames { still += 1 }
        }
        if streaks.count > ops.count { streaks.removeLast(streaks.count - ops.count) }

        holds = still
        if still == 0 {
            if !baked.isEmpty { generation += 1 }
            baked.removeAll(keepingCapacity: true)
            return 0
        }
        let current =
            layer?.surface.format == format && self.background == background
            && baked.count == still && baked.indices.allSatisfy { baked[$0] == ops[$0] }
        if !current {
            generation += 1
            let screen = IntRect(x: 0, y: 0, width: width, height: height)
            var bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
            for op in ops[0..<still] {
                bounds = bounds.union(
                    rasterizer.bounds(
                        of: op.shape, transform: op.transform, cache: cache,
                        keptOn: op.repeats ? screen : nil))
            }
            bounds = bounds.intersection(screen)
            let x0 = bounds.x & ~3
            let y0 = bounds.y & ~3
            area = IntRect(
                x: x0, y: y0, width: max(bounds.maxX - x0, 1), height: max(bounds.maxY - y0, 1))
            if layer?.surface.format != format || layer?.surface.width != area.width
                || layer?.surface.height != area.height
            {
                layer = PixelBuffer(width: area.width, height: area.height, format: format)
            }
            let surface = layer!.surface
            rasterizer.clear(surface, to: background, cache: cache)
            baked.removeAll(keepingCapacity: true)
            // Whole-pixel moves are exact: the shapes land on the very
            // subpixels they have on the screen.
            let shift = Transform.translation(Fixed(-area.x), Fixed(-area.y))
            for op in ops[0..<still] {
                rasterizer.fill(
                    op.shape, transform: shift.concatenating(op.transform), paint: op.paint,
                    on: surface, cache: cache, keepCoverage: op.repeats, keepNew: false)
                baked.append(op)
            }
            self.background = background
        }
        return still
    }

    /// `restore` of the pixels of `rect` in blocks `marked` marks.
    func restore(
        _ rect: IntRect, into surface: Surface, marked: PaintedBlocks, rasterizer: Rasterizer,
        cache: RasterCache
    ) {
        guard let layer else {
            rasterizer.clear(surface, to: background, in: rect, marked: marked, cache: cache)
            return
        }
        let r = rect.intersection(surface.bounds)
        let inside = r.intersection(area)
        if inside != r {
            r.forEachPart(outside: inside) {
                rasterizer.clear(surface, to: background, in: $0, marked: marked, cache: cache)
            }
        }
        if inside.isEmpty { return }
        let source = layer.surface
        let bpp = source.format.bytesPerPixel
        let (ax, ay) = (area.x, area.y)
        marked.forEachMarkedRun(in: inside) { y, x, n in
            (surface.base + y * surface.stride + x * bpp).copyMemory(
                from: source.base + (y - ay) * source.stride + (x - ax) * bpp, byteCount: n * bpp)
        }
    }

    /// Puts `rect` of the still picture into `surface`: a copy where the
    /// layer lies, the background elsewhere (no still shape reaches there).
    func restore(
        _ rect: IntRect, into surface: Surface, rasterizer: Rasterizer, cache: RasterCache
    ) {
        guard let layer else {
            // Unreachable (`prepare` built one before saying shapes are still);
            // the safe answer is the background.
            rasterizer.clear(surface, to: background, in: rect, cache: cache)
            return
        }
        let r = rect.intersection(surface.bounds)
        if r.isEmpty { return }
        let inside = r.intersection(area)
        if inside.isEmpty {
            rasterizer.clear(surface, to: background, in: r, cache: cache)
            return
        }
        if inside != r {
            r.forEachPart(outside: inside) {
                rasterizer.clear(surface, to: background, in: $0, cache: cache)
            }
        }
        let source = layer.surface
        let bpp = source.format.bytesPerPixel
        for y in inside.y..<inside.maxY {
            (surface.base + y * surface.stride + inside.x * bpp).copyMemory(
                from: source.base + (y - area.y) * source.stride + (inside.x - area.x) * bpp,
                byteCount: inside.width * bpp)
        }
    }
}

extension IntRect {
    /// Calls `body` with the parts of this rectangle outside `inner` (a
    /// rectangle inside it, or empty): above, below, left, right; some may
    /// be empty.
    func forEachPart(outside inner: IntRect, _ body: (IntRect) -> Void) {
        if inner.isEmpty { return body(self) }
        body(IntRect(x: x, y: y, width: width, height: inner.y - y))
        body(IntRect(x: x, y: inner.maxY, width: width, height: maxY - inner.maxY))
        body(IntRect(x: x, y: inner.y, width: inner.x - x, height: inner.height))
        body(IntRect(x: inner.maxX, y: inner.y, width: maxX - inner.maxX, height: inner.height))
    }
}
