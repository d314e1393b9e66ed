import CFreeType
import FBRaster

/// Turns a FreeType outline into fbanim path elements (`FT_Outline_Decompose`).
///
/// Coordinates: FreeType's are 26.6 pixels with y up from the baseline;
/// ours are 16.16 with y down from the line box's top, the baseline at
/// `ascent`. 26.6 -> 16.16 is exact (a shift by 10). A quadratic Bézier
/// (TrueType's curves) becomes the cubic with the same curve, control points
/// `p0 + 2/3 (q - p0)` and `p1 + 2/3 (q - p1)`, each rounded to 1/65536 px.
/// Every contour is closed: FreeType emits the segment back to the contour's
/// start, and we add `close` before the next `move` and at the end.
final class OutlineDecomposer {
    private(set) var elements: [Path.Element] = []
    private let ascent: Int64
    private var current = Point.zero
    private var open = false

    private init(ascent: Fixed) { self.ascent = ascent.raw }

    /// The outline's elements, in line-box pixels with the baseline at `ascent`.
    static func elements(of outline: inout FT_Outline, ascent: Fixed) -> [Path.Element] {
        let d = OutlineDecomposer(ascent: ascent)
        d.elements.reserveCapacity(Int(outline.n_points) + Int(outline.n_contours))
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in
                OutlineDecomposer.from(user).move(to!.pointee)
                return 0
            },
            line_to: { to, user in
                OutlineDecomposer.from(user).line(to!.pointee)
                return 0
            },
            conic_to: { control, to, user in
                OutlineDecomposer.from(user).conic(control!.pointee, to!.pointee)
                return 0
            },
            cubic_to: { c1, c2, to, user in
                OutlineDecomposer.from(user).cubic(c1!.pointee, c2!.pointee, to!.pointee)
                return 0
            },
            shift: 0, delta: 0)
        let rc = withExtendedLifetime(d) {
            FT_Outline_Decompose(&outline, &funcs, Unmanaged.passUnretained(d).toOpaque())
        }
        // A malformed outline (FreeType checks contour ends) draws nothing.
        guard rc == 0 else { return [] }
        d.closeIfOpen()
        return d.elements
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> OutlineDecomposer {
        Unmanaged<OutlineDecomposer>.fromOpaque(user!).takeUnretainedValue()
    }

    private func point(_ v: FT_Vector) -> Point {
        Point(x: Fixed(raw: Int64(v.x) << 10), y: Fixed(raw: ascent - Int64(v.y) << 10))
    }

    private func closeIfOpen() {
        if open { elements.append(.close) }
        open = false
    }

    private func move(_ v: FT_Vector) {
        closeIfOpen()
        current = point(v)
        elements.append(.move(current))
        open = true
    }

    private func line(_ v: FT_Vector) {
        current = point(v)
        elements.append(.line(current))
    }

    private func conic(_ control: FT_Vector, _ to: FT_Vector) {
        let q = point(control)
        let end = point(to)
        // Degree elevation: the cubic's controls lie 2/3 of the way to q.
        func twoThirds(_ from: Fixed, _ toward: Fixed) -> Fixed {
            Fixed(raw: from.raw + roundedQuotient(2 * (toward.raw - from.raw), 3))
        }
        let c1 = Point(x: twoThirds(current.x, q.x), y: twoThirds(current.y, q.y))
        let c2 = Point(x: twoThirds(end.x, q.x), y: twoThirds(end.y, q.y))
        elements.append(.cubic(c1, c2, end))
        current = end
    }

    private func cubic(_ c1: FT_Vector, _ c2: FT_Vector, _ to: FT_Vector) {
        current = point(to)
        elements.append(.cubic(point(c1), point(c2), current))
    }
}
