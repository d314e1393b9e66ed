/// The rasterizer's calls for the frame renderer: the same drawing as the
/// public, immediate-mode calls, reading and adding to a `RasterCache`
/// (flattened polygons, kept coverage, blend tables, the backdrop) and
/// marking the blocks painted in a `PaintedBlocks` map. `package`: they
/// serve the renderer's damage tracking, not a user's drawing.
extension Rasterizer {
    /// The angle between neighbouring vertices of arcs of `radius` placed by
    /// `transform`: their directions sit on a grid of this step.
    package static func arcVertexSpacing(radius: Fixed, transform: Transform) -> AngleSpan {
        AngleSpan(
            raw: (1 << 32)
                / Flattener.chordsPerTurn(deviceRadius: transform.scale.apply(radius).raw))
    }

    /// `clear(_:to:in:)`, noting `color` as `cache`'s backdrop.
    package func clear(
        _ surface: Surface, to color: Color, in rect: IntRect? = nil, cache: RasterCache
    ) {
        let r = (rect ?? surface.bounds).intersection(surface.bounds)
        if r.isEmpty { return }
        cache.backdrop = color.rgb
        clear(surface, to: color, in: r)
    }

    /// Paints the pixels of `rect` in blocks `marked` marks with an opaque
    /// colour, noting it as `cache`'s backdrop.
    package func clear(
        _ surface: Surface, to color: Color, in rect: IntRect, marked: PaintedBlocks,
        cache: RasterCache
    ) {
        precondition(
            marked.width == surface.width && marked.height == surface.height, "sizes differ")
        let r = rect.intersection(surface.bounds)
        if r.isEmpty { return }
        cache.backdrop = color.rgb
        withCodec(
            for: surface.format, Clear(surface: surface, rgb: color.rgb, rect: r, marked: marked))
    }

    /// `convert` of the pixels of `rect` in blocks `marked` (or `other`) marks.
    package func convert(
        _ source: Surface, into target: Surface, in rect: IntRect, marked: PaintedBlocks,
        or other: PaintedBlocks? = nil
    ) {
        Convert.runs(source, into: target, in: rect, marked: marked, or: other)
    }

    /// `bounds(of:transform:)` through `cache` (the polygon is kept for the fill).
    package func bounds(
        of shape: Shape, transform: Transform = .identity, cache: RasterCache,
        keptOn surface: IntRect? = nil
    ) -> IntRect {
        keptBounds(of: shape, transform: transform, cache: cache, keptOn: surface).bounds
    }

    /// `bounds(of:transform:cache:keptOn:)`, and the coverage `cache` keeps
    /// for the fill on a surface of bounds `surface` (`nil`: none kept yet),
    /// for that fill to paint without looking it up again
    /// (`fill(_:...:kept:)`).
    package func keptBounds(
        of shape: Shape, transform: Transform = .identity, cache: RasterCache,
        keptOn surface: IntRect? = nil
    ) -> (bounds: IntRect, kept: KeptCoverage?) {
        if let surface, let partner = HalfTurn.partner(of: transform, on: surface) {
            let key = HalfTurn.key(shape, transform, on: surface, reflected: true)
            if let entry = cache.kept.entry(key) { return (entry.bounds, KeptCoverage(entry)) }
            return (
                HalfTurn.mirror(bounds(of: shape, transform: partner, cache: cache), on: surface),
                nil
            )
        }
        if let entry = cache.kept.entry(.init(shape: shape, transform: transform)) {
            return (entry.bounds, surface == nil ? nil : KeptCoverage(entry))
        }
        return (cache.polygons.polygon(shape, transform, &flattener).bounds, nil)
    }

    /// `bounds(of: .arc(...), transform:)` without flattening the arc: the
    /// same pixels, or one more on a side at most (see `ArcBox`).
    package static func arcBounds(
        center: Point, radius: Fixed, width: Fixed, start: Angle, sweep: AngleSpan, cap: LineCap,
        transform: Transform
    ) -> IntRect {
        ArcBox.pixels(center, radius, width, start, sweep, cap, transform: transform)
    }

