import FBRaster
import Foundation
import Testing

@testable import FBText

// Console glyphs as rectangles: at a whole-number scale, filling a glyph's
// path gives exactly its bitmap, every pixel coverage 255 or 0. Run on each
// hand-built font, and on every console font installed on this machine
// (/usr/share/consolefonts, /usr/share/kbd/consolefonts, or
// $FBTEXT_CONSOLEFONTS), one test case a font.

/// A font to check: a fixture's bytes, or a file installed on the machine.
struct ConsoleFontCase: Sendable, CustomTestStringConvertible {
    var name: String
    var path: String?

    var testDescription: String { name }

    func bytes() throws -> [UInt8] {
        switch name {
        case "fixture PSF1 8x16 512": return psf1Fixture().psf1()
        case "fixture PSF1 8x16 512 gzipped": return gzip(psf1Fixture().psf1())
        case "fixture PSF2 12x24 128": return psf2Fixture().psf2()
        default:
            guard let path, let data = FileManager.default.contents(atPath: path) else {
                throw PSFTestError(description: "cannot read \(name)")
            }
            return [UInt8](data)
        }
    }
}

struct PSFTestError: Error, CustomStringConvertible { var description: String }

let consoleFontCases: [ConsoleFontCase] =
    ["fixture PSF1 8x16 512", "fixture PSF1 8x16 512 gzipped", "fixture PSF2 12x24 128"].map {
        ConsoleFontCase(name: $0)
    }
    + installedConsoleFonts().map {
        ConsoleFontCase(name: ($0 as NSString).lastPathComponent, path: $0)
    }

@Test func installedConsoleFontsAreCheckedWhenPresent() {
    // Not a skip: the fixtures are checked either way; this says whether
    // real fonts were too, so a run without them is visible as such.
    if installedConsoleFonts().isEmpty {
        let note =
            "no console fonts installed (/usr/share/consolefonts): only the hand-built PSF "
            + "fonts were checked; set FBTEXT_CONSOLEFONTS to a folder of .psf(.gz) files"
        Issue.record(Comment(rawValue: note), severity: .warning)
    }
}

@Test(arguments: consoleFontCases)
func consoleGlyphsAreTheirBitmaps(_ c: ConsoleFontCase) throws {
    let font = try Font(bytes: try c.bytes())
    let glyphs = try #require(font.source as? ConsoleGlyphs)
    let psf = glyphs.font
    #expect(font.kind == .console && font.cellHeight == psf.height)
    // Rectangles never overlap: their areas add up to the set pixels.
    for g in 0..<psf.glyphCount {
        let area = glyphs.cellRectangles(g).reduce(0) { $0 + ($1.x1 - $1.x0) * ($1.y1 - $1.y0) }
        var set = 0
        for y in 0..<psf.height {
            for x in 0..<psf.width where psf.isSet(glyph: g, x: x, y: y) { set += 1 }
        }
        #expect(area == set, "glyph \(g)")
    }
    // Installed fonts (hundreds on a desktop): the glyphs of printable ASCII
    // and every fifth other, at one scale, to keep the run short.
    let all = Array(0..<psf.glyphCount)
    let ascii = (0x20...0x7E).compactMap { psf.glyph(for: Unicode.Scalar(UInt8($0))) }
    let sample = Array(Set(ascii + all.filter { $0 % 5 == 0 })).sorted()
    for scale in c.path == nil ? [1, 2, 3] : [2] {
        checkGrid(glyphs, c.path == nil ? all : sample, scale: scale)
    }
    // At 1.5 times the cell, the coverage adds up to the set pixels' area.
    let size = Fixed(psf.height * 3, over: 2)
    let probe = [65, 97, 46].filter { $0 < psf.glyphCount }
    for g in probe {
        let glyph = glyphs.glyph(UInt32(g), size: size, ascent: size)
        var path = Path()
        append(glyph.elements, to: &path, dx: .one, dy: .one)
        let w = psf.width * 2 + 3
        let h = psf.height * 2 + 3
        let sum = coverage(path, width: w, height: h).reduce(0, +)
        var set = 0
        for y in 0..<psf.height {
            for x in 0..<psf.width where psf.isSet(glyph: g, x: x, y: y) { set += 1 }
        }
        // Each covered pixel rounds to 1/255: allow half a level per pixel touched.
        #expect(abs(Double(sum) / 255 - Double(set) * 2.25) <= Double(w * h) / 510, "glyph \(g)")
    }
}

/// The glyphs `indices` at `scale` times their cell, 32 to a row, filled as
/// one path: each pixel must be 255 where the bitmap is set, else 0.
func checkGrid(
    _ glyphs: ConsoleGlyphs, _ indices: [Int], scale: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let psf = glyphs.font
    let size = Fixed(psf.height * scale)
    let (cw, ch) = (psf.width * scale, psf.height * scale)
    let rows = (indices.count + 31) / 32
    var path = Path()
    for (k, g) in indices.enumerated() {
        let glyph = glyphs.glyph(UInt32(g), size: size, ascent: size)
        #expect(glyph.advance == Fixed(cw), sourceLocation: sourceLocation)
        append(glyph.elements, to: &path, dx: Fixed(k % 32 * cw), dy: Fixed(k / 32 * ch))
    }
    let width = 32 * cw
    let cover = coverage(path, width: width, height: rows * ch)
    var wrong = 0
    var first: (Int, Int, Int)? = nil
    for (k, g) in indices.enumerated() {
        for y in 0..<ch {
            for x in 0..<cw {
                let v = cover[(k / 32 * ch + y) * width + k % 32 * cw + x]
                let expected = psf.isSet(glyph: g, x: x / scale, y: y / scale) ? 255 : 0
                if v != expected {
                    wrong += 1
                    if first == nil { first = (g, x, y) }
                }
            }
        }
    }
    #expect(
        wrong == 0,
        "scale \(scale): \(wrong) pixels differ from the bitmaps, first (glyph, x, y) \(String(describing: first))",
        sourceLocation: sourceLocation)
}

/// Appends elements moved by (`dx`, `dy`).
func append(_ elements: [Path.Element], to path: inout Path, dx: Fixed, dy: Fixed) {
    func moved(_ p: Point) -> Point { Point(x: p.x + dx, y: p.y + dy) }
    for e in elements {
        switch e {
        case .move(let p): path.move(to: moved(p))
        case .line(let p): path.line(to: moved(p))
        case .cubic(let a, let b, let p):
            path.curve(to: moved(p), control1: moved(a), control2: moved(b))
        case .close: path.close()
        }
    }
}
