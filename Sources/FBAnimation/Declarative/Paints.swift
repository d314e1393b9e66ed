import FBRaster

/// What a shape is painted with (SwiftUI: `ShapeStyle`): a `Color`, an
/// `AngularGradient` or a `LinearGradient`.
public protocol ShapeStyle: Sendable {
    /// The paint with its opacity multiplied by `opacity` (0...1), or `nil`
    /// when nothing shows.
    func resolve(opacity: Double) -> ResolvedPaint?
    /// The paint for `shape`, whose frame (`LoaderShape.frameBounds`) is
    /// what `UnitPoint`s are relative to. The default ignores the shape:
    /// `resolve(opacity:)`.
    func resolve<S: LoaderShape>(opacity: Double, for shape: S) -> ResolvedPaint?
}

extension ShapeStyle {
    /// `resolve(opacity:)`: most paints do not depend on the shape (nor
    /// work out its frame).
    public func resolve<S: LoaderShape>(opacity: Double, for shape: S) -> ResolvedPaint? {
        resolve(opacity: opacity)
    }
}

/// A paint ready for the rasterizer, in the shape's own coordinates.
public struct ResolvedPaint: Sendable {
    /// The paint before a circle's turn is added to its angles.
    public var paint: Paint
    /// The only directions it shows in (clear elsewhere), `nil`: everywhere.
    public var visible: AngularRange?

    /// See the properties.
    public init(paint: Paint, visible: AngularRange? = nil) {
        self.paint = paint
        self.visible = visible
    }

    /// The paint turned by `turn` about the shape's centre.
    func paint(turn: Angle) -> Paint {
        guard turn != .zero else { return paint }
        switch paint {
        case .solid: return paint
        case .sweep(var g):
            g.start = g.start + turn
            return .sweep(g)
        case .linear(var ramp):
            let rotation = Transform.rotation(turn)
            ramp.start = rotation.apply(ramp.start)
            ramp.end = rotation.apply(ramp.end)
            return .linear(ramp)
        }
    }
}

extension Color: ShapeStyle {
    /// The colour, its alpha multiplied by `opacity`; `nil` when clear.
    public func resolve(opacity: Double) -> ResolvedPaint? {
        let c = opacity == 1 ? self : self.opacity(opacity)
        return c.a == 0 ? nil : ResolvedPaint(paint: .solid(c))
    }

    /// Fully transparent.
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)

    /// A colour from channels in `0...1` (clamped), rounded to 8 bits.
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        func byte(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        self.init(r: byte(red), g: byte(green), b: byte(blue), a: byte(opacity))
    }

    /// The colour with its alpha multiplied by `opacity` (clamped to `0...1`), rounded.
    public func opacity(_ opacity: Double) -> Color {
        withAlpha(UInt8((Double(a) * min(max(opacity, 0), 1)).rounded()))
    }

    /// The colour `fraction` (`0...1`, clamped) of the way to `other`, channel
    /// by channel, alpha too (SwiftUI: `Color.mix(with:by:)`, in sRGB).
    public func mix(with other: Color, by fraction: Double) -> Color {
        mixed(with: other, by: fraction)
    }
}

/// A colour whose opacity changes with the direction around the shape's
/// centre (SwiftUI: `AngularGradient(colors:center:angle:)` with its
/// centre at the shape's centre).
///
/// The rasterizer draws one linear ramp of one colour's opacity exactly,
/// in premultiplied alpha, so the colours must all be one colour or
/// `.clear`, and either: one colour (a solid paint); two stops (a ramp
/// over the whole turn from `angle`); or `.clear` stops then one colour
/// (clear, then a ramp from clear to it over the last of the turn, as a
/// radar's sweep), which fills circles only: they draw just the ramp's
/// sector, so its leading edge is hard and exactly covered.
public struct AngularGradient: ShapeStyle {
    /// How many colours (stops) the gradient has, `>= 1`.
    public let count: Int
    /// The last two colours: the ramp between them is the visible part
    /// (equal for a one-colour gradient).
    /// The last but one colour (the only one for a one-colour gradient).
    public let rampStart: Color
    /// The last colour.
    public let rampEnd: Color
    /// Where the first colour is; the stops follow clockwise, evenly spaced.
    public var angle: Angle

    /// - Precondition: `colors` as the type describes.
    public init(colors: [Color], angle: Angle = .zero) {
        precondition(!colors.isEmpty, "a gradient needs a colour")
        var rgb: UInt32?
        for (i, c) in colors.enumerated() where c.a != 0 {
            precondition(rgb == nil || rgb == c.rgb, "an angular gradient fades one colour")
            precondition(
                colors.count <= 2 || i == colors.count - 1,
                "an angular gradient of more than two stops is clear stops then a colour")
            rgb = c.rgb
        }
        count = colors.count
        rampStart = colors.count == 1 ? colors[0] : colors[colors.count - 2]
        rampEnd = colors[colors.count - 1]
        self.angle = angle
    }

    /// The ramp as the rasterizer's sweep paint (a solid colour for one colour).
    public func resolve(opacity: Double) -> ResolvedPaint? {
        if count == 1 { return rampEnd.resolve(opacity: opacity) }
        let first = rampStart.opacity(opacity)
        let last = rampEnd.opacity(opacity)
        if first.a == 0 && last.a == 0 { return nil }
        let base = first.a == 0 ? last : first
        // The ramp spans the last of the count - 1 gaps between stops.
        let sweep = AngleSpan(raw: AngleSpan.fullTurn.raw / Int64(count - 1))
        let start = angle + AngleSpan(raw: AngleSpan.fullTurn.raw - sweep.raw)
        let gradient = SweepGradient(
            center: .zero, start: start, sweep: sweep, color: base.withAlpha(255),
            startAlpha: first.a, endAlpha: last.a)
        return ResolvedPaint(
            paint: .sweep(gradient),
            visible: count > 2 ? AngularRange(start: start, sweep: sweep) : nil)
    }
}

// `.white`, `.black` and `.clear` where a paint is expected, as in SwiftUI
// (`.stroke(.white, lineWidth: 2)`).
extension ShapeStyle where Self == Color {
    /// White, opaque.
    public static var white: Color { Color(rgb: 0xFFFFFF) }
    /// Black, opaque.
    public static var black: Color { Color(rgb: 0x000000) }
    /// Fully transparent.
    public static var clear: Color { Color(r: 0, g: 0, b: 0, a: 0) }
}
