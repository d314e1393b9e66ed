import FBRaster
import Foundation
import Testing

@testable import FBText

// Laying out one line: boxes, the ellipsis cut, fallbacks, characters that
// are not drawn, scripts and emoji fbanim cannot shape, and bounded work.

let px16 = Fixed(16)
let unlimited = Fixed(1 << 24)

/// The advance of one glyph of the built-in font at 16 px.
func advance(_ s: String, _ font: Font = Font.builtIn(), size: Fixed = px16) -> Fixed {
    font.layOut(s, pixelSize: size, maxWidth: unlimited).advance
}

@Test func emptyTextHasTheBoxOnly() {
    let font = Font.builtIn()
    let line = font.layOut("", pixelSize: px16, maxWidth: Fixed(100))
    #expect(line.path.elements.isEmpty && line.advance == .zero && line.text == "")
    #expect(!line.truncated)
    // DejaVu Sans at 16 px: ascender 1901/2048 em and descender 483/2048,
    // rounded out to whole pixels by FreeType: 15 + 4.
    #expect(line.ascent == Fixed(15) && line.height == Fixed(19))
    #expect(font.lineMetrics(pixelSize: px16) == LineMetrics(ascent: Fixed(15), descent: Fixed(4)))
    let nothing = font.layOut("Hi", pixelSize: .zero, maxWidth: Fixed(100))
    #expect(nothing.path.elements.isEmpty && nothing.height == .zero && nothing.text == "")
}

@Test func advancesAreFreeTypesUnhintedOnesKerned() {
    // DejaVu Sans: A and V advance 1401/2048 em, kerned -131/2048 as a pair.
    // At 16 px FreeType scales to 26.6: round(1401 * 16 * 64 / 2048) = 700.5 -> 701/64.
    let a = advance("A")
    #expect(a.raw == 701 << 10)
    #expect(advance("V") == a)
    let pair = advance("AV")
    #expect(pair < a + a)
    #expect(pair.raw == (701 + 701 - 66) << 10)
}

@Test func controlCharactersAreNotDrawnAndTabsAreSpaces() {
    let font = Font.builtIn()
    let line = font.layOut(
        "a\u{0}b\u{7F}c\u{85}d\te\r\nf\u{1B}", pixelSize: px16, maxWidth: unlimited)
    #expect(line.text == "abcd ef")
    #expect(line.advance == advance("abcd ef"))
    #expect(line.path == font.layOut("abcd ef", pixelSize: px16, maxWidth: unlimited).path)
    #expect(font.layOut("\u{0}\u{1}\n", pixelSize: px16, maxWidth: unlimited).text == "")
}

@Test func missingCharactersShowAsReplacement() {
    let font = Font.builtIn()
    // Greek, CJK, Hebrew (right to left), Arabic: not in the built-in font.
    #expect(font.layOut("aΩb", pixelSize: px16, maxWidth: unlimited).text == "a\u{FFFD}b")
    #expect(font.layOut("日本", pixelSize: px16, maxWidth: unlimited).text == "\u{FFFD}\u{FFFD}")
    let hebrew = font.layOut("שלום!", pixelSize: px16, maxWidth: unlimited)
    #expect(hebrew.text == "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}!")
    #expect(
        font.layOut("مرحبا", pixelSize: px16, maxWidth: unlimited).text.unicodeScalars.count == 5)
    // One replacement a character, however many scalars make it.
    for emoji in ["👨‍👩‍👧", "🇩🇪", "❤️", "👍🏽", "🏳️‍🌈"] {
        #expect(
            font.layOut(emoji, pixelSize: px16, maxWidth: unlimited).text == "\u{FFFD}", "\(emoji)")
    }
    // Invisible format characters the font lacks (marks, joiners) draw nothing.
    #expect(
        font.layOut("a\u{200D}b\u{200E}c\u{FE0F}", pixelSize: px16, maxWidth: unlimited).text
            == "abc")
}

@Test func combiningMarksDrawAtTheirAdvance() {
    let font = Font.builtIn()
    let decomposed = font.layOut("e\u{301}", pixelSize: px16, maxWidth: unlimited)
    #expect(decomposed.text == "e\u{301}")
    // DejaVu's combining acute has no advance: it sits over the e.
    #expect(decomposed.advance == advance("e"))
    #expect(
        decomposed.path.elements.count
            > font.layOut("e", pixelSize: px16, maxWidth: unlimited).path.elements.count)
    // A mark the font lacks after a drawn base is left out, not replaced.
    #expect(font.layOut("e\u{20DD}", pixelSize: px16, maxWidth: unlimited).text == "e")
    // A thousand stacked marks draw the first few.
    let stacked = font.layOut(
        "a" + String(repeating: "\u{301}", count: 1000), pixelSize: px16, maxWidth: unlimited)
    #expect(stacked.text.unicodeScalars.count == Font.maxGlyphsPerCharacter)
}

