// An independent, slow, floating-point description of the shapes, written
// from their definitions in Shape.swift, and the supersampler that turns it
// into exact-as-possible pixel coverage.
//
// Shapes are boolean combinations of discs and half-planes, in device space.
// Their intersection with a horizontal line is a union of intervals, computed
// exactly (a square root for a disc, a division for a half-plane). Coverage of
// a pixel is the mean, over N horizontal lines through it (the midpoints of N
// equal bands), of the length of those intervals inside the pixel: exact in x,
// a midpoint rule in y.
//
// Error of that estimate: for a straight edge the covered length is piecewise
// linear in y, which the midpoint rule integrates exactly except across a
// kink; the worst case is an edge parallel to the lines, where each band is
// all in or all out and the error is at most half a band, 1/(2N) of a pixel.
// Curved edges (round boundaries have no straight horizontal parts) do far
// better. With N = 256 the bound is 1/512 px, i.e. 0.5/255.

import Foundation

@testable import FBRaster

/// A union of disjoint closed intervals on a line, sorted.
struct Intervals {
    var spans: [(lo: Double, hi: Double)]

    static let empty = Intervals(spans: [])
    static let all = Intervals(spans: [(-Double.infinity, Double.infinity)])

    init(spans: [(lo: Double, hi: Double)]) { self.spans = spans }
    init(_ lo: Double, _ hi: Double) { spans = lo < hi ? [(lo, hi)] : [] }

    func union(_ o: Intervals) -> Intervals {
        if spans.isEmpty { return o }
        if o.spans.isEmpty { return self }
        var all = spans + o.spans
        all.sort { $0.lo < $1.lo }
        var out: [(lo: Double, hi: Double)] = []
        for s in all {
            if let last = out.last, s.lo <= last.hi {
                out[out.count - 1].hi = max(last.hi, s.hi)
            } else {
                out.append(s)
            }
        }
        return Intervals(spans: out)
    }

    func intersection(_ o: Intervals) -> Intervals {
        var out: [(lo: Double, hi: Double)] = []
        var i = 0
        var j = 0
        while i < spans.count && j < o.spans.count {
            let lo = max(spans[i].lo, o.spans[j].lo)
            let hi = min(spans[i].hi, o.spans[j].hi)
            if lo < hi { out.append((lo, hi)) }
            if spans[i].hi < o.spans[j].hi { i += 1 } else { j += 1 }
        }
        return Intervals(spans: out)
    }

    func complement() -> Intervals {
        var out: [(lo: Double, hi: Double)] = []
        var from = -Double.infinity
        for s in spans {
            if s.lo > from { out.append((from, s.lo)) }
            from = s.hi
        }
        if from < Double.infinity { out.append((from, Double.infinity)) }
        return Intervals(spans: out)
    }

    func subtracting(_ o: Intervals) -> Intervals { intersection(o.complement()) }
}

/// A region of the device plane (x right, y down), as booleans of discs and half-planes.
indirect enum Region {
    case disc(cx: Double, cy: Double, r: Double)
    /// The points with `nx * x + ny * y <= d`.
    case halfPlane(nx: Double, ny: Double, d: Double)
    case everything
    case nothing
    case union([Region])
    case intersection([Region])
    case difference(Region, Region)

    /// The region's intersection with the line at height `y`.
    func intervals(y: Double) -> Intervals {
        switch self {
        case let .disc(cx, cy, r):
            let dy = y - cy
            let q = r * r - dy * dy
            if q <= 0 { return .empty }
            let h = q.squareRoot()
            return Intervals(cx - h, cx + h)
        case let .halfPlane(nx, ny, d):
            let rest = d - ny * y
            if abs(nx) < 1e-12 { return rest >= 0 ? .all : .empty }
            let x = rest / nx
            return nx > 0 ? Intervals(-.infinity, x) : Intervals(x, .infinity)
        case .everything: return .all
        case .nothing: return .empty
        case let .union(parts):
            var acc = Intervals.empty
            for p in parts { acc = acc.union(p.intervals(y: y)) }
            return acc
        case let .intersection(parts):
            var acc = Intervals.all
            for p in parts {
                acc = acc.intersection(p.intervals(y: y))
                if acc.spans.isEmpty { break }
            }
            return acc
        case let .difference(a, b):
            let ia = a.intervals(y: y)
            if ia.spans.isEmpty { return ia }
            return ia.subtracting(b.intervals(y: y))
        }
    }

    /// Is the point inside? (for point sampling where a paint varies)
    func contains(_ x: Double, _ y: Double) -> Bool {
        switch self {
        case let .disc(cx, cy, r): return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r
        case let .halfPlane(nx, ny, d): return nx * x + ny * y <= d
        case .everything: return true
        case .nothing: return false
        case let .union(parts): return parts.contains { $0.contains(x, y) }
        case let .intersection(parts): return parts.allSatisfy { $0.contains(x, y) }
        case let .difference(a, b): return a.contains(x, y) && !b.contains(x, y)
        }
    }
}

