import CZlib
import Foundation

@testable import FBText

// Hand-built PSF fonts: every byte of the formats written out here from
// the format's description (kbd's psf.h, the kernel's console font loader),
// not by FBText's parser.

/// A console font to serialise as PSF1 or PSF2.
struct PSFFixture {
    var width: Int
    var height: Int
    /// Glyph bitmaps: `glyphs[i][y]` is row y, bit x set when `(row >> (w - 1 - x)) & 1`.
    var glyphs: [[UInt32]]
    /// Per glyph, the characters it shows; `sequences` too, listed after the separator.
    var table: [[UInt32]]?
    var sequences: [Int: [[UInt32]]] = [:]

    var rowBytes: Int { (width + 7) / 8 }

    /// The rows of glyph `i`, `rowBytes` bytes each, most significant bit leftmost.
    func bitmapBytes(_ i: Int) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<height {
            // Left-align the row in rowBytes * 8 bits.
            let row = UInt64(glyphs[i][y]) << UInt64(rowBytes * 8 - width)
            for b in (0..<rowBytes).reversed() {
                out.append(UInt8(truncatingIfNeeded: row >> UInt64(8 * b)))
            }
        }
        return out
    }

    /// Whether pixel (x, y) of glyph `i` is set.
    func isSet(_ i: Int, _ x: Int, _ y: Int) -> Bool {
        (glyphs[i][y] >> UInt32(width - 1 - x)) & 1 != 0
    }

    /// PSF1: needs width 8 and 256 or 512 glyphs.
    func psf1() -> [UInt8] {
        precondition(width == 8 && (glyphs.count == 256 || glyphs.count == 512))
        var mode: UInt8 = glyphs.count == 512 ? 0x01 : 0
        if table != nil { mode |= 0x02 }
        if !sequences.isEmpty { mode |= 0x04 }
        var out: [UInt8] = [0x36, 0x04, mode, UInt8(height)]
        for i in glyphs.indices { out += bitmapBytes(i) }
        guard let table else { return out }
        func unit(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        for i in glyphs.indices {
            for c in table[i] { out += unit(c) }
            for s in sequences[i] ?? [] {
                out += unit(0xFFFE)
                for c in s { out += unit(c) }
            }
            out += unit(0xFFFF)
        }
        return out
    }

    /// PSF2 with a 32-byte header (plus `extraHeader` bytes, which a reader must skip).
    func psf2(extraHeader: Int = 0) -> [UInt8] {
        var out: [UInt8] = [0x72, 0xB5, 0x4A, 0x86]
        let charSize = rowBytes * height
        for v in [0, 32 + extraHeader, table == nil ? 0 : 1, glyphs.count, charSize, height, width]
        {
            out += le32(UInt32(v))
        }
        out += [UInt8](repeating: 0xEE, count: extraHeader)
        for i in glyphs.indices { out += bitmapBytes(i) }
        guard let table else { return out }
        for i in glyphs.indices {
            for c in table[i] { out += Array(String(Unicode.Scalar(c)!).utf8) }
            for s in sequences[i] ?? [] {
                out.append(0xFE)
                for c in s { out += Array(String(Unicode.Scalar(c)!).utf8) }
            }
            out.append(0xFF)
        }
        return out
    }
}

func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

/// Test glyphs: glyph 0 empty, 46 (`.`) a dot of two pixels, every other
/// a pseudo-random pattern of its own (runs of every length, rows that
/// repeat in pairs and rows that do not).
func patternGlyphs(count: Int, width: Int, height: Int) -> [[UInt32]] {
    let full = UInt32((UInt64(1) << UInt64(width)) - 1)
    return (0..<count).map { i in
        (0..<height).map { y in
            if i == 0 { return 0 }
            if i == 46 { return y == height - 2 ? 0b11 << UInt32(width / 2) : 0 }
            var h = UInt32(truncatingIfNeeded: i &* 2_654_435_761) ^ UInt32(y / 2 &* 40503)
            h ^= h >> 13
            h = h &* 0x5BD1_E995
            return (h ^ (h >> 15)) & full
        }
    }
}

/// An 8x16 PSF1 font of 512 glyphs mapping Latin-1 to glyphs 0...255 and
/// a few more, U+FFFD and U+2026 included; glyph 200 also lists a sequence.
func psf1Fixture() -> PSFFixture {
    var table: [[UInt32]] = (0..<512).map { $0 < 256 ? [UInt32($0)] : [] }
    table[300] = [0x2026]
    table[301] = [0xFFFD]
    table[302] = [0x0391, 0x0041]  // Alpha, and a second A (the first listed, glyph 65, wins)
    return PSFFixture(
        width: 8, height: 16, glyphs: patternGlyphs(count: 512, width: 8, height: 16),
        table: table, sequences: [200: [[0x45, 0x301]]])
}

/// A 12x24 PSF2 font of 128 glyphs for ASCII, a Euro and a Cyrillic letter,
/// with no U+FFFD and no U+2026 (so `?` and "..." stand in).
func psf2Fixture() -> PSFFixture {
    var table: [[UInt32]] = (0..<128).map { [UInt32($0)] }
    table[127] = [0x20AC, 0x0416]
    return PSFFixture(
        width: 12, height: 24, glyphs: patternGlyphs(count: 128, width: 12, height: 24),
        table: table, sequences: [100: [[0x64, 0x30C], [0x64, 0x323]]])
}

/// `bytes` compressed as one gzip stream (zlib, window bits 15 + 16).
func gzip(_ bytes: [UInt8]) -> [UInt8] {
    var stream = z_stream()
    var rc = deflateInit2_(
        &stream, 9, Z_DEFLATED, MAX_WBITS + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
        Int32(MemoryLayout<z_stream>.size))
    precondition(rc == Z_OK)
    defer { deflateEnd(&stream) }
    var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
    var input = bytes
    rc = input.withUnsafeMutableBufferPointer { src in
        out.withUnsafeMutableBufferPointer { dst in
            stream.next_in = src.baseAddress
            stream.avail_in = uInt(src.count)
            stream.next_out = dst.baseAddress
            stream.avail_out = uInt(dst.count)
            return deflate(&stream, Z_FINISH)
        }
    }
    precondition(rc == Z_STREAM_END)
    return Array(out[0..<Int(stream.total_out)])
}

/// Console fonts installed on this machine (console-setup's and kbd's), or
/// those under `$FBTEXT_CONSOLEFONTS`.
func installedConsoleFonts() -> [String] {
    let env = ProcessInfo.processInfo.environment["FBTEXT_CONSOLEFONTS"]
    let dirs = env.map { [$0] } ?? ["/usr/share/consolefonts", "/usr/share/kbd/consolefonts"]
    var paths: [String] = []
    for dir in dirs {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        for name in names.sorted() where name.contains(".psf") || name.hasSuffix(".gz") {
            paths.append((dir as NSString).appendingPathComponent(name))
        }
    }
    return paths
}
