/// A linear gradient: colour stops along the axis from `start` to `end`
/// (local coordinates, placed by the shape's transform).
///
/// A point takes the colour at the position of its projection on the axis,
/// `t = (p - start) · (end - start) / |end - start|^2`, clamped to `0...1`
/// (pad: before the first stop the first colour, after the last the last).
/// Between two stops the colour changes linearly in premultiplied sRGB (so
/// a ramp from `.clear` to a colour has no dark fringe), 8 bits a channel;
/// the result's opacity is multiplied by `opacity`. Pixels are sampled at
/// their centres; the shape's edges keep their exact coverage. `start ==
/// end` paints the last stop's colour; an axis shorter than 1/4 px on screen
/// is drawn 1/4 px long.
public struct LinearRamp: Equatable, Sendable {
    /// Where `t` is 0.
    public var start: Point
    /// Where `t` is 1.
    public var end: Point
    /// At least one, by location (locations are clamped to `0...1` and to at
    /// least the one before). At equal locations the later stop wins.
    public var stops: [RampStop]
    /// Multiplies every stop's opacity (`255`: as the stops say).
    public var opacity: UInt8

    /// See the properties. Keep `stops` in a stored value: a ramp made from
    /// the same array again (`opacity` changed, the axis moved) reuses its
    /// colour table and allocates nothing.
    public init(start: Point, end: Point, stops: [RampStop], opacity: UInt8 = 255) {
        self.start = start
        self.end = end
        self.stops = stops
        self.opacity = opacity
    }
}

/// A colour at a position along a `LinearRamp`'s axis.
public struct RampStop: Equatable, Sendable {
    /// The colour, straight alpha.
    public var color: Color
    /// `0...1` along the axis (16.16: `Fixed.one` is the end).
    public var location: Fixed

    /// See the properties.
    public init(color: Color, location: Fixed) {
        self.color = color
        self.location = location
    }
}

/// A ramp's position in device space as a plane: the colour table index
/// `u = a * x + b * y + c` (32.32 fixed point, table steps) at pixel `(x, y)`'s centre.
struct LinearRampSampler {
    /// Per pixel to the right; per pixel down; at pixel (0, 0).
    let a: Int64
    let b: Int64
    let c: Int128

    init(_ ramp: LinearRamp, _ transform: Transform) {
        // Coordinates limited to 2^24 px (2^40 raw): products stay in Int128.
        func clamp(_ v: Fixed) -> Int128 { Int128(min(max(v.raw, -(1 << 40)), 1 << 40)) }
        let s = transform.apply(ramp.start)
        let e = transform.apply(ramp.end)
        let sx = clamp(s.x)
        let sy = clamp(s.y)
        var dx = clamp(e.x) - sx
        var dy = clamp(e.y) - sy
        var len2 = dx * dx + dy * dy
        if len2 == 0 {
            // No axis: every point lies past the end.
            a = 0
            b = 0
            c = Int128(LinearRampTable.last) << 32
            return
        }
        let minimum: Int128 = 1 << 14  // 1/4 px, raw
        if len2 < minimum * minimum {
            let len = Int128(integerSquareRoot(Int64(len2)))
            dx = dx * minimum / max(len, 1)
            dy = dy * minimum / max(len, 1)
            len2 = max(dx * dx + dy * dy, 1)
        }
        // u = steps * ((p - s) · d) / |d|^2 with steps = 4095 * 2^32.
        let steps = Int128(LinearRampTable.last) << 32
        func divide(_ n: Int128) -> Int128 {
            let q = n / len2
            let r = n - q * len2
            let (fq, fr) = r < 0 ? (q - 1, r + len2) : (q, r)
            return 2 * fr >= len2 ? fq + 1 : fq
        }
        a = Int64(divide(steps * dx * 65536))
        b = Int64(divide(steps * dy * 65536))
        c = divide(steps * ((32768 - sx) * dx + (32768 - sy) * dy))
    }

    /// `u` at pixel `(x, y)`, clamped far outside the table (at most 2^61):
    /// a run of up to 2^14 pixels steps it by `a` (at most 2^46) without overflow.
    @inline(__always)
    func position(x: Int, y: Int) -> Int64 {
        let u = Int128(a) * Int128(x) + Int128(b) * Int128(y) + c
        return Int64(min(max(u, -(1 << 61)), 1 << 61))
    }
}

