import FBRaster

/// Draws frames of one loader at one size, redrawing only what changed.
///
/// It owns what is kept from frame to frame: the shapes last shown and the
/// damage history (`FrameDamage`), the rasterizer's `RasterCache`
/// (polygons, kept coverage, blend tables), the still layer and the blocks
/// maps (`BlockHistory`); with the rasterizer's scratch memory kept too, a
/// steady frame allocates nothing.
public final class FrameRenderer {
    public let width: Int
    public let height: Int
    public let style: LoaderStyle

    /// The loader drawn (its main colour replaced by `style.color`).
    public private(set) var loader: LoaderValue
    let root: Transform
    /// Progress reported from outside (`-1...1`; negative: counter-clockwise),
    /// handed to the loader (`LoaderContext.progress`): the ring draws it
    /// instead of its own 30 s clock; `nil`: nobody reports.
    public var progress: Double?
    /// A line of text over the picture (boot.md, Message line), or `nil`.
    public var message: MessageLine?
    private let rasterizer = Rasterizer()
    /// What the rasterizer keeps from frame to frame for this renderer.
    private let cache = RasterCache()
    var ops: [DrawOp] = []
    /// The shapes last drawn by `renderDamage` and what changed frame to frame.
    private var damage = FrameDamage(maxAge: FrameRenderer.maxAge)
    /// For 16-bit targets: the frame blended at 8 bits a channel, dithered
    /// into the target once (blending onto dithered pixels would bias it).
    private var canvas: PixelBuffer?
    /// The background and the first shapes while they stay put, for damage frames.
    private lazy var still = StillLayer(width: width, height: height)
    private static let maxAge = 3
    /// Where each of the last frames may differ from the still picture.
    private lazy var blocks = BlockHistory(
        width: width, height: height, frames: FrameRenderer.maxAge + 1)

    /// A renderer of the built-in loader `kind`.
    /// - Precondition: as `init(_:width:height:style:)`.
    public convenience init(kind: LoaderKind, width: Int, height: Int, style: LoaderStyle = .init())
    {
        self.init(kind.makeLoader(), width: width, height: height, style: style)
    }

    /// A renderer of `loader` (the test pattern, say); the same as `init(_:...)`.
    public convenience init(
        loader: LoaderValue, width: Int, height: Int, style: LoaderStyle = .init()
    ) {
        self.init(loader, width: width, height: height, style: style)
    }

    /// A renderer of any loader, built-in or your own, for frames of
    /// `width` x `height` pixels, its centre on the frame's centre.
    /// - Precondition: `width, height > 0`; `style.scale` finite, in `0 < scale <= 64`.
    public init(_ loader: LoaderValue, width: Int, height: Int, style: LoaderStyle = .init()) {
        precondition(width > 0 && height > 0, "frame size must be positive")
        precondition(
            style.scale.isFinite && style.scale > 0 && style.scale <= 64, "scale out of range")
        self.width = width
        self.height = height
        self.style = style
        self.loader = loader
        if let color = style.color { self.loader.mainColor = color }
        // The loader's centre is the frame's centre, exactly (a pixel corner
        // for an even size); the whole picture turns about it.
        root = Transform(
            scale: ScaleFactor(style.scale), rotation: Angle(wholeDegrees: style.rotation.rawValue),
            translation: Point(x: Fixed(width, over: 2), y: Fixed(height, over: 2)))
    }

