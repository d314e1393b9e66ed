/// Pixels fbanim draws into: a framebuffer, a dumb buffer, or memory.
///
/// Rows are `stride` bytes apart; `stride >= width * bytesPerPixel`. Bytes
/// past a row's last pixel (padding) are never written. A surface keeps its
/// `owner` alive (a `PixelBuffer`'s memory); over memory it does not own (a
/// mapped framebuffer) the owner is `nil` and whoever made it keeps the
/// memory mapped while the surface is used.
public struct Surface: @unchecked Sendable {
    public let base: UnsafeMutableRawPointer
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    public let format: PixelFormat
    /// What keeps `base` valid, if the surface is its only user.
    public let owner: AnyObject?

    /// - Precondition: `width, height > 0`, `stride >= width * format.bytesPerPixel`.
    public init(
        base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat,
        owner: AnyObject? = nil
    ) {
        precondition(width > 0 && height > 0, "surface size must be positive")
        precondition(stride >= width * format.bytesPerPixel, "stride shorter than a row")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self.owner = owner
    }

    /// The whole surface as a rectangle.
    public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// The pixel at `(x, y)` as `0x00RRGGBB` (16-bit channels expanded by bit replication).
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the surface")
        return withCodec(
            for: format,
            LoadPixel(p: UnsafeRawPointer(base + y * stride + x * format.bytesPerPixel)))
    }

    private struct LoadPixel: CodecWork {
        let p: UnsafeRawPointer
        func run<C: PixelCodec>(_: C.Type) -> UInt32 { C.load(p) }
    }

    /// The picture as packed 8-bit RGB, row after row, no padding (for PNG and PPM).
    public func rgbBytes() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, count in
            let rowBytes = width * 3
            for y in 0..<height {
                rgbRow(
                    y,
                    into: UnsafeMutableBufferPointer(
                        rebasing: out[y * rowBytes..<(y + 1) * rowBytes]))
            }
            count = width * height * 3
        }
    }

    /// Row `y` as packed 8-bit RGB into `out` (`width * 3` bytes): a file
    /// encoder takes the picture a row at a time, without a copy of it all.
    public func rgbRow(_ y: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        precondition(y >= 0 && y < height && out.count >= width * 3, "row outside the surface")
        withCodec(
            for: format, RGBRow(row: UnsafeRawPointer(base + y * stride), width: width, out: out))
    }

    private struct RGBRow: CodecWork {
        let row: UnsafeRawPointer
        let width: Int
        let out: UnsafeMutableBufferPointer<UInt8>

        func run<C: PixelCodec>(_: C.Type) {
            var p = row
            var o = 0
            for _ in 0..<width {
                let v = C.load(p)
                out[o] = UInt8(truncatingIfNeeded: v >> 16)
                out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                out[o + 2] = UInt8(truncatingIfNeeded: v)
                o += 3
                p += C.bytesPerPixel
            }
        }
    }
}

/// A surface in memory that owns its pixels (zeroed at creation).
public final class PixelBuffer: @unchecked Sendable {
    /// The pixels; the surface keeps the memory alive, so
    /// `renderFrame(...).surface.rgbBytes()` is safe.
    public let surface: Surface
    private let storage: PixelStorage

    /// - Parameter stride: bytes per row; by default `width * bytesPerPixel`.
    public init(width: Int, height: Int, format: PixelFormat, stride: Int? = nil) {
        let rowBytes = stride ?? width * format.bytesPerPixel
        storage = PixelStorage(byteCount: rowBytes * height)
        surface = Surface(
            base: storage.bytes.baseAddress!, width: width, height: height, stride: rowBytes,
            format: format, owner: storage)
    }

    /// Every byte of the buffer, padding included.
    public var bytes: UnsafeMutableRawBufferPointer { storage.bytes }

    /// The picture as packed 8-bit RGB (see `Surface.rgbBytes()`).
    public func rgbBytes() -> [UInt8] { surface.rgbBytes() }
}

/// Zeroed memory for pixels, freed with its last reference.
final class PixelStorage: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer

    init(byteCount: Int) {
        bytes = .allocate(byteCount: max(byteCount, 1), alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit { bytes.deallocate() }
}
