/// A colour in sRGB with straight (not premultiplied) alpha, 8 bits a channel.
///
/// Blending happens on sRGB values, as cairo and SwiftUI do by default.
public struct Color: Hashable, Sendable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    /// Opacity: 0 is clear, 255 opaque.
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// An opaque colour from `0xRRGGBB`.
    public init(rgb: UInt32, alpha: UInt8 = 255) {
        self.init(
            r: UInt8(truncatingIfNeeded: rgb >> 16), g: UInt8(truncatingIfNeeded: rgb >> 8),
            b: UInt8(truncatingIfNeeded: rgb), a: alpha)
    }

    /// Parses exactly six hex digits, `RRGGBB` (an optional leading `#`).
    public init?(hex: String) {
        var s = Substring(hex)
        if s.first == "#" { s = s.dropFirst() }
        guard s.utf8.count == 6, let v = UInt32(s, radix: 16), !s.hasPrefix("+"),
            !s.hasPrefix("-")
        else { return nil }
        self.init(rgb: v)
    }

    /// The colour as `0xRRGGBB`, alpha left out.
    public var rgb: UInt32 { UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }

    /// The same colour with another opacity.
    public func withAlpha(_ alpha: UInt8) -> Color { Color(r: r, g: g, b: b, a: alpha) }

    public static let black = Color(rgb: 0x000000)
    public static let white = Color(rgb: 0xFFFFFF)
}
