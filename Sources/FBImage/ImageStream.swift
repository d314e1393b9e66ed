/// Encoding a picture row by row: memory for a row and zlib's state, never
/// for the whole picture or the whole file.

/// Gives the pixels of row `y` (0 at the top) as packed 8-bit RGB into
/// `out` (`width * 3` bytes).
package typealias RGBRowSource = (_ y: Int, _ out: UnsafeMutableBufferPointer<UInt8>) -> Void

/// Takes the next bytes of the file; returns `false` when they could not be
/// written (the encoder then stops with `ImageError.outputFailed`; the sink
/// keeps the reason).
package typealias ByteSink = (_ bytes: UnsafeRawBufferPointer) -> Bool

extension ImageFileFormat {
    /// Encodes a `width` x `height` picture whose rows `row` gives, top to
    /// bottom, handing the file's bytes to `sink` as they are made: the
    /// same bytes as `encode(rgb:width:height:)`.
    /// - Throws: `ImageError.invalidSize`, `.compressionFailed`, or
    ///   `.outputFailed` when `sink` returned `false`.
    package func encode(
        width: Int, height: Int, rows row: RGBRowSource, to sink: ByteSink
    ) throws(ImageError) {
        try checkSize(width: width, height: height)
        switch self {
        case .png: try streamPNG(width: width, height: height, rows: row, to: sink)
        case .ppm: try streamPPM(width: width, height: height, rows: row, to: sink)
        }
    }
}

/// Checks that a `width` x `height` RGB picture has a byte count that fits in an `Int`.
func checkSize(width: Int, height: Int) throws(ImageError) {
    guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
    let (pixels, o1) = width.multipliedReportingOverflow(by: height)
    let (_, o2) = pixels.multipliedReportingOverflow(by: 3)
    guard !o1, !o2 else { throw .invalidSize(width: width, height: height) }
}

/// Hands `bytes` to `sink`.
func emit(_ bytes: [UInt8], to sink: ByteSink) throws(ImageError) {
    let ok = bytes.withUnsafeBytes { sink($0) }
    guard ok else { throw .outputFailed }
}

/// P6: the header, then the rows as they come.
func streamPPM(width: Int, height: Int, rows row: RGBRowSource, to sink: ByteSink)
    throws(ImageError)
{
    try emit(Array("P6\n\(width) \(height)\n255\n".utf8), to: sink)
    var line = [UInt8](repeating: 0, count: width * 3)
    for y in 0..<height {
        let ok = line.withUnsafeMutableBufferPointer { out in
            row(y, out)
            return sink(UnsafeRawBufferPointer(out))
        }
        guard ok else { throw ImageError.outputFailed }
    }
}
