import FBRaster

// Laying out one line (shared/spec/boot.md, "Message line"):
// - Characters are user-perceived characters (Swift's grapheme clusters),
//   drawn left to right in the order they come: no bidi reordering and no
//   shaping, so right-to-left text shows its glyphs in logical order and
//   Arabic letters in their isolated forms.
// - Control characters (C0, DEL, C1) are not drawn; a tab is a space.
// - A character the font lacks shows as one U+FFFD, else `?`, else the
//   outline font's .notdef glyph: one for the whole cluster (an emoji with a
//   skin tone or a ZWJ family is one missing character, not five). A mark
//   or invisible format character (ZWJ, direction marks, variation
//   selectors) the font lacks after a drawn base is left out; combining
//   marks the font has are drawn at their advance (zero in most fonts,
//   their outlines placed over the base by design).
// - Glyph pairs are kerned when the font has a `kern` table.
// - Wider than `maxWidth` (by advance): cut between characters and ended
//   with U+2026 (or "..." when the font lacks it) so that the whole fits;
//   spaces before the ellipsis go. Laying out stops at the first character
//   past `maxWidth`, so a long message costs what a line's worth does.

extension Font {
    /// Most glyphs a line holds; past it the line is cut like an over-wide
    /// one (only zero-width marks can get there within a screen's width).
    public static let maxGlyphsPerLine = 1024
    /// Most glyphs one character draws (a base and its marks): a cluster of
    /// thousands of stacked marks draws its first ones.
    public static let maxGlyphsPerCharacter = 16

    /// Lays out one line of `text` at `pixelSize` (an em in pixels, clamped
    /// to `maxPixelSize`; for a console font the cell height), cut to
    /// `maxWidth` pixels with an ellipsis.
    ///
    /// The path's origin is the line box's top-left; see `TextLine`. A size
    /// `<= 0`, an empty text, or a `maxWidth` too small for the ellipsis
    /// give an empty line (for a size `> 0` still with the box's height).
    public func layOut(_ text: String, pixelSize: Fixed, maxWidth: Fixed) -> TextLine {
        guard pixelSize > .zero else {
            return TextLine(
                path: Path(), advance: .zero, ascent: .zero, height: .zero, text: "",
                truncated: false)
        }
        let sized = sized(pixelSize)
        var line = LineBuilder(sized)
        var drawn: [(UInt32, Unicode.Scalar)] = []
        var overflow = false
        for character in text {
            drawn.removeAll(keepingCapacity: true)
            resolve(character, into: &drawn)
            if drawn.isEmpty { continue }
            for (glyph, scalar) in drawn { line.place(glyph, scalar) }
            line.endCharacter(isSpace: drawn.allSatisfy { $0.1.properties.isWhitespace })
            if line.pen > maxWidth || line.placed.count > Font.maxGlyphsPerLine {
                overflow = true
                break
            }
        }
        if overflow { line.cut(to: maxWidth, ellipsis: ellipsis()) }
        return line.textLine()
    }

    /// The glyphs `character` draws, with the scalar each stands for.
    func resolve(_ character: Character, into drawn: inout [(UInt32, Unicode.Scalar)]) {
        for var scalar in character.unicodeScalars {
            if drawn.count == Font.maxGlyphsPerCharacter { return }
            if scalar == "\t" { scalar = " " }
            let v = scalar.value
            if v < 0x20 || (v >= 0x7F && v < 0xA0) { continue }
            if let glyph = glyphIndex(scalar) {
                drawn.append((glyph, scalar))
            } else if scalar.properties.isDefaultIgnorableCodePoint || !drawn.isEmpty {
                continue
            } else {
                if let fallback = fallback() { drawn.append(fallback) }
                return
            }
        }
    }

    /// What a missing character shows: U+FFFD, else `?`, else .notdef.
    func fallback() -> (UInt32, Unicode.Scalar)? {
        if let g = glyphIndex("\u{FFFD}") { return (g, "\u{FFFD}") }
        if let g = glyphIndex("?") { return (g, "?") }
        return source.hasNotdefGlyph ? (0, "\u{FFFD}") : nil
    }

