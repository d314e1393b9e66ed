/// Fills shapes into surfaces: flatten, accumulate coverage, blend spans.
///
/// Keeps its scratch memory between calls: after the first frame at a size,
/// drawing allocates nothing. Not thread-safe; use one per thread.
public final class Rasterizer {
    private var flattener = Flattener()
    private var polygons = PolygonCache()
    private let accumulator = CoverageAccumulator()
    /// Scratch rows for paints that vary per pixel: the paint's mask, and a
    /// row of one constant coverage.
    private var mask = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var constant = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var scratchCapacity = 0
    /// The directions of pixel centres around a sweep gradient's centre.
    let directions = DirectionCache()

    public init() {}

    deinit {
        mask.deallocate()
        constant.deallocate()
    }

    /// Paints `rect` (clipped to the surface) with an opaque colour.
    public func clear(_ surface: Surface, to color: Color, in rect: IntRect? = nil) {
        let r = (rect ?? surface.bounds).intersection(surface.bounds)
        if r.isEmpty { return }
        switch surface.format {
        case .rgb565: clear(RGB565Codec.self, surface, color.rgb, r)
        case .bgr565: clear(BGR565Codec.self, surface, color.rgb, r)
        case .xrgb8888, .argb8888: clear(XRGB8888Codec.self, surface, color.rgb, r)
        case .xbgr8888: clear(XBGR8888Codec.self, surface, color.rgb, r)
        case .rgb888: clear(RGB888Codec.self, surface, color.rgb, r)
        }
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
        polygons.polygon(shape, transform, &flattener).bounds
    }

    /// Fills `shape`, placed by `transform`, with `paint`, composited once
    /// (source-over) into `surface`, touching only pixels inside `clip`.
    ///
    /// The pixels inside `clip` get the very bytes a fill without a clip
    /// gives them, so a frame can be redrawn piece by piece.
    public func fill(
        _ shape: Shape, transform: Transform = .identity, paint: Paint, on surface: Surface,
        clip: IntRect? = nil
    ) {
        if case let .solid(color) = paint, color.a == 0 { return }
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
        if scratchCapacity < area.width {
            mask.deallocate()
            constant.deallocate()
            mask = .allocate(capacity: area.width)
            constant = .allocate(capacity: area.width)
            scratchCapacity = area.width
        }
        let rows = RowPainter(
            accumulator: accumulator, surface: surface, mask: mask, constant: constant)
        switch surface.format {
        case .rgb565: rows.paint(RGB565Codec.self, paint, transform, directions)
        case .bgr565: rows.paint(BGR565Codec.self, paint, transform, directions)
        case .xrgb8888, .argb8888: rows.paint(XRGB8888Codec.self, paint, transform, directions)
        case .xbgr8888: rows.paint(XBGR8888Codec.self, paint, transform, directions)
        case .rgb888: rows.paint(RGB888Codec.self, paint, transform, directions)
        }
    }
}
