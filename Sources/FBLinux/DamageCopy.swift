import FBRaster

/// Copies pixels between surfaces of one format: the shadow buffer to device
/// memory, or one output's picture to another's.
///
/// Plain row copies (`memcpy`), no conversion: both backends draw in the
/// device's own format, so a present moves only bytes.
enum DamageCopy {
    /// Copies each rectangle of `source` (clipped to it) to `destination`,
    /// moved by `(dx, dy)` and clipped to the destination.
    /// - Precondition: both surfaces have the same pixel format.
    /// - Returns: the pixels copied.
    @discardableResult
    static func copy(
        _ rects: [IntRect], from source: Surface, to destination: Surface, dx: Int = 0, dy: Int = 0
    ) -> Int {
        precondition(source.format == destination.format, "copy between different pixel formats")
        let bpp = source.format.bytesPerPixel
        var copied = 0
        for rect in rects {
            var r = rect.intersection(source.bounds)
            // Clip the moved rectangle to the destination, then move it back.
            let moved = IntRect(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height)
                .intersection(destination.bounds)
            r = IntRect(x: moved.x - dx, y: moved.y - dy, width: moved.width, height: moved.height)
            if r.isEmpty { continue }
            let bytes = r.width * bpp
            var from = UnsafeRawPointer(source.base + r.y * source.stride + r.x * bpp)
            var to = destination.base + moved.y * destination.stride + moved.x * bpp
            for _ in 0..<r.height {
                to.copyMemory(from: from, byteCount: bytes)
                from += source.stride
                to += destination.stride
            }
            copied += r.width * r.height
        }
        return copied
    }

    /// Fills all of `destination` with the encoded pixel at `(x, y)` of
    /// `source` (the background colour, for the margins of a larger screen).
    static func fill(_ destination: Surface, withPixelOf source: Surface, x: Int, y: Int) {
        let bpp = source.format.bytesPerPixel
        let pixel = UnsafeRawPointer(source.base + y * source.stride + x * bpp)
        var row = destination.base
        for _ in 0..<destination.height {
            var p = row
            for _ in 0..<destination.width {
                p.copyMemory(from: pixel, byteCount: bpp)
                p += bpp
            }
            row += destination.stride
        }
    }

    /// The offset that centres a `inner`-sized picture on an `outer`-sized
    /// screen (negative when the screen is smaller: the picture's middle shows).
    static func centring(_ inner: (Int, Int), on outer: (Int, Int)) -> (dx: Int, dy: Int) {
        ((outer.0 - inner.0) / 2, (outer.1 - inner.1) / 2)
    }
}
