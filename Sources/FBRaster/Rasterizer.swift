/// Fills shapes into surfaces: flatten, accumulate coverage, blend spans.
///
/// Keeps its scratch memory between calls: after the first frame at a size,
/// drawing allocates nothing. Not thread-safe; use one per thread.
public final class Rasterizer {
    private var flattener = Flattener()
    private var accumulator = CoverageAccumulator()
    private var mask: [UInt8] = []
    private var full: [UInt8] = []

    public init() {}

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
        if mask.count < area.width {
            mask = [UInt8](repeating: 0, count: area.width)
            full = [UInt8](repeating: 255, count: area.width)
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
        for r in 0..<area.height {
            guard let range = accumulator.resolveRow(r) else { continue }
            let y = area.y + r
            let row = surface.base + y * surface.stride
            accumulator.alpha.withUnsafeBufferPointer { cov in
                forEachRun(cov.baseAddress!, range) { start, count, whole in
                    let x = area.x + start
                    if whole && alpha == 255 {
                        Spans<C>.fill(row, x: x, count: count, y: y, rgb: rgb)
                    } else if whole {
                        Spans<C>.blend(row, x: x, count: count, y: y, rgb: rgb, m: alpha)
                    } else {
                        Spans<C>.blendMask(
                            row, x: x, count: count, y: y, rgb: rgb, alpha: alpha,
                            mask: cov.baseAddress! + start)
                    }
                }
            }
        }
    }

    private func sweepRows<C: PixelCodec>(_: C.Type, _ sampler: SweepSampler, _ surface: Surface) {
        let area = accumulator.bounds
        for r in 0..<area.height {
            guard let range = accumulator.resolveRow(r) else { continue }
            let y = area.y + r
            let row = surface.base + y * surface.stride
            accumulator.alpha.withUnsafeBufferPointer { cov in
                mask.withUnsafeMutableBufferPointer { mask in
                    full.withUnsafeBufferPointer { full in
                        forEachRun(cov.baseAddress!, range) { start, count, whole in
                            let coverage = whole ? full.baseAddress! : cov.baseAddress! + start
                            sampler.modulate(
                                x: area.x + start, y: y, count: count, coverage: coverage,
                                into: mask.baseAddress!)
                            Spans<C>.blendMask(
                                row, x: area.x + start, count: count, y: y, rgb: sampler.rgb,
                                alpha: 255, mask: mask.baseAddress!)
                        }
                    }
                }
            }
        }
    }

    /// Splits a row of coverage into runs: skipped where 0, `whole` where 255.
    @inline(__always)
    private func forEachRun(
        _ cov: UnsafePointer<UInt8>, _ range: Range<Int>, _ body: (Int, Int, Bool) -> Void
    ) {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let v = cov[i]
            var j = i + 1
            if v == 0 {
                while j < end && cov[j] == 0 { j += 1 }
            } else if v == 255 {
                while j < end && cov[j] == 255 { j += 1 }
                body(i, j - i, true)
            } else {
                while j < end && cov[j] != 0 && cov[j] != 255 { j += 1 }
                body(i, j - i, false)
            }
            i = j
        }
    }
}
