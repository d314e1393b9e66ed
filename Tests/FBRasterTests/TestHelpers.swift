// Shared helpers of the FBRaster tests: conversions from Double to the
// rasterizer's fixed-point types and back, and a white-on-black coverage
// renderer. (The seeded generator, `SeededRandom`, is in _FBTestSupport.)

import Foundation

@testable import FBRaster

// MARK: Conversions (tests only: the rasterizer holds no floating point)

extension Fixed {
    /// The nearest 16.16 value to `v`.
    init(_ v: Double) { self.init(raw: Int64((v * 65536).rounded())) }
    /// The exact value this fixed-point number stands for.
    var double: Double { Double(raw) / 65536 }
}

extension Point {
    init(_ x: Double, _ y: Double) { self.init(x: Fixed(x), y: Fixed(y)) }
    var dx: Double { x.double }
    var dy: Double { y.double }
}

extension Angle {
    /// The nearest angle to `turns` of a turn (any real number; wraps).
    init(turns: Double) {
        let t = turns - turns.rounded(.down)
        self.init(raw: UInt32(truncatingIfNeeded: Int64((t * 4_294_967_296).rounded())))
    }
    /// The exact angle in radians, 0..<2 pi.
    var radians: Double { Double(raw) / 4_294_967_296 * 2 * Double.pi }
}

extension AngleSpan {
    init(turns: Double) { self.init(raw: Int64((turns * 4_294_967_296).rounded())) }
    var radians: Double { Double(raw) / 4_294_967_296 * 2 * Double.pi }
}

extension ScaleFactor {
    init(_ v: Double) { self.init(raw: Int64((v * 16_777_216).rounded())) }
    var double: Double { Double(raw) / 16_777_216 }
}

/// A transform's exact meaning in Double: `p' = t + s R(theta) p`, R clockwise
/// on screen (y down), built from the transform's own fixed-point fields.
struct DoubleTransform {
    let scale: Double
    let cos: Double
    let sin: Double
    let tx: Double
    let ty: Double
    let rotation: Double

    init(_ t: Transform) {
        scale = t.scale.double
        rotation = t.rotation.radians
        cos = Foundation.cos(rotation)
        sin = Foundation.sin(rotation)
        tx = t.translation.dx
        ty = t.translation.dy
    }

    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (tx + scale * (cos * x - sin * y), ty + scale * (sin * x + cos * y))
    }
    func apply(_ p: Point) -> (x: Double, y: Double) { apply(p.dx, p.dy) }
}

// MARK: Rendering coverage

/// Renders `shape` in opaque white on black xrgb8888 and returns each pixel's
/// value (0...255), row-major. On black, white at effective opacity m is
/// `div255(255 * m) = m`, so the value is the rasterizer's 8-bit coverage.
func renderCoverage(
    _ shape: Shape, transform: Transform = .identity, width: Int, height: Int,
    color: Color = .white
) -> [Int] {
    let buffer = PixelBuffer(width: width, height: height, format: .xrgb8888)
    let rasterizer = Rasterizer()
    rasterizer.clear(buffer.surface, to: .black)
    rasterizer.fill(shape, transform: transform, paint: .solid(color), on: buffer.surface)
    // A Surface does not own its memory: keep the buffer alive while reading it.
    return withExtendedLifetime(buffer) { readBlueChannel(buffer.surface) }
}

/// The blue channel of every pixel, row-major (R, G, B are equal for grey scenes).
func readBlueChannel(_ surface: Surface) -> [Int] {
    var out = [Int](repeating: 0, count: surface.width * surface.height)
    for y in 0..<surface.height {
        for x in 0..<surface.width {
            out[y * surface.width + x] = Int(surface.pixel(x: x, y: y) & 0xFF)
        }
    }
    return out
}

/// Statistics on a rendered picture against a reference, in units of 1/255.
struct ErrorStats: CustomStringConvertible {
    var maxError = 0.0
    var worst = (x: 0, y: 0, got: 0, expected: 0.0)
    var edgeErrorSum = 0.0
    var edgeSignedSum = 0.0
    var edgePixels = 0
    var renderedSum = 0.0
    var referenceSum = 0.0

    var meanEdgeError: Double { edgePixels == 0 ? 0 : edgeErrorSum / Double(edgePixels) }
    var meanEdgeBias: Double { edgePixels == 0 ? 0 : edgeSignedSum / Double(edgePixels) }

    /// `got` holds 0...255 values; `reference` coverage in 0...1.
    init(got: [Int], reference: [Double], width: Int) {
        for i in got.indices {
            let expected = reference[i] * 255
            let e = Double(got[i]) - expected
            renderedSum += Double(got[i]) / 255
            referenceSum += reference[i]
            if abs(e) > maxError {
                maxError = abs(e)
                worst = (i % width, i / width, got[i], expected)
            }
            // Edge pixels: partly covered in either picture.
            if (got[i] != 0 && got[i] != 255) || (reference[i] > 1e-9 && reference[i] < 1 - 1e-9) {
                edgePixels += 1
                edgeErrorSum += abs(e)
                edgeSignedSum += e
            }
        }
    }

    var description: String {
        let f = { (v: Double) in String(format: "%.3f", v) }
        return
            "max \(f(maxError))/255 at (\(worst.x), \(worst.y)) got \(worst.got) expected \(f(worst.expected)); "
            + "mean |e| over \(edgePixels) edge px \(f(meanEdgeError))/255, bias \(f(meanEdgeBias))/255; "
            + "sum \(f(renderedSum)) vs reference \(f(referenceSum))"
    }
}

/// Prints measured figures when `FBRASTER_STATS` is set (for the report; quiet otherwise).
func reportStats(_ line: @autoclosure () -> String) {
    if ProcessInfo.processInfo.environment["FBRASTER_STATS"] != nil { print("[stats] " + line()) }
}

/// A thread-safe accumulator of the worst figures of a parameterised sweep.
final class StatsSink: @unchecked Sendable {
    private let lock = NSLock()
    private var maxError = 0.0
    private var maxMean = 0.0
    private var maxBias = 0.0
    private var maxAreaError = 0.0
    private var cases = 0
    let name: String
    let expectedCases: Int
    /// `expectedCases`: the figures are printed once that many have been added.
    init(_ name: String, cases: Int) {
        self.name = name
        expectedCases = cases
    }

    func add(_ s: ErrorStats, areaRelativeError: Double = 0) {
        lock.lock()
        maxError = max(maxError, s.maxError)
        maxMean = max(maxMean, s.meanEdgeError)
        maxBias = max(maxBias, abs(s.meanEdgeBias))
        maxAreaError = max(maxAreaError, areaRelativeError)
        cases += 1
        let line = String(
            format:
                "%@: %d cases, max %.3f/255, worst mean |e| %.3f/255, worst |bias| %.3f/255, worst area rel. error %.2e",
            name, cases, maxError, maxMean, maxBias, maxAreaError)
        let done = cases == expectedCases
        lock.unlock()
        if done { reportStats(line) }
    }
}

/// Runs `body` with the codec of `format`.
func withCodec<R>(_ format: PixelFormat, _ body: (any PixelCodec.Type) -> R) -> R {
    switch format {
    case .rgb565: body(RGB565Codec.self)
    case .bgr565: body(BGR565Codec.self)
    case .xrgb8888, .argb8888: body(XRGB8888Codec.self)
    case .xbgr8888: body(XBGR8888Codec.self)
    case .rgb888: body(RGB888Codec.self)
    }
}
