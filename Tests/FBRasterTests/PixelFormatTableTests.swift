// Per-format tables in the style of the Linux kernel's drm_format_helper_test:
// well-known colours written by `Rasterizer.clear`, and the raw bytes each
// format must hold in memory, worked out by hand from the DRM fourcc
// definitions (drm_fourcc.h: every format is little endian, channels named
// from the most significant bit of the pixel word).

import Testing

@testable import FBRaster

/// One row of a table: an input colour and the bytes one pixel must hold.
struct FormatCase: CustomTestStringConvertible, Sendable {
    let format: PixelFormat
    let rgb: UInt32
    let bytes: [UInt8]
    var testDescription: String { "\(format.name) 0x\(String(rgb, radix: 16))" }
}

/// Colours every format stores exactly (for 16-bit formats: channels that are
/// levels of 5 or 6 bits expanded by bit replication, so nothing dithers).
///
/// rgb565 word = R5 << 11 | G6 << 5 | B5, stored low byte first:
///   red F8 00 00 -> R 31 -> 0xF800 -> 00 F8; green -> 0x07E0 -> E0 07;
///   blue -> 0x001F -> 1F 00; 0x848284 = levels (16, 32, 16): 16 << 3 | 16 >> 2
///   = 0x84, 32 << 2 | 32 >> 4 = 0x82 -> 0x8000 | 0x0400 | 0x0010 = 0x8410 -> 10 84;
///   0x080408 = levels (1, 1, 1) -> 0x0821 -> 21 08;
///   0x840008 = levels (16, 0, 1) -> 0x8001 -> 01 80.
/// bgr565 word = B5 << 11 | G6 << 5 | R5: red -> 0x001F -> 1F 00,
///   blue -> 0xF800 -> 00 F8, 0x840008 -> B 1 << 11 | R 16 = 0x0810 -> 10 08.
/// xrgb8888 word = X R G B -> memory B G R X (X written as 0xFF);
/// argb8888 the same with A = 0xFF; xbgr8888 word X B G R -> memory R G B X;
/// rgb888 word R G B (24 bits) -> memory B G R.
let formatTable: [FormatCase] = [
    // rgb565
    FormatCase(format: .rgb565, rgb: 0x000000, bytes: [0x00, 0x00]),
    FormatCase(format: .rgb565, rgb: 0xFFFFFF, bytes: [0xFF, 0xFF]),
    FormatCase(format: .rgb565, rgb: 0xFF0000, bytes: [0x00, 0xF8]),
    FormatCase(format: .rgb565, rgb: 0x00FF00, bytes: [0xE0, 0x07]),
    FormatCase(format: .rgb565, rgb: 0x0000FF, bytes: [0x1F, 0x00]),
    FormatCase(format: .rgb565, rgb: 0xFFFF00, bytes: [0xE0, 0xFF]),
    FormatCase(format: .rgb565, rgb: 0x00FFFF, bytes: [0xFF, 0x07]),
    FormatCase(format: .rgb565, rgb: 0xFF00FF, bytes: [0x1F, 0xF8]),
    FormatCase(format: .rgb565, rgb: 0x848284, bytes: [0x10, 0x84]),
    FormatCase(format: .rgb565, rgb: 0x080408, bytes: [0x21, 0x08]),
    FormatCase(format: .rgb565, rgb: 0x840008, bytes: [0x01, 0x80]),
    // bgr565
    FormatCase(format: .bgr565, rgb: 0x000000, bytes: [0x00, 0x00]),
    FormatCase(format: .bgr565, rgb: 0xFFFFFF, bytes: [0xFF, 0xFF]),
    FormatCase(format: .bgr565, rgb: 0xFF0000, bytes: [0x1F, 0x00]),
    FormatCase(format: .bgr565, rgb: 0x00FF00, bytes: [0xE0, 0x07]),
    FormatCase(format: .bgr565, rgb: 0x0000FF, bytes: [0x00, 0xF8]),
    FormatCase(format: .bgr565, rgb: 0xFFFF00, bytes: [0xFF, 0x07]),
    FormatCase(format: .bgr565, rgb: 0x00FFFF, bytes: [0xE0, 0xFF]),
    FormatCase(format: .bgr565, rgb: 0x848284, bytes: [0x10, 0x84]),
    FormatCase(format: .bgr565, rgb: 0x840008, bytes: [0x10, 0x08]),
    // xrgb8888
    FormatCase(format: .xrgb8888, rgb: 0x000000, bytes: [0x00, 0x00, 0x00, 0xFF]),
    FormatCase(format: .xrgb8888, rgb: 0xFFFFFF, bytes: [0xFF, 0xFF, 0xFF, 0xFF]),
    FormatCase(format: .xrgb8888, rgb: 0xFF0000, bytes: [0x00, 0x00, 0xFF, 0xFF]),
    FormatCase(format: .xrgb8888, rgb: 0x00FF00, bytes: [0x00, 0xFF, 0x00, 0xFF]),
    FormatCase(format: .xrgb8888, rgb: 0x0000FF, bytes: [0xFF, 0x00, 0x00, 0xFF]),
    FormatCase(format: .xrgb8888, rgb: 0x808080, bytes: [0x80, 0x80, 0x80, 0xFF]),
    FormatCase(format: .xrgb8888, rgb: 0x123456, bytes: [0x56, 0x34, 0x12, 0xFF]),
    // argb8888 (fbanim's pictures are opaque: A = 0xFF)
    FormatCase(format: .argb8888, rgb: 0x000000, bytes: [0x00, 0x00, 0x00, 0xFF]),
    FormatCase(format: .argb8888, rgb: 0xFF0000, bytes: [0x00, 0x00, 0xFF, 0xFF]),
    FormatCase(format: .argb8888, rgb: 0x0000FF, bytes: [0xFF, 0x00, 0x00, 0xFF]),
    FormatCase(format: .argb8888, rgb: 0x123456, bytes: [0x56, 0x34, 0x12, 0xFF]),
    // xbgr8888
    FormatCase(format: .xbgr8888, rgb: 0x000000, bytes: [0x00, 0x00, 0x00, 0xFF]),
    FormatCase(format: .xbgr8888, rgb: 0xFFFFFF, bytes: [0xFF, 0xFF, 0xFF, 0xFF]),
    FormatCase(format: .xbgr8888, rgb: 0xFF0000, bytes: [0xFF, 0x00, 0x00, 0xFF]),
    FormatCase(format: .xbgr8888, rgb: 0x00FF00, bytes: [0x00, 0xFF, 0x00, 0xFF]),
    FormatCase(format: .xbgr8888, rgb: 0x0000FF, bytes: [0x00, 0x00, 0xFF, 0xFF]),
    FormatCase(format: .xbgr8888, rgb: 0x808080, bytes: [0x80, 0x80, 0x80, 0xFF]),
    FormatCase(format: .xbgr8888, rgb: 0x123456, bytes: [0x12, 0x34, 0x56, 0xFF]),
    // rgb888
    FormatCase(format: .rgb888, rgb: 0x000000, bytes: [0x00, 0x00, 0x00]),
    FormatCase(format: .rgb888, rgb: 0xFFFFFF, bytes: [0xFF, 0xFF, 0xFF]),
    FormatCase(format: .rgb888, rgb: 0xFF0000, bytes: [0x00, 0x00, 0xFF]),
    FormatCase(format: .rgb888, rgb: 0x00FF00, bytes: [0x00, 0xFF, 0x00]),
    FormatCase(format: .rgb888, rgb: 0x0000FF, bytes: [0xFF, 0x00, 0x00]),
    FormatCase(format: .rgb888, rgb: 0x808080, bytes: [0x80, 0x80, 0x80]),
    FormatCase(format: .rgb888, rgb: 0x123456, bytes: [0x56, 0x34, 0x12]),
]

