import Foundation
import Testing
import _FBTestSupport

@testable import FBText

// The PSF parser on hand-built fonts (PSFFixtures.swift), plain and
// gzipped, and on broken ones: each gives its typed error, never a trap.

@Test func psf1WithUnicodeTable() throws {
    let fixture = psf1Fixture()
    for bytes in [fixture.psf1(), gzip(fixture.psf1())] {
        let font = try PSFFont(bytes: bytes)
        #expect(font.version == 1)
        #expect(font.width == 8 && font.height == 16 && font.glyphCount == 512)
        #expect(font.hasUnicodeTable)
        #expect(font.glyph(for: "A") == 65)  // listed again at 302: the first wins
        #expect(font.glyph(for: "é") == 0xE9)
        #expect(font.glyph(for: "\u{2026}") == 300)
        #expect(font.glyph(for: "\u{FFFD}") == 301)
        #expect(font.glyph(for: "\u{391}") == 302)
        #expect(font.glyph(for: "\u{301}") == nil)  // only in a sequence
        #expect(font.glyph(for: "€") == nil)
        for (i, x, y) in [(65, 3, 5), (200, 0, 0), (511, 7, 15), (46, 4, 14)] {
            #expect(font.isSet(glyph: i, x: x, y: y) == fixture.isSet(i, x, y))
        }
    }
}

@Test func psf1WithoutTableMapsPrintableASCII() throws {
    var fixture = psf1Fixture()
    fixture.table = nil
    fixture.sequences = [:]
    fixture.glyphs = Array(fixture.glyphs[0..<256])
    let font = try PSFFont(bytes: fixture.psf1())
    #expect(font.glyphCount == 256 && !font.hasUnicodeTable)
    #expect(font.glyph(for: "A") == 65)
    #expect(font.glyph(for: "~") == 126)
    // Outside printable ASCII the code page is unknown: nothing is guessed.
    #expect(font.glyph(for: "é") == nil)
    #expect(font.glyph(for: "\u{7}") == nil)
}

@Test func psf2WithUnicodeTableAndLongerHeader() throws {
    let fixture = psf2Fixture()
    for bytes in [fixture.psf2(), fixture.psf2(extraHeader: 12), gzip(fixture.psf2())] {
        let font = try PSFFont(bytes: bytes)
        #expect(font.version == 2)
        #expect(font.width == 12 && font.height == 24 && font.glyphCount == 128)
        #expect(font.bytesPerRow == 2)
        #expect(font.glyph(for: "€") == 127 && font.glyph(for: "Ж") == 127)
        #expect(font.glyph(for: "d") == 100)
        #expect(font.glyph(for: "\u{30C}") == nil)
        #expect(font.glyph(for: "\u{FFFD}") == nil)
        for i in [1, 63, 100, 127] {
            for y in 0..<24 {
                for x in 0..<12 {
                    #expect(font.isSet(glyph: i, x: x, y: y) == fixture.isSet(i, x, y))
                }
            }
        }
    }
}

@Test func psf2WithoutTable() throws {
    var fixture = psf2Fixture()
    fixture.table = nil
    fixture.sequences = [:]
    let font = try PSFFont(bytes: fixture.psf2())
    #expect(!font.hasUnicodeTable && font.glyph(for: "A") == 65 && font.glyph(for: "\u{7F}") == nil)
}

/// Bytes in, the error expected out.
struct BadFont: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var error: PSFError
    var testDescription: String { name }
}

/// A PSF2 header with these fields and `rest` after it.
func psf2Header(
    version: UInt32 = 0, headerSize: UInt32 = 32, flags: UInt32 = 0, count: UInt32 = 1,
    charSize: UInt32 = 8, height: UInt32 = 8, width: UInt32 = 8, rest: [UInt8] = []
) -> [UInt8] {
    [0x72, 0xB5, 0x4A, 0x86]
        + [version, headerSize, flags, count, charSize, height, width].flatMap(le32) + rest
}