// MARK: The shapes of Shape.swift, from their definitions

enum Reference {
    /// The points whose direction from `(cx, cy)` lies in `[start, start + sweep]`,
    /// clockwise on screen (angles grow from +x towards +y). |sweep| >= 2 pi: everything.
    static func wedge(cx: Double, cy: Double, start: Double, sweep: Double) -> Region {
        if abs(sweep) >= 2 * Double.pi { return .everything }
        if sweep == 0 { return .nothing }
        let a0 = sweep > 0 ? start : start + sweep
        let s = abs(sweep)
        let a1 = a0 + s
        // H0: cross(d0, p - c) >= 0 (clockwise of the start ray, within half a turn).
        let h0 = Region.halfPlane(nx: sin(a0), ny: -cos(a0), d: sin(a0) * cx - cos(a0) * cy)
        // H1: cross(p - c, d1) >= 0 (counter-clockwise of the end ray, within half a turn).
        let h1 = Region.halfPlane(nx: -sin(a1), ny: cos(a1), d: -sin(a1) * cx + cos(a1) * cy)
        return s <= Double.pi ? .intersection([h0, h1]) : .union([h0, h1])
    }

    static func annulus(cx: Double, cy: Double, inner: Double, outer: Double) -> Region {
        if outer <= 0 || outer <= inner { return .nothing }
        if inner <= 0 { return .disc(cx: cx, cy: cy, r: outer) }
        return .difference(.disc(cx: cx, cy: cy, r: outer), .disc(cx: cx, cy: cy, r: inner))
    }

    /// A rounded rectangle (corner radius clamped to the half sizes), in its
    /// own frame centred at the origin, placed by `t`.
    static func roundedBox(
        _ t: DoubleTransform, cx: Double, cy: Double, hw: Double, hh: Double, r: Double
    )
        -> Region
    {
        if hw <= 0 || hh <= 0 { return .nothing }
        let r = max(0, min(r, hw, hh))
        // Half-plane in local coordinates n . p <= d, mapped to device space:
        // p = R^T (p' - t) / s  =>  (R n) . p' <= s d + (R n) . t.
        func half(_ nx: Double, _ ny: Double, _ d: Double) -> Region {
            let rx = t.cos * nx - t.sin * ny
            let ry = t.sin * nx + t.cos * ny
            return .halfPlane(nx: rx, ny: ry, d: t.scale * d + rx * t.tx + ry * t.ty)
        }
        func rect(_ w: Double, _ h: Double) -> Region {
            .intersection([
                half(1, 0, cx + w), half(-1, 0, -(cx - w)), half(0, 1, cy + h),
                half(0, -1, -(cy - h)),
            ])
        }
        var parts = [rect(hw, hh - r), rect(hw - r, hh)]
        if r > 0 {
            for (sx, sy) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
                let c = t.apply(cx + sx * (hw - r), cy + sy * (hh - r))
                parts.append(.disc(cx: c.x, cy: c.y, r: t.scale * r))
            }
        }
        return .union(parts)
    }
}

/// Exact-in-x, midpoint-in-y coverage (0...1) of a region over a `width x height` grid.
/// `intervals(y)` gives the region's intersection with the line at `y`.
func referenceCoverage(
    width: Int, height: Int, bandsPerPixel n: Int = 256, intervals: (Double) -> Intervals
) -> [Double] {
    var coverage = [Double](repeating: 0, count: width * height)
    let weight = 1 / Double(n)
    for row in 0..<height {
        for k in 0..<n {
            let y = Double(row) + (Double(k) + 0.5) * weight
            for s in intervals(y).spans {
                let lo = max(s.lo, 0)
                let hi = min(s.hi, Double(width))
                if lo >= hi { continue }
                var x = Int(lo.rounded(.down))
                while Double(x) < hi && x < width {
                    let a = max(lo, Double(x))
                    let b = min(hi, Double(x + 1))
                    if b > a { coverage[row * width + x] += (b - a) * weight }
                    x += 1
                }
            }
        }
    }
    return coverage
}

