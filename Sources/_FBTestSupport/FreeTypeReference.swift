import CFreeType
import FBRaster

// An independent reference for text: the same line drawn by FreeType's own
// anti-aliasing rasterizer (ftgrays: exact area coverage in 256 levels),
// sharing no code with FBText or FBRaster. It lays the line out itself (pen
// positions in 26.6 from the glyphs' unhinted advances and FT_Get_Kerning,
// unfitted), moves each unhinted outline to its pen position's fraction of
// a pixel (FT_Outline_Translate) before FreeType renders it, and composites
// the line once, premultiplied source-over in Double. Two modes:
//
// - `.freeType`: FT_Render_Glyph, FT_RENDER_MODE_NORMAL, each glyph's
//   coverage summed per pixel and clamped to 1 (what a nonzero fill of all
//   glyphs as one shape gives where glyphs touch). What a FreeType user
//   sees; but ftgrays flattens a quadratic arc into chords within 1/16 px
//   (it splits until p0 + p2 - 2 p1 is under a quarter pixel), which moves
//   an edge pixel's coverage by up to ~4 %, mostly inwards.
// - `.contours(oversample: k)`: an accurate reference. Each contour is
//   rendered alone (FT_Outline_Get_Bitmap), scaled by k first (exactly:
//   integer 26.6 coordinates times an integer) on a k times finer grid, so
//   the chords are within 1/(16 k) px; a contour's k x k coverages per
//   pixel are summed with the sign of its orientation (a counter subtracts),
//   and the line's total per pixel is |sum| clamped to 1: the signed-area
//   accumulation of a nonzero fill, as fbanim's rasterizer (and ftgrays at
//   1x) do it. Rendering whole glyphs finely instead would resolve a
//   glyph's overlapping contours (a cedilla on its c) at the fine grid and
//   disagree with both rasterizers by design, not by error, where they
//   overlap inside a pixel.

/// Renders text with FreeType into a `RefImage`.
public enum FreeTypeReference {
    public enum Mode: Sendable {
        /// FT_Render_Glyph at the size: what FreeType users see.
        case freeType
        /// Contour by contour, `oversample` (2...64) times finer, signed.
        case contours(oversample: Int)
    }

    /// What went wrong setting FreeType up (a test failure, not a skip).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Draws `text` in the font in `fontBytes` at `pixelSize` (px an em, a
    /// whole multiple of 1/64),
    /// every scalar as the glyph the font maps it to (glyph 0 where it has
    /// none), the line box's top-left at (`originX`, `originY`), which must
    /// be whole multiples of 1/64 px, on `background`.
    ///
    /// - Returns: the picture, and FreeType's ascent and descent in pixels.
    public static func render(
        text: String, fontBytes: [UInt8], pixelSize: Double, originX: Double, originY: Double,
        width: Int, height: Int, paint: RefPaint, background: Color, mode: Mode = .freeType
    ) throws -> (image: RefImage, ascent: Double, descent: Double) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw Failure(description: "FT_Init_FreeType failed")
        }
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        let rc = fontBytes.withUnsafeBufferPointer { bytes in
            FT_New_Memory_Face(library, bytes.baseAddress, FT_Long(bytes.count), 0, &face)
        }
        guard rc == 0, let face else { throw Failure(description: "FT_New_Memory_Face: \(rc)") }
        defer { FT_Done_Face(face) }
        // At 72 dpi a point is a pixel.
        let size64 = FT_F26Dot6((pixelSize * 64).rounded())
        precondition(Double(size64) == pixelSize * 64, "the size must be a multiple of 1/64 px")
        guard FT_Set_Char_Size(face, 0, size64, 72, 72) == 0 else {
            throw Failure(description: "FT_Set_Char_Size(\(pixelSize)) failed")
        }
        let metrics = face.pointee.size.pointee.metrics
        let ascent64 = Int(metrics.ascender)
        let descent64 = -Int(metrics.descender)
        let ox = Int((originX * 64).rounded())
        let oy = Int((originY * 64).rounded()) + ascent64
        precondition(
            Double(ox) == originX * 64 && Double(oy - ascent64) == originY * 64,
            "the origin must be a multiple of 1/64 px")
        let kerning = face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0

        var canvas = CoverageCanvas(width: width, height: height)
        var pen = 0
        var previous: FT_UInt = 0
        for scalar in text.unicodeScalars {
            let glyph = FT_Get_Char_Index(face, FT_ULong(scalar.value))
            if kerning && previous != 0 && glyph != 0 {
                var k = FT_Vector()
                if FT_Get_Kerning(face, previous, glyph, FT_KERNING_UNFITTED.rawValue, &k) == 0 {
                    pen += Int(k.x)
                }
            }
            previous = glyph
            guard FT_Load_Glyph(face, glyph, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
                let slot = face.pointee.glyph
            else { throw Failure(description: "FT_Load_Glyph(\(glyph)) failed") }
            // The glyph's origin (pen, baseline) in 26.6 picture coordinates.
            let (gx, gy) = (ox + pen, oy)
            pen += Int(slot.pointee.advance.x)
            guard slot.pointee.outline.n_contours > 0 else { continue }
            switch mode {
            case .freeType:
                try canvas.addRendered(slot, originX: gx, originY: gy)
            case .contours(let k):
                precondition(k >= 2 && k <= 64, "oversampling 2...64")
                try canvas.addContours(
                    of: &slot.pointee.outline, library: library, originX: gx, originY: gy,
                    oversample: k)
            }
        }

        var values = [Double](repeating: 0, count: width * height * 3)
        let bg = [Double(background.r), Double(background.g), Double(background.b)]
        for i in 0..<(width * height) {
            let a = paint.a * min(1, abs(canvas.coverage[i]))
            values[3 * i] = paint.r * a + bg[0] * (1 - a)
            values[3 * i + 1] = paint.g * a + bg[1] * (1 - a)
            values[3 * i + 2] = paint.b * a + bg[2] * (1 - a)
        }
        return (
            RefImage(width: width, height: height, values: values), Double(ascent64) / 64,
            Double(descent64) / 64
        )
    }
}
