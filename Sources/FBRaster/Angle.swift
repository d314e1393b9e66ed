/// A direction as a fraction of a turn: 2^32 units a turn, 0 pointing right
/// (+x), growing clockwise on screen (y points down), as in SwiftUI.
///
/// Arithmetic wraps, so `(phi - theta)` is already `mod 360`. One unit is
/// 8.4e-8 degrees: an arc of radius 6400 px steps by 1e-5 px.
public struct Angle: Hashable, Sendable {
    public var raw: UInt32
    public init(raw: UInt32) { self.raw = raw }

    public static let zero = Angle(raw: 0)
    /// A quarter turn clockwise: 6 o'clock from 3 o'clock.
    public static let quarterTurn = Angle(raw: 1 << 30)
    public static let halfTurn = Angle(raw: 1 << 31)

    /// `degrees` exactly when it is a whole multiple of 360/2^32 (so 90, 30, -90...).
    public init(wholeDegrees degrees: Int) {
        let m = ((Int64(degrees) % 360) + 360) % 360
        raw = UInt32(truncatingIfNeeded: roundedDivide(m << 32, 360))
    }

    public static func + (a: Angle, b: Angle) -> Angle { Angle(raw: a.raw &+ b.raw) }
    public static func - (a: Angle, b: Angle) -> Angle { Angle(raw: a.raw &- b.raw) }
    public static func + (a: Angle, s: AngleSpan) -> Angle {
        Angle(raw: a.raw &+ UInt32(truncatingIfNeeded: s.raw))
    }

    /// cos and sin of the angle in Q30 (1.0 = 2^30).
    @inline(__always)
    public var cosSinQ30: (cos: Int64, sin: Int64) {
        (Angle(raw: raw &+ (1 << 30)).sinQ30, sinQ30)
    }

    /// sin of the angle in Q30: a quarter-wave table of 1024 steps, interpolated.
    public var sinQ30: Int64 {
        let quadrant = raw >> 30
        var inQuarter = raw & 0x3FFF_FFFF
        // Second and fourth quadrants run the table backwards.
        if quadrant & 1 == 1 { inQuarter = (1 << 30) - inQuarter }
        let index = Int(inQuarter >> 20)
        let fraction = Int64(inQuarter & 0xF_FFFF)
        let a = Int64(sineQuarterTableQ30[index])
        let v: Int64
        if index == 1024 {
            v = a
        } else {
            let b = Int64(sineQuarterTableQ30[index + 1])
            v = a + shiftRounded((b - a) * fraction, 20)
        }
        return quadrant >= 2 ? -v : v
    }

    /// The direction from the origin to `(dx, dy)` (any units; not both 0).
    ///
    /// Octant reduction to a ratio in 0...1 (Q24), then a 257-entry table of
    /// atan interpolated linearly: error below 2e-6 rad (0.02 of 1/65536 turn
    /// from the table, plus the ratio's rounding).
    public static func direction(dx: Int64, dy: Int64) -> Angle {
        var ax = dx.magnitude
        var ay = dy.magnitude
        if ax == 0 && ay == 0 { return .zero }
        // Keep `<< 24` inside 64 bits; only far-away points need it.
        while (ax | ay) >= 1 << 39 {
            ax >>= 1
            ay >>= 1
        }
        var base: UInt32
        if ay <= ax {
            base = atanTurns(ratioQ24: (ay << 24) / ax)
        } else {
            base = (1 << 30) - atanTurns(ratioQ24: (ax << 24) / ay)
        }
        if dx < 0 { base = (1 << 31) &- base }
        if dy < 0 { base = 0 &- base }
        return Angle(raw: base)
    }

    /// atan(z) in 2^-32 turns for z in 0...1 given in Q24.
    @inline(__always)
    static func atanTurns(ratioQ24 z: UInt64) -> UInt32 {
        let index = Int(z >> 16)
        if index >= 256 { return arctangentTableTurns[256] }
        let fraction = UInt64(z & 0xFFFF)
        let a = arctangentTableTurns[index]
        let b = arctangentTableTurns[index + 1]
        return a + UInt32((UInt64(b - a) * fraction + 0x8000) >> 16)
    }
}

/// A signed sweep of angle, 2^32 units a turn; positive is clockwise.
/// Unlike `Angle` it can hold a whole turn or more.
public struct AngleSpan: Hashable, Comparable, Sendable {
    public var raw: Int64
    public init(raw: Int64) { self.raw = raw }

    public static let fullTurn = AngleSpan(raw: 1 << 32)
    public static let halfTurn = AngleSpan(raw: 1 << 31)
    public static let zero = AngleSpan(raw: 0)
    public static func < (a: AngleSpan, b: AngleSpan) -> Bool { a.raw < b.raw }
    public static prefix func - (a: AngleSpan) -> AngleSpan { AngleSpan(raw: -a.raw) }
}
