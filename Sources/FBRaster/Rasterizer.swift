/// Fills shapes into surfaces: flatten, accumulate coverage, blend spans.
///
/// Keeps its scratch memory between calls: after the first frame at a size,
/// drawing allocates nothing. Not thread-safe; use one per thread.
public final class Rasterizer {
    private var flattener = Flattener()
    private var polygons = PolygonCache()
    private let accumulator = CoverageAccumulator()
    private var kept = CoverageCache()
    private let replay = CoverageReplay()
    /// Made on first use: only loaders with kept shapes blend through tables.
    private lazy var tables = BlendTables()
    /// The colour of the last clear (of any surface: in a frame, the one
    /// drawn next): where most edges of the next fills land, so the one
    /// their blend tables are made over.
    private var backdrop: UInt32?
    /// The blocks map of the fill in progress.
    private var marks: PaintedBlocks?
    /// Set when the kept coverage filled its block: no shape is kept after that.
    private var keptFull = false
    /// Scratch rows for paints that vary per pixel: the paint's mask, and a
    /// row of one constant coverage.
    private var mask = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var constant = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var scratchCapacity = 0
    /// The directions of pixel centres around a sweep gradient's centre.
    let directions = DirectionCache()
    /// A sweep gradient's opacity per direction, made per gradient.
    private lazy var sweepTable = SweepTable()
    /// A linear ramp's colours, made per ramp (allocated on first use).
    private let ramps = LinearRampTable()

    public init() {}

    /// A rasterizer that keeps at most `keptBytes` of coverage (tests: a full budget).
    init(keptBytes: Int) { kept = CoverageCache(budget: keptBytes) }

    deinit {
        mask.deallocate()
        constant.deallocate()
        kept.release()
    }

    /// Paints `rect` (clipped to the surface) with an opaque colour.
    public func clear(_ surface: Surface, to color: Color, in rect: IntRect? = nil) {
        let r = (rect ?? surface.bounds).intersection(surface.bounds)
        if r.isEmpty { return }
        backdrop = color.rgb
        switch surface.format {
        case .rgb565: clear(RGB565Codec.self, surface, color.rgb, r)
        case .bgr565: clear(BGR565Codec.self, surface, color.rgb, r)
        case .xrgb8888, .argb8888: clear(XRGB8888Codec.self, surface, color.rgb, r)
        case .xbgr8888: clear(XBGR8888Codec.self, surface, color.rgb, r)
        case .rgb888: clear(RGB888Codec.self, surface, color.rgb, r)
        }
    }

    /// Paints the pixels of `rect` in blocks `marked` marks with an opaque colour.
    public func clear(_ surface: Surface, to color: Color, in rect: IntRect, marked: PaintedBlocks)
    {
        precondition(
            marked.width == surface.width && marked.height == surface.height, "sizes differ")
        let r = rect.intersection(surface.bounds)
        if r.isEmpty { return }
        backdrop = color.rgb
        switch surface.format {
        case .rgb565: clear(RGB565Codec.self, surface, color.rgb, r, marked)
        case .bgr565: clear(BGR565Codec.self, surface, color.rgb, r, marked)
        case .xrgb8888, .argb8888: clear(XRGB8888Codec.self, surface, color.rgb, r, marked)
        case .xbgr8888: clear(XBGR8888Codec.self, surface, color.rgb, r, marked)
        case .rgb888: clear(RGB888Codec.self, surface, color.rgb, r, marked)
        }
    }

    private func clear<C: PixelCodec>(
        _: C.Type, _ s: Surface, _ rgb: UInt32, _ r: IntRect, _ marked: PaintedBlocks
    ) {
        // An opaque fill costs less a pixel than a call: join runs 8 blocks apart.
        marked.forEachMarkedRun(in: r, join: 8) { y, x, n in
            Spans<C>.fill(s.base + y &* s.stride, x: x, count: n, y: y, rgb: rgb)
        }
    }

    /// `convert` of the pixels of `rect` in blocks `marked` (or `other`) marks.
    public func convert(
        _ source: Surface, into target: Surface, in rect: IntRect, marked: PaintedBlocks,
        or other: PaintedBlocks? = nil
    ) {
        Convert.runs(source, into: target, in: rect, marked: marked, or: other)
    }