@Test func rightToLeftAndShapedScriptsInAFullFontDrawInLogicalOrder() throws {
    // The full DejaVu Sans has Hebrew and Arabic: drawn left to right, in
    // the order they come, isolated forms (no bidi, no shaping).
    let path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    // Scripts/setup.sh installs fonts-dejavu-core.
    let data = try #require(
        FileManager.default.contents(atPath: path), "\(path) (fonts-dejavu-core)")
    let font = try Font(bytes: [UInt8](data))
    let hebrew = font.layOut("שלום", pixelSize: px16, maxWidth: unlimited)
    #expect(hebrew.text == "שלום")
    #expect(hebrew.advance == advance("ש", font) + advance("לום", font))
    let arabic = font.layOut("مرحبا", pixelSize: px16, maxWidth: unlimited)
    #expect(arabic.text == "مرحبا" && arabic.advance > .zero)
}

@Test func anOverWideLineIsCutWithAnEllipsisThatFits() {
    let font = Font.builtIn()
    let text = "Starting Network Manager, then the wait for the  network  to be online"
    let full = advance(text)
    var widths = Array(stride(from: 0, through: 600, by: 7)).map(Fixed.init)
    widths += [full, full - Fixed(raw: 1), advance("…") - Fixed(raw: 1), advance("…")]
    for maxWidth in widths {
        let line = font.layOut(text, pixelSize: px16, maxWidth: maxWidth)
        #expect(line.advance <= maxWidth, "\(maxWidth.raw)")
        #expect(line.truncated == (full > maxWidth))
        guard line.truncated else {
            #expect(line.text == text)
            continue
        }
        if maxWidth < advance("…") {
            #expect(line.text == "" && line.path.elements.isEmpty)
            continue
        }
        // A prefix of the text, spaces before the ellipsis dropped, and the
        // longest: one more character would not fit.
        #expect(line.text.hasSuffix("…"))
        let kept = String(line.text.dropLast())
        #expect(text.hasPrefix(kept) && kept.last != " ")
        #expect(line.advance == advance(line.text))
        var longer = text[text.index(text.startIndex, offsetBy: kept.count)...].prefix(1)
        while longer.last == " " && longer.count < text.count - kept.count {
            longer = text[text.index(text.startIndex, offsetBy: kept.count)...].prefix(
                longer.count + 1)
        }
        #expect(advance(kept + longer + "…") > maxWidth, "\(maxWidth.raw): \(line.text)")
    }
}

@Test func widthGrowsWithTheText() {
    let font = Font.builtIn()
    let text = "AVATAR To Wa, «Ĳssel» – 12 % … done"
    var last = Fixed.zero
    for n in 0...text.count {
        let w = font.layOut(String(text.prefix(n)), pixelSize: px16, maxWidth: unlimited).advance
        #expect(w >= last, "\(n)")
        last = w
    }
    // And once cut, never past the limit, however long the text grows.
    for n in stride(from: 0, through: 400, by: 13) {
        let line = font.layOut(
            String(repeating: text, count: 12).prefix(n) + "", pixelSize: px16, maxWidth: Fixed(200)
        )
        #expect(line.advance <= Fixed(200))
    }
}

@Test func aLongMessageIsLaidOutOnlyAsFarAsItShows() {
    let font = Font.builtIn()
    // 10,000 characters whose later ones differ: the glyphs made are those
    // before the cut (and the ellipsis), not all the message's.
    let message =
        String(repeating: "ab ", count: 100) + String(repeating: "xyz0123456789", count: 747)
    #expect(message.count > 10_000)
    let line = font.layOut(message, pixelSize: px16, maxWidth: Fixed(300))
    #expect(line.truncated && line.advance <= Fixed(300))
    #expect(font.sized(px16).count == 4)  // a, b, space, ellipsis
    // Control characters cost a look each and draw nothing.
    let controls = String(repeating: "\u{1}", count: 20_000) + "ok"
    #expect(font.layOut(controls, pixelSize: px16, maxWidth: Fixed(300)).text == "ok")
}

