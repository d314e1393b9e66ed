import FBRaster
import Foundation

// An independent reference renderer for the four loaders, written straight
// from shared/spec/loaders.md in Double precision, sharing no code with
// FBRaster/FBAnimation. Slow but simple:
// - geometry as analytic shapes with signed distances (RefShapes.swift):
//   annuli, discs, wedges, stroked capsules, unions and intersections, and
//   the heart as a finely flattened polygon;
// - pixel-area coverage: exact for pixels wholly in or out (by the signed
//   distance), measured on 32 sub-lines across the edge with analytic
//   crossings elsewhere (RefCanvas.coverage), exact clipped areas for
//   polygons; the radar sweep's alpha integrated over the pixel (RefPaints);
// - each shape (a union of its parts) composited once, premultiplied
//   source-over in sRGB values, in Double; alphas as the spec writes them
//   (0.3, 0.5), colours mixed in Double, rounded to 8 bits only at the end.
// Checked against brute force in ReferenceBruteForceTests (about 1e-3 of a
// pixel) and against hand-worked values in ReferenceSelfTests.

/// A frame in Double precision: RGB, 0...255 per channel, row-major.
public struct RefImage: Sendable {
    public let width: Int
    public let height: Int
    public var values: [Double]

    /// Packed 8-bit RGB, each channel rounded to nearest.
    public func rgb8() -> [UInt8] {
        values.map { UInt8(max(0, min(255, $0.rounded()))) }
    }
}

/// What to draw: the same knobs as `fbanim render`.
public struct RefParams: Sendable {
    /// "ring", "radar", "spinner" or "orbit".
    public var loader: String
    public var width: Int
    public var height: Int
    public var time: Double
    public var scale: Double
    /// Replaces the main colour's RGB (ring: progress arc, radar: border and
    /// sweep, orbit: hearts, spinner: the "current" colour); alpha of the spec kept.
    public var color: Color?
    public var background: Color
    /// Clockwise rotation of the whole picture about the frame centre: 0, 90, 180, 270.
    public var rotation: Int
    /// The ring's progress driven from outside (-1...1, negative
    /// counter-clockwise) instead of its clock.
    public var progress: Double?

    public init(
        loader: String, width: Int, height: Int, time: Double, scale: Double = 1,
        color: Color? = nil, background: Color = .black, rotation: Int = 0,
        progress: Double? = nil
    ) {
        self.progress = progress
        self.loader = loader
        self.width = width
        self.height = height
        self.time = time
        self.scale = scale
        self.color = color
        self.background = background
        self.rotation = rotation
    }
}

/// A straight (not premultiplied) colour: RGB 0...255, alpha 0...1.
public struct RefPaint: Sendable {
    public var r: Double, g: Double, b: Double, a: Double

    public init(rgb: UInt32, alpha: Double = 1) {
        r = Double((rgb >> 16) & 0xFF)
        g = Double((rgb >> 8) & 0xFF)
        b = Double(rgb & 0xFF)
        a = alpha
    }

    public init(_ c: Color, alpha: Double) {
        self.init(rgb: c.rgb, alpha: alpha)
    }

    public init(r: Double, g: Double, b: Double, a: Double) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
}

public enum ReferenceRenderer {
    /// The radius (pixels, from the loader's centre) that holds everything the
    /// loader can draw at this scale.
    public static func extentRadius(loader: String, scale s: Double) -> Double {
        switch loader {
        case "ring": return 90 * s
        case "radar": return 100 * s
        case "spinner": return ((40.0 * 40 + 85 * 85).squareRoot() + 14) * s
        case "orbit":
            let heart = RefHeart.polygon(cx: 0, cy: 0, width: 24, perCurve: 64)
            let reach = heart.map { ($0.0 * $0.0 + $0.1 * $0.1).squareRoot() }.max() ?? 0
            return (100 + reach) * s
        default: preconditionFailure("unknown loader \(loader)")
        }
    }

