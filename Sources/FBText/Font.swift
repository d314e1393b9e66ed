import CFBFontData
import FBRaster

/// A font fbanim draws text with: an outline font read by FreeType
/// (TrueType, OpenType), a PSF1/PSF2 console font, or the built-in one.
///
/// Made from bytes only: the OS layer reads the file. Keeps the glyphs it
/// has made, per size (the last `keptSizes` sizes), so laying out another
/// message at the same size decomposes only glyphs not seen before. Not
/// thread-safe: use one per thread (as `Rasterizer`).
public final class Font {
    /// What kind of font the bytes held.
    public enum Kind: Equatable, Sendable {
        /// Outlines through FreeType.
        case outline
        /// A PSF console font: bitmaps drawn as rectangles.
        case console
    }

    public let kind: Kind
    /// For a console font, its cell height in pixels: at sizes that are
    /// whole multiples of it every bitmap pixel covers whole screen pixels.
    public let cellHeight: Int?
    let source: any GlyphSource
    /// Scalar value -> glyph index, `Font.missing` where the font lacks it.
    private var indices: [UInt32: UInt32] = [:]
    /// Glyphs made at the sizes used last, the most recent last.
    private var sizes: [SizedGlyphs] = []

    /// Sizes whose glyphs are kept (a message line uses one; rotating the
    /// picture or changing the scale adds another).
    public static let keptSizes = 4
    /// Sizes are clamped to at most this many pixels (an em).
    public static let maxPixelSize = Fixed(2048)
    private static let missing = UInt32.max

    /// Reads a font from the bytes of its file: PSF1 or PSF2 (plain or
    /// gzipped) when it starts with their magic, else whatever FreeType reads.
    ///
    /// - Throws: `FontError.psf` for a malformed console font,
    ///   `.freeType` for bytes FreeType cannot open, `.notScalable` for a
    ///   bitmap-only font FreeType opens.
    public init(bytes: [UInt8]) throws(FontError) {
        if Font.looksLikePSF(bytes) {
            let psf: PSFFont
            do { psf = try PSFFont(bytes: bytes) } catch { throw .psf(error) }
            source = ConsoleGlyphs(psf)
            kind = .console
            cellHeight = psf.height
        } else {
            source = try FreeTypeGlyphs(bytes: bytes)
            kind = .outline
            cellHeight = nil
        }
    }

    private init(source: any GlyphSource, kind: Kind) {
        self.source = source
        self.kind = kind
        cellHeight = nil
    }

    /// The font compiled into fbanim (a DejaVu Sans subset: Latin-1, Latin
    /// Extended-A, combining marks, common punctuation, U+FFFD; see
    /// `Sources/CFBFontData/README.md`). Needs no file, so text shows from
    /// an initramfs. Each call opens a new instance over the same bytes.
    public static func builtIn() -> Font {
        var length = 0
        let base = fbanim_default_font(&length)!
        do {
            return Font(
                source: try FreeTypeGlyphs(staticBase: base, count: length), kind: .outline)
        } catch {
            // The data is part of the binary and checked by the tests.
            fatalError("the built-in font does not open: \(error)")
        }
    }

    /// The built-in font's bytes (a TrueType file), e.g. to write it out.
    public static var builtInBytes: [UInt8] {
        var length = 0
        let base = fbanim_default_font(&length)!
        return Array(UnsafeBufferPointer(start: base, count: length))
    }

    /// Whether `bytes` start with the PSF1, PSF2 or gzip magic.
    static func looksLikePSF(_ b: [UInt8]) -> Bool {
        (b.count >= 2 && b[0] == 0x1F && b[1] == 0x8B)
            || (b.count >= 2 && b[0] == 0x36 && b[1] == 0x04)
            || (b.count >= 4 && b[0] == 0x72 && b[1] == 0xB5 && b[2] == 0x4A && b[3] == 0x86)
    }

    /// The family and style of an outline font, or "PSF2 8x16" and the like.
    public var name: String { source.name }

    /// The line box at `pixelSize` (an em, in pixels; clamped to
    /// `maxPixelSize`): zero for a size `<= 0`.
    public func lineMetrics(pixelSize: Fixed) -> LineMetrics {
        pixelSize > .zero ? sized(pixelSize).metrics : LineMetrics(ascent: .zero, descent: .zero)
    }

    /// The glyphs at `pixelSize`, made now or kept from before.
    func sized(_ pixelSize: Fixed) -> SizedGlyphs {
        let size = source.effectiveSize(min(pixelSize, Font.maxPixelSize))
        if let last = sizes.last, last.size == size { return last }
        if let i = sizes.firstIndex(where: { $0.size == size }) {
            let s = sizes.remove(at: i)
            sizes.append(s)
            return s
        }
        let s = SizedGlyphs(source: source, size: size)
        if sizes.count == Font.keptSizes { sizes.removeFirst() }
        sizes.append(s)
        return s
    }

    /// The glyph showing `scalar`, asked of the font once per scalar.
    func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32? {
        if let i = indices[scalar.value] { return i == Font.missing ? nil : i }
        let i = source.glyphIndex(for: scalar)
        indices[scalar.value] = i ?? Font.missing
        return i
    }
}
