import Foundation
import Glibc
import Testing

@testable import FBAnimCLI

/// Bad board profiles: one line naming the file and the line (and the key),
/// exit 64 in play with nothing shown; the splash's lenient reader logs one
/// line each and goes on with what is good.
@Suite struct BoardProfileErrorTests {
    static let quick = ["--device", "sim:64x64?clock=virtual", "--frames", "3", "--stats", "json"]
    static let header = "fbanim-board 1\ndevice = sim:64x64\n"

    /// Plays with the profile at `path`; the result must be one error line.
    func refused(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String
    {
        // The command line sets fps, device and loader: a profile is checked
        // whole before use, whatever the command line overrides.
        let result = try Fbanim.run(["--board", path, "--fps", "20"] + Self.quick + ["ring"])
        #expect(result.status == 64 && !result.crashed, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "nothing is shown", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        return result.stderrLines.first ?? ""
    }

    func file(_ bytes: [UInt8]) throws -> (OutputDirectory, String) {
        let dir = try OutputDirectory()
        let path = dir.file("board.conf")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    /// A bad profile, the line and the word its error must name.
    @Test(arguments: [
        (header + "fps = 25\n# colour\ncolour = ff0000\n", 5, "colour"),
        (header + "fps = 25\n\nfps = 30\n", 5, "fps"),
        (header + "loader = ring\nloader = radar\n", 4, "loader"),
        (header + "rotate = 45\n", 3, "rotate"),
        (header + "# ok\nfps = 0\n", 4, "fps"),
        (header + "fps = 241\n", 3, "fps"),
        (header + "scale = 0\n", 3, "scale"),
        (header + "color = red\n", 3, "color"),
        (header + "fps = 20\nbackground = #101010\n", 4, "background"),
        (header + "scale =\n", 3, "scale"),
        ("fbanim-board 1\ndevice = foo\n", 2, "device"),
        ("fbanim-board 1\ndevice = sim:0x0\n", 2, "device"),
        (header + "loader = rnig\n", 3, "loader"),
        (header + "fps 25\n", 3, "fps"),
        (header + "frames = 10\n", 3, "frames"),
        (header + "format = rgb555\n", 3, "format"),
        (header + "size = 320\n", 3, "size"),
        (header + "initramfs-modules = vc4 ../evil\n", 3, "initramfs-modules"),
        (header + "initramfs-modules =\n", 3, "initramfs-modules"),
        (header + "initramfs-firmware = panel.bin ../../etc/shadow\n", 3, "initramfs-firmware"),
        (header + "initramfs-firmware = /lib/firmware/panel.bin\n", 3, "initramfs-firmware"),
        (header + "initramfs-firmware = brcm//x.bin\n", 3, "initramfs-firmware"),
        (header + "initramfs-firmware = a/./b.bin\n", 3, "initramfs-firmware"),
        // Empty, or comments only.
        ("", 1, "empty"),
        ("# nothing\n\n", 1, "empty"),
        // Conflicting keys: a simulated display has its own size and format.
        ("fbanim-board 1\ndevice = sim:64x64:rgb565\nformat = xrgb8888\n", 3, "contradicts"),
        ("fbanim-board 1\nsize = 32x32\ndevice = sim:64x64\n", 3, "contradicts"),
        ("fbanim-board 1\ndevice = term\nformat = rgb565\n", 3, "contradicts"),
        // The format line: another version, not first, malformed.
        ("fbanim-board 2\ndevice = sim:64x64\n", 1, "version 2"),
        ("# new\nfbanim-board 17\ndevice = sim:64x64\n", 2, "version 17"),
        ("device = sim:64x64\nfbanim-board 1\n", 2, "must come first"),
        ("fbanim-board\ndevice = sim:64x64\n", 1, "fbanim-board 1"),
        ("fbanim-board one\ndevice = sim:64x64\n", 1, "fbanim-board 1"),
        ("fbanim-board 1 2\ndevice = sim:64x64\n", 1, "fbanim-board 1"),
        ("fbanim-board = 1\ndevice = sim:64x64\n", 1, "fbanim-board 1"),
        ("fbanim-board 1\nfbanim-board 1\ndevice = sim:64x64\n", 2, "must come first"),
    ])
    func badProfileExits64NamingFileLineAndWord(_ text: String, _ line: Int, _ word: String) throws
    {
        let (dir, path) = try file(Array(text.utf8))
        defer { dir.remove() }
        let error = try refused(path)
        #expect(error.hasPrefix("Error: \(path):\(line): "), "\(error)")
        #expect(error.contains(word), "\(error) does not name \(word)")
    }

    /// A profile names its display (reported at the end of the file), unless
    /// the command line does: then it gives the other defaults (the issue's
    /// CRLF file, `--device` on the command line).
    @Test(arguments: [
        ("fbanim-board 1\nfps = 20\n# the end\n", 3), ("fps = 5\r\nscale = 2\r\n", 2),
    ])
    func profileWithoutDevice(_ text: String, _ lastLine: Int) throws {
        let (dir, path) = try file(Array(text.utf8))
        defer { dir.remove() }
        let refused = try Fbanim.run(["--board", path, "--frames", "3", "ring"])
        #expect(refused.status == 64 && refused.stderrLines.count == 1, "\(refused)")
        #expect(refused.stderr.hasPrefix("Error: \(path):\(lastLine): no 'device = ...'"))
        let played = try Fbanim.run(["--board", path] + Self.quick + ["ring"])
        #expect(played.status == 0 && played.stderr.isEmpty, "\(played)")
        let fps = text.hasPrefix("fps = 5") ? 5 : 20
        #expect(try PlayStats(stdout: played.stdout).fpsTarget == fps, "\(played.stdout)")
    }

    /// A binary file (an ELF header, a PNG) is one error, not one per line.
    @Test func binaryFileIsOneLine() throws {
        for bytes: [UInt8] in [
            [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + [UInt8](repeating: 0xC3, count: 64),
            Array("fbanim-board 1\ndevice = sim:64x64\n".utf8) + [
                0x89, 0x50, 0x4E, 0x47, 0x0A, 0xFF,
            ],
        ] {
            let (dir, path) = try file(bytes)
            defer { dir.remove() }
            let error = try refused(path)
            #expect(error.contains("not a text file"), "\(error)")
            #expect(error.hasPrefix("Error: \(path):\(bytes[0] == 0x7F ? 1 : 3): "), "\(error)")
        }
    }

    /// Too large (10 MB), a directory, a loop of links, a device: named, 64,
    /// and never read whole.
    @Test func filesThatAreNotProfiles() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let big = dir.file("big.conf")
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 10 << 20) == 0)
        #expect(mkdir(dir.file("dir.conf"), 0o755) == 0)
        #expect(symlink(dir.file("b.conf"), dir.file("a.conf")) == 0)
        #expect(symlink(dir.file("a.conf"), dir.file("b.conf")) == 0)
        for (path, what) in [
            (big, "larger than 1 MiB"), (dir.file("dir.conf"), "is a directory"),
            (dir.file("a.conf"), "loop of symbolic links"), ("/dev/zero", "not a regular file"),
        ] {
            let error = try refused(path)
            #expect(error.contains(path) && error.contains(what), "\(error)")
        }
    }