    private func clear<C: PixelCodec>(_: C.Type, _ s: Surface, _ rgb: UInt32, _ r: IntRect) {
        for y in r.y..<r.maxY {
            Spans<C>.fill(s.base + y * s.stride, x: r.x, count: r.width, y: y, rgb: rgb)
        }
    }

    /// Copies `rect` of an `xrgb8888` surface into `target` (same size, any
    /// format), dithering for 16-bit targets: how a picture blended at 8 bits
    /// a channel is quantised once, with no bias from blending onto dithered
    /// pixels.
    public func convert(_ source: Surface, into target: Surface, in rect: IntRect) {
        Convert.run(source, into: target, in: rect)
    }

    /// The angle between neighbouring vertices of arcs of `radius` placed by
    /// `transform`: their directions sit on a grid of this step.
    public static func arcVertexSpacing(radius: Fixed, transform: Transform) -> AngleSpan {
        AngleSpan(
            raw: (1 << 32)
                / Flattener.chordsPerTurn(deviceRadius: transform.scale.apply(radius).raw))
    }

    /// The pixels `shape` placed by `transform` can touch (its polygon's
    /// bounds, whole pixels). Flattens, draws nothing.
    public func bounds(of shape: Shape, transform: Transform = .identity) -> IntRect {
        if let entry = kept.entry(.init(shape: shape, transform: transform)) { return entry.bounds }
        return polygons.polygon(shape, transform, &flattener).bounds
    }

    /// Bytes of coverage kept for shapes filled with `keepCoverage`, and how many shapes.
    public var keptCoverage: (bytes: Int, shapes: Int) { (kept.bytesUsed, kept.count) }

    /// Fills `shape`, placed by `transform`, with `paint`, composited once
    /// (source-over) into `surface`, touching only pixels inside `clip`.
    ///
    /// The pixels inside `clip` get the very bytes a fill without a clip
    /// gives them, so a frame can be redrawn piece by piece.
    ///
    /// With `keepCoverage`, the shape's coverage is kept (up to a budget)
    /// and replayed when the same shape comes back with the same transform:
    /// for shapes a loader draws again and again (a spinner's leaves cycle
    /// through the same poses). The bytes are those of a fill without it.
    ///
    /// With `marking` (a map of the surface's size), the blocks painted are marked there.
    public func fill(
        _ shape: Shape, transform: Transform = .identity, paint: Paint, on surface: Surface,
        clip: IntRect? = nil, keepCoverage: Bool = false, marking: PaintedBlocks? = nil
    ) {
        if case let .solid(color) = paint, color.a == 0 { return }
        precondition(
            marking.map { $0.width == surface.width && $0.height == surface.height } ?? true,
            "the map's size differs from the surface's")
        marks = marking
        defer { marks = nil }
        if keepCoverage,
            fillKept(shape, transform, paint, surface, (clip ?? surface.bounds))
        {
            return
        }
        let (polygon, bounds) = polygons.polygon(shape, transform, &flattener)
        guard polygon.vertexCount >= 3 else { return }
        let area = bounds.intersection((clip ?? surface.bounds).intersection(surface.bounds))
        if area.isEmpty { return }
        // In strips of rows: the cells of a strip, not of a whole large shape
        // (a radar's disc at 800x480: 100 KB, not 640). A fill clipped to a
        // strip gives the bytes of the whole fill there, so strips change nothing
        // but memory; bands of edges outside a strip are skipped whole.
        var top = area.y
        while top < area.maxY {
            let rows = min(Rasterizer.stripRows, area.maxY - top)
            fillStrip(
                polygon, IntRect(x: area.x, y: top, width: area.width, height: rows), paint,
                transform, surface)
            top += rows
        }
    }

    /// Rows of cells a fill accumulates at once.
    static let stripRows = 64

    private func fillStrip(
        _ polygon: Polygon, _ area: IntRect, _ paint: Paint, _ transform: Transform,
        _ surface: Surface
    ) {
        accumulator.begin(area)
        accumulator.add(polygon)
        reserveScratch(area.width)
        paintRows(accumulator, paint, transform, surface)
    }

