import Foundation

// The reference renderer's two non-SDF paints: the radar's angular sweep
// (alpha varies over the pixel) and filled polygons (the hearts).

extension RefCanvas {
    /// The radar sweep's alpha at design point (x, y): 0 outside the disc of
    /// radius r; inside, with u = ((phi - theta) mod 360) / 360 in [0, 1),
    /// max(0, (u - 0.5) / 0.5).
    public static func sweepAlpha(_ x: Double, _ y: Double, radius: Double, edge theta: Double)
        -> Double
    {
        if x * x + y * y > radius * radius { return 0 }
        let phi = atan2(y, x) * 180 / Double.pi
        var u = (phi - theta).truncatingRemainder(dividingBy: 360)
        if u < 0 { u += 360 }
        u /= 360
        if u >= 1 { u = 0 }
        return max(0, (u - 0.5) / 0.5)
    }

    /// Composites the radar sweep, clipped to the disc of `radius`, with the
    /// leading edge at `edgeDegrees`; a pixel's alpha is its area average.
    ///
    /// - Pixels near the disc's rim, the hard edge, the ray where the ramp
    ///   starts (u = 0.5) or within 8 px of the centre: 32 sub-lines (across
    ///   the hard edge, else across the rim), each cut at every point where
    ///   alpha jumps or kinks and integrated piecewise with 4-point
    ///   Gauss-Legendre on halves: exact to ~1e-6 along the line.
    /// - The four or so pixels at the very centre, where alpha turns through
    ///   every value: the mean of a 64x64 grid.
    /// - Elsewhere the value at the pixel centre, which is the area average
    ///   to ~1e-6 (alpha is linear in the angle, the angle is harmonic, so
    ///   the second-order term of the average vanishes and the fourth-order
    ///   one is below 1e-5 at 8 px from the centre).
    public mutating func sweep(radius: Double, edgeDegrees theta: Double, paint: RefPaint) {
        let (x0, y0, x1, y1) = pixelRange((-radius, -radius, radius, radius))
        if x0 >= x1 || y0 >= y1 { return }
        let h = RefCanvas.halfDiagonal
        let edge = theta * Double.pi / 180
        let kink = edge + Double.pi
        for y in y0..<y1 {
            for x in x0..<x1 {
                let c = toDesign(Double(x) + 0.5, Double(y) + 0.5)
                let r = (c.0 * c.0 + c.1 * c.1).squareRoot()
                if r - radius >= h { continue }
                let nearEdge = RefShape.distanceToRay(c.0, c.1, angle: edge) < h
                let nearRim = abs(r - radius) < h
                let near =
                    nearEdge || nearRim || r < 8
                    || RefShape.distanceToRay(c.0, c.1, angle: kink) < h
                let alpha: Double
                if r < 1.5 {
                    alpha = sweepGridAverage(x, y, radius: radius, theta: theta)
                } else if near {
                    // Lines across the hard edge, else across the rim.
                    let normal = nearEdge ? (-sin(edge), cos(edge)) : (c.0, c.1)
                    let vertical = abs(normal.1) > abs(normal.0)
                    alpha = sweepLineAverage(
                        x, y, vertical: vertical, radius: radius, theta: theta)
                } else {
                    alpha = RefCanvas.sweepAlpha(c.0, c.1, radius: radius, edge: theta)
                }
                blend(x, y, paint, coverage: alpha)
            }
        }
    }

    func sweepGridAverage(_ x: Int, _ y: Int, radius: Double, theta: Double) -> Double {
        let n = 64
        var sum = 0.0
        for j in 0..<n {
            for i in 0..<n {
                let p = toDesign(
                    Double(x) + (Double(i) + 0.5) / Double(n),
                    Double(y) + (Double(j) + 0.5) / Double(n))
                sum += RefCanvas.sweepAlpha(p.0, p.1, radius: radius, edge: theta)
            }
        }
        return sum / Double(n * n)
    }