    /// A name that is not a board (no such profile) is 66, naming where it
    /// looked; a name that cannot be one is 64.
    @Test func unknownAndBadBoardNames() throws {
        let unknown = try Fbanim.run(["--board", "pitft-99"] + Self.quick + ["ring"])
        #expect(unknown.status == 66 && unknown.stderrLines.count == 1, "\(unknown)")
        #expect(
            unknown.stderr.contains("no board profile 'pitft-99' (looked in boards/pitft-99.conf"))
        let bad = try Fbanim.run(["--board", "pi hdmi"] + Self.quick + ["ring"])
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderrLines.first?.contains("'pi hdmi'") == true, "\(bad.stderr)")
        let missing = try Fbanim.run(["--board", "/nowhere/x.conf"] + Self.quick + ["ring"])
        #expect(missing.status == 66 && missing.stderr.contains("/nowhere/x.conf"), "\(missing)")
    }

    /// The splash reads leniently: a wrong version or a binary file is one
    /// line and nothing of the file; a missing device or a contradiction is
    /// one line and the rest stays.
    @Test func lenientReadingForTheSplash() {
        func lenient(_ text: String) -> (BoardProfile, [String]) {
            BoardProfile.parseLeniently(text, path: "b.conf", kind: .board)
        }
        var (profile, problems) = lenient("fbanim-board 2\ndevice = fb:x\nfps = 5\n")
        #expect(
            problems == [
                "b.conf:1: board profile format version 2: this fbanim reads version 1 (see boards/README.md); file ignored"
            ])
        #expect(profile.values.isEmpty)
        (profile, problems) = lenient("fbanim-board 1\nfps = 5\nscale = 2\n")
        #expect(problems.count == 1 && problems[0].hasPrefix("b.conf:3: no 'device = ...'"))
        #expect(problems[0].hasSuffix("; the first display is used"), "\(problems)")
        #expect(profile.values[.fps] == "5" && profile.values[.scale] == "2")
        (profile, problems) = lenient("device = sim:64x64\nformat = rgb565\nfps = 9\nfps = 7\n")
        #expect(problems.count == 2, "\(problems)")
        #expect(
            problems.contains { $0.hasPrefix("b.conf:4: 'fps' is set twice (first on line 3)") })
        #expect(problems.contains { $0.hasPrefix("b.conf:2: format = rgb565 contradicts") })
        #expect(profile.values[.format] == nil && profile.values[.fps] == "9")
        (profile, problems) = lenient("device = fb:x\nfps = 5\u{FFFD}\n")
        #expect(problems == ["b.conf:2: not a text file (bytes that are not UTF-8); file ignored"])
        // fbanim.conf needs no device and no format line.
        #expect(BoardProfile.parseLeniently("fps = 5\n", path: "f", kind: .configuration).1.isEmpty)
        (_, problems) = BoardProfile.parseLeniently(
            "fbanim-board 1\n", path: "f", kind: .configuration)
        #expect(problems.count == 1 && problems[0].contains("expected 'key = value'"))
    }
}

