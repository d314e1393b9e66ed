import Foundation
import Testing

/// The profiles committed in boards/, by name.
func committedBoards() -> [String] {
    let names =
        (try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/boards")) ?? []
    return names.filter { $0.hasSuffix(".conf") }.map { String($0.dropLast(5)) }.sorted()
}

/// `--board NAME|FILE`: defaults from a board profile, command line first.
@Suite struct BoardTests {
    static let quick = ["--device", "sim:64x64?clock=virtual", "--frames", "3", "--stats", "json"]

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
        #expect(committedBoards().count >= 3, "\(committedBoards()) in \(repositoryRoot)/boards")
        #expect(committedBoards().contains("pi-hdmi"))
    }

    /// Each committed profile parses and plays, found by name from the
    /// repository root (`./boards/NAME.conf`) and by path; its fps shows.
    @Test(arguments: committedBoards())
    func committedProfilePlays(_ name: String) throws {
        let path = repositoryRoot + "/boards/\(name).conf"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let fps =
            text.split(separator: "\n")
            .compactMap { $0.firstMatch(of: /^\s*fps\s*=\s*(\d+)\s*(#.*)?$/) }
            .first.flatMap { Int($0.1) } ?? 30
        for word in [name, path] {
            let (end, stdout, stderr) = try Fbanim.run(
                [
                    "--board", word, "--device", "sim:64x64?clock=virtual", "--frames", "1",
                    "--stats", "json", "ring",
                ],
                directory: repositoryRoot)
            #expect(end.exitedCleanly, "\(word): \(end): \(stderr)")
            #expect(stderr.isEmpty, "\(stderr)")
            let stats = try PlayStats(stdout: stdout)
            #expect(try stats.fpsTarget == fps, "\(word): \(stats)")
            #expect(try stats.presented == 1)
            // The command line's device wins over the profile's.
            #expect(
                stats.object["device"] as? String == "sim:64x64:xrgb8888 (virtual clock)",
                "\(stats)")
        }
    }

    @Test func nameResolvesInTheCurrentDirectorysBoards() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(
            atPath: dir.file("boards"), withIntermediateDirectories: false)
        try "fps = 12\nloader = spinner\n".write(
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
            # a panel
            device = sim:40x30:rgb565?clock=virtual
            fps = 25   # slow SPI
            rotate = 90
            scale = 0.5
            color = ff0000
            background = 101010
            loader = orbit

            """)
        defer { dir.remove() }
        let result = try Fbanim.run(["--board", path, "--frames", "5", "--stats", "json"])
        #expect(result.status == 0, "\(result)")
        let stats = try PlayStats(stdout: result.stdout)
        #expect(try stats.fpsTarget == 25)
        #expect(try stats.duration == 0.2)
        #expect(try stats.presented == 5)
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

    /// A bad profile, the line and the key its error must name.
    @Test(arguments: [
        ("fps = 25\n# colour\ncolour = ff0000\n", 3, "colour"),
        ("fps = 25\n\nfps = 30\n", 3, "fps"),
        ("loader = ring\nloader = radar\n", 2, "loader"),
        ("rotate = 45\n", 1, "rotate"),
        ("# ok\nfps = 0\n", 2, "fps"),
        ("fps = 241\n", 1, "fps"),
        ("scale = 0\n", 1, "scale"),
        ("color = red\n", 1, "color"),
        ("background = 12345\n", 1, "background"),
        ("fps = 20\nbackground = #101010\n", 2, "background"),
        ("scale =\n", 1, "scale"),
        ("device = foo\n", 1, "device"),
        ("device = sim:0x0\n", 1, "device"),
        ("loader = rnig\n", 1, "loader"),
        ("fps 25\n", 1, "fps"),
        ("frames = 10\n", 1, "frames"),
    ])
    func badProfileExits64NamingFileLineAndKey(_ text: String, _ line: Int, _ key: String) throws {
        let (dir, path) = try profile(text)
        defer { dir.remove() }
        // The command line sets fps, device and loader: a profile is checked
        // whole before use, whatever the command line overrides.
        let result = try Fbanim.run(["--board", path, "--fps", "20"] + Self.quick + ["ring"])
        #expect(result.status == 64 && !result.crashed, "\(result)")
        #expect(result.stdout.isEmpty, "nothing is shown: \(result.stdout)")
        let first = try #require(result.stderrLines.first)
        #expect(first.hasPrefix("Error: \(path):\(line): "), "\(first)")
        #expect(first.contains(key), "\(first) does not name \(key)")
        #expect(result.stderrLines.filter { $0.hasPrefix("Error:") }.count == 1, "\(result.stderr)")
    }

    @Test func missingProfileExits66() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let path = dir.file("nope.conf")
        let result = try Fbanim.run(["--board", path] + Self.quick + ["ring"])
        #expect(result.status == 66 && !result.crashed, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines.count == 1 && result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        #expect(result.stderr.contains(path), "\(result.stderr)")
    }

    @Test func badBoardNameExits64() throws {
        let result = try Fbanim.run(["--board", "pi hdmi"] + Self.quick + ["ring"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.first?.contains("'pi hdmi'") == true, "\(result.stderr)")
    }
}

/// Board files as users and scripts hand them over: Windows line ends, a
/// pipe (`--board <(...)`), a FIFO nobody writes, a device, a directory.
@Suite struct BoardFileKindTests {
    static let quick = ["--device", "sim:160x120?clock=virtual", "--frames", "3", "--stats", "json"]

    @Test func crlfLinesAreLines() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        try "# my board\r\nfps = 5\r\nscale = 2\r\n".write(
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
            ["-c", "exec \"$0\" --board <(printf 'fps = 12\\n') \"$@\" ring", Fbanim.binaryPath]
                + Self.quick)
        let end = piped.wait(timeout: 20)
        #expect(end.exitedCleanly, "\(piped.stderr)")
        #expect(try PlayStats(stdout: piped.stdout).fpsTarget == 12)
        #expect(mkfifo(dir.file("fifo.conf"), 0o600) == 0)
        let fifo = try ChildProcess(Fbanim.binaryPath, ["--board", dir.file("fifo.conf")] + Self.quick + ["ring"])
        #expect(fifo.wait(timeout: 20).exitedCleanly, "\(fifo.stderr)")
    }

    @Test func devicesAndDirectoriesAreNotProfiles() throws {
        for (path, what) in [("/dev/zero", "is not a regular file"), ("/tmp", "is a directory")] {
            let (end, _, stderr) = try Fbanim.run(
                ["--board", path] + Self.quick + ["ring"], directory: nil)
            #expect(end.status == 64, "\(path): \(stderr)")
            #expect(stderr.contains(what) && stderr.split(separator: "\n").count == 1, "\(stderr)")
        }
    }
}
