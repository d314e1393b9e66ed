import FBImage
import Testing
import _FBTestSupport

// The test PNG reader (it reads the goldens): every filter type, chunk
// joining, CRC and signature checks, and FBImage's own encoder's output.

/// A picture with gradients, edges and noise, so every filter's predictors
/// see a variety of neighbours.
func samplePicture(width: Int, height: Int) -> RGBImage {
    var rgb: [UInt8] = []
    var seed: UInt32 = 12345
    for y in 0..<height {
        for x in 0..<width {
            seed = seed &* 1_103_515_245 &+ 12345
            rgb.append(UInt8((x * 255) / max(1, width - 1)))
            rgb.append(UInt8(truncatingIfNeeded: (x ^ y) * 17))
            rgb.append(y % 7 == 3 ? UInt8(truncatingIfNeeded: seed >> 16) : UInt8(y * 3 & 0xFF))
        }
    }
    return RGBImage(width: width, height: height, rgb: rgb)
}

@Test(arguments: [0, 1, 2, 3, 4, 5])
func decodesEveryFilterType(_ filter: Int) throws {
    let image = samplePicture(width: 37, height: 23)
    // 0...4: one filter for every row; 5: all five, row by row.
    let png = encodePNGForTests(image) { y in UInt8(filter < 5 ? filter : y % 5) }
    #expect(try decodePNG(png) == image)
}

@Test func decodesFBImageOutput() throws {
    let image = samplePicture(width: 64, height: 40)
    let png = try encodePNG(rgb: image.rgb, width: image.width, height: image.height)
    #expect(try decodePNG(png) == image)
}

@Test func rejectsDamagedFiles() {
    let png = encodePNGForTests(samplePicture(width: 8, height: 8)) { _ in 4 }
    var badSignature = png
    badSignature[1] = 0x51
    #expect(throws: PNGDecodeError.notPNG) { try decodePNG(badSignature) }
    var badCRC = png
    badCRC[20] ^= 0xFF  // inside IHDR's body
    #expect(throws: PNGDecodeError.self) { try decodePNG(badCRC) }
    #expect(throws: PNGDecodeError.self) { try decodePNG(Array(png.prefix(png.count - 20))) }
}
