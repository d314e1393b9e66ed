/// Fills shapes into surfaces: flatten, accumulate coverage, blend spans.
///
/// Keeps its scratch memory between calls: after the first frame at a size,
/// drawing allocates nothing. Not thread-safe; use one per thread.
public final class Rasterizer {
    private var flattener = Flattener()
    private let accumulator = CoverageAccumulator()
    /// Scratch rows for paints that vary per pixel: the paint's mask, and a
    /// row of one constant coverage.
    private var mask = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var constant = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var scratchCapacity = 0

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

    /// Fills `shape`, placed by `transform`, with `paint`, composited once
    /// (source-over) into `surface`, touching only pixels inside `clip`.
    public func fill(
        _ shape: Shape, transform: Transform = .identity, paint: Paint, on surface: Surface,
        clip: IntRect? = nil
    ) {
        if case let .solid(color) = paint, color.a == 0 { return }
        flattener.flatten(shape, transform)
        let polygon = flattener.polygon
        guard polygon.vertexCount >= 3 else { return }
        let area = Rasterizer.bounds(of: polygon)
            .intersection((clip ?? surface.bounds).intersection(surface.bounds))
        if area.isEmpty { return }
        accumulator.begin(area)
        accumulator.add(polygon)
        if scratchCapacity < area.width {
            mask.deallocate()
            constant.deallocate()
            mask = .allocate(capacity: area.width)
            constant = .allocate(capacity: area.width)
            scratchCapacity = area.width
        }
        switch surface.format {
        case .rgb565: draw(RGB565Codec.self, paint, surface, transform)
        case .bgr565: draw(BGR565Codec.self, paint, surface, transform)
        case .xrgb8888, .argb8888: draw(XRGB8888Codec.self, paint, surface, transform)
        case .xbgr8888: draw(XBGR8888Codec.self, paint, surface, transform)
        case .rgb888: draw(RGB888Codec.self, paint, surface, transform)
        }
    }

    /// The whole pixels a polygon touches.
    private static func bounds(of polygon: Polygon) -> IntRect {
        var minX = Int64.max
        var minY = Int64.max
        var maxX = Int64.min
        var maxY = Int64.min
        let v = polygon.coordinates
        var i = 0
        while i < v.count {
            minX = min(minX, v[i])
            maxX = max(maxX, v[i])
            minY = min(minY, v[i + 1])
            maxY = max(maxY, v[i + 1])
            i += 2
        }
        let x0 = Int(minX >> 8)
        let y0 = Int(minY >> 8)
        let x1 = Int((maxX + 255) >> 8)
        let y1 = Int((maxY + 255) >> 8)
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private func draw<C: PixelCodec>(
        _: C.Type, _ paint: Paint, _ surface: Surface, _ transform: Transform
    ) {
        switch paint {
        case let .solid(color): solidRows(C.self, color, surface)
        case let .sweep(gradient): sweepRows(C.self, SweepSampler(gradient, transform), surface)
        }
    }

    private func solidRows<C: PixelCodec>(_: C.Type, _ color: Color, _ surface: Surface) {
        let area = accumulator.bounds
        let rgb = color.rgb
        let alpha = UInt32(color.a)
        let coverage = accumulator.alpha
        let runs = accumulator.runs
        for r in 0..<area.height {
            let runCount = accumulator.resolveRow(r)
            let y = area.y + r
            let row = surface.base + y * surface.stride
            for i in 0..<runCount {
                let run = runs[i]
                let x = area.x + Int(run.start)
                let count = Int(run.count)
                if run.alpha < 0 {
                    Spans<C>.blendMask(
                        row, x: x, count: count, y: y, rgb: rgb, alpha: alpha,
                        mask: coverage + Int(run.start))
                    continue
                }
                let m = div255(alpha * UInt32(run.alpha))
                if m == 255 {
                    Spans<C>.fill(row, x: x, count: count, y: y, rgb: rgb)
                } else if m > 0 {
                    Spans<C>.blend(row, x: x, count: count, y: y, rgb: rgb, m: m)
                }
            }
        }
    }

    private func sweepRows<C: PixelCodec>(_: C.Type, _ sampler: SweepSampler, _ surface: Surface) {
        let area = accumulator.bounds
        let runs = accumulator.runs
        let alpha = accumulator.alpha
        let (mask, constant) = (self.mask, self.constant)
        for r in 0..<area.height {
            let runCount = accumulator.resolveRow(r)
            let y = area.y + r
            let row = surface.base + y * surface.stride
            for i in 0..<runCount {
                let run = runs[i]
                let count = Int(run.count)
                let coverage: UnsafePointer<UInt8>
                if run.alpha < 0 {
                    coverage = UnsafePointer(alpha + Int(run.start))
                } else {
                    constant.update(repeating: UInt8(run.alpha), count: count)
                    coverage = UnsafePointer(constant)
                }
                let x = area.x + Int(run.start)
                sampler.modulate(x: x, y: y, count: count, coverage: coverage, into: mask)
                Spans<C>.blendMask(
                    row, x: x, count: count, y: y, rgb: sampler.rgb, alpha: 255, mask: mask)
            }
        }
    }
}
