import Foundation

// Where a shape's boundary crosses an axis-aligned line: the reference
// renderer measures coverage exactly along sub-lines of a pixel (see
// RefCanvas.coverage), which needs the points where membership can change.

extension RefShape {
    /// Appends the along-line coordinate of every point where the boundary
    /// may cross the line y = c (`vertical == false`; appends x values) or
    /// x = c (`vertical == true`; appends y values), design space. A superset
    /// is fine: between consecutive points membership is tested at the
    /// midpoint with the exact `sdf` sign.
    public func crossings(vertical: Bool, at c: Double, into out: inout [Double]) {
        // (along, across) coordinates of a design point for this line.
        @inline(__always) func split(_ x: Double, _ y: Double) -> (Double, Double) {
            vertical ? (y, x) : (x, y)
        }
        switch self {
        case .annulus(let r0, let r1):
            for r in [r0, r1] { RefShape.circle(0, 0, r, c, &out) }
        case .disc(let cx, let cy, let r):
            let (u, v) = split(cx, cy)
            RefShape.circle(u, v, r, c, &out)
        case .wedge(let start, let sweep):
            for angle in [start, start + sweep] {
                let (along, across) = split(cos(angle), sin(angle))
                if across != 0 {
                    let t = c / across
                    if t > 0 { out.append(t * along) }
                }
            }
        case .capsuleStroke(let ax, let ay, let bx, let by, let mid, let half):
            let (au, av) = split(ax, ay)
            let (bu, bv) = split(bx, by)
            let du = bu - au
            let dv = bv - av
            let len = (du * du + dv * dv).squareRoot()
            for r in [mid - half, mid + half] where r > 0 {
                RefShape.circle(au, av, r, c, &out)
                RefShape.circle(bu, bv, r, c, &out)
                // The two sides: lines through a +- r n, direction d.
                guard len > 0, dv != 0 else { continue }
                let (nu, nv) = (-dv / len * r, du / len * r)
                for sign in [-1.0, 1.0] {
                    let pu = au + sign * nu
                    let pv = av + sign * nv
                    out.append(pu + (c - pv) / dv * du)
                }
            }
        case .intersection(let a, let b):
            a.crossings(vertical: vertical, at: c, into: &out)
            b.crossings(vertical: vertical, at: c, into: &out)
        case .union(let parts):
            for p in parts { p.crossings(vertical: vertical, at: c, into: &out) }
        }
    }

    /// Crossings of the circle of radius r at (u, v) (along, across) with the line across = c.
    static func circle(_ u: Double, _ v: Double, _ r: Double, _ c: Double, _ out: inout [Double]) {
        let h = r * r - (c - v) * (c - v)
        if h >= 0 {
            let s = h.squareRoot()
            out.append(u - s)
            out.append(u + s)
        }
    }
}