/// A ramp's colour at `LinearRampTable.count` evenly spaced positions of
/// its axis (`0...1`), as `alpha << 24 | 0xRRGGBB` (straight colour), made
/// when the stops change; and the opacity applied to an alpha,
/// `div255(alpha * opacity)` for each alpha, made when the opacity changes
/// (a fading gradient remakes 256 bytes a frame, not 4096 colours).
final class LinearRampTable {
    static let count = 4096
    static let last = count - 1
    private var values = UnsafeMutablePointer<UInt32>.allocate(capacity: 0)
    private var alphas = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var made = false
    private var stops: [RampStop] = []
    private var opacity: UInt8 = 0

    deinit {
        values.deallocate()
        alphas.deallocate()
    }

    /// Forgets the ramp the tables hold, keeping their memory: the next
    /// `tables(for:)` makes them again.
    func forget() { stale = true }
    private var stale = false

    /// The tables of `ramp`'s stops and of its opacity.
    func tables(for ramp: LinearRamp) -> (
        colors: UnsafePointer<UInt32>, alphas: UnsafePointer<UInt8>
    ) {
        if !made {
            values.deallocate()
            values = .allocate(capacity: LinearRampTable.count)
            alphas.deallocate()
            alphas = .allocate(capacity: 256)
        }
        if !made || stale || ramp.stops != stops {
            stops = ramp.stops
            fill(ramp.stops)
        }
        if !made || stale || ramp.opacity != opacity {
            opacity = ramp.opacity
            for a in 0..<256 {
                alphas[a] = UInt8(truncatingIfNeeded: div255(UInt32(a) &* UInt32(ramp.opacity)))
            }
        }
        made = true
        stale = false
        return (UnsafePointer(values), UnsafePointer(alphas))
    }

    /// Entry `i` is the colour at `t = i / 4095`: positions in units of
    /// 1 / (4095 * 65536), where entry `i` is `i * 65536` and a stop
    /// `location.raw * 4095`, so every interpolation is one exact ratio.
    private func fill(_ stops: [RampStop]) {
        guard let first = stops.first else {
            values.update(repeating: 0, count: LinearRampTable.count)
            return
        }
        var k = 0  // the last stop at or before the position
        var location = stop(stops, 0, after: 0)
        var next = stops.count > 1 ? stop(stops, 1, after: location) : Int64.max
        for i in 0..<LinearRampTable.count {
            let t = Int64(i) << 16
            while next <= t {
                k += 1
                location = next
                next = k + 1 < stops.count ? stop(stops, k + 1, after: location) : Int64.max
            }
            let entry: UInt32
            if t < location && k == 0 {
                entry = first.color.entry
            } else if next == Int64.max {
                entry = stops[k].color.entry
            } else {
                entry = LinearRampTable.mix(
                    stops[k].color, stops[k + 1].color, t - location, next - location)
            }
            values[i] = entry
        }
    }

    /// Stop `i`'s position (see `fill`), clamped to `0...1` and to `after`.
    private func stop(_ stops: [RampStop], _ i: Int, after: Int64) -> Int64 {
        max(min(max(stops[i].location.raw, 0), 65536) * 4095, after)
    }

    /// `num / den` of the way from `c0` to `c1` in premultiplied sRGB:
    /// alpha and each premultiplied channel linear, the straight colour the
    /// ratio of the two, each rounded once.
    private static func mix(_ c0: Color, _ c1: Color, _ num: Int64, _ den: Int64) -> UInt32 {
        let a0 = Int64(c0.a)
        let a1 = Int64(c1.a)
        let alphaScaled = a0 * den + (a1 - a0) * num  // alpha * den
        let alpha = roundedDivide(alphaScaled, den)
        func channel(_ shift: UInt32) -> UInt32 {
            let v0 = Int64(c0.rgb >> shift & 0xFF) * a0
            let v1 = Int64(c1.rgb >> shift & 0xFF) * a1
            let v = roundedDivide(v0 * den + (v1 - v0) * num, alphaScaled)
            return UInt32(min(max(v, 0), 255)) << shift
        }
        let rgb = alphaScaled > 0 ? channel(16) | channel(8) | channel(0) : 0
        return UInt32(alpha) << 24 | rgb
    }
}

