/// Reading and writing one pixel of a format, as `0x00RRGGBB`.
///
/// Span routines are generic over a codec and specialised per format, so the
/// format is chosen once per span, never per pixel. `dither` is the pixel's
/// cell of the 4x4 matrix, `(y & 3) * 4 + (x & 3)`; 8-bit formats ignore it.
/// Pointers may be unaligned (any stride is allowed).
protocol PixelCodec {
    static var bytesPerPixel: Int { get }
    static func load(_ p: UnsafeRawPointer) -> UInt32
    static func store(_ p: UnsafeMutableRawPointer, _ rgb: UInt32, dither: Int)
    /// Copies one encoded pixel as it is.
    static func copy(from: UnsafeRawPointer, to: UnsafeMutableRawPointer)
    /// Stores `count` pixels of an `xrgb8888` row (from column `x` of row
    /// `y`) in this format: `Convert`'s loop. `fields565` is
    /// `Dither.fields565`, read once by the caller.
    static func storeRow(
        fromXRGB from: UnsafeRawPointer, to: UnsafeMutableRawPointer, x: Int, count: Int, y: Int,
        fields565: UnsafePointer<UInt16>)
}

extension PixelCodec {
    /// The 32-bit word a 4-byte format stores for `rgb` (those formats do
    /// not dither), in memory order.
    @inline(__always)
    static func word(_ rgb: UInt32) -> UInt32 {
        var word: UInt32 = 0
        store(&word, rgb, dither: 0)
        return word
    }

    @inline(__always)
    static func copy(from: UnsafeRawPointer, to: UnsafeMutableRawPointer) {
        switch bytesPerPixel {
        case 2: to.storeBytes(of: from.loadUnaligned(as: UInt16.self), as: UInt16.self)
        case 4: to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
        default: to.copyMemory(from: from, byteCount: bytesPerPixel)
        }
    }

    /// 8-bit formats: no dither, a plain loop through the codec.
    @inline(__always)
    static func storeRow(
        fromXRGB from: UnsafeRawPointer, to: UnsafeMutableRawPointer, x: Int, count: Int, y: Int,
        fields565: UnsafePointer<UInt16>
    ) {
        Convert.words(Self.self, from, to, count)
    }
}

/// 16-bit value from 8-bit `r, g, b` through the dither tables.
@inline(__always)
private func pack565(_ hi: UInt32, _ g: UInt32, _ lo: UInt32, _ cell: Int) -> UInt16 {
    let base = cell &* 256
    let h = UInt16(Dither.to5[base &+ Int(hi)])
    let m = UInt16(Dither.to6[base &+ Int(g)])
    let l = UInt16(Dither.to5[base &+ Int(lo)])
    return h << 11 | m << 5 | l
}

@inline(__always)
private func unpack565(_ v: UInt32) -> (hi: UInt32, g: UInt32, lo: UInt32) {
    let h = v >> 11 & 0x1F
    let g = v >> 5 & 0x3F
    let l = v & 0x1F
    return (Dither.expand(h, bits: 5), Dither.expand(g, bits: 6), Dither.expand(l, bits: 5))
}

enum RGB565Codec: PixelCodec {
    static var bytesPerPixel: Int { 2 }
    @inline(__always) static func load(_ p: UnsafeRawPointer) -> UInt32 {
        let c = unpack565(UInt32(UInt16(littleEndian: p.loadUnaligned(as: UInt16.self))))
        return c.hi << 16 | c.g << 8 | c.lo
    }
    @inline(__always) static func store(_ p: UnsafeMutableRawPointer, _ rgb: UInt32, dither: Int) {
        let v = pack565(rgb >> 16 & 0xFF, rgb >> 8 & 0xFF, rgb & 0xFF, dither)
        p.storeBytes(of: v.littleEndian, as: UInt16.self)
    }
    /// R (source byte 2) in the top bits, B (byte 0) in the low.
    @inline(__always) static func storeRow(
        fromXRGB from: UnsafeRawPointer, to: UnsafeMutableRawPointer, x: Int, count: Int, y: Int,
        fields565: UnsafePointer<UInt16>
    ) {
        Convert.row16(from, to, x: x, count: count, y: y, fields565, hi: 2, lo: 0)
    }
}

enum BGR565Codec: PixelCodec {
    static var bytesPerPixel: Int { 2 }
    @inline(__always) static func load(_ p: UnsafeRawPointer) -> UInt32 {
        let c = unpack565(UInt32(UInt16(littleEndian: p.loadUnaligned(as: UInt16.self))))
        return c.lo << 16 | c.g << 8 | c.hi
    }
    @inline(__always) static func store(_ p: UnsafeMutableRawPointer, _ rgb: UInt32, dither: Int) {
        let v = pack565(rgb & 0xFF, rgb >> 8 & 0xFF, rgb >> 16 & 0xFF, dither)
        p.storeBytes(of: v.littleEndian, as: UInt16.self)
    }
    /// B (source byte 0) in the top bits, R (byte 2) in the low.
    @inline(__always) static func storeRow(
        fromXRGB from: UnsafeRawPointer, to: UnsafeMutableRawPointer, x: Int, count: Int, y: Int,
        fields565: UnsafePointer<UInt16>
    ) {
        Convert.row16(from, to, x: x, count: count, y: y, fields565, hi: 0, lo: 2)
    }
}

/// XRGB8888 and ARGB8888: the word is `0xFFRRGGBB` (opaque, X written as 0xFF).
enum XRGB8888Codec: PixelCodec {
    static var bytesPerPixel: Int { 4 }
    @inline(__always) static func load(_ p: UnsafeRawPointer) -> UInt32 {
        UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)) & 0xFF_FFFF
    }
    @inline(__always) static func store(_ p: UnsafeMutableRawPointer, _ rgb: UInt32, dither: Int) {
        p.storeBytes(of: (0xFF00_0000 | rgb).littleEndian, as: UInt32.self)
    }
}

enum XBGR8888Codec: PixelCodec {
    static var bytesPerPixel: Int { 4 }
    @inline(__always) static func load(_ p: UnsafeRawPointer) -> UInt32 {
        let v = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self))
        return (v & 0xFF) << 16 | (v & 0xFF00) | (v >> 16 & 0xFF)
    }
    @inline(__always) static func store(_ p: UnsafeMutableRawPointer, _ rgb: UInt32, dither: Int) {
        let v = 0xFF00_0000 | (rgb & 0xFF) << 16 | (rgb & 0xFF00) | (rgb >> 16 & 0xFF)
        p.storeBytes(of: v.littleEndian, as: UInt32.self)
    }
}

/// RGB888: three bytes in memory, B, G, R (the word `0xRRGGBB`, little endian).
enum RGB888Codec: PixelCodec {
    static var bytesPerPixel: Int { 3 }
    @inline(__always) static func load(_ p: UnsafeRawPointer) -> UInt32 {
        UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 16
            | UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) << 8
            | UInt32(p.load(as: UInt8.self))
    }
    @inline(__always) static func store(_ p: UnsafeMutableRawPointer, _ rgb: UInt32, dither: Int) {
        p.storeBytes(of: UInt8(truncatingIfNeeded: rgb), as: UInt8.self)
        p.storeBytes(of: UInt8(truncatingIfNeeded: rgb >> 8), toByteOffset: 1, as: UInt8.self)
        p.storeBytes(of: UInt8(truncatingIfNeeded: rgb >> 16), toByteOffset: 2, as: UInt8.self)
    }
}