/// A closed polyline filled with the nonzero rule, for paths (the heart):
/// cubics are cut into many chords in Double, far finer than the rasterizer's
/// (512 chords of a 90 px heart's cubic are ~0.1 px long and stray from the
/// curve by ~1e-4 px, 0.03/255).
struct ReferencePolygon {
    /// Segments (x0, y0, x1, y1) in device space.
    var segments: [(Double, Double, Double, Double)] = []
    /// Per pixel row: the segments that reach it.
    private var rows: [[Int]] = []

    /// Adds the contours of `path` placed by `t`, each cubic cut into `chords` pieces.
    init(_ path: FBRasterPathElements, _ t: DoubleTransform, chords: Int = 512, height: Int) {
        var contour: [(Double, Double)] = []
        var current = (0.0, 0.0)
        func flush() {
            if contour.count >= 2 {
                for i in contour.indices {
                    let a = contour[i]
                    let b = contour[(i + 1) % contour.count]
                    segments.append((a.0, a.1, b.0, b.1))
                }
            }
            contour.removeAll()
        }
        for e in path {
            switch e {
            case let .move(p):
                flush()
                current = (p.dx, p.dy)
                contour.append(t.apply(current.0, current.1))
            case let .line(p):
                if contour.isEmpty { contour.append(t.apply(current.0, current.1)) }
                current = (p.dx, p.dy)
                contour.append(t.apply(current.0, current.1))
            case let .cubic(c1, c2, end):
                if contour.isEmpty { contour.append(t.apply(current.0, current.1)) }
                let p0 = current
                let p1 = (c1.dx, c1.dy)
                let p2 = (c2.dx, c2.dy)
                let p3 = (end.dx, end.dy)
                for k in 1...chords {
                    let s = Double(k) / Double(chords)
                    let u = 1 - s
                    let w0: Double = u * u * u
                    let w1: Double = 3 * u * u * s
                    let w2: Double = 3 * u * s * s
                    let w3: Double = s * s * s
                    let x: Double = w0 * p0.0 + w1 * p1.0 + w2 * p2.0 + w3 * p3.0
                    let y: Double = w0 * p0.1 + w1 * p1.1 + w2 * p2.1 + w3 * p3.1
                    contour.append(t.apply(x, y))
                }
                current = p3
            case .close:
                flush()
            }
        }
        flush()
        rows = [[Int]](repeating: [], count: max(height, 0))
        for (i, s) in segments.enumerated() {
            let y0 = max(Int(min(s.1, s.3).rounded(.down)), 0)
            let y1 = min(Int(max(s.1, s.3).rounded(.down)), height - 1)
            if y0 <= y1 { for r in y0...y1 { rows[r].append(i) } }
        }
    }

    /// Nonzero-winding intervals on the line at height `y`.
    func intervals(y: Double) -> Intervals {
        let row = Int(y.rounded(.down))
        guard row >= 0 && row < rows.count else { return .empty }
        var crossings: [(x: Double, dir: Int)] = []
        for i in rows[row] {
            let (x0, y0, x1, y1) = segments[i]
            if (y0 <= y && y < y1) || (y1 <= y && y < y0) {
                crossings.append((x0 + (y - y0) * (x1 - x0) / (y1 - y0), y1 > y0 ? 1 : -1))
            }
        }
        crossings.sort { $0.x < $1.x }
        var spans: [(lo: Double, hi: Double)] = []
        var winding = 0
        var start = 0.0
        for c in crossings {
            let before = winding
            winding += c.dir
            if before == 0 && winding != 0 { start = c.x }
            if before != 0 && winding == 0 && c.x > start { spans.append((start, c.x)) }
        }
        return Intervals(spans: spans)
    }
}

typealias FBRasterPathElements = [FBRaster.Path.Element]