let badFonts: [BadFont] = {
    let psf1 = psf1Fixture().psf1()
    let psf2 = psf2Fixture().psf2()
    let psf2Glyphs = 32 + 128 * 48
    var surrogate = Array(psf1[0..<(4 + 512 * 16)])
    surrogate += [0x00, 0xD8, 0xFF, 0xFF]
    var overlong = Array(psf2[0..<psf2Glyphs])
    overlong += [0xC0, 0x80, 0xFF]
    var lone = Array(psf2[0..<psf2Glyphs])
    lone += [0x80, 0xFF]
    var cut = Array(psf2[0..<psf2Glyphs])
    cut += [0x41, 0xE2, 0x82]
    let bomb = gzip([UInt8](repeating: 0, count: PSFFont.maxInflatedBytes + 1))
    var corrupt = gzip(psf1)
    corrupt[corrupt.count / 2] ^= 0x55
    return [
        BadFont(name: "empty", bytes: [], error: .badMagic),
        BadFont(name: "text", bytes: Array("hello, world".utf8), error: .badMagic),
        BadFont(
            name: "PSF1 magic only", bytes: [0x36, 0x04],
            error: .truncated(.header, needed: 4, available: 2)),
        BadFont(
            name: "PSF1 height 0", bytes: [0x36, 0x04, 0x02, 0x00],
            error: .badGlyphSize(width: 8, height: 0)),
        BadFont(
            name: "PSF1 glyphs cut", bytes: Array(psf1[0..<1000]),
            error: .truncated(.glyphs, needed: 512 * 16, available: 996)),
        BadFont(
            name: "PSF1 table cut", bytes: Array(psf1[0..<(4 + 512 * 16 + 3)]),
            error: .truncated(.unicodeTable, needed: 2, available: 1)),
        BadFont(name: "PSF1 surrogate", bytes: surrogate, error: .badUnicodeTable(glyph: 0)),
        BadFont(
            name: "PSF2 header cut", bytes: Array(psf2[0..<31]),
            error: .truncated(.header, needed: 32, available: 31)),
        BadFont(
            name: "PSF2 version 1", bytes: psf2Header(version: 1), error: .unsupportedVersion(1)),
        BadFont(
            name: "PSF2 header size 16", bytes: psf2Header(headerSize: 16),
            error: .badHeaderSize(16)),
        BadFont(
            name: "PSF2 header size past the end", bytes: psf2Header(headerSize: 0xFFFF_FFF0),
            error: .truncated(.header, needed: 0xFFFF_FFF0, available: 32)),
        BadFont(name: "PSF2 no glyphs", bytes: psf2Header(count: 0), error: .badGlyphCount(0)),
        BadFont(
            name: "PSF2 4 billion glyphs", bytes: psf2Header(count: 0xFFFF_FFFF),
            error: .badGlyphCount(0xFFFF_FFFF)),
        BadFont(
            name: "PSF2 width 0", bytes: psf2Header(width: 0),
            error: .badGlyphSize(width: 0, height: 8)),
        BadFont(
            name: "PSF2 4 billion pixels high", bytes: psf2Header(height: 0xFFFF_FFFF),
            error: .badGlyphSize(width: 8, height: 0xFFFF_FFFF)),
        BadFont(
            name: "PSF2 glyph bytes wrong", bytes: psf2Header(charSize: 9),
            error: .inconsistentGlyphBytes(9, width: 8, height: 8)),
        BadFont(
            name: "PSF2 claims 10 MB of glyphs",
            bytes: psf2Header(
                count: 40960, charSize: 256, height: 128, width: 16, rest: [1, 2, 3]),
            error: .truncated(.glyphs, needed: 10_485_760, available: 3)),
        BadFont(name: "PSF2 overlong UTF-8", bytes: overlong, error: .badUnicodeTable(glyph: 0)),
        BadFont(
            name: "PSF2 lone continuation byte", bytes: lone, error: .badUnicodeTable(glyph: 0)),
        BadFont(
            name: "PSF2 table cut in a character", bytes: cut,
            error: .truncated(.unicodeTable, needed: 3, available: 2)),
        BadFont(name: "gzip magic only", bytes: [0x1F, 0x8B], error: .badGzip(code: -5)),
        BadFont(name: "gzip corrupt", bytes: corrupt, error: .badGzip(code: -3)),
        BadFont(name: "gzip cut", bytes: Array(gzip(psf1).dropLast(9)), error: .badGzip(code: -5)),
        BadFont(name: "gzip of text", bytes: gzip(Array("not a font".utf8)), error: .badMagic),
        BadFont(name: "gzip bomb", bytes: bomb, error: .tooLarge(limit: PSFFont.maxInflatedBytes)),
    ]
}()

@Test(arguments: badFonts)
func badFontGivesItsError(_ c: BadFont) {
    #expect(throws: c.error) { try PSFFont(bytes: c.bytes) }
    // Through Font too, except where FreeType gets the bytes (no PSF magic).
    if Font.looksLikePSF(c.bytes) {
        #expect(throws: FontError.psf(c.error)) { try Font(bytes: c.bytes) }
    }
    #expect(!c.error.description.contains("\n") && !c.error.description.isEmpty)
}

@Test func everyPrefixAndByteFlipIsAFontOrAnError() {
    // Cut anywhere and corrupted anywhere: a font or a PSFError, never a trap.
    var random = SeededRandom(seed: 0x5053_4621)
    let fonts = [psf1Fixture().psf1(), psf2Fixture().psf2(), gzip(psf2Fixture().psf2())]
    var outcomes = (fonts: 0, errors: 0)
    for bytes in fonts {
        for n in 0..<bytes.count {
            if (try? PSFFont(bytes: Array(bytes[0..<n]))) != nil {
                outcomes.fonts += 1
            } else {
                outcomes.errors += 1
            }
        }
        for _ in 0..<2000 {
            var b = bytes
            for _ in 0..<Int(random.next() % 4 + 1) {
                let i = Int(random.next() % UInt64(b.count))
                b[i] = UInt8(truncatingIfNeeded: random.next())
            }
            if let font = try? PSFFont(bytes: b) {
                outcomes.fonts += 1
                #expect(font.bitmaps.count == font.glyphCount * font.height * font.bytesPerRow)
                #expect(font.unicodeMap.values.allSatisfy { $0 >= 0 && $0 < font.glyphCount })
            } else {
                outcomes.errors += 1
            }
        }
    }
    // A cut PSF1 with its whole table, or a flipped bitmap bit, still parses.
    #expect(outcomes.fonts > 0 && outcomes.errors > 0)
}

@Test func fontErrorsAreOneLine() {
    let text = Array(String(repeating: "not a font, just words. ", count: 40).utf8)
    #expect(throws: FontError.freeType(code: 2)) { try Font(bytes: text) }
    // Too short for any header FreeType knows: reading it fails first.
    #expect(throws: FontError.freeType(code: 0x55)) { try Font(bytes: Array(text[0..<10])) }
    #expect(throws: FontError.freeType(code: 0x55)) { try Font(bytes: []) }
    let e = FontError.freeType(code: 2).description
    #expect(e == "not a font FreeType can read (FreeType error 0x2: unknown file format)")
    #expect(throws: FontError.psf(.badMagic)) { try Font(bytes: gzip(Array("not a font".utf8))) }
}
