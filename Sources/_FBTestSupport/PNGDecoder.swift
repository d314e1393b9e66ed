import CZlib

/// A decoded picture: packed 8-bit RGB, row after row.
public struct RGBImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3, "RGB bytes do not match the size")
        self.width = width
        self.height = height
        self.rgb = rgb
    }
}

public enum PNGDecodeError: Error, Equatable, CustomStringConvertible {
    case notPNG
    case truncated
    case unsupported(String)
    case corrupt(String)

    public var description: String {
        switch self {
        case .notPNG: return "not a PNG file (bad signature)"
        case .truncated: return "PNG truncated"
        case .unsupported(let what): return "unsupported PNG: \(what)"
        case .corrupt(let what): return "corrupt PNG: \(what)"
        }
    }
}

/// Decodes the PNGs fbanim and its tests write: 8 bits a channel, colour type
/// 2 (RGB) or 6 (RGBA, alpha dropped), not interlaced, any of the five
/// filters. zlib does the inflating; chunk CRCs are checked.
public func decodePNG(_ data: [UInt8]) throws(PNGDecodeError) -> RGBImage {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard data.count >= 8, Array(data[0..<8]) == signature else { throw .notPNG }
    func be32(_ at: Int) -> Int {
        Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
    }
    var pos = 8
    var width = 0
    var height = 0
    var channels = 0
    var idat: [UInt8] = []
    var sawEnd = false
    while pos + 12 <= data.count {
        let length = be32(pos)
        let type = String(decoding: data[(pos + 4)..<(pos + 8)], as: UTF8.self)
        guard length >= 0, pos + 12 + length <= data.count else { throw .truncated }
        let body = Array(data[(pos + 8)..<(pos + 8 + length)])
        let crc =
            data[(pos + 4)..<(pos + 8 + length)].withContiguousStorageIfAvailable {
                UInt32(crc32(0, $0.baseAddress, uInt($0.count)))
            } ?? 0
        guard crc == UInt32(be32(pos + 8 + length)) else { throw .corrupt("bad CRC in \(type)") }
        switch type {
        case "IHDR":
            guard length == 13 else { throw .corrupt("IHDR length \(length)") }
            width = be32(pos + 8)
            height = be32(pos + 12)
            let depth = body[8]
            let colorType = body[9]
            guard depth == 8 else { throw .unsupported("bit depth \(depth)") }
            switch colorType {
            case 2: channels = 3
            case 6: channels = 4
            default: throw .unsupported("colour type \(colorType)")
            }
            guard body[10] == 0, body[11] == 0 else { throw .unsupported("compression/filter") }
            guard body[12] == 0 else { throw .unsupported("interlacing") }
            guard width > 0, height > 0 else { throw .corrupt("empty image") }
        case "IDAT": idat += body
        case "IEND": sawEnd = true
        default: break
        }
        pos += 12 + length
        if sawEnd { break }
    }
    guard channels > 0, sawEnd else { throw .truncated }
    let rowBytes = width * channels
    var raw = [UInt8](repeating: 0, count: height * (rowBytes + 1))
    var rawLength = uLongf(raw.count)
    let status = raw.withUnsafeMutableBufferPointer { out in
        idat.withUnsafeBufferPointer { src in
            uncompress(out.baseAddress, &rawLength, src.baseAddress, uLong(src.count))
        }
    }
    guard status == Z_OK, Int(rawLength) == raw.count else {
        throw .corrupt("zlib status \(status), \(rawLength) of \(raw.count) bytes")
    }
    var pixels = [UInt8](repeating: 0, count: height * rowBytes)
    for y in 0..<height {
        let filter = raw[y * (rowBytes + 1)]
        let src = y * (rowBytes + 1) + 1
        let out = y * rowBytes
        for i in 0..<rowBytes {
            let x = Int(raw[src + i])
            let a = i >= channels ? Int(pixels[out + i - channels]) : 0
            let b = y > 0 ? Int(pixels[out - rowBytes + i]) : 0
            let c = (i >= channels && y > 0) ? Int(pixels[out - rowBytes + i - channels]) : 0
            let predicted: Int
            switch filter {
            case 0: predicted = 0
            case 1: predicted = a
            case 2: predicted = b
            case 3: predicted = (a + b) / 2
            case 4:
                let p = a + b - c
                let pa = abs(p - a)
                let pb = abs(p - b)
                let pc = abs(p - c)
                predicted = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
            default: throw .corrupt("filter type \(filter) on row \(y)")
            }
            pixels[out + i] = UInt8((x + predicted) & 0xFF)
        }
    }
    if channels == 3 { return RGBImage(width: width, height: height, rgb: pixels) }
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    for i in 0..<(width * height) {
        rgb[3 * i] = pixels[4 * i]
        rgb[3 * i + 1] = pixels[4 * i + 1]
        rgb[3 * i + 2] = pixels[4 * i + 2]
    }
    return RGBImage(width: width, height: height, rgb: rgb)
}
