import CZlib
import Testing
import _FBTestSupport

@testable import FBImage

/// One chunk of a PNG file, as the tests read it back.
struct Chunk {
    var type: String
    var data: [UInt8]
    var storedCRC: UInt32
    var computedCRC: UInt32
}

/// CRC-32 (ISO 3309, as PNG uses it), bit by bit: independent of zlib's.
func referenceCRC32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

func bigEndian32(_ b: ArraySlice<UInt8>) -> UInt32 {
    let i = b.startIndex
    return UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
}

/// Splits a PNG file into its chunks; records an issue when the framing is wrong.
func chunks(_ file: [UInt8]) -> [Chunk] {
    var result: [Chunk] = []
    var pos = 8
    while pos + 12 <= file.count {
        let length = Int(bigEndian32(file[pos..<(pos + 4)]))
        guard pos + 12 + length <= file.count else {
            Issue.record("chunk at \(pos) runs past the end")
            break
        }
        let type = String(decoding: file[(pos + 4)..<(pos + 8)], as: UTF8.self)
        let data = Array(file[(pos + 8)..<(pos + 8 + length)])
        let stored = bigEndian32(file[(pos + 8 + length)..<(pos + 12 + length)])
        let computed = referenceCRC32(file[(pos + 4)..<(pos + 8 + length)])
        result.append(Chunk(type: type, data: data, storedCRC: stored, computedCRC: computed))
        pos += 12 + length
    }
    #expect(pos == file.count, "bytes after the last chunk")
    return result
}

/// Inflates with zlib's `uncompress` into exactly `size` bytes.
func inflate(_ compressed: [UInt8], size: Int) -> [UInt8]? {
    var out = [UInt8](repeating: 0, count: size + 1)
    var outLength = uLong(out.count)
    let rc = uncompress(&out, &outLength, compressed, uLong(compressed.count))
    guard rc == Z_OK, Int(outLength) == size else { return nil }
    return Array(out[0..<size])
}

/// Undoes the filters (all five, whatever the encoder picks), row by row.
func unfilter(_ filtered: [UInt8], width: Int, height: Int) -> (rgb: [UInt8], filters: [UInt8]) {
    let rowBytes = width * 3
    var rgb = [UInt8](repeating: 0, count: rowBytes * height)
    var filters: [UInt8] = []
    for y in 0..<height {
        let filter = filtered[y * (rowBytes + 1)]
        filters.append(filter)
        for x in 0..<rowBytes {
            let raw = filtered[y * (rowBytes + 1) + 1 + x]
            let a = x >= 3 ? Int(rgb[y * rowBytes + x - 3]) : 0
            let b = y > 0 ? Int(rgb[(y - 1) * rowBytes + x]) : 0
            let c = x >= 3 && y > 0 ? Int(rgb[(y - 1) * rowBytes + x - 3]) : 0
            let predictor: Int
            switch filter {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            default:
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            }
            rgb[y * rowBytes + x] = raw &+ UInt8(truncatingIfNeeded: predictor)
        }
    }
    return (rgb, filters)
}

/// Pictures that exercise both filters: flat, gradients, noise, tiny, wide.
enum Picture: String, CaseIterable {
    case onePixel, flat, horizontalGradient, noise, disc, bigNoise

    var size: (width: Int, height: Int) {
        switch self {
        case .onePixel: (1, 1)
        case .flat: (17, 5)
        case .horizontalGradient: (256, 3)
        case .noise: (33, 31)
        case .disc: (64, 48)
        case .bigNoise: (700, 600)  // over 1 MiB deflated: several IDAT chunks
        }
    }

    var rgb: [UInt8] {
        let (w, h) = size
        var generator = SeededRandom(seed: UInt64(w * 1000 + h))
        var out: [UInt8] = []
        for y in 0..<h {
            for x in 0..<w {
                switch self {
                case .onePixel: out += [0x12, 0x34, 0x56]
                case .flat: out += [0x00, 0xA0, 0xFF]
                case .horizontalGradient: out += [UInt8(x), UInt8(255 - x), UInt8(y * 60)]
                case .noise, .bigNoise:
                    out += (0..<3).map { _ in UInt8.random(in: 0...255, using: &generator) }
                case .disc:
                    let dx = x - w / 2
                    let dy = y - h / 2
                    out += dx * dx + dy * dy < 400 ? [255, 255, 255] : [0, 0, 0]
                }
            }
        }
        return out
    }
}

