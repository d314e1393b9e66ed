import Testing
import _FBTestSupport

@testable import FBImage

/// Encoding row by row: the file comes out in pieces (never whole), and
/// reads back to the rows given.
@Suite struct ImageStreamTests {
    /// Noise does not compress: 800x700 gives more than one full IDAT chunk.
    static let width = 800
    static let height = 700
    static let noise: [UInt8] = {
        var rng = SeededRandom(seed: 13)
        return (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }()

    /// Encodes `noise` a row at a time; returns the pieces the sink got and
    /// the rows asked for.
    func stream(_ format: ImageFileFormat, failAfter limit: Int = .max) throws(ImageError)
        -> (pieces: [[UInt8]], rows: [Int])
    {
        var pieces: [[UInt8]] = []
        var rows: [Int] = []
        var total = 0
        let w = Self.width
        try format.encode(
            width: w, height: Self.height,
            rows: { y, out in
                rows.append(y)
                for i in 0..<(w * 3) { out[i] = Self.noise[y * w * 3 + i] }
            },
            to: { bytes in
                total += bytes.count
                guard total <= limit else { return false }
                pieces.append(Array(bytes))
                return true
            })
        return (pieces, rows)
    }

    @Test func pngComesInChunksAndReadsBack() throws {
        let (pieces, rows) = try stream(.png)
        #expect(rows == Array(0..<Self.height))
        let file = pieces.flatMap { $0 }
        // No piece is the whole file: at most one IDAT chunk (1 MiB + 12).
        #expect(pieces.allSatisfy { $0.count <= pngMaxChunkData + 12 }, "\(pieces.map(\.count))")
        let found = chunks(file)
        #expect(found.map(\.type).first == "IHDR" && found.map(\.type).last == "IEND")
        let idat = found.filter { $0.type == "IDAT" }
        #expect(idat.count >= 2)
        #expect(idat.dropLast().allSatisfy { $0.data.count == pngMaxChunkData })
        #expect(found.allSatisfy { $0.storedCRC == $0.computedCRC })
        let w = Self.width
        let h = Self.height
        let filtered = try #require(inflate(idat.flatMap(\.data), size: h * (1 + w * 3)))
        #expect(unfilter(filtered, width: w, height: h).rgb == Self.noise)
        // The same bytes as the whole-picture encoder.
        #expect(file == (try encodePNG(rgb: Self.noise, width: w, height: h)))
    }

    @Test func ppmComesARowAtATime() throws {
        let (pieces, _) = try stream(.ppm)
        #expect(pieces.first == Array("P6\n800 700\n255\n".utf8))
        #expect(pieces.dropFirst().allSatisfy { $0.count == Self.width * 3 })
        #expect(Array(pieces.dropFirst().joined()) == Self.noise)
    }

    /// A sink that cannot take more stops the encoder at once: no more rows
    /// are asked for (the first IDAT chunk needs about 440 rows of noise).
    @Test(arguments: [ImageFileFormat.png, .ppm])
    func aFailingSinkStopsTheEncoder(_ format: ImageFileFormat) {
        var rows = 0
        var pieces = 0
        let w = Self.width
        #expect(throws: ImageError.outputFailed) {
            try format.encode(
                width: w, height: Self.height,
                rows: { y, out in
                    rows += 1
                    for i in 0..<(w * 3) { out[i] = Self.noise[y * w * 3 + i] }
                },
                to: { _ in
                    pieces += 1
                    return pieces < 2
                })
        }
        #expect(pieces == 2)
        #expect(rows < Self.height * 2 / 3, "\(rows) rows asked for")
    }

    @Test func badSizesThrowBeforeAnyOutput() {
        var out = 0
        #expect(throws: ImageError.invalidSize(width: 0, height: 3)) {
            try ImageFileFormat.png.encode(
                width: 0, height: 3, rows: { _, _ in },
                to: { _ in
                    out += 1; return true
                })
        }
        #expect(throws: ImageError.invalidSize(width: Int.max, height: 2)) {
            try ImageFileFormat.ppm.encode(
                width: Int.max, height: 2, rows: { _, _ in },
                to: { _ in
                    out += 1; return true
                })
        }
        #expect(out == 0)
    }
}
