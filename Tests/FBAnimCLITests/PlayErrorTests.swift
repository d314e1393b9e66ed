import Foundation
import Testing

/// A bad play command line and the part its error must name.
struct BadPlay: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    /// Must appear on the `Error:` line.
    let named: [String]
    var testDescription: String { arguments.joined(separator: " ") }

    /// A valid, quick play command with `option` set to `value`.
    init(_ option: String, _ value: String, naming named: [String]? = nil) {
        var words = ["--device", "sim:64x64?clock=virtual", "--frames", "1", "ring"]
        if let i = words.firstIndex(of: option) {
            words[i + 1] = value
        } else {
            words.insert(contentsOf: [option, value], at: 0)
        }
        arguments = words
        self.named = named ?? (value.isEmpty ? [option] : [option, "'\(value)'"])
    }

    init(_ arguments: [String], naming named: [String]) {
        self.arguments = arguments
        self.named = named
    }
}

let badPlays: [BadPlay] =
    [
        BadPlay(["--device", "sim:64x64?clock=virtual", "rnig"], naming: ["'rnig'", "<loader>"]),
        BadPlay(["--device", "sim:64x64?clock=virtual", "--frames", "1"], naming: ["<loader>"]),
    ]
    + ["0", "241", "x", "-1", "30.5", ""].map { BadPlay("--fps", $0) }
    + ["0", "-1", "1.5", "x"].map { BadPlay("--frames", $0) }
    + ["0", "-1", "nan", "inf", "x", "1e10"].map { BadPlay("--duration", $0) }
    + ["xml", "JSON", ""].map { BadPlay("--stats", $0) }
    + [
        ("sim:0x0", "0x0"), ("sim:320x240:rgb999", "rgb999"), ("sim:320x240?refresh=0", "refresh"),
        ("sim:320x240?present_ms=-1", "present_ms"), ("sim:320x240?clock=real", "clock"),
        ("sim:320x240?colour=red", "colour"), ("sim:320", "320"), ("foo", "foo"),
    ].map { BadPlay("--device", $0.0, naming: ["--device", "'\($0.0)'", $0.1]) }

@Suite struct PlayErrorTests {
    @Test(arguments: badPlays)
    func badCommandLineExits64NamingTheBadPart(_ bad: BadPlay) throws {
        let result = try Fbanim.run(bad.arguments)
        #expect(result.status == 64 && !result.crashed, "\(result)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        let line = try #require(result.stderrLines.first)
        #expect(line.hasPrefix("Error: "), "\(line)")
        for part in bad.named {
            #expect(line.contains(part), "'\(line)' does not name \(part)")
        }
        #expect(line.hasSuffix(" (see 'fbanim --help')"), "\(result.stderr)")
    }

    /// One line on stderr, beginning `Error:`, and nothing on stdout.
    func expectOneErrorLine(_ result: RunResult, status: Int32, containing parts: [String]) {
        #expect(result.status == status && !result.crashed, "\(result)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        for part in parts {
            #expect(result.stderr.contains(part), "'\(result.stderr)' does not name \(part)")
        }
    }

    @Test(arguments: ["/dev/nonexistent-fb7", "/dev/dri/card97"])
    func missingDeviceExits66(_ path: String) throws {
        let result = try Fbanim.run(["--device", path, "--frames", "1", "ring"])
        expectOneErrorLine(result, status: 66, containing: [path])
    }

    /// /dev/null exists but is no framebuffer.
    @Test func notAFramebufferExits69() throws {
        let result = try Fbanim.run(["--device", "/dev/null", "--frames", "1", "ring"])
        expectOneErrorLine(result, status: 69, containing: ["/dev/null"])
    }

    /// The runner's stdout is a pipe, not a terminal.
    @Test func termWithoutATerminalExits69() throws {
        let result = try Fbanim.run(["--device", "term", "--frames", "1", "ring"])
        expectOneErrorLine(result, status: 69, containing: ["term", "not a terminal"])
    }

    /// With no display device on the machine (no DRM, no /dev/fb0) and stdout
    /// not a terminal, there is nothing to play on.
    @Test(
        .enabled(
            if: !FileManager.default.fileExists(atPath: "/dev/fb0")
                && !FileManager.default.fileExists(atPath: "/dev/dri")))
    func noDisplayAtAllExits69() throws {
        let result = try Fbanim.run(["--frames", "1", "ring"])
        expectOneErrorLine(result, status: 69, containing: ["no display", "--device"])
    }
}
