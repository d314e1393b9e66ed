import FBBoot
import Testing

@testable import FBAnimCLI

/// Where `fbanim splash` takes its settings from, highest first: the
/// command line, the kernel command line, fbanim.conf, the board profile;
/// a bad setting from a file or the kernel is logged and dropped.
@Suite struct SplashRequestTests {
    /// A file system of a few files; everything else does not exist.
    func files(_ table: [String: String]) -> (String) -> Result<String, CLIError> {
        { path in
            if let text = table[path] { return .success(text) }
            return .failure(.noInput("no such board profile '\(path)'"))
        }
    }

    func request(
        _ words: [String], kernel: String = "", files table: [String: String] = [:]
    ) throws -> SplashRequest {
        let parsed = try parseCommandLine(words[...], for: .splash)
        return try SplashRequest(
            parsed, kernel: SplashKernelOptions(KernelCommandLine(kernel)), readFile: files(table))
    }

    static let conf = "/etc/fbanim/fbanim.conf"

    @Test func eachSourceFillsWhatTheOnesAboveLeaveOut() throws {
        let table = [
            Self.conf: "board = mine\nfps = 20\nmessage = \"Booting #1...\"\ntext-color = 00ff80\n",
            "boards/mine.conf":
                "fps = 12\nscale = 2\nrotate = 90\nloader = orbit\ndevice = fb:fb_ili9340\n",
        ]
        // Board < conf < kernel < command line.
        var r = try request([], files: table)
        #expect(r.play.fps == 20)  // conf beats the board
        #expect(r.play.style.scale == 2 && r.play.style.rotation == .degrees90)  // the board's
        #expect(r.play.loader == .orbit)
        #expect(r.play.device == .fbID("fb_ili9340"))
        #expect(r.play.text.message == "Booting #1...")
        #expect(r.play.text.color?.rgb == 0x00FF80)
        #expect(r.problems.isEmpty, "\(r.problems)")
        r = try request([], kernel: "splash fbanim.loader=radar fbanim.board=other", files: table)
        #expect(r.play.loader == .radar)  // the kernel beats conf and board
        #expect(r.problems.count == 1 && r.problems[0].contains("no board profile 'other'"))
        r = try request(["--fps", "50", "spinner"], kernel: "fbanim.loader=radar", files: table)
        #expect(r.play.fps == 50 && r.play.loader == .spinner)  // the command line beats all
        #expect(try request([], files: [:]).play.loader == .ring)
    }

    @Test func badSettingsAreLoggedAndSkipped() throws {
        let table = [
            Self.conf:
                "fps = 500\ncolour = red\nscale = 1.5\n\u{1B}[2J = x\nloader = nope\ndevice = /dev/fb0\u{0}\n"
        ]
        let r = try request(
            [], kernel: "fbanim.board=../etc/passwd fbanim.loader=bogus", files: table)
        #expect(r.play.style.scale == 1.5)  // the good line stays
        #expect(r.play.fps == 30 && r.play.loader == .ring && r.play.device == nil)
        let lines = r.problems
        #expect(lines.count == 7, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(Self.conf):1: bad fps '500'") })
        #expect(lines.contains { $0.hasPrefix("\(Self.conf):2: unknown key 'colour'") })
        #expect(lines.contains { $0.hasPrefix("\(Self.conf):4: unknown key '\\u{1b}[2J'") })
        #expect(lines.contains { $0.contains("fbanim.board='../etc/passwd' is not a board name") })
        #expect(lines.contains { $0.contains("fbanim.loader='bogus'") })
        for line in lines {
            #expect(!line.contains(where: \.isNewline) && !line.contains("\u{1B}"))
        }
    }

    @Test func aConfigurationThatCannotBeReadIsSaidOnceAndTheSplashGoesOn() throws {
        let missing = try request(["--config", "/nowhere.conf"])
        #expect(missing.problems == ["no such configuration file '/nowhere.conf'; using defaults"])
        // The default file missing is the usual case: nothing said.
        #expect(try request([]).problems.isEmpty)
    }

    @Test func theCommandLineItselfIsStill64() throws {
        #expect(throws: CLIError.self) { try request(["--fps", "0"]) }
        #expect(throws: CLIError.self) { try request(["--mode", "sleep"]) }
        #expect(try request(["--mode", "shutdown"]).mode == .shutdown)
    }
}