@Test func glyphsAreMadeOncePerSize() {
    let font = Font.builtIn()
    let first = font.layOut("Hello", pixelSize: px16, maxWidth: unlimited)
    #expect(font.sized(px16).count == 4)
    let again = font.layOut("Hello", pixelSize: px16, maxWidth: unlimited)
    #expect(again == first && font.sized(px16).count == 4)
    _ = font.layOut("Hole", pixelSize: px16, maxWidth: unlimited)
    #expect(font.sized(px16).count == 4)
    // Another size has glyphs of its own: twice as wide at 32 px, within
    // FreeType's rounding of each advance to 1/64 px.
    let double = font.layOut("Hello", pixelSize: Fixed(32), maxWidth: unlimited)
    #expect(abs(double.advance.raw - 2 * first.advance.raw) <= 5 * 1024)
    #expect(font.sized(Fixed(32)).count == 4 && font.sized(px16).count == 4)
    // Sizes are kept up to keptSizes; the oldest goes first.
    for s in 20..<(20 + Font.keptSizes) {
        _ = font.layOut("x", pixelSize: Fixed(s), maxWidth: unlimited)
    }
    #expect(font.sized(px16).count == 0)
}

@Test func sizesAreClampedAndRoundedToFreeTypes() throws {
    let font = Font.builtIn()
    let huge = font.layOut("W", pixelSize: Fixed(1_000_000), maxWidth: unlimited)
    #expect(huge.height == font.lineMetrics(pixelSize: Font.maxPixelSize).height)
    // Sizes under a pixel: FreeType refuses some (an empty line), draws others tiny.
    for raw: Int64 in [1, 300, 1 << 15, (1 << 16) + 1] {
        let tiny = font.layOut("Wo", pixelSize: Fixed(raw: raw), maxWidth: unlimited)
        #expect(tiny.advance <= Fixed(2) && tiny.height <= Fixed(2), "\(raw)")
    }
    let psf = try Font(bytes: psf2Fixture().psf2())
    #expect(psf.layOut("Wo", pixelSize: Fixed(raw: 1), maxWidth: unlimited).advance.raw == 2)
    // Sizes are taken in 1/64 px: 16 + 1/200 px is 16 px.
    #expect(
        font.layOut("W", pixelSize: Fixed(raw: (16 << 16) + 327), maxWidth: unlimited)
            == font.layOut("W", pixelSize: px16, maxWidth: unlimited))
}

@Test func consoleFontLayout() throws {
    let font = try Font(bytes: psf1Fixture().psf1())
    #expect(font.name == "PSF1 8x16")
    let line = font.layOut("Aé\u{2026}Ω", pixelSize: Fixed(32), maxWidth: unlimited)
    // Cell 8x16 at 32 px: 16 px a character; no ascent/descent split.
    #expect(line.advance == Fixed(64) && line.height == Fixed(32) && line.ascent == Fixed(32))
    #expect(line.text == "Aé\u{2026}\u{FFFD}")
    // The PSF2 fixture has no U+FFFD and no U+2026: "?" and "...".
    let psf2 = try Font(bytes: psf2Fixture().psf2())
    #expect(psf2.layOut("aΩ", pixelSize: Fixed(24), maxWidth: unlimited).text == "a?")
    let cut = psf2.layOut("abcdefghij", pixelSize: Fixed(24), maxWidth: Fixed(84))
    // 12 px a cell: "abcd" + "..." is 84 px.
    #expect(cut.text == "abcd..." && cut.advance == Fixed(84) && cut.truncated)
}

@Test func aConsoleFontWithoutFallbackGlyphsLeavesMissingOnesOut() throws {
    var fixture = psf2Fixture()
    fixture.table![63] = []  // no "?" any more
    let font = try Font(bytes: fixture.psf2())
    #expect(font.layOut("aΩb", pixelSize: Fixed(24), maxWidth: unlimited).text == "ab")
}

@Test func bitmapOnlyFontsAreRefused() {
    // A BDF font (text; FreeType reads it): bitmaps, no outlines.
    let bdf = """
        STARTFONT 2.1
        FONT -test-fixed-medium-r-normal--8-80-75-75-c-80-iso10646-1
        SIZE 8 75 75
        FONTBOUNDINGBOX 8 8 0 0
        STARTPROPERTIES 2
        FONT_ASCENT 8
        FONT_DESCENT 0
        ENDPROPERTIES
        CHARS 1
        STARTCHAR A
        ENCODING 65
        SWIDTH 500 0
        DWIDTH 8 0
        BBX 8 8 0 0
        BITMAP
        18
        24
        42
        7E
        42
        42
        42
        00
        ENDCHAR
        ENDFONT

        """
    #expect(throws: FontError.notScalable) { try Font(bytes: Array(bdf.utf8)) }
}
