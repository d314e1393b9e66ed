import Foundation

// Analytic shapes for the reference renderer, in "design space": pixels
// (already multiplied by the scale), origin at the loader's centre, x right,
// y down, angles clockwise from +x (radians here).
//
// Each shape answers a signed distance `sdf(x, y)` that is negative inside
// and never larger in magnitude than the true distance to the boundary
// (exact for the primitives; min/max keep the bound for unions and
// intersections). The renderer uses it to decide that a whole pixel is
// inside or outside (|sdf| > half the pixel diagonal at its centre); every
// pixel closer than that is measured along sub-lines (RefCrossings.swift),
// with membership `sdf <= 0` between boundary crossings.

/// A region of the plane with a conservative signed distance.
public indirect enum RefShape: Sendable {
    /// The ring between radii r0 < r1 around the origin.
    case annulus(r0: Double, r1: Double)
    /// A disc of radius r centred at (cx, cy).
    case disc(cx: Double, cy: Double, r: Double)
    /// Points whose angle lies in [start, start + sweep] (clockwise, radians,
    /// 0 < sweep < 2 pi): the wedge bounded by two rays from the origin.
    case wedge(start: Double, sweep: Double)
    /// Points whose distance d to the segment (ax, ay)-(bx, by) has
    /// |d - mid| <= half: the stroke, centred on its outline, of a capsule of
    /// radius `mid` (a stadium), `half` being half the stroke width.
    case capsuleStroke(ax: Double, ay: Double, bx: Double, by: Double, mid: Double, half: Double)
    case intersection(RefShape, RefShape)
    case union([RefShape])

    public func sdf(_ x: Double, _ y: Double) -> Double {
        switch self {
        case .annulus(let r0, let r1):
            let r = (x * x + y * y).squareRoot()
            return abs(r - (r0 + r1) / 2) - (r1 - r0) / 2
        case .disc(let cx, let cy, let r):
            return ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() - r
        case .wedge(let start, let sweep):
            let twoPi = 2 * Double.pi
            var rel = (atan2(y, x) - start).truncatingRemainder(dividingBy: twoPi)
            if rel < 0 { rel += twoPi }
            let d = min(
                RefShape.distanceToRay(x, y, angle: start),
                RefShape.distanceToRay(x, y, angle: start + sweep))
            return rel <= sweep ? -d : d
        case .capsuleStroke(let ax, let ay, let bx, let by, let mid, let half):
            let d = RefShape.distanceToSegment(x, y, ax, ay, bx, by)
            return abs(d - mid) - half
        case .intersection(let a, let b):
            return max(a.sdf(x, y), b.sdf(x, y))
        case .union(let parts):
            var d = Double.infinity
            for p in parts { d = min(d, p.sdf(x, y)) }
            return d
        }
    }

    /// A box (minX, minY, maxX, maxY) holding the shape; `nil` if unbounded.
    public var bounds: (Double, Double, Double, Double)? {
        switch self {
        case .annulus(_, let r1): return (-r1, -r1, r1, r1)
        case .disc(let cx, let cy, let r): return (cx - r, cy - r, cx + r, cy + r)
        case .wedge: return nil
        case .capsuleStroke(let ax, let ay, let bx, let by, let mid, let half):
            let e = mid + half
            return (min(ax, bx) - e, min(ay, by) - e, max(ax, bx) + e, max(ay, by) + e)
        case .intersection(let a, let b):
            guard let p = a.bounds else { return b.bounds }
            guard let q = b.bounds else { return p }
            return (max(p.0, q.0), max(p.1, q.1), min(p.2, q.2), min(p.3, q.3))
        case .union(let parts):
            var box: (Double, Double, Double, Double)? = nil
            for part in parts {
                guard let q = part.bounds else { return nil }
                if let p = box {
                    box = (min(p.0, q.0), min(p.1, q.1), max(p.2, q.2), max(p.3, q.3))
                } else {
                    box = q
                }
            }
            return box
        }
    }

    /// Distance from (x, y) to the ray from the origin at `angle`.
    static func distanceToRay(_ x: Double, _ y: Double, angle: Double) -> Double {
        let dx = cos(angle)
        let dy = sin(angle)
        let along = x * dx + y * dy
        if along <= 0 { return (x * x + y * y).squareRoot() }
        return abs(x * dy - y * dx)
    }

    static func distanceToSegment(
        _ x: Double, _ y: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
    ) -> Double {
        let vx = bx - ax
        let vy = by - ay
        let len2 = vx * vx + vy * vy
        var s = len2 > 0 ? ((x - ax) * vx + (y - ay) * vy) / len2 : 0
        s = min(1, max(0, s))
        let px = ax + s * vx - x
        let py = ay + s * vy - y
        return (px * px + py * py).squareRoot()
    }
}

/// The spec's heart outline as a fine closed polygon.
public enum RefHeart {
    /// The six cubic Béziers of the spec, offsets in units of k from the heart's centre.
    static let start = (0.0, 0.9)
    static let curves: [((Double, Double), (Double, Double), (Double, Double))] = [
        ((-0.2, 0.7), (-1, 0.2), (-1, -0.35)),
        ((-1, -0.8), (-0.55, -0.95), (-0.5, -0.95)),
        ((-0.25, -0.95), (-0.05, -0.8), (0, -0.55)),
        ((0.05, -0.8), (0.25, -0.95), (0.5, -0.95)),
        ((0.55, -0.95), (1, -0.8), (1, -0.35)),
        ((1, 0.2), (0.2, 0.7), (0, 0.9)),
    ]

    /// The outline of a heart of width `w` centred at (cx, cy), flattened with
    /// `perCurve` chords per Bézier (chord error about 2e-3 px for w = 24 at
    /// 64 chords, and it shrinks with the square of the chord count).
    public static func polygon(
        cx: Double, cy: Double, width w: Double, perCurve: Int
    ) -> [(Double, Double)] {
        let k = w / 2
        var points: [(Double, Double)] = [(cx + start.0 * k, cy + start.1 * k)]
        var p0 = start
        for (c1, c2, p3) in curves {
            for step in 1...perCurve {
                let s = Double(step) / Double(perCurve)
                let r = 1 - s
                let b0 = r * r * r
                let b1 = 3 * r * r * s
                let b2 = 3 * r * s * s
                let b3 = s * s * s
                let x = b0 * p0.0 + b1 * c1.0 + b2 * c2.0 + b3 * p3.0
                let y = b0 * p0.1 + b1 * c1.1 + b2 * c2.1 + b3 * p3.1
                points.append((cx + x * k, cy + y * k))
            }
            p0 = p3
        }
        points.removeLast()  // the last end point is the start point: closed
        return points
    }
}
