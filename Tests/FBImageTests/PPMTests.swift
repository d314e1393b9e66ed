import Testing

@testable import FBImage

@Suite struct PPMEncoderTests {
    @Test func headerThenPixelsAsGiven() throws {
        let rgb: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]
        let file = try encodePPM(rgb: rgb, width: 3, height: 2)
        let header = Array("P6\n3 2\n255\n".utf8)
        #expect(Array(file[0..<header.count]) == header)
        #expect(Array(file[header.count...]) == rgb)
    }

    @Test func largeDimensionsAreWrittenInDecimal() throws {
        let file = try encodePPM(
            rgb: [UInt8](repeating: 7, count: 8192 * 3), width: 8192, height: 1)
        let header = Array("P6\n8192 1\n255\n".utf8)
        #expect(Array(file[0..<header.count]) == header)
        #expect(file.count == header.count + 8192 * 3)
    }

    @Test func badSizesThrow() {
        #expect(throws: ImageError.invalidSize(width: 0, height: 0)) {
            try encodePPM(rgb: [], width: 0, height: 0)
        }
        #expect(throws: ImageError.pixelCountMismatch(expected: 3, actual: 4)) {
            try encodePPM(rgb: [1, 2, 3, 4], width: 1, height: 1)
        }
    }
}

@Suite struct ImageFileFormatTests {
    @Test(arguments: [
        ("frame.png", ImageFileFormat.png), ("FRAME.PNG", .png), ("a/b.c/x.Ppm", .ppm),
        ("/tmp/.hidden.ppm", .ppm), ("x.png.ppm", .ppm),
    ])
    func extensionChoosesTheFormat(_ path: String, _ format: ImageFileFormat) {
        #expect(ImageFileFormat(path: path) == format)
    }

    @Test(arguments: ["frame", "frame.gif", "png", "a.png/", "a.png/b", "frame.", "frame.pngx", ""])
    func otherNamesAreRefused(_ path: String) {
        #expect(ImageFileFormat(path: path) == nil)
    }

    @Test func encodeDispatchesByFormat() throws {
        let rgb: [UInt8] = [9, 8, 7]
        #expect(
            try ImageFileFormat.ppm.encode(rgb: rgb, width: 1, height: 1)
                == encodePPM(rgb: rgb, width: 1, height: 1))
        #expect(
            try ImageFileFormat.png.encode(rgb: rgb, width: 1, height: 1)
                == encodePNG(rgb: rgb, width: 1, height: 1))
    }
}