extension RowPainter {
    /// Paints the rows with a linear ramp: per run, the table position at
    /// its first pixel, then a step per pixel (`Spans.blendRamp`).
    func linear<C: PixelCodec>(
        _: C.Type, _ ramp: LinearRamp, _ transform: Transform, _ table: LinearRampTable
    ) {
        let sampler = LinearRampSampler(ramp, transform)
        let (colors, alphas) = table.tables(for: ramp)
        let area = rows.bounds
        let runs = rows.runs
        let alpha = rows.alpha
        for r in 0..<area.height {
            let runCount = rows.resolveRow(r)
            if runCount == 0 { continue }
            let y = area.y + r
            markRow(y, runs, runCount, area.x)
            let row = surface.base + y * surface.stride
            for i in 0..<runCount {
                let run = runs[i]
                let count = Int(run.count)
                let x = area.x + Int(run.start)
                let u = sampler.position(x: x, y: y)
                if run.alpha == 255 {
                    Spans<C>.blendRamp(
                        row, x: x, count: count, y: y, u: u, du: sampler.a, colors: colors,
                        alphas: alphas)
                    continue
                }
                let coverage = coverage(of: run, alpha)
                Spans<C>.blendRamp(
                    row, x: x, count: count, y: y, u: u, du: sampler.a, colors: colors,
                    alphas: alphas, coverage: coverage)
            }
        }
    }
}

extension Spans {
    /// A linear ramp over `count` wholly covered pixels from column `x` of
    /// row `y`: pixel `i` takes table entry `(u + i * du) / 2^32`, rounded
    /// and clamped to the table (`LinearRampTable`), at its alpha through
    /// `alphas` (the ramp's opacity applied).
    @inline(never)
    static func blendRamp(
        _ row: UnsafeMutableRawPointer, x: Int, count: Int, y: Int, u: Int64, du: Int64,
        colors: UnsafePointer<UInt32>, alphas: UnsafePointer<UInt8>
    ) {
        var p = row + x &* C.bytesPerPixel
        let cellRow = (y & 3) << 2
        var u = u &+ (1 << 31)
        for i in 0..<count {
            let e = colors[min(max(Int(truncatingIfNeeded: u >> 32), 0), LinearRampTable.last)]
            let m = UInt32(alphas[Int(e >> 24)])
            if m != 0 {
                let rgb = e & 0xFF_FFFF
                let out = m == 255 ? rgb : blendRGB(rgb, C.load(p), m)
                C.store(p, out, dither: cellRow | ((x &+ i) & 3))
            }
            p += C.bytesPerPixel
            u &+= du
        }
    }

    /// `blendRamp` of pixels covered `coverage[i]` (0...255).
    @inline(never)
    static func blendRamp(
        _ row: UnsafeMutableRawPointer, x: Int, count: Int, y: Int, u: Int64, du: Int64,
        colors: UnsafePointer<UInt32>, alphas: UnsafePointer<UInt8>, coverage: UnsafePointer<UInt8>
    ) {
        var p = row + x &* C.bytesPerPixel
        let cellRow = (y & 3) << 2
        var u = u &+ (1 << 31)
        for i in 0..<count {
            let e = colors[min(max(Int(truncatingIfNeeded: u >> 32), 0), LinearRampTable.last)]
            let m = div255(UInt32(alphas[Int(e >> 24)]) &* UInt32(coverage[i]))
            if m != 0 {
                let rgb = e & 0xFF_FFFF
                let out = m == 255 ? rgb : blendRGB(rgb, C.load(p), m)
                C.store(p, out, dither: cellRow | ((x &+ i) & 3))
            }
            p += C.bytesPerPixel
            u &+= du
        }
    }
}

extension Color {
    /// The colour as a `LinearRampTable` entry: `alpha << 24 | 0xRRGGBB`.
    fileprivate var entry: UInt32 { UInt32(a) << 24 | rgb }
}
