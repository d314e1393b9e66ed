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
@inline(__always)
func blendRGB(_ src: UInt32, _ dst: UInt32, _ m: UInt32) -> UInt32 {
    let inv = 255 &- m
    let r = div255((src >> 16 & 0xFF) &* m &+ (dst >> 16 & 0xFF) &* inv)
    let g = div255((src >> 8 & 0xFF) &* m &+ (dst >> 8 & 0xFF) &* inv)
    let b = div255((src & 0xFF) &* m &+ (dst & 0xFF) &* inv)
    return r << 16 | g << 8 | b
}
