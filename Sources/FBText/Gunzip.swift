import CZlib

/// Inflates one gzip stream (RFC 1952) with zlib, giving at most `limit` bytes.
///
/// - Throws: `PSFError.badGzip` when zlib finds the stream corrupt or cut
///   short, `.tooLarge` when it inflates past `limit` (a gzip bomb stops
///   there, having used `limit` bytes plus one 16 KB chunk of memory).
func gunzip(_ input: [UInt8], limit: Int) throws(PSFError) -> [UInt8] {
    var stream = z_stream()
    // 15 + 16: the largest window, and a gzip header and trailer (CRC checked).
    var rc = inflateInit2_(
        &stream, MAX_WBITS + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard rc == Z_OK else { throw .badGzip(code: rc) }
    defer { inflateEnd(&stream) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 14)
    var exceeded = false
    rc = input.withUnsafeBufferPointer { source in
        // zlib never writes through next_in; its type is not const only for old compilers.
        stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
        stream.avail_in = uInt(source.count)
        return chunk.withUnsafeMutableBufferPointer { buffer in
            while true {
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                let status = inflate(&stream, Z_NO_FLUSH)
                let produced = buffer.count - Int(stream.avail_out)
                if out.count + produced > limit {
                    exceeded = true
                    return Z_OK
                }
                out.append(contentsOf: buffer[0..<produced])
                if status == Z_STREAM_END { return Z_OK }
                guard status == Z_OK else { return status }
                // No progress with input left to give: the stream is cut short.
                if produced == 0 && stream.avail_in == 0 { return Z_BUF_ERROR }
            }
        }
    }
    if exceeded { throw .tooLarge(limit: limit) }
    guard rc == Z_OK else { throw .badGzip(code: rc) }
    return out
}
