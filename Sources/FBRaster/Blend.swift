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
/// Red and blue ride in the two 16-bit lanes of one 32-bit word and green
/// in the middle of another (no sum exceeds 65535, so no lane carries into
/// the next), and `div255` runs on the lanes in place: the very bytes of
/// three `blendChannel` calls, in half the instructions. The top byte of
/// either word is ignored.
@inline(__always)
func blendRGB(_ src: UInt32, _ dst: UInt32, _ m: UInt32) -> UInt32 {
    let n = 255 &- m
    // (x + 128) in each lane; green's lane is its sum times 256.
    let rb = (src & 0xFF_00FF) &* m &+ (dst & 0xFF_00FF) &* n &+ 0x0080_0080
    let g = (src & 0xFF00) &* m &+ (dst & 0xFF00) &* n &+ 0x8000
    // div255: (t + (t >> 8)) >> 8 in each lane.
    let rbq = ((rb &+ ((rb >> 8) & 0xFF_00FF)) >> 8) & 0xFF_00FF
    let gq = ((g &+ ((g >> 8) & 0xFF_FF00)) >> 8) & 0xFF00
    return rbq | gq
}
