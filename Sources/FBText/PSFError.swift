/// Why bytes are not a PSF console font: one line, naming the part at fault.
public enum PSFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A part of the file that can be cut short.
    public enum Part: String, Sendable {
        case header
        case glyphs = "glyph bitmaps"
        case unicodeTable = "unicode table"
    }

    /// Neither PSF1 (`36 04`) nor PSF2 (`72 b5 4a 86`), plain or gzipped.
    case badMagic
    /// `part` needs `needed` bytes where `available` are left.
    case truncated(Part, needed: Int, available: Int)
    /// A PSF2 version other than 0 (the only one defined).
    case unsupportedVersion(UInt32)
    /// A PSF2 header size below 32 bytes (the fixed header's own).
    case badHeaderSize(UInt32)
    /// A glyph count of 0 or over `PSFFont.maxGlyphs`.
    case badGlyphCount(UInt32)
    /// A glyph width or height of 0 or over `PSFFont.maxGlyphSide` pixels.
    case badGlyphSize(width: UInt32, height: UInt32)
    /// A PSF2 glyph byte count other than `height * ceil(width / 8)`.
    case inconsistentGlyphBytes(UInt32, width: UInt32, height: UInt32)
    /// The unicode table entry of this glyph is not valid UTF-8 (PSF2) or holds a surrogate.
    case badUnicodeTable(glyph: Int)
    /// A gzip stream zlib could not inflate (its status code).
    case badGzip(code: Int32)
    /// More than `limit` bytes once inflated: no console font is that large.
    case tooLarge(limit: Int)

    public var description: String {
        switch self {
        case .badMagic:
            return "not a PSF font (no PSF1 or PSF2 magic)"
        case .truncated(let part, let needed, let available):
            return
                "PSF font cut short: its \(part.rawValue) need \(needed) bytes, \(available) left"
        case .unsupportedVersion(let v):
            return "PSF2 version \(v) is not supported (only 0)"
        case .badHeaderSize(let size):
            return "PSF2 header size \(size) is below 32 bytes"
        case .badGlyphCount(let n):
            return "PSF glyph count \(n) is out of range (1...\(PSFFont.maxGlyphs))"
        case .badGlyphSize(let w, let h):
            return "PSF glyph size \(w)x\(h) is out of range (1...\(PSFFont.maxGlyphSide) each)"
        case .inconsistentGlyphBytes(let n, let w, let h):
            return "PSF2 glyphs of \(w)x\(h) pixels cannot take \(n) bytes each"
        case .badUnicodeTable(let glyph):
            return "PSF unicode table entry of glyph \(glyph) is malformed"
        case .badGzip(let code):
            return "gzipped font is corrupt (zlib status \(code))"
        case .tooLarge(let limit):
            return "font is over \(limit) bytes once inflated"
        }
    }
}