    /// U+2026, else three full stops, else nothing.
    func ellipsis() -> [(UInt32, Unicode.Scalar)] {
        if let g = glyphIndex("\u{2026}") { return [(g, "\u{2026}")] }
        if let g = glyphIndex(".") { return Array(repeating: (g, "."), count: 3) }
        return []
    }
}

/// A line being laid out: glyphs at pen positions, and where each
/// character ended (so it can be cut between characters).
struct LineBuilder {
    /// State after a character.
    struct CharacterEnd {
        var glyphs: Int
        var pen: Fixed
        var scalars: Int
        var isSpace: Bool
    }

    let sized: SizedGlyphs
    private(set) var placed: [(glyph: UInt32, x: Fixed)] = []
    private(set) var pen = Fixed.zero
    private var shown = String.UnicodeScalarView()
    private var shownCount = 0
    private var ends: [CharacterEnd] = []
    private var truncated = false

    init(_ sized: SizedGlyphs) { self.sized = sized }

    /// Places `glyph` at the pen, kerned against the glyph before it.
    mutating func place(_ glyph: UInt32, _ scalar: Unicode.Scalar) {
        if let last = placed.last { pen = pen + sized.kerning(last.glyph, glyph) }
        placed.append((glyph, pen))
        pen = pen + sized.glyph(glyph).advance
        shown.append(scalar)
        shownCount += 1
    }

    mutating func endCharacter(isSpace: Bool) {
        ends.append(
            CharacterEnd(glyphs: placed.count, pen: pen, scalars: shownCount, isSpace: isSpace))
    }

    /// Keeps the most characters that fit in `maxWidth` with `ellipsis`
    /// after them (spaces before it dropped), and appends it; keeps nothing
    /// when even the ellipsis alone does not fit.
    mutating func cut(to maxWidth: Fixed, ellipsis: [(UInt32, Unicode.Scalar)]) {
        truncated = true
        // The ellipsis's own width, its glyphs kerned between themselves.
        var width = Fixed.zero
        for (i, e) in ellipsis.enumerated() {
            if i > 0 { width = width + sized.kerning(ellipsis[i - 1].0, e.0) }
            width = width + sized.glyph(e.0).advance
        }
        var keep = ends.count
        while keep >= 0 {
            let end =
                keep > 0
                ? ends[keep - 1] : CharacterEnd(glyphs: 0, pen: .zero, scalars: 0, isSpace: false)
            let kern =
                keep > 0 && !ellipsis.isEmpty
                ? sized.kerning(placed[end.glyphs - 1].glyph, ellipsis[0].0) : .zero
            if !end.isSpace && end.pen + kern + width <= maxWidth
                && end.glyphs + ellipsis.count <= Font.maxGlyphsPerLine
            {
                break
            }
            keep -= 1
        }
        guard keep >= 0 else {
            placed.removeAll()
            pen = .zero
            shown = String.UnicodeScalarView()
            return
        }
        let end =
            keep > 0
            ? ends[keep - 1] : CharacterEnd(glyphs: 0, pen: .zero, scalars: 0, isSpace: false)
        placed.removeLast(placed.count - end.glyphs)
        pen = end.pen
        shown = String.UnicodeScalarView(shown.prefix(end.scalars))
        for (glyph, scalar) in ellipsis { place(glyph, scalar) }
    }

    /// The glyphs' outlines moved to their pen positions, as one path.
    func textLine() -> TextLine {
        var path = Path()
        for (glyph, x) in placed {
            for element in sized.glyph(glyph).elements {
                switch element {
                case .move(let p): path.move(to: Point(x: p.x + x, y: p.y))
                case .line(let p): path.line(to: Point(x: p.x + x, y: p.y))
                case .cubic(let c1, let c2, let p):
                    path.curve(
                        to: Point(x: p.x + x, y: p.y), control1: Point(x: c1.x + x, y: c1.y),
                        control2: Point(x: c2.x + x, y: c2.y))
                case .close: path.close()
                }
            }
        }
        return TextLine(
            path: path, advance: pen, ascent: sized.metrics.ascent, height: sized.metrics.height,
            text: String(shown), truncated: truncated)
    }
}
