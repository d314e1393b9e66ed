/// Work generic over a pixel format's code: `withCodec(for:_:)` runs it
/// specialised for the format's `PixelCodec`.
///
/// Swift has no generic closures, so the work is a small struct whose
/// `run` takes the codec type; its captured values are its fields. The
/// compiler specialises `run` per codec, so the loops inside stay plain.
protocol CodecWork {
    associatedtype Result
    func run<C: PixelCodec>(_: C.Type) -> Result
}

/// Runs `work` with the codec of `format`: the one place a pixel format
/// is mapped to its code (ARGB8888 is written as XRGB8888, opaque).
@inline(__always)
func withCodec<W: CodecWork>(for format: PixelFormat, _ work: W) -> W.Result {
    switch format {
    case .rgb565: work.run(RGB565Codec.self)
    case .bgr565: work.run(BGR565Codec.self)
    case .xrgb8888, .argb8888: work.run(XRGB8888Codec.self)
    case .xbgr8888: work.run(XBGR8888Codec.self)
    case .rgb888: work.run(RGB888Codec.self)
    }
}