    /// Fills from kept coverage, keeping it first if it is new; `false`
    /// when it is not kept (the budget is spent, or the kept rows do not
    /// reach the clip): then the usual path draws.
    private func fillKept(
        _ shape: Shape, _ transform: Transform, _ paint: Paint, _ surface: Surface, _ clip: IntRect
    ) -> Bool {
        let key = CoverageCache.Key(shape: shape, transform: transform)
        guard let entry = kept.entry(key) ?? keep(key, surface) else { return false }
        let area = entry.bounds.intersection(clip.intersection(surface.bounds))
        if area.isEmpty { return true }
        guard entry.area.intersection(area) == area else { return false }
        if case let .solid(color) = paint {
            let code = kept.rows(of: entry)
            let a = entry.area
            switch surface.format {
            case .rgb565: paintKept(RGB565Codec.self, code, a, area, surface, color)
            case .bgr565: paintKept(BGR565Codec.self, code, a, area, surface, color)
            case .xrgb8888, .argb8888: paintKept(XRGB8888Codec.self, code, a, area, surface, color)
            case .xbgr8888: paintKept(XBGR8888Codec.self, code, a, area, surface, color)
            case .rgb888: paintKept(RGB888Codec.self, code, a, area, surface, color)
            }
            return true
        }
        replay.begin(kept.rows(of: entry), area: entry.area, clip: area)
        reserveScratch(area.width)
        paintRows(replay, paint, transform, surface)
        return true
    }

    private func paintKept<C: PixelCodec>(
        _: C.Type, _ code: UnsafePointer<UInt8>, _ area: IntRect, _ clip: IntRect,
        _ surface: Surface, _ color: Color
    ) {
        KeptPainter<C>.solid(
            code, area: area, clip: clip, surface: surface, color: color, marks: marks,
            tables: tables, backdrop: backdrop)
    }

    /// Accumulates the whole of `key`'s shape inside `surface` and keeps it.
    private func keep(_ key: CoverageCache.Key, _ surface: Surface) -> CoverageCache.Entry? {
        if keptFull { return nil }
        let (polygon, bounds) = polygons.polygon(key.shape, key.transform, &flattener)
        let area = bounds.intersection(surface.bounds)
        guard polygon.vertexCount >= 3, !area.isEmpty, area.width <= CoverageCache.maxWidth,
            CoverageCache.fits(bounds)
        else { return nil }
        guard kept.begin(key, bounds: bounds, area: area) else {
            keptFull = true
            return nil
        }
        var top = area.y
        while top < area.maxY {
            let strip = IntRect(
                x: area.x, y: top, width: area.width,
                height: min(Rasterizer.stripRows, area.maxY - top))
            accumulator.begin(strip)
            accumulator.add(polygon)
            for r in 0..<strip.height {
                let count = accumulator.resolveRow(r)
                if !kept.append(runs: accumulator.runs, count: count, alpha: accumulator.alpha) {
                    // Full: clear the rest of the strip's cells and stop keeping.
                    for rest in (r + 1)..<strip.height { _ = accumulator.resolveRow(rest) }
                    keptFull = true
                    return nil
                }
            }
            top += strip.height
        }
        kept.commit()
        return kept.entry(key)
    }

    private func reserveScratch(_ width: Int) {
        if scratchCapacity < width {
            mask.deallocate()
            constant.deallocate()
            mask = .allocate(capacity: width)
            constant = .allocate(capacity: width)
            scratchCapacity = width
        }
    }

    private func paintRows<Rows: CoverageRows>(
        _ source: Rows, _ paint: Paint, _ transform: Transform, _ surface: Surface
    ) {
        let rows = RowPainter(
            rows: source, surface: surface, mask: mask, constant: constant, marks: marks,
            sweepTables: paint.isSweep ? (sweepTable, tables) : nil, backdrop: backdrop,
            ramps: ramps)
        switch surface.format {
        case .rgb565: rows.paint(RGB565Codec.self, paint, transform, directions)
        case .bgr565: rows.paint(BGR565Codec.self, paint, transform, directions)
        case .xrgb8888, .argb8888: rows.paint(XRGB8888Codec.self, paint, transform, directions)
        case .xbgr8888: rows.paint(XBGR8888Codec.self, paint, transform, directions)
        case .rgb888: rows.paint(RGB888Codec.self, paint, transform, directions)
        }
    }
}

extension Paint {
    /// Whether the paint is a sweep gradient.
    fileprivate var isSweep: Bool {
        if case .sweep = self { return true }
        return false
    }
}