/// Board files as users and scripts hand them over: Windows line ends, a
/// pipe (`--board <(...)`), a FIFO nobody writes.
@Suite struct BoardFileKindTests {
    static let quick = [
        "--device", "sim:160x120?clock=virtual", "--frames", "3", "--stats", "json",
    ]

    @Test func crlfLinesAreLines() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        try "fbanim-board 1\r\n# my board\r\ndevice = fb:fb_ili9340\r\nfps = 5\r\nscale = 2\r\n"
            .write(
                toFile: dir.file("crlf.conf"), atomically: false, encoding: .utf8)
        let (end, stdout, stderr) = try Fbanim.run(
            ["--board", dir.file("crlf.conf")] + Self.quick + ["ring"], directory: dir.path)
        #expect(end.exitedCleanly, "\(stderr)")
        #expect(try PlayStats(stdout: stdout).fpsTarget == 5)
    }

    @Test func aPipeIsReadToItsEndAndAFifoWithoutWriterDoesNotHang() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        // `--board <(printf ...)`, as a shell hands a process substitution over.
        let piped = try ChildProcess(
            "/bin/bash",
            [
                "-c",
                "exec \"$0\" --board <(printf 'device = fb:fb_ili9340\\nfps = 12\\n') \"$@\" ring",
                Fbanim.binaryPath,
            ] + Self.quick)
        let end = piped.wait(timeout: 20)
        #expect(end.exitedCleanly, "\(piped.stderr)")
        #expect(try PlayStats(stdout: piped.stdout).fpsTarget == 12)
        // A FIFO nobody writes reads as empty: refused at once, not waited on.
        #expect(mkfifo(dir.file("fifo.conf"), 0o600) == 0)
        let fifo = try ChildProcess(
            Fbanim.binaryPath, ["--board", dir.file("fifo.conf")] + Self.quick + ["ring"])
        #expect(fifo.wait(timeout: 20).status == 64, "\(fifo.stderr)")
        #expect(fifo.stderr.contains("fifo.conf:1: empty board profile"), "\(fifo.stderr)")
    }
}