    /// The screen as a rectangle.
    public var screen: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// Draws the frame at `time` into a display's back buffer, redrawing only
    /// what changed since the frame the buffer holds (`age` presents ago, 0:
    /// unknown contents, so everything). Returns the rectangles to present
    /// (for age 1, each changed shape's own, which may overlap), or `nil`
    /// when the frame equals the one last returned and the buffer holds a
    /// known frame (`age > 0`): nothing drawn.
    ///
    /// The pixels are the bytes `render(time:into:)` would give.
    public func renderDamage(time: Double, into surface: Surface, age: Int) -> DamageList? {
        precondition(time.isFinite && time >= 0, "time must be finite and not negative")
        let loaderOps = listOps(at: time)
        damage.begin(keepingParts: age == 1)
        // The loader's shapes are in design points; the message is placed
        // already. (`ops` is made again each frame: placed where it is.)
        for i in 0..<loaderOps { ops[i].transform = root.concatenating(ops[i].transform) }
        for op in ops {
            damage.add(
                op,
                bounds: {
                    rasterizer.keptBounds(
                        of: $0.shape, transform: $0.transform, cache: cache,
                        keptOn: $0.repeats ? surface.bounds : nil)
                },
                arcChange: { arcChange(from: $0, to: $1) })
        }
        guard let region = damage.end(screen: screen, age: age) else { return nil }
        // What differs from the frame in the buffer; `region` is what is
        // drawn (a few rectangles that never touch).
        let presented = damage.presented ?? region
        let (shown, changed, historyCount) = (damage.shown, damage.changed, damage.historyCount)
        let canvas = canvas(for: surface)
        let first = still.prepare(
            shown, unchanged: damage.unchanged, format: (canvas?.surface ?? surface).format,
            background: style.background, rasterizer: rasterizer, cache: cache)
        let generation = still.generation
        let known = age > 0 && age <= historyCount
        if let canvas, hasCanvasFrame, first == 0, paintsThrough(shown),
            let through = DitherTarget(surface)
        {
            drawThrough(region, canvas: canvas.surface, into: surface, through, generation)
        } else if let canvas {
            let map = blocks.begin()
            // The canvas always holds the last frame: bring it up to date,
            // then dither what the target's age asks for, where the target's
            // frame or this one may differ from the still picture.
            let held = hasCanvasFrame ? blocks.map(presentsAgo: 1, generation) : nil
            draw(hasCanvasFrame ? changed : fullScreen, into: canvas.surface, first, held, map)
            hasCanvasFrame = true
            let target = known ? blocks.map(presentsAgo: age, generation) : nil
            for r in presented.rects {
                if let target, map.isSparse(in: r, or: target) {
                    rasterizer.convert(
                        canvas.surface, into: surface, in: r, marked: map, or: target)
                } else {
                    rasterizer.convert(canvas.surface, into: surface, in: r)
                }
            }
            blocks.end(generation)
        } else if first > 0 {
            // Blocks maps serve to copy less of the still layer. The map of
            // the frame in the buffer becomes this frame's (nothing else
            // reads it again): no copy of it a frame.
            if known, let held = blocks.beginOver(presentsAgo: age, generation) {
                draw(region, into: surface, first, held, held)
            } else {
                draw(region, into: surface, first, nil, blocks.begin())
            }
            blocks.end(generation)
        } else {
            // Clears are whole (see `draw`): no map would be read. The
            // frame's map is not kept, so a later one counts as unknown.
            _ = blocks.begin()
            draw(region, into: surface, first, nil, nil)
        }
        return presented
    }

    /// How many of the last damage frame's first shapes the still layer held.
    var stillShapes: Int { still.holds }

    /// Bytes of coverage the renderer keeps for shapes that repeat, and how many shapes.
    public var keptCoverage: (bytes: Int, shapes: Int) { cache.keptCoverage }

    /// The time until which the frame at `time` stays the same (the
    /// loader's `stillUntil`): `time` when it may change at once.
    public func stillUntil(_ time: Double) -> Double {
        loader.stillUntil(LoaderContext(time: time, progress: progress, message: message))
    }

    private var hasCanvasFrame = false
    private lazy var fullScreen: DamageList = {
        var d = DamageList()
        d.add(screen)
        return d
    }()

    /// The 8-bit canvas a 16-bit target is drawn through, or `nil`.
    private func canvas(for surface: Surface) -> PixelBuffer? {
        guard surface.format == .rgb565 || surface.format == .bgr565 else { return nil }
        if canvas == nil { canvas = PixelBuffer(width: width, height: height, format: .xrgb8888) }
        return canvas
    }