    func sweepLineAverage(
        _ x: Int, _ y: Int, vertical: Bool, radius: Double, theta: Double
    ) -> Double {
        let nodes = [
            -0.861_136_311_594_052_6, -0.339_981_043_584_856_3,
            0.339_981_043_584_856_3, 0.861_136_311_594_052_6,
        ]
        let weights = [
            0.347_854_845_137_453_8, 0.652_145_154_862_546_1,
            0.652_145_154_862_546_1, 0.347_854_845_137_453_8,
        ]
        let sq = designSquare(x, y)
        let (across0, lo, hi) = vertical ? (sq.x0, sq.y0, sq.y1) : (sq.y0, sq.x0, sq.x1)
        let n = RefCanvas.lines
        var total = 0.0
        var points: [Double] = []
        for k in 0..<n {
            let across = across0 + (Double(k) + 0.5) / Double(n)
            points = [lo, hi]
            RefShape.circle(0, 0, radius, across, &points)
            for angle in [theta, theta + 180] {
                let a = angle * Double.pi / 180
                let (along, acrossDir) = vertical ? (sin(a), cos(a)) : (cos(a), sin(a))
                if acrossDir != 0 && across / acrossDir > 0 {
                    points.append(across / acrossDir * along)
                }
            }
            points = points.filter { $0 >= lo && $0 <= hi }.sorted()
            for i in 1..<points.count where points[i] > points[i - 1] {
                // Two halves, 4-point Gauss-Legendre each.
                let a = points[i - 1]
                let half = (points[i] - a) / 2
                for piece in 0..<2 {
                    let mid = a + half * (Double(piece) + 0.5)
                    for q in 0..<4 {
                        let t = mid + nodes[q] * half / 2
                        let (px, py) = vertical ? (across, t) : (t, across)
                        total +=
                            weights[q] * half / 2
                            * RefCanvas.sweepAlpha(px, py, radius: radius, edge: theta)
                    }
                }
            }
        }
        return total / Double(n)
    }

    /// Fills a closed polygon (design space), composited once. Coverage is
    /// the exact area of the polygon inside each pixel: the polygon is
    /// clipped to the pixel's row, then to each pixel (Sutherland-Hodgman
    /// against axis-aligned half-planes), and the pieces' signed areas
    /// summed. For a simple polygon like the heart that is its nonzero fill.
    public mutating func fillPolygon(_ points: [(Double, Double)], _ paint: RefPaint) {
        let f = points.map { toFrame($0.0, $0.1) }
        guard f.count >= 3 else { return }
        let xs = f.map { $0.0 }
        let ys = f.map { $0.1 }
        let x0 = max(0, Int(xs.min()!.rounded(.down)))
        let x1 = min(width, Int(xs.max()!.rounded(.up)))
        let y0 = max(0, Int(ys.min()!.rounded(.down)))
        let y1 = min(height, Int(ys.max()!.rounded(.up)))
        if x0 >= x1 || y0 >= y1 { return }
        // Orientation, so that coverage comes out positive.
        let sign: Double = RefCanvas.signedArea(f) < 0 ? -1 : 1
        for py in y0..<y1 {
            var strip = RefCanvas.clip(f, axis: 1, bound: Double(py), keepAbove: true)
            strip = RefCanvas.clip(strip, axis: 1, bound: Double(py + 1), keepAbove: false)
            if strip.count < 3 { continue }
            let sx = strip.map { $0.0 }
            let sx0 = max(x0, Int(sx.min()!.rounded(.down)))
            let sx1 = min(x1, Int(sx.max()!.rounded(.up)))
            if sx0 >= sx1 { continue }
            for px in sx0..<sx1 {
                var cell = RefCanvas.clip(strip, axis: 0, bound: Double(px), keepAbove: true)
                cell = RefCanvas.clip(cell, axis: 0, bound: Double(px + 1), keepAbove: false)
                if cell.count < 3 { continue }
                let area = sign * RefCanvas.signedArea(cell)
                if area > 0 { blend(px, py, paint, coverage: min(1, area)) }
            }
        }
    }

    /// Shoelace: positive for a polygon turning clockwise on screen (y down).
    static func signedArea(_ p: [(Double, Double)]) -> Double {
        var twice = 0.0
        for i in 0..<p.count {
            let a = p[i]
            let b = p[i + 1 == p.count ? 0 : i + 1]
            twice += a.0 * b.1 - b.0 * a.1
        }
        return twice / 2
    }

    /// Sutherland-Hodgman: the part of a closed polygon where coordinate
    /// `axis` (0 = x, 1 = y) is >= bound (`keepAbove`) or <= bound.
    static func clip(
        _ p: [(Double, Double)], axis: Int, bound: Double, keepAbove: Bool
    ) -> [(Double, Double)] {
        if p.isEmpty { return p }
        func coord(_ q: (Double, Double)) -> Double { axis == 0 ? q.0 : q.1 }
        func inside(_ q: (Double, Double)) -> Bool {
            keepAbove ? coord(q) >= bound : coord(q) <= bound
        }
        var out: [(Double, Double)] = []
        out.reserveCapacity(p.count + 4)
        var prev = p[p.count - 1]
        var prevIn = inside(prev)
        for q in p {
            let qIn = inside(q)
            if qIn != prevIn {
                let t = (bound - coord(prev)) / (coord(q) - coord(prev))
                let x = prev.0 + t * (q.0 - prev.0)
                let y = prev.1 + t * (q.1 - prev.1)
                out.append(axis == 0 ? (bound, y) : (x, bound))
            }
            if qIn { out.append(q) }
            prev = q
            prevIn = qIn
        }
        return out
    }
}
