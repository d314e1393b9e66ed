import FBRaster

/// A PSF console font as a glyph source: each glyph's set pixels become
/// rectangles, scaled so the cell's height is the requested size.
///
/// Runs of set bits in a row become one rectangle each, and a run that
/// repeats in the next rows (the stem of an `l`) grows into one taller
/// rectangle, so a glyph is a few rectangles, not a square a pixel. The
/// rectangles never overlap: filled with the nonzero rule they cover each
/// cell pixel exactly once, and at a whole-number scale every pixel gets
/// coverage 255 or 0, the bitmap itself.
final class ConsoleGlyphs: GlyphSource {
    let font: PSFFont
    /// Each glyph's rectangles in cell pixels, made on first use.
    private var rectangles: [Int: [CellRect]] = [:]

    init(_ font: PSFFont) { self.font = font }

    var hasKerning: Bool { false }
    // Glyph 0 of a console font is whatever its code page puts there.
    var hasNotdefGlyph: Bool { false }
    var name: String { "PSF\(font.version) \(font.width)x\(font.height)" }

    func glyphIndex(for scalar: Unicode.Scalar) -> UInt32? {
        font.glyph(for: scalar).map { UInt32($0) }
    }

    func effectiveSize(_ requested: Fixed) -> Fixed { requested }

    /// The cell is the line box: ascent = size, no descent (the cell holds
    /// its own descenders).
    func lineMetrics(size: Fixed) -> LineMetrics { LineMetrics(ascent: size, descent: .zero) }

    func kerning(_ left: UInt32, _ right: UInt32, size: Fixed) -> Fixed { .zero }

    func glyph(_ index: UInt32, size: Fixed, ascent: Fixed) -> Glyph {
        let i = Int(index)
        guard i < font.glyphCount else { return .empty }
        let rects = rectangles[i] ?? cellRectangles(i)
        rectangles[i] = rects
        // One rounding for every cell coordinate: rectangles that meet in the
        // cell meet exactly at any scale, and the advance is the cell's right edge.
        let h = Int64(font.height)
        func px(_ c: Int) -> Fixed { Fixed(raw: roundedQuotient(Int64(c) * size.raw, h)) }
        // The cell's top is the line box's top whatever the ascent (both are `size`).
        var elements: [Path.Element] = []
        elements.reserveCapacity(rects.count * 5)
        for r in rects {
            let (x0, y0, x1, y1) = (px(r.x0), px(r.y0), px(r.x1), px(r.y1))
            elements.append(.move(Point(x: x0, y: y0)))
            elements.append(.line(Point(x: x1, y: y0)))
            elements.append(.line(Point(x: x1, y: y1)))
            elements.append(.line(Point(x: x0, y: y1)))
            elements.append(.close)
        }
        return Glyph(elements: elements, advance: px(font.width))
    }

    /// The glyph's set pixels as rectangles `[x0, x1) x [y0, y1)` in cell pixels.
    func cellRectangles(_ glyph: Int) -> [CellRect] {
        var done: [CellRect] = []
        // Rectangles still growing down: each ends at the row being read.
        var open: [CellRect] = []
        var runs: [(Int, Int)] = []
        for y in 0...font.height {
            runs.removeAll(keepingCapacity: true)
            if y < font.height { rowRuns(glyph, y, into: &runs) }
            var next: [CellRect] = []
            for (x0, x1) in runs {
                if let k = open.firstIndex(where: { $0.x0 == x0 && $0.x1 == x1 }) {
                    next.append(open.remove(at: k))
                } else {
                    next.append(CellRect(x0: x0, y0: y, x1: x1, y1: y))
                }
            }
            for var r in open {
                r.y1 = y
                done.append(r)
            }
            open = next
        }
        return done
    }

    /// The runs `[x0, x1)` of set pixels in row `y` of `glyph`, left to right.
    private func rowRuns(_ glyph: Int, _ y: Int, into runs: inout [(Int, Int)]) {
        var start: Int? = nil
        for x in 0..<font.width {
            let set = font.isSet(glyph: glyph, x: x, y: y)
            if set && start == nil { start = x }
            if !set, let s = start {
                runs.append((s, x))
                start = nil
            }
        }
        if let s = start { runs.append((s, font.width)) }
    }
}

/// A rectangle of cell pixels, `[x0, x1) x [y0, y1)`.
struct CellRect: Equatable {
    var x0: Int, y0: Int, x1: Int, y1: Int
}

/// `n / d` rounded to nearest, halves up; `d > 0` (FBRaster's rule, ROUNDING.md).
func roundedQuotient(_ n: Int64, _ d: Int64) -> Int64 {
    let q = n / d
    let r = n - q * d
    let (fq, fr) = r < 0 ? (q - 1, r + d) : (q, r)
    return 2 * fr >= d ? fq + 1 : fq
}