    /// Redraws the rectangles of `damage` from the shapes of the frame in
    /// `shown` (the first `first` of them are in the still layer), into a
    /// surface that holds a frame whose blocks map is `held` (`nil`:
    /// unknown), marking `map` (if any) for the new frame: `held` itself
    /// when the new frame took it over (`BlockHistory.beginOver`: a
    /// rectangle unmarks only blocks wholly inside it and painting only
    /// adds marks, so another rectangle reads its blocks as they were or
    /// marked: it restores more, never less). The rectangles of a
    /// `DamageList` never touch, so drawing each on its own composites
    /// every pixel once.
    ///
    /// Where the still layer is copied and few blocks are marked, only the
    /// blocks `held` marks are restored: elsewhere the surface already
    /// shows the still picture.
    private func draw(
        _ damage: DamageList, into surface: Surface, _ first: Int, _ held: PaintedBlocks?,
        _ map: PaintedBlocks?
    ) {
        // A map drawn over in place (`held === map`) already holds its marks.
        if let held {
            if held !== map { map?.copy(from: held) }
        } else {
            map?.markAll()
        }
        for rect in damage.rects {
            let r = rect.intersection(screen)
            if r.isEmpty { continue }
            // A clear is a memset a row: cheaper than finding the marked
            // runs even where most blocks are not (the spinner's frame
            // takes 8 % less time). A copy from the still layer is a memcpy
            // a row: run by run pays where few blocks are marked.
            let sparse = first > 0 && held?.isSparse(in: r, percent: 25) == true
            restore(r, surface, first, marked: sparse ? held : nil)
            map?.unmark(inside: r)
            let (shown, bounds, kept, unchanged) =
                (
                    self.damage.shown, self.damage.shownBounds, self.damage.shownKept,
                    self.damage.unchanged
                )
            for i in first..<shown.count where !bounds[i].intersection(r).isEmpty {
                let op = shown[i]
                // A shape that stayed put (a track, before the still layer
                // takes it) is kept too where that changes no byte, within
                // a small share of the cache (`stayedPut`): later
                // rectangles paint it from its code instead of rasterizing
                // their rows again (an orbit's hearts over its track: 5 %
                // of the orbit's instructions).
                rasterizer.fill(
                    op.shape, transform: op.transform, paint: op.paint, on: surface, clip: r,
                    cache: cache, keepCoverage: op.repeats, stayedPut: unchanged[i],
                    marking: map, kept: kept[i])
            }
        }
    }

    /// Whether a frame of `shown` is worth drawing through (`drawThrough`):
    /// every shape is painted in one opaque colour, so most of its pixels
    /// can go into the target as they are painted.
    private func paintsThrough(_ shown: [DrawOp]) -> Bool {
        shown.allSatisfy {
            if case let .solid(color) = $0.paint { color.a == 255 } else { false }
        }
    }

    /// Draws `region` (what the target's frame lacks, in rectangles that
    /// never touch) into the canvas and, as it goes, into the 16-bit target
    /// (`Rasterizer.fill(through:)`): the background into both, each shape
    /// into both where its kept coverage paints through, else marked in a
    /// map and converted after. For a frame with no still layer in use,
    /// over a canvas that holds the frame before: the canvas gets the
    /// rectangles' pixels of this frame (`region` holds what changed since
    /// the frame before), and the target every pixel that differs from the
    /// frame it holds. Not the pieces presented to a buffer of age 1: they
    /// overlap (a leaf's old and new places), and each would be drawn again.
    ///
    /// The frame's map is left all marked: what was painted through is not
    /// in it, so a later frame drawn the usual way reads it as unknown.
    private func drawThrough(
        _ region: DamageList, canvas: Surface, into target: Surface,
        _ through: DitherTarget, _ generation: Int
    ) {
        let dirty = blocks.begin()
        dirty.unmarkAll()
        let (shown, bounds, kept, unchanged) =
            (damage.shown, damage.shownBounds, damage.shownKept, damage.unchanged)
        for rect in region.rects {
            let r = rect.intersection(screen)
            if r.isEmpty { continue }
            rasterizer.clear(canvas, to: style.background, in: r, cache: cache)
            rasterizer.clear(target, to: style.background, in: r)
            for i in shown.indices where !bounds[i].intersection(r).isEmpty {
                let op = shown[i]
                rasterizer.fill(
                    op.shape, transform: op.transform, paint: op.paint, on: canvas, clip: r,
                    cache: cache, keepCoverage: op.repeats, stayedPut: unchanged[i],
                    marking: dirty, kept: kept[i], through: through)
            }
        }
        for r in region.rects where dirty.anyMarked(in: r) {
            rasterizer.convert(canvas, into: target, in: r, marked: dirty)
        }
        dirty.markAll()
        blocks.end(generation)
    }

