import FBRaster

// The one place where the loaders' floating-point geometry becomes the
// rasterizer's fixed point. Every conversion rounds to nearest, halves away
// from zero (`.toNearestOrAwayFromZero`); inputs are finite (callers validate).

extension Fixed {
    /// A length in design points (or pixels) as 16.16.
    init(_ value: Double) { self.init(raw: Int64((value * 65536).rounded())) }
}

extension Point {
    /// The point at `radius` from the origin in direction `angle` (the
    /// rasterizer's fixed-point cosine and sine, so no libm is needed).
    init(polarRadius radius: Double, angle: Angle) {
        let r = Fixed(radius).raw
        let (cos, sin) = angle.cosSinQ30
        self.init(
            x: Fixed(raw: (r * cos + (1 << 29)) >> 30), y: Fixed(raw: (r * sin + (1 << 29)) >> 30))
    }
}

extension Angle {
    /// A direction in degrees (clockwise from +x), any value, wrapped to one turn.
    init(degrees: Double) {
        let turns = degrees / 360
        let fraction = turns - turns.rounded(.down)
        self.init(raw: UInt32(truncatingIfNeeded: Int64((fraction * 4_294_967_296).rounded())))
    }
}

extension AngleSpan {
    /// A signed sweep in degrees (positive clockwise).
    init(degrees: Double) { self.init(raw: Int64((degrees / 360 * 4_294_967_296).rounded())) }
}

extension ScaleFactor {
    /// A positive ratio, at least 2^-24.
    init(_ value: Double) { self.init(raw: max(1, Int64((value * 16_777_216).rounded()))) }
}

extension Color {
    /// The colour with opacity `alpha` (0...1) rounded to 8 bits.
    func withOpacity(_ alpha: Double) -> Color {
        withAlpha(UInt8((min(max(alpha, 0), 1) * 255).rounded()))
    }

    /// The colour `m` of the way (0...1) from `self` to `other`, channel by channel.
    func mixed(with other: Color, by m: Double) -> Color {
        func lerp(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) + (Double(b) - Double(a)) * min(max(m, 0), 1)).rounded())
        }
        return Color(
            r: lerp(r, other.r), g: lerp(g, other.g), b: lerp(b, other.b), a: lerp(a, other.a))
    }
}
