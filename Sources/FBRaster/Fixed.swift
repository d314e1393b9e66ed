// Number formats of the rasterizer. The policy (formats, rounding, pixel
// centres) is written down in ROUNDING.md beside this file.

/// A length or coordinate in 16.16 fixed point (pixels or design points).
public struct Fixed: Hashable, Comparable, Sendable {
    /// The value times 65536.
    public var raw: Int64

    public static let fractionBits: Int64 = 16
    public static let one = Fixed(raw: 1 << 16)
    public static let zero = Fixed(raw: 0)

    public init(raw: Int64) { self.raw = raw }

    /// An exact whole number.
    public init(_ whole: Int) { raw = Int64(whole) << 16 }

    /// `numerator / denominator`, rounded to nearest; `denominator != 0`.
    public init(_ numerator: Int, over denominator: Int) {
        // roundedDivide wants a positive divisor: move the sign to the numerator.
        let (n, d) =
            denominator < 0
            ? (-Int64(numerator), -Int64(denominator)) : (Int64(numerator), Int64(denominator))
        raw = roundedDivide(n << 16, d)
    }

    public static func + (a: Fixed, b: Fixed) -> Fixed { Fixed(raw: a.raw + b.raw) }
    public static func - (a: Fixed, b: Fixed) -> Fixed { Fixed(raw: a.raw - b.raw) }
    public static prefix func - (a: Fixed) -> Fixed { Fixed(raw: -a.raw) }
    public static func < (a: Fixed, b: Fixed) -> Bool { a.raw < b.raw }

    /// Product of two 16.16 values, rounded to nearest.
    public static func * (a: Fixed, b: Fixed) -> Fixed {
        Fixed(raw: shiftRounded(a.raw * b.raw, 16))
    }

    /// Half the value, rounded to nearest.
    public var half: Fixed { Fixed(raw: shiftRounded(raw, 1)) }

    /// The largest whole number not above the value.
    public var floor: Int { Int(raw >> 16) }

    /// The smallest whole number not below the value.
    public var ceil: Int { Int((raw + 0xFFFF) >> 16) }
}

/// A positive ratio in fixed point with 24 fraction bits (a transform's scale).
public struct ScaleFactor: Hashable, Sendable {
    /// The ratio times 2^24.
    public var raw: Int64
    public static let fractionBits: Int64 = 24
    public static let one = ScaleFactor(raw: 1 << 24)

    /// - Precondition: `raw > 0`.
    public init(raw: Int64) {
        precondition(raw > 0, "a scale must be positive")
        self.raw = raw
    }

    /// Product of two ratios, rounded to nearest.
    public static func * (a: ScaleFactor, b: ScaleFactor) -> ScaleFactor {
        ScaleFactor(raw: max(1, shiftRounded(a.raw * b.raw, 24)))
    }

    /// A length scaled by this ratio, rounded to nearest.
    public func apply(_ v: Fixed) -> Fixed {
        // In 128 bits: a million pixels (2^36 in 16.16) times a scale of 64 (2^30) overflows 64.
        Fixed(raw: Int64(truncatingIfNeeded: (Int128(v.raw) * Int128(raw) + (1 << 23)) >> 24))
    }
}

/// A point in 16.16 fixed point.
public struct Point: Hashable, Sendable {
    public var x: Fixed
    public var y: Fixed
    public init(x: Fixed, y: Fixed) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(x: .zero, y: .zero)
}

/// `v / 2^n` rounded to nearest, halves towards +infinity (the `.nearest` rule).
@inline(__always)
func shiftRounded(_ v: Int64, _ n: Int64) -> Int64 {
    (v + (1 << (n - 1))) >> n
}

/// `n / d` rounded to nearest, halves towards +infinity; `d > 0`.
@inline(__always)
func roundedDivide(_ n: Int64, _ d: Int64) -> Int64 {
    let q = n / d
    let r = n - q * d
    // Floor first, then round the remainder: the same rule on both sides of zero.
    let (fq, fr) = r < 0 ? (q - 1, r + d) : (q, r)
    return 2 * fr >= d ? fq + 1 : fq
}

/// Integer square root: the largest `r` with `r * r <= v`; `v >= 0`.
///
/// Digit by digit in base 4, with shifts, adds and compares: no division,
/// which 32-bit ARM does in software (`__udivmoddi4`). In 32 bits when `v`
/// fits (most calls: radii, chord lengths). The floor of the root is
/// unique, so any exact method gives these values.
func integerSquareRoot(_ v: Int64) -> Int64 {
    if v < 2 { return max(v, 0) }
    if v <= Int64(UInt32.max) { return Int64(floorSquareRoot(UInt32(truncatingIfNeeded: v))) }
    return Int64(floorSquareRoot(UInt64(v)))
}

/// The largest `r` with `r * r <= v`, `v >= 2`, in `T`'s width.
@inline(__always)
private func floorSquareRoot<T: FixedWidthInteger & UnsignedInteger>(_ v: T) -> T {
    var rest = v
    var root: T = 0
    // The highest power of 4 not above v.
    var bit = T(1) << ((T.bitWidth - 1 - v.leadingZeroBitCount) & ~1)
    while bit != 0 {
        if rest >= root &+ bit {
            rest &-= root &+ bit
            root = root >> 1 &+ bit
        } else {
            root >>= 1
        }
        bit >>= 2
    }
    return root
}
