import CFreeType
import FBRaster

/// An outline font (TrueType, OpenType/CFF, Type 1, WOFF: what FreeType
/// reads) as a glyph source: unhinted outlines at the requested size,
/// decomposed into lines and cubic Béziers.
///
/// Opened from memory (`FT_New_Memory_Face`): the bytes are copied once and
/// kept for the face's life, or, for the built-in font, used in place. One
/// FreeType library instance per font, so fonts share no state; a font is
/// not thread-safe (like `Rasterizer`).
final class FreeTypeGlyphs: GlyphSource {
    private var library: FT_Library?
    private var face: FT_Face?
    /// Our copy of the font file, or `nil` for static bytes.
    private var copy: UnsafeMutableBufferPointer<UInt8>?
    /// The char size last set on the face (26.6), to set it only on a change.
    private var setSize: FT_F26Dot6 = 0
    let hasKerning: Bool
    let name: String

    /// Opens the font in `bytes` (face 0 of a collection).
    convenience init(bytes: [UInt8]) throws(FontError) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
        _ = copy.initialize(from: bytes)
        try self.init(base: UnsafePointer(copy.baseAddress!), count: bytes.count, owned: copy)
    }

    /// Opens a font held in memory that stays valid for the process's life.
    convenience init(staticBase: UnsafePointer<UInt8>, count: Int) throws(FontError) {
        try self.init(base: staticBase, count: count, owned: nil)
    }

    private init(
        base: UnsafePointer<UInt8>, count: Int, owned: UnsafeMutableBufferPointer<UInt8>?
    ) throws(FontError) {
        copy = owned
        var lib: FT_Library?
        var rc = FT_Init_FreeType(&lib)
        guard rc == 0, let lib else {
            owned?.deallocate()
            throw .freeType(code: rc)
        }
        library = lib
        var f: FT_Face?
        rc = FT_New_Memory_Face(lib, base, FT_Long(count), 0, &f)
        guard rc == 0, let f else {
            FT_Done_FreeType(lib)
            owned?.deallocate()
            throw .freeType(code: rc)
        }
        face = f
        let flags = f.pointee.face_flags
        guard flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            FT_Done_Face(f)
            FT_Done_FreeType(lib)
            owned?.deallocate()
            throw .notScalable
        }
        hasKerning = flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
        let family = f.pointee.family_name.map { String(cString: $0) } ?? "?"
        let style = f.pointee.style_name.map { String(cString: $0) } ?? ""
        name = style.isEmpty ? family : family + " " + style
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
        copy?.deallocate()
    }

    // An outline font's glyph 0 is its .notdef picture (an empty box in most).
    var hasNotdefGlyph: Bool { true }

    func glyphIndex(for scalar: Unicode.Scalar) -> UInt32? {
        let i = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        return i == 0 ? nil : UInt32(i)
    }

    /// FreeType takes the size in 26.6: rounded to the nearest 1/64 px.
    /// (A TrueType font whose head table asks for whole ppem, as DejaVu
    /// does, is then scaled at the nearest whole size by FreeType itself.)
    func effectiveSize(_ requested: Fixed) -> Fixed {
        Fixed(raw: max(1, (requested.raw + 512) >> 10) << 10)
    }

    /// Sets the face's size; `false` if FreeType refuses it.
    private func select(_ size: Fixed) -> Bool {
        let s = FT_F26Dot6(size.raw >> 10)
        if s == setSize { return true }
        // 72 dpi: one point is one pixel, so the char size is the em in pixels.
        guard FT_Set_Char_Size(face, 0, s, 72, 72) == 0 else { return false }
        setSize = s
        return true
    }

    /// FreeType's scaled ascender and descender (it rounds them out to whole
    /// pixels), from the font's `hhea` or `OS/2` metrics.
    func lineMetrics(size: Fixed) -> LineMetrics {
        guard select(size), let m = face?.pointee.size?.pointee.metrics else {
            return LineMetrics(ascent: .zero, descent: .zero)
        }
        return LineMetrics(
            ascent: Fixed(raw: max(0, Int64(m.ascender)) << 10),
            descent: Fixed(raw: max(0, -Int64(m.descender)) << 10))
    }

    func glyph(_ index: UInt32, size: Fixed, ascent: Fixed) -> Glyph {
        guard select(size), let face,
            FT_Load_Glyph(face, index, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
            let slot = face.pointee.glyph
        else { return .empty }
        // Unhinted, the advance keeps its fraction (26.6): exact in 16.16.
        let advance = Fixed(raw: max(0, Int64(slot.pointee.advance.x)) << 10)
        guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else {
            return Glyph(elements: [], advance: advance)
        }
        let elements = OutlineDecomposer.elements(of: &slot.pointee.outline, ascent: ascent)
        return Glyph(elements: elements, advance: advance)
    }

    func kerning(_ left: UInt32, _ right: UInt32, size: Fixed) -> Fixed {
        var v = FT_Vector()
        // Unfitted: scaled, not rounded to whole pixels (nor shrunk at small sizes).
        guard select(size),
            FT_Get_Kerning(face, left, right, FT_KERNING_UNFITTED.rawValue, &v) == 0
        else { return .zero }
        return Fixed(raw: Int64(v.x) << 10)
    }
}
