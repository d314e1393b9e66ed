/// The one rounding division by 255 that every blend path uses.
///
/// Exact: returns `x / 255` rounded to nearest (halves up) for every
/// `x` in `0...65535`, which covers every product of two bytes and every
/// blend sum `s * m + d * (255 - m)`. Tested over all byte pairs.
@inline(__always)
public func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}

/// Source-over of a colour channel `s` with effective opacity `m` onto an
/// opaque destination channel `d`: `(s * m + d * (255 - m)) / 255`, rounded once.
///
/// This is premultiplied source-over (the source premultiplied by `m`)
/// evaluated with a single `div255`, so every path rounds the same way.
@inline(__always)
public func blendChannel(_ s: UInt32, _ d: UInt32, _ m: UInt32) -> UInt32 {
    div255(s &* m &+ d &* (255 &- m))
}

/// `blendChannel` on the three channels of `0x00RRGGBB` words at once.
///
/// The channels ride in 16-bit lanes of one 64-bit word (no sum exceeds
/// 65535, so no lane carries into the next), and `div255` runs on all three
/// lanes at once: the very bytes of three `blendChannel` calls, in half the
/// instructions.
@inline(__always)
func blendRGB(_ src: UInt32, _ dst: UInt32, _ m: UInt32) -> UInt32 {
    @inline(__always) func lanes(_ v: UInt32) -> UInt64 {
        UInt64(v & 0xFF) | UInt64(v >> 8 & 0xFF) << 16 | UInt64(v >> 16 & 0xFF) << 32
    }
    let lowBytes: UInt64 = 0x0000_00FF_00FF_00FF
    let x = lanes(src) &* UInt64(m) &+ lanes(dst) &* UInt64(255 &- m)
    let t = x &+ 0x0000_0080_0080_0080
    let q = ((t &+ ((t >> 8) & lowBytes)) >> 8) & lowBytes
    return UInt32(truncatingIfNeeded: q) & 0xFF | UInt32(truncatingIfNeeded: q >> 8) & 0xFF00
        | UInt32(truncatingIfNeeded: q >> 16) & 0xFF_0000
}