    /// `fill(_:transform:paint:on:clip:)` through `cache`.
    ///
    /// With `keepCoverage`, the shape's coverage is kept (up to the cache's
    /// budget) and replayed when the same shape comes back with the same
    /// transform: for shapes a loader draws again and again (a spinner's
    /// leaves cycle through the same poses). The bytes are those of a fill
    /// without it, but for one thing: such a shape turned half a turn or
    /// more is drawn as its partner reflected (`HalfTurn`), kept or not.
    /// With `keepNew` false, coverage kept already is used but none is
    /// added (a still layer's one-off places would only fill the budget).
    /// With `stayedPut` (and not `keepCoverage`), the shape stayed put (a
    /// track before the still layer takes it) and is kept where that
    /// changes no byte: turned less than half a turn (`HalfTurn`). Such
    /// shapes hold at most `RasterCache.stayedPutBudget` bytes, and one
    /// that does not fit is drawn the usual way without closing the cache
    /// to shapes that repeat.
    ///
    /// With `marking` (a map of the surface's size), the blocks painted are
    /// marked there. With `through` (a 16-bit surface of the same size, that
    /// an `xrgb8888` surface is dithered into), what is painted from kept
    /// coverage in one opaque colour, rows whole, goes into it too, dithered
    /// as `convert` would (`ThroughPainter`), and is not marked; the rest is
    /// marked, to convert. With `kept` (what `keptBounds` found for this shape,
    /// transform and surface), a kept fill paints from it without looking
    /// it up.
    package func fill(
        _ shape: Shape, transform: Transform = .identity, paint: Paint, on surface: Surface,
        clip: IntRect? = nil, cache: RasterCache, keepCoverage: Bool = false, keepNew: Bool = true,
        stayedPut: Bool = false, marking: PaintedBlocks? = nil, kept: KeptCoverage? = nil,
        through: DitherTarget? = nil
    ) {
        if case let .solid(color) = paint, color.a == 0 { return }
        precondition(
            marking.map { $0.width == surface.width && $0.height == surface.height } ?? true,
            "the map's size differs from the surface's")
        precondition(
            through.map { $0.width == surface.width && $0.height == surface.height } ?? true,
            "the target's size differs from the surface's")
        // What is not painted through reaches the target by its marks.
        precondition(through == nil || marking != nil, "painting through needs a map")
        marks = marking
        self.through = through
        defer { (marks, self.through) = (nil, nil) }
        let stayedPut = stayedPut && !keepCoverage && HalfTurn.keepingChangesNothing(for: transform)
        let keepCoverage = keepCoverage || stayedPut
        if keepCoverage, let kept,
            paintKept(kept.entry, paint, transform, surface, clip ?? surface.bounds, cache)
        {
            return
        }
        if keepCoverage, let partner = HalfTurn.partner(of: transform, on: surface.bounds) {
            fillReflected(
                shape, transform, partner, paint, surface, clip ?? surface.bounds, cache, keepNew)
            return
        }
        if keepCoverage,
            fillKept(
                shape, transform, paint, surface, (clip ?? surface.bounds), cache, keepNew,
                stayedPut: stayedPut)
        {
            return
        }
        let (polygon, bounds) = cache.polygons.polygon(shape, transform, &flattener)
        fill(polygon, bounds, transform, paint, surface, clip, cache)
    }

    /// A fill turned half a turn or more (`HalfTurn`): from its reflected
    /// kept coverage, made from its partner's (or its partner rasterized), or when
    /// it cannot be kept, its partner rasterized and painted row by row
    /// reflected. The bytes are the same either way.
    private func fillReflected(
        _ shape: Shape, _ transform: Transform, _ partner: Transform, _ paint: Paint,
        _ surface: Surface, _ clip: IntRect, _ cache: RasterCache, _ keepNew: Bool
    ) {
        let key = HalfTurn.key(shape, transform, on: surface.bounds, reflected: true)
        if let entry = cache.kept.entry(key)
            ?? (keepNew ? keepReflected(key, partner, surface, cache) : nil),
            paintKept(entry, paint, transform, surface, clip, cache)
        {
            return
        }
        let (polygon, partnerBounds) = cache.polygons.polygon(shape, partner, &flattener)
        guard polygon.vertexCount >= 3 else { return }
        let area = HalfTurn.mirror(partnerBounds, on: surface.bounds)
            .intersection(clip.intersection(surface.bounds))
        _ = strips(polygon, area, reflectedOn: surface.bounds) { strip in
            paintRows(
                MirroredRows(source: accumulator, mirror: rowMirror, bounds: strip), paint,
                transform, surface, cache)
            return true
        }
    }

    /// Keeps `key`'s coverage as the reflection of its partner's: `nil`
    /// when it cannot be kept.
    private func keepReflected(
        _ key: CoverageCache.Key, _ partner: Transform, _ surface: Surface, _ cache: RasterCache
    ) -> CoverageCache.Entry? {
        if cache.keptFull { return nil }
        // A partner not kept (no fill draws it: a spinner off the surface's
        // centre) is not kept for this one: its coverage goes straight in,
        // reflected.
        let partnerKey = CoverageCache.Key(shape: key.shape, transform: partner)
        guard let source = cache.kept.entry(partnerKey) else {
            return keep(key, surface, cache, reflecting: partner)
        }
        let area = HalfTurn.mirror(source.area, on: surface.bounds)
        guard
            cache.kept.begin(
                key, bounds: HalfTurn.mirror(source.bounds, on: surface.bounds), area: area)
        else {
            cache.keptFull = true
            return nil
        }
        guard reflectedCode.keep(cache.kept.rows(of: source), area: source.area, into: &cache.kept)
        else {
            cache.keptFull = true
            return nil
        }
        cache.kept.commit()
        return cache.kept.entry(key)
    }

