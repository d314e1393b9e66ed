import Foundation
import Testing
import _FBTestSupport

/// The PPM header fbanim writes for a `width x height` frame.
func ppmHeader(_ width: Int, _ height: Int) -> [UInt8] {
    Array("P6\n\(width) \(height)\n255\n".utf8)
}

/// Successful renders: these need the renderer (FBAnimation) to draw.
@Suite struct RenderTests {
    /// Renders and expects success; returns the written file.
    func render(_ words: [String], in dir: OutputDirectory, to name: String) throws -> [UInt8] {
        let result = try Fbanim.run(["render"] + words + ["--output", dir.file(name)])
        #expect(result.status == 0 && !result.crashed, "\(result)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        return try #require(dir.read(name), "\(name) was not written")
    }

    @Test(arguments: ["ring", "radar", "spinner", "orbit"])
    func writesAPNGOfTheRequestedSize(_ loader: String) throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let file = try render([loader, "--size", "96x64", "--time", "0.75"], in: dir, to: "f.png")
        #expect(Array(file.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let image = try decodePNG(file)
        #expect(image.width == 96 && image.height == 64)
        #expect(dir.entries == ["f.png"], "temporary files left: \(dir.entries)")
    }

    @Test(arguments: ["ring", "radar", "spinner", "orbit"])
    func pngAndPPMHoldTheSamePixels(_ loader: String) throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let words = [loader, "--size", "50x40", "--time", "2.5", "--format", "rgb565"]
        let png = try decodePNG(try render(words, in: dir, to: "f.png"))
        let ppm = try render(words, in: dir, to: "f.PPM")
        let header = ppmHeader(50, 40)
        #expect(Array(ppm.prefix(header.count)) == header)
        #expect(ppm.count == header.count + 50 * 40 * 3)
        #expect(Array(ppm.dropFirst(header.count)) == png.rgb)
        #expect(dir.entries == ["f.PPM", "f.png"])
    }

    @Test(arguments: pixelFormatNames)
    func everyPixelFormatRenders(_ format: String) throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let ppm = try render(
            ["radar", "--size", "33x17", "--time", "1", "--format", format], in: dir, to: "f.ppm")
        #expect(ppm.count == ppmHeader(33, 17).count + 33 * 17 * 3)
    }

    @Test func lookOptionsReachTheRenderer() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let base = ["ring", "--size", "120x90", "--time", "1.25"]
        let plain = try decodePNG(try render(base, in: dir, to: "plain.png"))
        let styled = try decodePNG(
            try render(
                base + [
                    "--scale", "0.5", "--color", "#FF8800", "--background", "123456", "--rotate",
                    "90",
                ], in: dir, to: "styled.png"))
        #expect(plain.rgb != styled.rgb)
        // A small loader in the middle leaves the corners to the background.
        #expect(Array(styled.rgb.prefix(3)) == [0x12, 0x34, 0x56])
        #expect(Array(styled.rgb.suffix(3)) == [0x12, 0x34, 0x56])
    }

    @Test func equalsFormGivesTheSameFile() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let spaced = try render(
            ["orbit", "--size", "40x40", "--time", "3", "--scale", "0.5"], in: dir, to: "a.png")
        let result = try Fbanim.run([
            "render", "--size=40x40", "--time=3", "--scale=0.5", "--output=\(dir.file("b.png"))",
            "orbit",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(dir.read("b.png") == spaced)
    }

    @Test func replacesAnExistingFileAndLeavesNoTemporary() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        #expect(
            FileManager.default.createFile(atPath: dir.file("f.ppm"), contents: Data("old".utf8)))
        let ppm = try render(["spinner", "--size", "8x8", "--time", "0"], in: dir, to: "f.ppm")
        #expect(Array(ppm.prefix(ppmHeader(8, 8).count)) == ppmHeader(8, 8))
        #expect(dir.entries == ["f.ppm"])
        var info = stat()
        #expect(stat(dir.file("f.ppm"), &info) == 0 && info.st_mode & 0o777 == 0o644)
    }

    @Test(arguments: [
        ["ring", "--size", "1x1", "--time", "0"],
        ["radar", "--size", "8192x1", "--time", "1e9"],
        ["orbit", "--size", "1x300", "--time", "0.000001", "--scale", "64"],
        ["spinner", "--size", "16X16", "--time", "-0", "--scale", ".5", "--rotate", "270"],
        ["--size", "16x16", "--time", "7", "--color", "abcdef", "--", "ring"],
    ])
    func edgeValuesAreAccepted(_ words: [String]) throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        // --output goes first: after "--" every word is an argument.
        let result = try Fbanim.run(["render", "--output", dir.file("edge.png")] + words)
        #expect(result.status == 0 && !result.crashed, "\(result)")
        #expect(dir.entries == ["edge.png"])
    }
}
