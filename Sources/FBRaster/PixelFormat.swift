/// A pixel layout of a small display's framebuffer, named after its DRM fourcc.
///
/// Every layout is little endian, as the kernel's `drm_fourcc.h` defines it:
/// the name lists channels from the most significant bit of the pixel word.
///
/// | format     | bytes | word, most significant first | bytes in memory |
/// |------------|-------|------------------------------|-----------------|
/// | `rgb565`   | 2     | R5 G6 B5                     | GGGBBBBB RRRRRGGG |
/// | `bgr565`   | 2     | B5 G6 R5                     | GGGRRRRR BBBBBGGG |
/// | `xrgb8888` | 4     | X8 R8 G8 B8                  | B G R X         |
/// | `xbgr8888` | 4     | X8 B8 G8 R8                  | R G B X         |
/// | `argb8888` | 4     | A8 R8 G8 B8                  | B G R A         |
/// | `rgb888`   | 3     | R8 G8 B8                     | B G R           |
///
/// fbanim writes `0xFF` into X bytes, and its pictures are opaque, so A is
/// always `0xFF` too. 16-bit formats are written with ordered dithering
/// (see `Dither.swift`).
public enum PixelFormat: String, CaseIterable, Sendable {
    case rgb565, bgr565, xrgb8888, xbgr8888, argb8888, rgb888

    /// Bytes one pixel takes in memory.
    public var bytesPerPixel: Int {
        switch self {
        case .rgb565, .bgr565: 2
        case .rgb888: 3
        case .xrgb8888, .xbgr8888, .argb8888: 4
        }
    }

    /// The lower-case DRM name, as the command line spells it.
    public var name: String { rawValue }

    /// The format with that lower-case DRM name, or `nil`.
    public init?(name: String) { self.init(rawValue: name) }

    /// The DRM fourcc code (`fourcc_code(a, b, c, d)`) of this format.
    public var fourcc: UInt32 {
        func code(_ s: StaticString) -> UInt32 {
            let p = s.utf8Start
            return UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
        }
        switch self {
        case .rgb565: return code("RG16")
        case .bgr565: return code("BG16")
        case .xrgb8888: return code("XR24")
        case .xbgr8888: return code("XB24")
        case .argb8888: return code("AR24")
        case .rgb888: return code("RG24")
        }
    }
}
