/// A Linux console font (PSF1 or PSF2, as `setfont` loads them): bitmaps of
/// one size, and which Unicode characters each glyph shows.
///
/// Parsed from bytes alone, never from a file: `init(bytes:)` takes the
/// whole file, gzipped (`.psf.gz`, as Debian ships them) or not, and gives a
/// font or a `PSFError`; it never traps, whatever the bytes.
///
/// Formats (the kernel's `include/uapi/linux/kd.h` and kbd's `psf.h`):
/// - PSF1: `36 04`, a mode byte (bit 0: 512 glyphs instead of 256; bits 1
///   and 2: a unicode table follows), the glyph height; glyphs 8 pixels wide.
///   Table: per glyph, UTF-16 code units (little endian) up to `FFFF`; an
///   `FFFE` starts sequences, which are skipped.
/// - PSF2: `72 b5 4a 86`, then little-endian 32-bit version (0), header size,
///   flags (bit 0: a unicode table follows), glyph count, bytes per glyph,
///   height, width. Table: per glyph, UTF-8 characters up to `FF`; an `FE`
///   starts sequences, which are skipped.
/// Rows are `ceil(width / 8)` bytes, most significant bit leftmost.
public struct PSFFont: Equatable, Sendable {
    /// 1 or 2.
    public let version: Int
    /// Glyph cell width in pixels, 1...`maxGlyphSide` (8 for PSF1).
    public let width: Int
    /// Glyph cell height in pixels, 1...`maxGlyphSide`.
    public let height: Int
    /// 1...`maxGlyphs`.
    public let glyphCount: Int
    /// `ceil(width / 8)`.
    public let bytesPerRow: Int
    /// Every glyph's rows, glyph after glyph: `glyphCount * height * bytesPerRow` bytes.
    public let bitmaps: [UInt8]
    /// Unicode scalar value -> glyph index, from the font's unicode table
    /// (the first glyph listed wins). Empty when the font has none.
    public let unicodeMap: [UInt32: Int]
    /// Whether the font carried a unicode table.
    public let hasUnicodeTable: Bool

    /// Most glyphs a font may hold (PSF2 counts are 32-bit; the kernel takes 512).
    public static let maxGlyphs = 65536
    /// Largest glyph width or height (the kernel takes 64 x 128).
    public static let maxGlyphSide = 256
    /// Most bytes a gzipped font may inflate to: the largest Debian console
    /// font is 40 KB, so this leaves room and stops a gzip bomb.
    public static let maxInflatedBytes = 4 << 20

    /// Parses a PSF1 or PSF2 font, inflating it first when it starts with
    /// the gzip magic `1f 8b`.
    public init(bytes: [UInt8]) throws(PSFError) {
        if bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B {
            self = try PSFFont(plain: gunzip(bytes, limit: PSFFont.maxInflatedBytes))
        } else {
            self = try PSFFont(plain: bytes)
        }
    }

    private init(plain b: [UInt8]) throws(PSFError) {
        if b.count >= 2 && b[0] == 0x36 && b[1] == 0x04 {
            try self.init(psf1: b)
        } else if b.count >= 4 && b[0] == 0x72 && b[1] == 0xB5 && b[2] == 0x4A && b[3] == 0x86 {
            try self.init(psf2: b)
        } else {
            throw .badMagic
        }
    }

    private init(psf1 b: [UInt8]) throws(PSFError) {
        guard b.count >= 4 else { throw .truncated(.header, needed: 4, available: b.count) }
        let mode = b[2]
        let height = Int(b[3])
        guard height > 0 else { throw .badGlyphSize(width: 8, height: 0) }
        let count = mode & 0x01 != 0 ? 512 : 256
        let glyphBytes = count * height
        guard b.count - 4 >= glyphBytes else {
            throw .truncated(.glyphs, needed: glyphBytes, available: b.count - 4)
        }
        let hasTable = mode & 0x06 != 0
        let map = hasTable ? try PSFFont.psf1Table(b, from: 4 + glyphBytes, glyphs: count) : [:]
        self.init(
            version: 1, width: 8, height: height, glyphCount: count,
            bitmaps: Array(b[4..<(4 + glyphBytes)]), unicodeMap: map, hasUnicodeTable: hasTable)
    }

