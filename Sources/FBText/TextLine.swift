import FBRaster

/// One line of text laid out in a font at a size: what to fill, and its box.
///
/// Units are pixels (16.16). The origin is the line box's top-left corner,
/// y grows down, and the baseline is at `ascent`. Place it with a
/// `Transform` (centre it with `advance` and `height`) and fill `path` with
/// the nonzero rule, like any shape.
public struct TextLine: Hashable, Sendable {
    /// Every glyph's contours, closed, in one path. Empty when nothing shows.
    public var path: Path
    /// The pen's travel: where a next glyph would start, `0...maxWidth`.
    /// Glyphs may reach a little past it (an italic's overhang) or before 0.
    public var advance: Fixed
    /// From the box's top to the baseline.
    public var ascent: Fixed
    /// The box's height: the font's ascent plus descent at the size (for a
    /// console font, its scaled cell height).
    public var height: Fixed
    /// The characters drawn, in order: control characters left out, tabs as
    /// spaces, missing ones as U+FFFD or `?`, and the ellipsis when `truncated`.
    public var text: String
    /// Whether the text was cut to fit (and ends in an ellipsis).
    public var truncated: Bool

    public init(
        path: Path, advance: Fixed, ascent: Fixed, height: Fixed, text: String, truncated: Bool
    ) {
        self.path = path
        self.advance = advance
        self.ascent = ascent
        self.height = height
        self.text = text
        self.truncated = truncated
    }
}
