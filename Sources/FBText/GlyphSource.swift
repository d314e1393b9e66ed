import FBRaster

/// The vertical extent of a line of text at one size, in pixels.
public struct LineMetrics: Equatable, Sendable {
    /// From the line box's top down to the baseline, `>= 0`.
    public var ascent: Fixed
    /// From the baseline down to the line box's bottom, `>= 0`.
    public var descent: Fixed

    /// The line box's height: `ascent + descent`.
    public var height: Fixed { ascent + descent }

    public init(ascent: Fixed, descent: Fixed) {
        self.ascent = ascent
        self.descent = descent
    }
}

/// One glyph at one size, ready to place on a line.
struct Glyph {
    /// The outline in pixels: x from the pen position, y down from the line
    /// box's top (the baseline is at the size's ascent). Closed subpaths.
    var elements: [Path.Element]
    /// How far the pen moves after it, `>= 0` for every font we read.
    var advance: Fixed

    static let empty = Glyph(elements: [], advance: .zero)
}

/// What laying out a line needs from a font: an outline font through
/// FreeType, or a PSF console font. Its answers are cached by `Font`, so
/// each glyph is made once per size.
protocol GlyphSource: AnyObject {
    /// Whether `kerning` can give anything but zero.
    var hasKerning: Bool { get }
    /// Whether glyph 0 is the font's own "missing glyph" picture (an outline
    /// font's `.notdef`), drawn when it has neither U+FFFD nor `?`.
    var hasNotdefGlyph: Bool { get }
    /// A short description for messages ("DejaVu Sans Book", "PSF2 8x16").
    var name: String { get }

    /// The glyph that shows `scalar`, `nil` when the font lacks it.
    func glyphIndex(for scalar: Unicode.Scalar) -> UInt32?
    /// The size the font is really drawn at for a requested size (> 0):
    /// FreeType takes sizes in 1/64 px.
    func effectiveSize(_ requested: Fixed) -> Fixed
    /// Line metrics at `size` (an `effectiveSize`).
    func lineMetrics(size: Fixed) -> LineMetrics
    /// Glyph `index` at `size` (an `effectiveSize`) with the baseline at
    /// `ascent`; an empty glyph when the font cannot give it.
    func glyph(_ index: UInt32, size: Fixed, ascent: Fixed) -> Glyph
    /// The pen adjustment between two glyphs at `size`, pixels (usually <= 0).
    func kerning(_ left: UInt32, _ right: UInt32, size: Fixed) -> Fixed
}

/// The glyphs of one font made at one size, and its kerning pairs.
final class SizedGlyphs {
    let size: Fixed
    let metrics: LineMetrics
    private var glyphs: [UInt32: Glyph] = [:]
    private var kerns: [UInt64: Fixed] = [:]
    private unowned let source: any GlyphSource

    init(source: any GlyphSource, size: Fixed) {
        self.source = source
        self.size = size
        metrics = source.lineMetrics(size: size)
    }

    /// Glyph `index`, made (decomposed) the first time only.
    func glyph(_ index: UInt32) -> Glyph {
        if let g = glyphs[index] { return g }
        let g = source.glyph(index, size: size, ascent: metrics.ascent)
        glyphs[index] = g
        return g
    }

    /// The kerning between two glyphs, asked of the font once per pair.
    func kerning(_ left: UInt32, _ right: UInt32) -> Fixed {
        if !source.hasKerning { return .zero }
        let key = UInt64(left) << 32 | UInt64(right)
        if let k = kerns[key] { return k }
        let k = source.kerning(left, right, size: size)
        kerns[key] = k
        return k
    }

    /// Glyphs made so far.
    var count: Int { glyphs.count }
}