    /// Fills from kept coverage, keeping it first if it is new; `false`
    /// when it is not kept (the budget is spent, or the kept rows do not
    /// reach the clip): then the usual path draws.
    private func fillKept(
        _ shape: Shape, _ transform: Transform, _ paint: Paint, _ surface: Surface,
        _ clip: IntRect, _ cache: RasterCache, _ keepNew: Bool, stayedPut: Bool
    ) -> Bool {
        let key = CoverageCache.Key(shape: shape, transform: transform)
        guard
            let entry = cache.kept.entry(key)
                ?? (keepNew ? keep(key, surface, cache, stayedPut: stayedPut) : nil)
        else { return false }
        return paintKept(entry, paint, transform, surface, clip, cache)
    }

    /// Paints kept `entry` inside `clip`; `false` when its rows do not
    /// reach the clip (then the usual path draws).
    private func paintKept(
        _ entry: CoverageCache.Entry, _ paint: Paint, _ transform: Transform,
        _ surface: Surface, _ clip: IntRect, _ cache: RasterCache
    ) -> Bool {
        let area = entry.bounds.intersection(clip.intersection(surface.bounds))
        if area.isEmpty { return true }
        guard entry.area.intersection(area) == area else { return false }
        if case let .solid(color) = paint {
            withCodec(
                for: surface.format,
                KeptSolid(
                    code: cache.kept.rows(of: entry), area: entry.area, clip: area,
                    surface: surface, color: color, marks: marks, tables: cache.tables,
                    backdrop: cache.backdrop, through: through))
            return true
        }
        replay.begin(cache.kept.rows(of: entry), area: entry.area, clip: area)
        paintRows(replay, paint, transform, surface, cache)
        return true
    }

    private struct KeptSolid: CodecWork {
        let code: UnsafePointer<UInt8>
        let area: IntRect
        let clip: IntRect
        let surface: Surface
        let color: Color
        let marks: PaintedBlocks?
        let tables: BlendTables
        let backdrop: UInt32?
        let through: DitherTarget?

        func run<C: PixelCodec>(_: C.Type) {
            KeptPainter<C>.solid(
                code, area: area, clip: clip, surface: surface, color: color, marks: marks,
                tables: tables, backdrop: backdrop, through: through)
        }
    }

    /// Accumulates the whole of `key`'s shape inside `surface` and keeps
    /// it; with `partner`, the shape by its partner's transform, kept
    /// reflected (`HalfTurn`).
    private func keep(
        _ key: CoverageCache.Key, _ surface: Surface, _ cache: RasterCache,
        reflecting partner: Transform? = nil, stayedPut: Bool = false
    ) -> CoverageCache.Entry? {
        if cache.keptFull { return nil }
        if stayedPut && cache.stayedPutBytes >= RasterCache.stayedPutBudget { return nil }
        let (polygon, drawn) = cache.polygons.polygon(
            key.shape, partner ?? key.transform, &flattener)
        let bounds = partner == nil ? drawn : HalfTurn.mirror(drawn, on: surface.bounds)
        let area = bounds.intersection(surface.bounds)
        guard polygon.vertexCount >= 3, !area.isEmpty, area.width <= CoverageCache.maxWidth,
            CoverageCache.fits(bounds)
        else { return nil }
        // A shape kept for staying put that does not fit leaves the cache
        // open to shapes that repeat; no more of its kind are tried (each
        // try rasterizes a whole shape, for every damaged rectangle).
        guard cache.kept.begin(key, bounds: bounds, area: area) else {
            cache.closeToKeeping(stayedPut: stayedPut)
            return nil
        }
        let mirror = partner == nil ? nil : surface.bounds
        let kept = strips(polygon, area, reflectedOn: mirror) { strip in
            mirror == nil
                ? append(accumulator, strip.height, cache)
                : append(
                    MirroredRows(source: accumulator, mirror: rowMirror, bounds: strip),
                    strip.height, cache)
        }
        if !kept {
            cache.closeToKeeping(stayedPut: stayedPut)
            return nil
        }
        if stayedPut {
            let bytes = cache.kept.pendingBytes
            guard cache.stayedPutBytes + bytes <= RasterCache.stayedPutBudget else {
                cache.kept.abandon()
                cache.closeToKeeping(stayedPut: true)
                return nil
            }
            cache.stayedPutBytes += bytes
        }
        cache.kept.commit()
        return cache.kept.entry(key)
    }

    /// Appends `height` rows of `rows` to the entry being kept; `false` when
    /// the budget is spent (the rest of the rows resolved all the same, so
    /// an accumulator's cells are left clear).
    private func append<Rows: CoverageRows>(
        _ rows: Rows, _ height: Int, _ cache: RasterCache
    ) -> Bool {
        for r in 0..<height {
            let count = rows.resolveRow(r)
            if !cache.kept.append(runs: rows.runs, count: count, alpha: rows.alpha) {
                for rest in (r + 1)..<height { _ = rows.resolveRow(rest) }
                return false
            }
        }
        return true
    }
}
