/// Fills shapes into surfaces: flatten, accumulate coverage, blend spans.
///
/// Immediate mode: each call draws with scratch memory and keeps nothing
/// for the next (the memory itself is kept, so drawing at a size it has
/// seen allocates nothing). What saves work from frame to frame (flattened
/// polygons, kept coverage, blend tables, the last clear's colour) lives in
/// a `RasterCache` that the frame renderer owns and hands to the `package`
/// calls of `Rasterizer+Cache.swift`; the bytes drawn are the same either way.
/// Not thread-safe; use one per thread.
public final class Rasterizer {
    var flattener = Flattener()
    let accumulator = CoverageAccumulator()
    let replay = CoverageReplay()
    /// Rows and kept code turned half a turn (`HalfTurn`).
    let rowMirror = RowMirror()
    let reflectedCode = ReflectedCode()
    /// The blocks map of the fill in progress (set for one call).
    var marks: PaintedBlocks?
    /// The 16-bit target painted through along with the canvas, for the
    /// fill in progress (`fill(through:)`).
    var through: DitherTarget?
    /// Scratch rows for paints that vary per pixel: the paint's mask, and a
    /// row of one constant coverage.
    private var mask = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var constant = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var scratchCapacity = 0
    /// Scratch of a sweep or linear paint's fill without a cache
    /// (directions, opacity, blend and ramp tables), forgotten after each fill.
    private lazy var scratch = RasterCache(keptBytes: 0)

    public init() {}

    deinit {
        mask.deallocate()
        constant.deallocate()
    }

    /// Paints `rect` (clipped to the surface) with an opaque colour.
    public func clear(_ surface: Surface, to color: Color, in rect: IntRect? = nil) {
        let r = (rect ?? surface.bounds).intersection(surface.bounds)
        if r.isEmpty { return }
        withCodec(
            for: surface.format, Clear(surface: surface, rgb: color.rgb, rect: r, marked: nil))
    }

    /// An opaque colour over a rectangle, or over its marked blocks.
    struct Clear: CodecWork {
        let surface: Surface
        let rgb: UInt32
        let rect: IntRect
        let marked: PaintedBlocks?

        func run<C: PixelCodec>(_: C.Type) {
            let (s, rgb, r) = (surface, rgb, rect)
            if C.bytesPerPixel == 2 {
                // The colour's pattern once, a word every four pixels.
                let pattern = DitherPattern(rgb, C.self)
                guard let marked else {
                    for y in r.y..<r.maxY {
                        DitherPattern.fill(
                            s.base + y &* s.stride, x: r.x, count: r.width, pattern.row(y))
                    }
                    return
                }
                marked.forEachMarkedRun(in: r, join: 8) { y, x, n in
                    DitherPattern.fill(s.base + y &* s.stride, x: x, count: n, pattern.row(y))
                }
                return
            }
            guard let marked else {
                for y in r.y..<r.maxY {
                    Spans<C>.fill(s.base + y * s.stride, x: r.x, count: r.width, y: y, rgb: rgb)
                }
                return
            }
            // An opaque fill costs less a pixel than a call: join runs 8 blocks apart.
            marked.forEachMarkedRun(in: r, join: 8) { y, x, n in
                Spans<C>.fill(s.base + y &* s.stride, x: x, count: n, y: y, rgb: rgb)
            }
        }
    }

    /// Copies `rect` of an `xrgb8888` surface into `target` (same size, any
    /// format), dithering for 16-bit targets: how a picture blended at 8 bits
    /// a channel is quantised once, with no bias from blending onto dithered
    /// pixels.
    public func convert(_ source: Surface, into target: Surface, in rect: IntRect) {
        Convert.run(source, into: target, in: rect)
    }

    /// The pixels `shape` placed by `transform` can touch (its polygon's
    /// bounds, whole pixels). Flattens, draws nothing.
    public func bounds(of shape: Shape, transform: Transform = .identity) -> IntRect {
        flattener.flatten(shape, transform)
        return flattener.extent.pixels
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
        flattener.flatten(shape, transform)
        let polygon = flattener.polygon
        if paint.isSweep || paint.isLinear {
            defer { scratch.forget() }
            fill(polygon, flattener.extent.pixels, transform, paint, surface, clip, scratch)
        } else {
            fill(polygon, flattener.extent.pixels, transform, paint, surface, clip, nil)
        }
    }

    /// Fills a flattened shape whose pixels lie in `bounds`, reading
    /// `cache` for a sweep paint's tables and the backdrop, if given.
    func fill(
        _ polygon: Polygon<Subpixel>, _ bounds: IntRect, _ transform: Transform, _ paint: Paint,
        _ surface: Surface, _ clip: IntRect?, _ cache: RasterCache?
    ) {
        guard polygon.vertexCount >= 3 else { return }
        let area = bounds.intersection((clip ?? surface.bounds).intersection(surface.bounds))
        if area.isEmpty { return }
        _ = strips(polygon, area) { _ in
            paintRows(accumulator, paint, transform, surface, cache)
            return true
        }
    }

    /// Rows of cells a fill accumulates at once.
    static let stripRows = 64

    /// Accumulates `polygon` over `area` a strip of rows at a time and
    /// hands each strip to `body` while the accumulator holds it; `false`
    /// as soon as `body` gives `false`. With `mirror` (a surface's bounds),
    /// the accumulator holds the strip reflected through that surface's
    /// centre (`HalfTurn`), which `MirroredRows` turns back.
    ///
    /// In strips: the cells of a strip, not of a whole large shape (a
    /// radar's disc at 800x480: 100 KB, not 640). A fill clipped to a strip
    /// gives the bytes of the whole fill there, so strips change nothing but
    /// memory; bands of edges outside a strip are skipped whole.
    @inline(__always)
    func strips(
        _ polygon: Polygon<Subpixel>, _ area: IntRect, reflectedOn mirror: IntRect? = nil,
        _ body: (IntRect) -> Bool
    ) -> Bool {
        var top = area.y
        while top < area.maxY {
            let strip = IntRect(
                x: area.x, y: top, width: area.width,
                height: min(Rasterizer.stripRows, area.maxY - top))
            accumulator.begin(mirror.map { HalfTurn.mirror(strip, on: $0) } ?? strip)
            accumulator.add(polygon)
            if !body(strip) { return false }
            top += strip.height
        }
        return true
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

    /// Paints `source`'s rows with `paint`; a sweep paint needs `cache`
    /// (its directions and tables).
    func paintRows<Rows: CoverageRows>(
        _ source: Rows, _ paint: Paint, _ transform: Transform, _ surface: Surface,
        _ cache: RasterCache?
    ) {
        reserveScratch(source.bounds.width)
        let rows = RowPainter(
            rows: source, surface: surface, mask: mask, constant: constant, marks: marks,
            sweep: paint.isSweep ? cache : nil, backdrop: cache?.backdrop,
            ramps: cache?.ramps ?? scratch.ramps)
        withCodec(for: surface.format, PaintRows(painter: rows, paint: paint, transform: transform))
    }
}

/// `RowPainter.paint` as work for `withCodec`.
private struct PaintRows<Rows: CoverageRows>: CodecWork {
    let painter: RowPainter<Rows>
    let paint: Paint
    let transform: Transform

    func run<C: PixelCodec>(_: C.Type) { painter.paint(C.self, paint, transform) }
}

extension Paint {
    /// Whether the paint is a sweep gradient.
    fileprivate var isSweep: Bool {
        if case .sweep = self { return true }
        return false
    }

    /// Whether the paint is a linear ramp.
    fileprivate var isLinear: Bool {
        if case .linear = self { return true }
        return false
    }
}
