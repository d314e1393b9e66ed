// The unicode tables of PSF fonts: after the bitmaps, one entry per glyph
// listing the characters it shows. Sequences (a base and its combining
// marks drawn as one glyph) follow a separator and are skipped: fbanim draws
// marks as glyphs of their own.

extension PSFFont {
    /// PSF1: UTF-16 code units, little endian; `FFFE` starts sequences,
    /// `FFFF` ends the glyph's entry.
    static func psf1Table(_ b: [UInt8], from start: Int, glyphs: Int) throws(PSFError)
        -> [UInt32: Int]
    {
        var map: [UInt32: Int] = [:]
        var i = start
        for glyph in 0..<glyphs {
            var inSequences = false
            while true {
                guard b.count - i >= 2 else {
                    throw .truncated(.unicodeTable, needed: 2, available: b.count - i)
                }
                let unit = UInt32(b[i]) | UInt32(b[i + 1]) << 8
                i += 2
                if unit == 0xFFFF { break }
                if unit == 0xFFFE {
                    inSequences = true
                    continue
                }
                if inSequences { continue }
                // A surrogate has no meaning alone (the format holds BMP characters only).
                guard Unicode.Scalar(unit) != nil else { throw .badUnicodeTable(glyph: glyph) }
                if map[unit] == nil { map[unit] = glyph }
            }
        }
        return map
    }

    /// PSF2: UTF-8 characters; `FE` starts sequences, `FF` ends the entry
    /// (neither byte occurs in UTF-8).
    static func psf2Table(_ b: [UInt8], from start: Int, glyphs: Int) throws(PSFError)
        -> [UInt32: Int]
    {
        var map: [UInt32: Int] = [:]
        var i = start
        for glyph in 0..<glyphs {
            var inSequences = false
            while true {
                guard i < b.count else {
                    throw .truncated(.unicodeTable, needed: 1, available: 0)
                }
                let lead = b[i]
                if lead == 0xFF {
                    i += 1
                    break
                }
                if lead == 0xFE {
                    inSequences = true
                    i += 1
                    continue
                }
                guard let (scalar, length) = decodeUTF8(b, at: i) else {
                    // Cut short inside a character, or not UTF-8 at all.
                    if utf8Length(lead) > b.count - i {
                        throw .truncated(
                            .unicodeTable, needed: utf8Length(lead), available: b.count - i)
                    }
                    throw .badUnicodeTable(glyph: glyph)
                }
                i += length
                if !inSequences && map[scalar] == nil { map[scalar] = glyph }
            }
        }
        return map
    }

    /// Bytes of the UTF-8 character a lead byte starts (1 for a byte that starts none).
    static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 1
        }
    }

    /// The scalar value of the UTF-8 character at `i` and its length in
    /// bytes; `nil` when it is malformed, overlong, a surrogate or cut short.
    static func decodeUTF8(_ b: [UInt8], at i: Int) -> (UInt32, Int)? {
        let lead = b[i]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = utf8Length(lead)
        guard length > 1, b.count - i >= length else { return nil }
        var value = UInt32(lead) & (0x7F >> UInt32(length))
        for k in 1..<length {
            let c = b[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= smallest, Unicode.Scalar(value) != nil else { return nil }
        return (value, length)
    }
}