    public static func render(_ p: RefParams) -> RefImage {
        var canvas = RefCanvas(
            width: p.width, height: p.height, rotation: p.rotation, background: p.background)
        let s = p.scale
        let t = p.time
        switch p.loader {
        case "ring":
            canvas.fill(.annulus(r0: 74 * s, r1: 90 * s), RefPaint(rgb: 0xEBEBF5, alpha: 0.3))
            let progress = p.progress ?? RefTiming.ringProgress(t)
            if progress != 0 {
                let start = -Double.pi / 2
                let end = start + 2 * Double.pi * progress
                // A counter-clockwise arc is the clockwise one from its end.
                let from = min(start, end)
                let arc = RefShape.union([
                    .intersection(
                        .annulus(r0: 74 * s, r1: 90 * s),
                        .wedge(start: from, sweep: 2 * Double.pi * abs(progress))),
                    .disc(cx: 82 * s * cos(start), cy: 82 * s * sin(start), r: 8 * s),
                    .disc(cx: 82 * s * cos(end), cy: 82 * s * sin(end), r: 8 * s),
                ])
                canvas.fill(arc, main(p, RefPaint(rgb: 0xFF2F92, alpha: 0.5)))
            }
        case "radar":
            let paint = main(p, RefPaint(rgb: 0x34C759))
            canvas.fill(.annulus(r0: 98 * s, r1: 100 * s), paint)
            canvas.sweep(
                radius: 100 * s, edgeDegrees: RefTiming.radarAngleDegrees(t), paint: paint)
        case "orbit":
            canvas.fill(.annulus(r0: 99 * s, r1: 101 * s), RefPaint(rgb: 0x5856D6))
            let paint = main(p, RefPaint(rgb: 0xFF9500))
            for period in [5.0, 2.0] {
                let angle = RefTiming.orbitAngleDegrees(t, period: period) * Double.pi / 180
                let heart = RefHeart.polygon(
                    cx: 100 * s * cos(angle), cy: 100 * s * sin(angle), width: 24 * s,
                    perCurve: 64 * max(1, Int(s.rounded(.up))))
                canvas.fillPolygon(heart, paint)
            }
        case "spinner":
            let rest = RefPaint(rgb: 0x8E8E93)
            let current = main(p, RefPaint(rgb: 0xFFFFFF))
            for i in 0..<12 {
                let m = RefTiming.spinnerMix(leaf: i, at: t)
                canvas.fill(leaf(i, mix: m, scale: s), mixPaint(rest, current, m))
            }
        default:
            preconditionFailure("unknown loader \(p.loader)")
        }
        return RefImage(width: p.width, height: p.height, values: canvas.values)
    }

    /// The spec's colour, its RGB replaced by the user's main colour if any.
    static func main(_ p: RefParams, _ spec: RefPaint) -> RefPaint {
        guard let c = p.color else { return spec }
        return RefPaint(c, alpha: spec.a)
    }

    static func mixPaint(_ a: RefPaint, _ b: RefPaint, _ m: Double) -> RefPaint {
        RefPaint(
            r: a.r + m * (b.r - a.r), g: a.g + m * (b.g - a.g), b: a.b + m * (b.b - a.b),
            a: a.a + m * (b.a - a.a))
    }

    /// Leaf i: a 20 x 50 capsule (segment (0, -15)-(0, 15), radius 10) stroked
    /// 8 wide, moved by the mixed offset, scaled about the centre by the mixed
    /// scale, rotated by 30 i degrees; then everything times the global scale.
    static func leaf(_ i: Int, mix m: Double, scale s: Double) -> RefShape {
        let ox = 40 + m * (10 - 40)
        let oy = 70 + m * (0 - 70)
        let k = 1 + m * (0.5 - 1)
        let angle = Double(30 * i) * Double.pi / 180
        func place(_ x: Double, _ y: Double) -> (Double, Double) {
            let sx = (x + ox) * k
            let sy = (y + oy) * k
            return (
                s * (sx * cos(angle) - sy * sin(angle)), s * (sx * sin(angle) + sy * cos(angle))
            )
        }
        let a = place(0, -15)
        let b = place(0, 15)
        return .capsuleStroke(
            ax: a.0, ay: a.1, bx: b.0, by: b.1, mid: 10 * k * s, half: 4 * k * s)
    }
}
