/// Why a picture could not be encoded.
package enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Width or height is not positive, or the pixel count overflows.
    case invalidSize(width: Int, height: Int)
    /// The byte count is not `width * height * 3`.
    case pixelCountMismatch(expected: Int, actual: Int)
    /// zlib returned this error code (for example `Z_MEM_ERROR`, -4).
    case compressionFailed(code: Int32)
    /// The sink of a streamed encode could not take the bytes (it knows why).
    case outputFailed

    package var description: String {
        switch self {
        case .invalidSize(let w, let h):
            return "invalid picture size \(w)x\(h)"
        case .pixelCountMismatch(let expected, let actual):
            return "expected \(expected) bytes of RGB pixels, got \(actual)"
        case .compressionFailed(let code):
            return code == -4 ? "out of memory while compressing" : "zlib error \(code)"
        case .outputFailed:
            return "the file could not be written"
        }
    }
}

/// The file formats fbanim writes, chosen by the output file's extension.
package enum ImageFileFormat: String, CaseIterable, Sendable {
    case png, ppm

    /// The format named by a path's extension (`.png`, `.ppm`, any case), or `nil`.
    package init?(path: String) {
        // Only a dot in the last path component starts an extension.
        guard let dot = path.lastIndex(of: "."),
            !path[dot...].contains("/")
        else { return nil }
        self.init(rawValue: String(path[path.index(after: dot)...]).lowercased())
    }

    /// Encodes packed 8-bit RGB (`width * height * 3` bytes, rows top to bottom) as a file.
    package func encode(rgb: [UInt8], width: Int, height: Int) throws(ImageError) -> [UInt8] {
        switch self {
        case .png: return try encodePNG(rgb: rgb, width: width, height: height)
        case .ppm: return try encodePPM(rgb: rgb, width: width, height: height)
        }
    }
}

/// Checks that `rgb` holds exactly `width * height` packed RGB pixels.
func validateRGB(_ rgb: [UInt8], width: Int, height: Int) throws(ImageError) {
    try checkSize(width: width, height: height)
    let bytes = width * height * 3
    guard rgb.count == bytes else { throw .pixelCountMismatch(expected: bytes, actual: rgb.count) }
}
