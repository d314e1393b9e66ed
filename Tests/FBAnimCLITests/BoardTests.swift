import FBDisplay
import FBRaster
import Foundation
import Testing

@testable import FBAnimCLI

/// The profiles committed in boards/, by name.
func committedBoards() -> [String] {
    let names =
        (try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/boards")) ?? []
    return names.filter { $0.hasSuffix(".conf") }.map { String($0.dropLast(5)) }.sorted()
}

/// The committed profile `name`, parsed.
func committedProfile(_ name: String) throws -> (BoardProfile, text: String) {
    let path = repositoryRoot + "/boards/\(name).conf"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return (try BoardProfile.parse(text, path: path, kind: .board), text)
}

/// `--board NAME|FILE`: the committed profiles, and defaults from a profile
/// with the command line first.
@Suite struct BoardTests {
    static let quick = ["--device", "sim:64x64?clock=virtual", "--frames", "3", "--stats", "json"]
    /// Every board issue 12 asks for, under the names the docs and packaging use.
    static let expected = [
        "hyperpixel4", "pi-dsi-800x480", "pi-hdmi", "pi-spi-ili9341", "pi-touch-display-2",
        "st7789-240x240", "waveshare35a", "waveshare35a-drm",
    ]

    /// Writes `text` as `name` in a fresh directory.
    func profile(_ text: String, named name: String = "board.conf") throws -> (
        OutputDirectory, String
    ) {
        let dir = try OutputDirectory()
        let path = dir.file(name)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return (dir, path)
    }

    @Test func boardsAreCommitted() {
        #expect(committedBoards() == Self.expected, "in \(repositoryRoot)/boards")
    }

    /// Each profile is format version 1, names its display by a stable name
    /// (never /dev/fbN or /dev/dri/cardN: their numbers move), its format,
    /// and says where its facts come from; an SPI panel's frame rate comes
    /// with the arithmetic of a full frame at its clock.
    @Test(arguments: committedBoards())
    func committedProfileIsCheckedData(_ name: String) throws {
        let (profile, text) = try committedProfile(name)
        #expect(profile.version == 1)
        #expect(text.hasPrefix("fbanim-board 1\n"))
        let device = try #require(profile.values[.device])
        #expect(device.hasPrefix("drm:") || device.hasPrefix("fb:"), "\(name): \(device)")
        #expect(profile.values[.format] != nil && profile.values[.fps] != nil, "\(name)")
        #expect(profile.values[.rotate] == "0", "panels turned in their driver: no second turn")
        #expect(text.contains("# Sources:") && text.contains("config.txt"), "\(name)")
        // The initramfs hook takes these; the ST7789's driver also needs its firmware file.
        #expect(!profile.initramfsModules.isEmpty, "\(name)")
        #expect(
            profile.initramfsFirmware
                == (name == "st7789-240x240" ? ["st7789-240x240.bin"] : []), "\(name)")
        if profile.values[.format] == "rgb565" {
            #expect(text.contains("bits") && text.contains("MHz"), "\(name): no bus arithmetic")
        }
        if name != "pi-hdmi" { #expect(profile.values[.size] != nil, "\(name)") }
    }

    /// The committed facts that matter most, board by board.
    @Test func committedDevicesSizesAndRates() throws {
        let facts: [String: (String, String?, String, String)] = [
            "pi-hdmi": ("drm:vc4", nil, "xrgb8888", "30"),
            "pi-dsi-800x480": ("drm:vc4:DSI-1", "800x480", "xrgb8888", "30"),
            "pi-touch-display-2": ("drm:vc4:DSI-1", "720x1280", "xrgb8888", "30"),
            "pi-spi-ili9341": ("fb:fb_ili9340", "320x240", "rgb565", "20"),
            "waveshare35a": ("fb:fb_ili9486", "480x320", "rgb565", "6"),
            "waveshare35a-drm": ("drm:ili9486", "480x320", "rgb565", "8"),
            "st7789-240x240": ("drm:panel-mipi-dbi", "240x240", "rgb565", "25"),
            "hyperpixel4": ("drm:vc4:DPI-1", "480x800", "xrgb8888", "30"),
        ]
        for (name, (device, size, format, fps)) in facts {
            let (profile, _) = try committedProfile(name)
            #expect(profile.values[.device] == device, "\(name)")
            #expect(profile.values[.size] == size, "\(name)")
            #expect(profile.values[.format] == format, "\(name)")
            #expect(profile.values[.fps] == fps, "\(name)")
        }
    }

    /// Each profile plays on the simulated display of its size and format
    /// (HDMI: 1280x720), found by name from the repository root and by
    /// path; its rate shows, and nothing is said: it describes that display.
    @Test(arguments: committedBoards())
    func committedProfilePlaysOnItsDisplay(_ name: String) throws {
        let (profile, _) = try committedProfile(name)
        let size = profile.values[.size] ?? "1280x720"
        let format = profile.values[.format] ?? "xrgb8888"
        let device = "sim:\(size):\(format)?clock=virtual"
        for word in [name, repositoryRoot + "/boards/\(name).conf"] {
            let (end, stdout, stderr) = try Fbanim.run(
                ["--board", word, "--device", device, "--frames", "2", "--stats", "json", "ring"],
                directory: repositoryRoot)
            #expect(end.exitedCleanly, "\(word): \(end): \(stderr)")
            #expect(stderr.isEmpty, "\(stderr)")
            let stats = try PlayStats(stdout: stdout)
            #expect(try stats.fpsTarget == Int(profile.values[.fps] ?? "30"), "\(word): \(stats)")
            #expect(stats.object["device"] as? String == "sim:\(size):\(format) (virtual clock)")
        }
    }

    @Test func nameResolvesInTheCurrentDirectorysBoards() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(
            atPath: dir.file("boards"), withIntermediateDirectories: false)
        try "fbanim-board 1\ndevice = sim:64x64?clock=virtual\nfps = 12\nloader = spinner\n".write(
            toFile: dir.file("boards/mine.conf"), atomically: false, encoding: .utf8)
        let (end, stdout, stderr) = try Fbanim.run(
            ["--board", "mine"] + Self.quick, directory: dir.path)
        #expect(end.exitedCleanly, "\(end): \(stderr)")
        let stats = try PlayStats(stdout: stdout)
        #expect(try stats.fpsTarget == 12)
        #expect(stats.object["loader"] as? String == "spinner")

        // Elsewhere the same name is not found: 66.
        let other = try OutputDirectory()
        defer { other.remove() }
        let (missing, out, err) = try Fbanim.run(
            ["--board", "mine"] + Self.quick + ["ring"], directory: other.path)
        #expect(missing.status == 66, "\(missing): \(err)")
        #expect(out.isEmpty)
        #expect(err.hasPrefix("Error: ") && err.contains("mine"), "\(err)")
    }

    @Test func profileValuesApply() throws {
        let (dir, path) = try profile(
            """
            fbanim-board 1  # the format
            # a panel
            device = sim:40x30:rgb565?clock=virtual
            size = 40x30
            format = rgb565
            fps = 25   # slow SPI
            rotate = 90
            scale = 0.5
            color = ff0000
            background = 101010
            loader = orbit
            initramfs-modules = fb_ili9340 panel-mipi-dbi

            """)
        defer { dir.remove() }
        let result = try Fbanim.run(["--board", path, "--frames", "5", "--stats", "json"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let stats = try PlayStats(stdout: result.stdout)
        #expect(try stats.fpsTarget == 25)
        #expect(try stats.duration == 0.2)
        // The orbit's track and hearts lie off a 40x30 screen at scale 0.5:
        // after the first frame nothing visible changes, nothing is presented.
        #expect(try stats.presented + stats.dropped == 5 && stats.presented >= 1, "\(stats)")
        #expect(stats.object["loader"] as? String == "orbit")
        #expect(stats.object["device"] as? String == "sim:40x30:rgb565 (virtual clock)", "\(stats)")
    }

    @Test func commandLineWins() throws {
        let (dir, path) = try profile(
            "device = sim:40x30?clock=virtual\nfps = 25\nloader = orbit\n")
        defer { dir.remove() }
        let result = try Fbanim.run(
            [
                "--board", path, "--device", "sim:20x10?clock=virtual", "--fps", "10", "--frames",
                "5", "--stats", "json",
                "spinner",
            ])
        #expect(result.status == 0, "\(result)")
        let stats = try PlayStats(stdout: result.stdout)
        #expect(try stats.fpsTarget == 10)
        #expect(try stats.duration == 0.5)
        #expect(stats.object["loader"] as? String == "spinner")
        #expect(
            stats.object["device"] as? String == "sim:20x10:xrgb8888 (virtual clock)", "\(stats)")
    }

    /// The display the profile named is not the panel it describes: one
    /// warning line, and the picture is still drawn (testpattern shows why).
    @Test func aDisplayUnlikeItsProfileIsSaidOnce() throws {
        var request = try PlayRequest(
            try parseCommandLine(["--device", "sim:320x240:rgb565", "ring"][...], for: .play))
        let display = DisplayDescription(
            name: "/dev/fb1 (fb_ili9340)", width: 240, height: 320, format: .rgb565, refreshHz: nil)
        #expect(boardMismatch(request, display) == nil, "no board: nothing to check")
        request.boardPath = "boards/pi-spi-ili9341.conf"
        request.size = (320, 240)
        request.format = .rgb565
        let warning = try #require(boardMismatch(request, display))
        #expect(warning.hasSuffix("\n") && warning.dropLast().allSatisfy { !$0.isNewline })
        #expect(warning.contains("320x240") && warning.contains("is 240x320"), "\(warning)")
        request.size = (240, 320)
        #expect(boardMismatch(request, display) == nil)
        request.format = .xrgb8888
        #expect(boardMismatch(request, display)?.contains("is rgb565") == true)
    }
}
