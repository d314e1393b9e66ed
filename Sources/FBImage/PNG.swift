import CZlib

/// Encodes packed 8-bit RGB as a PNG file: colour type 2, bit depth 8, no interlace.
///
/// Each row is filtered with "none" or "sub", whichever gives the smaller sum
/// of absolute byte values (the heuristic libpng and the PNG specification
/// recommend), then the rows are deflated by zlib as one stream. The stream
/// is stored in IDAT chunks of at most 1 MiB. No ancillary chunks are
/// written, so the same pixels always give the same bytes.
/// - Parameter rgb: `width * height * 3` bytes, rows top to bottom.
/// - Throws: `ImageError` for a bad size or when zlib fails (out of memory).
package func encodePNG(rgb: [UInt8], width: Int, height: Int) throws(ImageError) -> [UInt8] {
    try validateRGB(rgb, width: width, height: height)
    var out: [UInt8] = []
    try rgb.withUnsafeBufferPointer { (pixels) throws(ImageError) in
        let rowBytes = width * 3
        try streamPNG(
            width: width, height: height,
            rows: { y, row in
                row.baseAddress!.update(from: pixels.baseAddress! + y * rowBytes, count: rowBytes)
            },
            to: { bytes in
                out.append(contentsOf: bytes)
                return true
            })
    }
    return out
}

/// The PNG file of `encodePNG`, made row by row: `sink` gets the signature
/// and IHDR, then each IDAT chunk as soon as it is full, then IEND.
func streamPNG(width: Int, height: Int, rows row: RGBRowSource, to sink: ByteSink)
    throws(ImageError)
{
    // PNG stores dimensions as 31-bit unsigned numbers.
    guard width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
        throw .invalidSize(width: width, height: height)
    }
    var head: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var header: [UInt8] = []
    appendBigEndian(UInt32(width), to: &header)
    appendBigEndian(UInt32(height), to: &header)
    // Bit depth 8, colour type 2 (RGB), compression 0, filter method 0, no interlace.
    header += [8, 2, 0, 0, 0]
    appendChunk("IHDR", header[...], to: &head)
    try emit(head, to: sink)

    // The zlib stream, cut into IDAT chunks of `pngMaxChunkData` bytes.
    var idat: [UInt8] = []
    idat.reserveCapacity(pngMaxChunkData)
    var chunk: [UInt8] = []
    chunk.reserveCapacity(pngMaxChunkData + 12)
    var chunks = 0
    func flush() throws(ImageError) {
        chunk.removeAll(keepingCapacity: true)
        appendChunk("IDAT", idat[...], to: &chunk)
        try emit(chunk, to: sink)
        idat.removeAll(keepingCapacity: true)
        chunks += 1
    }
    try deflateFilteredRows(width: width, height: height, rows: row) { (bytes) throws(ImageError) in
        var rest = bytes[...]
        while !rest.isEmpty {
            let n = min(rest.count, pngMaxChunkData - idat.count)
            idat.append(contentsOf: rest.prefix(n))
            rest = rest.dropFirst(n)
            if idat.count == pngMaxChunkData { try flush() }
        }
    }
    if !idat.isEmpty || chunks == 0 { try flush() }
    var tail: [UInt8] = []
    appendChunk("IEND", [][...], to: &tail)
    try emit(tail, to: sink)
}

/// Largest IDAT chunk written; readers must accept any split of the stream.
let pngMaxChunkData = 1 << 20

/// PNG row filter types this encoder uses.
enum PNGFilter: UInt8 {
    case none = 0, sub = 1
}

/// Appends one chunk: length, type, data, CRC-32 of type and data.
private func appendChunk(_ type: StaticString, _ data: ArraySlice<UInt8>, to out: inout [UInt8]) {
    precondition(type.utf8CodeUnitCount == 4, "a PNG chunk type has four letters")
    appendBigEndian(UInt32(data.count), to: &out)
    var crc = crc32(0, nil, 0)
    let typeBytes = UnsafeBufferPointer(start: type.utf8Start, count: 4)
    out.append(contentsOf: typeBytes)
    crc = crc32(crc, typeBytes.baseAddress, 4)
    data.withUnsafeBufferPointer { d in
        if let base = d.baseAddress {
            crc = crc32(crc, base, uInt(d.count))
            out.append(contentsOf: d)
        }
    }
    appendBigEndian(UInt32(truncatingIfNeeded: crc), to: &out)
}