    private init(psf2 b: [UInt8]) throws(PSFError) {
        guard b.count >= 32 else { throw .truncated(.header, needed: 32, available: b.count) }
        func word(_ i: Int) -> UInt32 {
            UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
        }
        let (version, headerSize, flags) = (word(4), word(8), word(12))
        let (count, glyphSize, height, width) = (word(16), word(20), word(24), word(28))
        guard version == 0 else { throw .unsupportedVersion(version) }
        guard headerSize >= 32 else { throw .badHeaderSize(headerSize) }
        // Compared as UInt32 first: no Int conversion of a huge claim can trap.
        guard headerSize <= UInt32(min(b.count, Int(UInt32.max))) else {
            throw .truncated(.header, needed: Int(headerSize), available: b.count)
        }
        guard count >= 1 && count <= UInt32(PSFFont.maxGlyphs) else { throw .badGlyphCount(count) }
        let side = UInt32(PSFFont.maxGlyphSide)
        guard width >= 1 && width <= side && height >= 1 && height <= side else {
            throw .badGlyphSize(width: width, height: height)
        }
        let rowBytes = (Int(width) + 7) / 8
        guard Int(glyphSize) == rowBytes * Int(height) else {
            throw .inconsistentGlyphBytes(glyphSize, width: width, height: height)
        }
        let start = Int(headerSize)
        // At most 65536 glyphs of 256 rows of 32 bytes: 2^29, no overflow.
        let glyphBytes = Int(count) * Int(glyphSize)
        guard b.count - start >= glyphBytes else {
            throw .truncated(.glyphs, needed: glyphBytes, available: b.count - start)
        }
        let hasTable = flags & 0x01 != 0
        let map =
            hasTable
            ? try PSFFont.psf2Table(b, from: start + glyphBytes, glyphs: Int(count)) : [:]
        self.init(
            version: 2, width: Int(width), height: Int(height), glyphCount: Int(count),
            bitmaps: Array(b[start..<(start + glyphBytes)]), unicodeMap: map,
            hasUnicodeTable: hasTable)
    }

    private init(
        version: Int, width: Int, height: Int, glyphCount: Int, bitmaps: [UInt8],
        unicodeMap: [UInt32: Int], hasUnicodeTable: Bool
    ) {
        self.version = version
        self.width = width
        self.height = height
        self.glyphCount = glyphCount
        self.bytesPerRow = (width + 7) / 8
        self.bitmaps = bitmaps
        self.unicodeMap = unicodeMap
        self.hasUnicodeTable = hasUnicodeTable
    }

    /// The glyph that shows `scalar`: through the unicode table when the
    /// font has one; else printable ASCII (`0x20...0x7E`) maps to the glyph
    /// of its own number, the one range every console code page shares.
    public func glyph(for scalar: Unicode.Scalar) -> Int? {
        if hasUnicodeTable { return unicodeMap[scalar.value] }
        let v = Int(scalar.value)
        return v >= 0x20 && v <= 0x7E && v < glyphCount ? v : nil
    }

    /// Whether pixel (`x`, `y`) of `glyph` is set; `x < width`, `y < height`.
    public func isSet(glyph: Int, x: Int, y: Int) -> Bool {
        precondition(
            glyph >= 0 && glyph < glyphCount && x >= 0 && x < width && y >= 0 && y < height)
        let byte = bitmaps[(glyph * height + y) * bytesPerRow + (x >> 3)]
        return byte & (0x80 >> UInt8(x & 7)) != 0
    }
}
