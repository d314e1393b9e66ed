import CFreeType

/// Signed coverage per pixel of the reference picture, summed glyph by
/// glyph (FreeTypeReference.swift): y down, pixel (x, y) the square
/// [x, x+1) x [y, y+1). Positions come in 26.6 with y down too.
struct CoverageCanvas {
    let width: Int
    let height: Int
    var coverage: [Double]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        coverage = [Double](repeating: 0, count: width * height)
    }

    /// Renders the glyph in `slot` with FT_Render_Glyph (normal mode), its
    /// origin at (`originX`, `originY`) (26.6, y down), and adds its coverage.
    mutating func addRendered(_ slot: FT_GlyphSlot, originX: Int, originY: Int) throws {
        let (wholeX, fracX) = (originX >> 6, originX & 63)
        let (wholeY, fracY) = (originY >> 6, originY & 63)
        // y up in FreeType: moving the baseline down by fracY is -fracY.
        FT_Outline_Translate(&slot.pointee.outline, FT_Pos(fracX), FT_Pos(-fracY))
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else {
            throw FreeTypeReference.Failure(description: "FT_Render_Glyph failed")
        }
        let b = slot.pointee.bitmap
        add(
            b, left: wholeX + Int(slot.pointee.bitmap_left),
            top: wholeY - Int(slot.pointee.bitmap_top), scale: 1, sign: 1)
    }

    /// Renders each contour of `outline` (unscaled 26.6, y up from the
    /// glyph origin) alone, `k` times finer, its origin at (`originX`,
    /// `originY`) (26.6, y down), and adds its coverage with the sign of its
    /// orientation.
    mutating func addContours(
        of outline: inout FT_Outline, library: FT_Library, originX: Int, originY: Int,
        oversample k: Int
    ) throws {
        // Onto the fine grid: scaled by k about the glyph origin, then moved
        // to the origin's place there; y stays up until the bitmap is placed.
        var scale = FT_Matrix(xx: FT_Fixed(k << 16), xy: 0, yx: 0, yy: FT_Fixed(k << 16))
        FT_Outline_Transform(&outline, &scale)
        FT_Outline_Translate(&outline, FT_Pos(k * originX), FT_Pos(-k * originY))
        var first = 0
        for c in 0..<Int(outline.n_contours) {
            let last = Int(outline.contours[c])
            let n = last - first + 1
            var contour = FT_Outline()
            guard FT_Outline_New(library, FT_UInt(n), 1, &contour) == 0 else {
                throw FreeTypeReference.Failure(description: "FT_Outline_New failed")
            }
            defer { FT_Outline_Done(library, &contour) }
            for i in 0..<n {
                contour.points[i] = outline.points[first + i]
                contour.tags[i] = outline.tags[first + i]
            }
            contour.contours[0] = Int16(n - 1)
            first = last + 1
            let orientation = FT_Outline_Get_Orientation(&contour)
            if orientation == FT_ORIENTATION_NONE { continue }
            let sign: Double = orientation == FT_ORIENTATION_TRUETYPE ? 1 : -1
            try addRendered(contour: &contour, library: library, scale: k, sign: sign)
        }
    }

    /// Renders one contour already on the fine grid (26.6, y up, y = 0 the
    /// picture's top) into a bitmap of its bounding pixels and adds it.
    private mutating func addRendered(
        contour: inout FT_Outline, library: FT_Library, scale k: Int, sign: Double
    ) throws {
        var box = FT_BBox()
        FT_Outline_Get_CBox(&contour, &box)
        let x0 = Int(box.xMin) >> 6
        let y0 = Int(box.yMin) >> 6
        let columns = ((Int(box.xMax) + 63) >> 6) - x0
        let rows = ((Int(box.yMax) + 63) >> 6) - y0
        guard columns > 0 && rows > 0 else { return }
        FT_Outline_Translate(&contour, FT_Pos(-x0 * 64), FT_Pos(-y0 * 64))
        var pixels = [UInt8](repeating: 0, count: columns * rows)
        try pixels.withUnsafeMutableBufferPointer { buffer in
            var bitmap = FT_Bitmap()
            bitmap.rows = UInt32(rows)
            bitmap.width = UInt32(columns)
            bitmap.pitch = Int32(columns)
            bitmap.buffer = buffer.baseAddress
            bitmap.num_grays = 256
            bitmap.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
            // A gray target: FreeType renders it with its anti-aliasing rasterizer.
            guard FT_Outline_Get_Bitmap(library, &contour, &bitmap) == 0 else {
                throw FreeTypeReference.Failure(description: "FT_Outline_Get_Bitmap failed")
            }
            // The bitmap's first row is its top: y up = y0 + rows, y down = -(y0 + rows).
            add(bitmap, left: x0, top: -(y0 + rows), scale: k, sign: sign)
        }
    }

    /// Adds an 8-bit coverage bitmap whose top-left pixel is (`left`, `top`)
    /// on a grid `k` times finer than the picture's (y down).
    private mutating func add(_ b: FT_Bitmap, left: Int, top: Int, scale k: Int, sign: Double) {
        guard let buffer = b.buffer else { return }
        let weight = sign / (255 * Double(k * k))
        func coarse(_ v: Int) -> Int { v >= 0 ? v / k : (v - k + 1) / k }
        for row in 0..<Int(b.rows) {
            let y = coarse(top + row)
            if y < 0 || y >= height { continue }
            for column in 0..<Int(b.width) {
                let x = coarse(left + column)
                if x < 0 || x >= width { continue }
                coverage[y * width + x] += Double(buffer[row * Int(b.pitch) + column]) * weight
            }
        }
    }
}