private func appendBigEndian(_ v: UInt32, to out: inout [UInt8]) {
    out += [
        UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8),
        UInt8(truncatingIfNeeded: v),
    ]
}

/// Filters every row and deflates the rows as one zlib stream, handing
/// what zlib makes to `take` as it comes (64 KiB at most a time).
private func deflateFilteredRows(
    width: Int, height: Int, rows source: RGBRowSource,
    take: (UnsafeBufferPointer<UInt8>) throws(ImageError) -> Void
) throws(ImageError) {
    var stream = z_stream()
    // Level 6 is zlib's default: on loader frames level 9 took 2 to 10 times
    // as long for files only 5 to 15 per cent smaller.
    let rc = deflateInit2_(
        &stream, 6, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
        Int32(MemoryLayout<z_stream>.size))
    guard rc == Z_OK else { throw .compressionFailed(code: rc) }
    defer { deflateEnd(&stream) }

    let rowBytes = width * 3
    var pixels = [UInt8](repeating: 0, count: rowBytes)
    var row = [UInt8](repeating: 0, count: rowBytes + 1)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)

    // Feeds `row` (nothing when finishing) to zlib and hands on what it emits.
    func pump(flush: Int32) throws(ImageError) {
        let finishing = flush == Z_FINISH
        var failure: ImageError?
        row.withUnsafeMutableBufferPointer { input in
            stream.next_in = finishing ? nil : input.baseAddress
            stream.avail_in = finishing ? 0 : uInt(input.count)
            chunk.withUnsafeMutableBufferPointer { output in
                while true {
                    stream.next_out = output.baseAddress
                    stream.avail_out = uInt(output.count)
                    let rc = deflate(&stream, flush)
                    let made = output.count - Int(stream.avail_out)
                    do throws(ImageError) {
                        try take(UnsafeBufferPointer(rebasing: output[0..<made]))
                    } catch {
                        failure = error
                        return
                    }
                    if rc == Z_STREAM_END { return }
                    guard rc == Z_OK else {
                        failure = .compressionFailed(code: rc)
                        return
                    }
                    // Room left in the output means zlib took all the input.
                    if !finishing && stream.avail_out != 0 { return }
                }
            }
        }
        if let failure { throw failure }
    }

    for y in 0..<height {
        pixels.withUnsafeMutableBufferPointer { source(y, $0) }
        pixels.withUnsafeBufferPointer { p in
            row.withUnsafeMutableBufferPointer { out in
                filterRow(p.baseAddress!, count: rowBytes, into: out.baseAddress!)
            }
        }
        try pump(flush: Z_NO_FLUSH)
    }
    try pump(flush: Z_FINISH)
}

/// Writes the filter byte and then the `count` filtered bytes of one row to `out`.
///
/// "sub" stores each byte minus the same channel of the pixel to its left;
/// it turns the flat runs of a loader's background into zeros.
func filterRow(_ pixels: UnsafePointer<UInt8>, count n: Int, into out: UnsafeMutablePointer<UInt8>)
{
    // Sum of absolute values of the bytes read as signed: smaller compresses better.
    var noneCost = 0
    var subCost = 0
    for i in 0..<n {
        let raw = pixels[i]
        let sub = i >= 3 ? raw &- pixels[i - 3] : raw
        out[i + 1] = sub
        noneCost &+= Int(raw < 128 ? raw : 0 &- raw)
        subCost &+= Int(sub < 128 ? sub : 0 &- sub)
    }
    if noneCost <= subCost {
        out[0] = PNGFilter.none.rawValue
        (out + 1).update(from: pixels, count: n)
    } else {
        out[0] = PNGFilter.sub.rawValue
    }
}