/// Decodes a 16-bit pixel by hand: (hi5, g6, lo5) levels.
func levels565(_ lo: UInt8, _ hi: UInt8) -> (UInt32, UInt32, UInt32) {
    let v = UInt32(lo) | UInt32(hi) << 8
    return (v >> 11, v >> 5 & 0x3F, v & 0x1F)
}

/// Bit replication, written out: a 5-bit level q shows as q << 3 | q >> 2, a 6-bit as q << 2 | q >> 4.
func expand5(_ q: UInt32) -> UInt32 { q << 3 | q >> 2 }
func expand6(_ q: UInt32) -> UInt32 { q << 2 | q >> 4 }

@Suite("Pixel formats: byte tables")
struct PixelFormatTableTests {
    @Test("clear writes the hand-worked bytes into every pixel", arguments: formatTable)
    func clearTable(_ c: FormatCase) {
        // 9 x 5: more than one dither block in each direction, and an odd width.
        let buffer = PixelBuffer(width: 9, height: 5, format: c.format)
        defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
        Rasterizer().clear(buffer.surface, to: Color(rgb: c.rgb))
        let bpp = c.format.bytesPerPixel
        #expect(bpp == c.bytes.count)
        for y in 0..<5 {
            for x in 0..<9 {
                let at = y * buffer.surface.stride + x * bpp
                let got = Array(buffer.bytes[at..<(at + bpp)])
                #expect(got == c.bytes, "pixel (\(x), \(y))")
            }
        }
        // Reading back gives the colour (it is exact in every format here).
        #expect(buffer.surface.pixel(x: 3, y: 2) == c.rgb)
        let rgb = buffer.surface.rgbBytes()
        #expect(rgb.count == 9 * 5 * 3)
        #expect(
            Array(rgb[0..<3]) == [
                UInt8(c.rgb >> 16), UInt8(c.rgb >> 8 & 0xFF), UInt8(c.rgb & 0xFF),
            ])
    }

    @Test("fourcc codes are DRM's fourcc_code(a, b, c, d)")
    func fourccs() {
        // 'R' 'G' '1' '6' = 0x52 0x47 0x31 0x36, least significant byte first.
        #expect(PixelFormat.rgb565.fourcc == 0x3631_4752)
        #expect(PixelFormat.bgr565.fourcc == 0x3631_4742)
        #expect(PixelFormat.xrgb8888.fourcc == 0x3432_5258)
        #expect(PixelFormat.xbgr8888.fourcc == 0x3432_4258)
        #expect(PixelFormat.argb8888.fourcc == 0x3432_5241)
        #expect(PixelFormat.rgb888.fourcc == 0x3432_4752)
        for f in PixelFormat.allCases { #expect(PixelFormat(name: f.name) == f) }
        #expect(PixelFormat(name: "RGB565") == nil)
    }

    @Test(
        "0x808080 in rgb565 and bgr565: the 4x4 Bayer block, worked out by hand",
        arguments: [PixelFormat.rgb565, .bgr565])
    func greyBlock(format: PixelFormat) {
        // 0x80 lies between 5-bit levels 15 (0x7B) and 16 (0x84), 5/9 of the
        // way: the upper level where (0x80 - 0x7B) * 32 > (2 rank + 1) * 9,
        // i.e. ranks 0...8. For 6 bits, between 31 (0x7D) and 32 (0x82),
        // 3/5 of the way: ranks 0...9. Ranks, row-major:
        //   0 8 2 10 / 12 4 14 6 / 3 11 1 9 / 15 7 13 5
        // rank <= 8: (16, 32, 16) = 0x8410; rank 9: (15, 32, 15) = 0x7C0F;
        // rank >= 10: (15, 31, 15) = 0x7BEF. R = B, so bgr565 is the same.
        let expected: [UInt16] = [
            0x8410, 0x8410, 0x8410, 0x7BEF,
            0x7BEF, 0x8410, 0x7BEF, 0x8410,
            0x8410, 0x7BEF, 0x8410, 0x7C0F,
            0x7BEF, 0x8410, 0x7BEF, 0x8410,
        ]
        let buffer = PixelBuffer(width: 8, height: 8, format: format)
        defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
        Rasterizer().clear(buffer.surface, to: Color(rgb: 0x808080))
        for y in 0..<8 {
            for x in 0..<8 {
                let at = y * buffer.surface.stride + x * 2
                let word = UInt16(buffer.bytes[at]) | UInt16(buffer.bytes[at + 1]) << 8
                #expect(word == expected[(y & 3) * 4 + (x & 3)], "pixel (\(x), \(y))")
            }
        }
        // The block's mean, per channel: R (9 x 0x84 + 7 x 0x7B) / 16 = 128.06,
        // G (10 x 0x82 + 6 x 0x7D) / 16 = 128.125: within 1/16 of a step of 128.
        #expect(buffer.surface.pixel(x: 0, y: 0) == 0x848284)
        #expect(buffer.surface.pixel(x: 3, y: 2) == 0x7B827B)
        #expect(buffer.surface.pixel(x: 3, y: 0) == 0x7B7D7B)
    }

    @Test(
        "16-bit dithering of every channel value: exact levels never dither, others average back",
        arguments: [PixelFormat.rgb565, .bgr565])
    func ditherAllValues(format: PixelFormat) {
        let rasterizer = Rasterizer()
        let buffer = PixelBuffer(width: 4, height: 4, format: format)
        defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
        for v in UInt32(0)...255 {
            // Three different values per colour, so every channel sees every value.
            let r = v
            let g = (v &+ 85) & 0xFF
            let b = (v &+ 170) & 0xFF
            rasterizer.clear(buffer.surface, to: Color(rgb: r << 16 | g << 8 | b))
            var sums = (0.0, 0.0, 0.0)
            var seen: [Set<UInt32>] = [[], [], []]
            for y in 0..<4 {
                for x in 0..<4 {
                    let at = y * buffer.surface.stride + x * 2
                    let (hi, mid, lo) = levels565(buffer.bytes[at], buffer.bytes[at + 1])
                    let (qr, qb) = format == .rgb565 ? (hi, lo) : (lo, hi)
                    let e = (expand5(qr), expand6(mid), expand5(qb))
                    sums.0 += Double(e.0)
                    sums.1 += Double(e.1)
                    sums.2 += Double(e.2)
                    seen[0].insert(qr)
                    seen[1].insert(mid)
                    seen[2].insert(qb)
                    // Reading back expands by bit replication.
                    #expect(buffer.surface.pixel(x: x, y: y) == e.0 << 16 | e.1 << 8 | e.2)
                }
            }
            for (channel, value, bits) in [(0, r, 5), (1, g, 6), (2, b, 5)] {
                let expand = bits == 5 ? expand5 : expand6
                let top = UInt32(1 << bits) - 1
                // The two levels around the value, by the definition.
                let lo = (0...top).last { expand($0) <= value }!
                let mean = [sums.0, sums.1, sums.2][channel] / 16
                if expand(lo) == value {
                    #expect(
                        seen[channel] == [lo],
                        "\(format) channel \(channel) value \(value) is a level: no dither")
                } else {
                    let step = Double(expand(lo + 1) - expand(lo))
                    #expect(
                        seen[channel].isSubset(of: [lo, lo + 1]),
                        "\(format) channel \(channel) value \(value)")
                    #expect(
                        abs(mean - Double(value)) <= step / 16,
                        "\(format) channel \(channel) value \(value): mean \(mean)")
                }
            }
        }
    }

    @Test(
        "rgbBytes matches pixel() and packs rows without padding", arguments: PixelFormat.allCases)
    func rgbBytesReadBack(format: PixelFormat) {
        let buffer = PixelBuffer(
            width: 7, height: 6, format: format, stride: 7 * format.bytesPerPixel + 5)
        defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
        let r = Rasterizer()
        r.clear(buffer.surface, to: Color(rgb: 0x123456))
        r.fill(
            .disc(center: Point(3.3, 2.9), radius: Fixed(2.6)),
            paint: .solid(Color(rgb: 0xFFA040, alpha: 180)), on: buffer.surface)
        let rgb = buffer.surface.rgbBytes()
        #expect(rgb.count == 7 * 6 * 3)
        for y in 0..<6 {
            for x in 0..<7 {
                let p = buffer.surface.pixel(x: x, y: y)
                let i = (y * 7 + x) * 3
                #expect(
                    rgb[i] == UInt8(p >> 16) && rgb[i + 1] == UInt8(p >> 8 & 0xFF)
                        && rgb[i + 2] == UInt8(p & 0xFF))
            }
        }
    }

    @Test("blending in each format: half-opaque red over blue, by hand")
    func blendBytes() {
        // m = div255(255 * 128) = 128: R = round(255 * 128 / 255) = 128,
        // B = round(255 * 127 / 255) = 127.
        // Blue alone: xrgb8888 FF 00 00 FF, xbgr8888 00 00 FF FF, rgb888 FF 00 00.
        let expected: [(PixelFormat, [UInt8], [UInt8])] = [
            (.xrgb8888, [0x7F, 0x00, 0x80, 0xFF], [0xFF, 0x00, 0x00, 0xFF]),
            (.argb8888, [0x7F, 0x00, 0x80, 0xFF], [0xFF, 0x00, 0x00, 0xFF]),
            (.xbgr8888, [0x80, 0x00, 0x7F, 0xFF], [0x00, 0x00, 0xFF, 0xFF]),
            (.rgb888, [0x7F, 0x00, 0x80], [0xFF, 0x00, 0x00]),
        ]
        for (format, bytes, background) in expected {
            let buffer = PixelBuffer(width: 6, height: 6, format: format)
            defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
            let r = Rasterizer()
            r.clear(buffer.surface, to: Color(rgb: 0x0000FF))
            var square = Path()
            square.move(to: Point(1, 1))
            square.line(to: Point(5, 1))
            square.line(to: Point(5, 5))
            square.line(to: Point(1, 5))
            square.close()
            r.fill(
                .path(square), paint: .solid(Color(rgb: 0xFF0000, alpha: 128)), on: buffer.surface)
            let bpp = format.bytesPerPixel
            let inside = 3 * buffer.surface.stride + 2 * bpp
            let outside = 0
            #expect(Array(buffer.bytes[inside..<(inside + bpp)]) == bytes, "\(format)")
            #expect(Array(buffer.bytes[outside..<(outside + bpp)]) == background, "\(format)")
        }
    }
}
