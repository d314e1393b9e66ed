import Foundation
import Testing

/// `--font` with the kinds of files users give it: a PSF2 console font
/// (plain and gzipped, as in /usr/share/consolefonts), a TrueType file, and
/// files that are not fonts.
@Suite struct FontFileTests {
    /// An 8x16 PSF2 font of 256 glyphs whose `A` is a full block and whose
    /// other glyphs are empty, with a unicode table mapping ASCII.
    static func blockFont() -> [UInt8] {
        var bytes: [UInt8] = [0x72, 0xB5, 0x4A, 0x86]
        for v: UInt32 in [0, 32, 1, 256, 16, 16, 8] {
            bytes += (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
        }
        for glyph in 0..<256 { bytes += [UInt8](repeating: glyph == 65 ? 0xFF : 0, count: 16) }
        for glyph in 0..<256 { bytes += (glyph < 128 ? [UInt8(glyph)] : []) + [0xFF] }
        return bytes
    }

    func render(_ font: String, _ text: String, in dir: OutputDirectory) throws -> [UInt8] {
        let out = dir.file("m-\(UUID().uuidString).ppm")
        let run = try Fbanim.run([
            "render", "ring", "--size", "320x320", "--time", "0", "--font", font, "--message", text,
            "--background", "000000", "--text-color", "FFFFFF", "--output", out,
        ])
        #expect(run.status == 0, "\(run)")
        let ppm = try #require(FileManager.default.contents(atPath: out))
        return Array(ppm.dropFirst(ppmHeader(320, 320).count))
    }

    @Test func aConsoleFontDrawsItsBitmapsExactly() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let font = dir.file("block.psf")
        try Data(Self.blockFont()).write(to: URL(fileURLWithPath: font))
        let pixels = try render(font, "AAAA", in: dir)
        // At 16 px an em the cell is drawn 1:1: four blocks of 8x16, the box
        // centred ((320 - 32) / 2 = 144) with its top at 160 + 124 = 284.
        func pixel(_ x: Int, _ y: Int) -> UInt8 { pixels[3 * (y * 320 + x)] }
        let inside = (284..<300).allSatisfy { y in
            (144..<176).allSatisfy { x in pixel(x, y) == 230 }
        }
        #expect(inside, "the blocks are not white at 0.9")
        #expect(
            pixel(143, 290) == 0 && pixel(176, 290) == 0 && pixel(150, 283) == 0
                && pixel(150, 300) == 0)
        // The same font gzipped, as console fonts are installed.
        let gz = dir.file("block.psf.gz")
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = ["-c", "gzip -c '\(font)' > '\(gz)'"]
        try gzip.run()
        gzip.waitUntilExit()
        #expect(try render(gz, "AAAA", in: dir) == pixels)
    }

    @Test func theSystemsTrueTypeFontAndBadFiles() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        try #require(
            FileManager.default.fileExists(atPath: dejavu),
            "fonts-dejavu-core is missing: Scripts/setup.sh installs it")
        let ttf = try Fbanim.run([
            "render", "ring", "--size", "64x64", "--time", "0", "--font", dejavu, "--message", "Hi",
            "--output", dir.file("t.png"),
        ])
        #expect(ttf.status == 0, "\(ttf)")
        for (file, status, words) in [
            ("/nonexistent.ttf", Int32(66), "no such font"), ("/etc/hostname", 64, "not a font"),
            ("/tmp", 64, "is a directory"), ("/dev/zero", 64, "not a regular file"),
        ] {
            let run = try Fbanim.run([
                "render", "ring", "--size", "64x64", "--time", "0", "--font", file, "--message",
                "Hi",
                "--output", dir.file("bad.png"),
            ])
            #expect(run.status == status, "\(file): \(run)")
            #expect(
                run.stderr.contains(words) && run.stderrLines.count == 1, "\(file): \(run.stderr)")
        }
        #expect(!dir.entries.contains("bad.png"))
    }
}