@Suite struct PNGEncoderTests {
    @Test(arguments: Picture.allCases)
    func structureAndPixelsRoundTrip(_ picture: Picture) throws {
        let (w, h) = picture.size
        let rgb = picture.rgb
        let file = try encodePNG(rgb: rgb, width: w, height: h)

        #expect(Array(file[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let parts = chunks(file)
        #expect(parts.first?.type == "IHDR")
        #expect(parts.last?.type == "IEND")
        #expect(parts.last?.data.isEmpty == true)
        for part in parts {
            #expect(part.storedCRC == part.computedCRC, "CRC of \(part.type)")
            #expect(["IHDR", "IDAT", "IEND"].contains(part.type))
            #expect(part.data.count <= 1 << 20)
        }
        let ihdr = try #require(parts.first).data
        #expect(ihdr.count == 13)
        #expect(bigEndian32(ihdr[0..<4]) == UInt32(w))
        #expect(bigEndian32(ihdr[4..<8]) == UInt32(h))
        #expect(
            Array(ihdr[8..<13]) == [8, 2, 0, 0, 0], "depth 8, RGB, deflate, filter 0, no interlace")

        // IDAT chunks are consecutive and together hold one zlib stream.
        let idatIndices = parts.indices.filter { parts[$0].type == "IDAT" }
        #expect(idatIndices == Array(1..<(1 + idatIndices.count)))
        if picture == .bigNoise { #expect(idatIndices.count > 1) }
        let stream = idatIndices.flatMap { parts[$0].data }
        let filtered = try #require(inflate(stream, size: h * (1 + w * 3)), "IDAT must inflate")
        let (unfiltered, filters) = unfilter(filtered, width: w, height: h)
        #expect(filters.allSatisfy { $0 == 0 || $0 == 1 }, "only none and sub")
        #expect(unfiltered == rgb)

        // The shared test decoder reads it back to the same pixels.
        let decoded = try decodePNG(file)
        #expect(decoded.width == w && decoded.height == h && decoded.rgb == rgb)
    }

    @Test func flatRowsUseSubAndNoiseStaysSmallEnough() throws {
        let (w, h) = Picture.flat.size
        let file = try encodePNG(rgb: Picture.flat.rgb, width: w, height: h)
        let stream = chunks(file).filter { $0.type == "IDAT" }.flatMap(\.data)
        let filtered = try #require(inflate(stream, size: h * (1 + w * 3)))
        // A flat non-black row costs far less as "sub" (zeros after the first pixel).
        #expect(unfilter(filtered, width: w, height: h).filters.allSatisfy { $0 == 1 })
    }

    @Test func sameInputGivesSameBytes() throws {
        let (w, h) = Picture.disc.size
        let a = try encodePNG(rgb: Picture.disc.rgb, width: w, height: h)
        let b = try encodePNG(rgb: Picture.disc.rgb, width: w, height: h)
        #expect(a == b)
    }

    @Test func flatFramesCompressWell() throws {
        let rgb = [UInt8](repeating: 0, count: 480 * 320 * 3)
        let file = try encodePNG(rgb: rgb, width: 480, height: 320)
        #expect(file.count < 2000, "\(file.count) bytes for a black 480x320 frame")
    }

    @Test func badSizesThrow() {
        #expect(throws: ImageError.invalidSize(width: 0, height: 1)) {
            try encodePNG(rgb: [], width: 0, height: 1)
        }
        #expect(throws: ImageError.invalidSize(width: 2, height: -1)) {
            try encodePNG(rgb: [], width: 2, height: -1)
        }
        #expect(throws: ImageError.pixelCountMismatch(expected: 12, actual: 11)) {
            try encodePNG(rgb: [UInt8](repeating: 0, count: 11), width: 2, height: 2)
        }
        #expect(throws: ImageError.invalidSize(width: Int.max, height: 2)) {
            try encodePNG(rgb: [], width: Int.max, height: 2)
        }
    }
}
