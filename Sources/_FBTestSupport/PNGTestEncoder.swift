import CZlib

/// Encodes 8-bit RGB as a PNG with the filter type chosen per row (0 none,
/// 1 sub, 2 up, 3 average, 4 Paeth), so that tests can feed `decodePNG`
/// every filter. zlib's `compress2` does the deflating.
public func encodePNGForTests(_ image: RGBImage, filter: (Int) -> UInt8) -> [UInt8] {
    let rowBytes = image.width * 3
    var raw: [UInt8] = []
    raw.reserveCapacity(image.height * (rowBytes + 1))
    for y in 0..<image.height {
        let f = filter(y)
        raw.append(f)
        for i in 0..<rowBytes {
            let x = Int(image.rgb[y * rowBytes + i])
            let a = i >= 3 ? Int(image.rgb[y * rowBytes + i - 3]) : 0
            let b = y > 0 ? Int(image.rgb[(y - 1) * rowBytes + i]) : 0
            let c = (i >= 3 && y > 0) ? Int(image.rgb[(y - 1) * rowBytes + i - 3]) : 0
            let predicted: Int
            switch f {
            case 0: predicted = 0
            case 1: predicted = a
            case 2: predicted = b
            case 3: predicted = (a + b) >> 1
            case 4:
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            default: preconditionFailure("PNG filter types are 0...4")
            }
            raw.append(UInt8((x - predicted) & 0xFF))
        }
    }
    var packed = [UInt8](repeating: 0, count: Int(compressBound(uLong(raw.count))))
    var packedLength = uLongf(packed.count)
    let status = packed.withUnsafeMutableBufferPointer { out in
        raw.withUnsafeBufferPointer { src in
            compress2(out.baseAddress, &packedLength, src.baseAddress, uLong(src.count), 9)
        }
    }
    precondition(status == Z_OK, "zlib compress2 failed: \(status)")
    packed.removeSubrange(Int(packedLength)...)

    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    func chunk(_ type: String, _ body: [UInt8]) {
        let typed = Array(type.utf8) + body
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        png += be32(body.count) + typed + be32(Int(crc))
    }
    chunk("IHDR", be32(image.width) + be32(image.height) + [8, 2, 0, 0, 0])
    // Split the data over two IDAT chunks, as the decoder must join them.
    let half = packed.count / 2
    chunk("IDAT", Array(packed[..<half]))
    chunk("IDAT", Array(packed[half...]))
    chunk("IEND", [])
    return png
}
