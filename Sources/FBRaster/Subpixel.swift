/// A device coordinate in 24.8 fixed point, 256 units a pixel: what a
/// `Polygon` holds and the coverage accumulator, the direction cache and the
/// sweep sampler take (ROUNDING.md, "subpixel points"). A type of its own so
/// a 16.16 `Fixed` cannot be passed where a 24.8 value is wanted; the
/// conversions between the two, and to whole pixels, are here and nowhere
/// else. Zero-cost: one `Int64`, every member inlined.
struct Subpixel: Hashable, Comparable, Sendable {
    /// The value times 256.
    var raw: Int64

    static let fractionBits: Int64 = 8

    /// Vertices a million pixels away are as good as infinitely far; the
    /// limit (2^28 subpixels either side of 0) keeps the accumulator's
    /// products inside 64 bits.
    static let limit: Int64 = 1 << 28

    @inline(__always)
    init(raw: Int64) { self.raw = raw }

    /// `v` (16.16) rounded to nearest (`.nearest`: halves towards +infinity).
    @inline(__always)
    init(_ v: Fixed) { raw = shiftRounded(v.raw, 8) }

    /// `v` (16.16) rounded to nearest and clamped to `±limit`: a polygon's vertex.
    @inline(__always)
    init(clamping v: Fixed) {
        raw = min(max(shiftRounded(v.raw, 8), -Subpixel.limit), Subpixel.limit)
    }

    /// The corner of whole pixel `pixel`.
    @inline(__always)
    init(pixel: Int) { raw = Int64(pixel) << 8 }

    /// The centre of whole pixel `pixel`.
    @inline(__always)
    init(pixelCenter pixel: Int) { raw = (Int64(pixel) << 8) + 128 }

    /// The whole pixel holding the value (the largest whole number not above it).
    @inline(__always)
    var floor: Int { Int(raw >> 8) }

    /// The smallest whole number not below the value.
    @inline(__always)
    var ceil: Int { Int((raw + 255) >> 8) }

    @inline(__always)
    static func < (a: Subpixel, b: Subpixel) -> Bool { a.raw < b.raw }
}

/// A point in 24.8 device subpixels.
struct SubpixelPoint: Hashable, Sendable {
    var x: Subpixel
    var y: Subpixel

    @inline(__always)
    init(x: Subpixel, y: Subpixel) {
        self.x = x
        self.y = y
    }

    /// `p` (16.16) rounded to nearest.
    @inline(__always)
    init(_ p: Point) {
        x = Subpixel(p.x)
        y = Subpixel(p.y)
    }
}