    /// Puts the still picture in `r`: the still layer (only in the blocks
    /// `marked` marks, if given) when it holds the first `first` shapes,
    /// else the background (the layer may hold shapes no longer still).
    private func restore(_ r: IntRect, _ surface: Surface, _ first: Int, marked: PaintedBlocks?) {
        if first == 0 {
            rasterizer.clear(surface, to: style.background, in: r, cache: cache)
        } else if let marked {
            still.restore(r, into: surface, marked: marked, rasterizer: rasterizer, cache: cache)
        } else {
            still.restore(r, into: surface, rasterizer: rasterizer, cache: cache)
        }
    }

    /// For an arc that only grew or shrank (the ring's progress), the pixels
    /// between its two ends; `nil` for any other change (then both bounds count).
    private func arcChange(from old: DrawOp, to new: DrawOp) -> IntRect? {
        if old.transform == new.transform, old.paint == new.paint,
            case let .arc(c0, r0, w0, a0, s0, cap0) = old.shape,
            case let .arc(c1, r1, w1, a1, s1, cap1) = new.shape,
            c0 == c1, r0 == r1, w0 == w1, a0 == a1, cap0 == cap1,
            s0.raw > 0, s1.raw > 0, s0 < .fullTurn, s1 < .fullTurn
        {
            let (low, high) = s0 < s1 ? (s0, s1) : (s1, s0)
            // The chord into the old end changes too: start one vertex step
            // back (the inner edge's step, the widest).
            let step = Rasterizer.arcVertexSpacing(
                radius: max(r0 - w0.half, Fixed(1)), transform: new.transform)
            let from = max(AngleSpan(raw: low.raw - step.raw), .zero)
            // The box of that arc's polygon, found without flattening it,
            // and one pixel of margin: a partly covered pixel at the butt
            // end of the old arc may lie just outside the polygon.
            return Rasterizer.arcBounds(
                center: c0, radius: r0, width: w0, start: a0 + from,
                sweep: AngleSpan(raw: high.raw - from.raw), cap: cap0 == .round ? .round : .butt,
                transform: new.transform
            ).outset(by: 1)
        }
        return nil
    }

    /// Draws the whole frame at `time` seconds into `surface` (of this renderer's size).
    ///
    /// - Precondition: `time` finite and `>= 0`.
    public func render(time: Double, into surface: Surface) {
        precondition(time.isFinite && time >= 0, "time must be finite and not negative")
        let target = canvas(for: surface)?.surface ?? surface
        rasterizer.clear(target, to: style.background, cache: cache)
        let loaderOps = listOps(at: time)
        for (i, op) in ops.enumerated() {
            rasterizer.fill(
                op.shape,
                transform: i < loaderOps ? root.concatenating(op.transform) : op.transform,
                paint: op.paint, on: target, cache: cache, keepCoverage: op.repeats)
        }
        if target.base != surface.base { rasterizer.convert(target, into: surface, in: screen) }
        // The canvas no longer holds the frame `renderDamage` last drew.
        hasCanvasFrame = false
    }
}
