import Foundation
import Glibc
import Testing

/// `script` from util-linux (Debian's bsdutils, an essential package): runs
/// a command in a new pseudo-terminal and copies everything it writes there,
/// byte for byte, to its own standard output.
let scriptPath = ["/usr/bin/script", "/bin/script"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// What fbanim wrote to its terminal.
struct TerminalOutput {
    let bytes: [UInt8]
    let text: String

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        text = String(decoding: bytes, as: UTF8.self)
    }

    static let setUp = "\u{1B}[?1049h\u{1B}[?25l"
    static let restore = "\u{1B}[?25h\u{1B}[?1049l"
    static let halfBlock = "\u{2580}"

    /// Every control sequence `ESC [ params final` (params as numbers), with
    /// its byte offset. A scan of the bytes: the output runs to megabytes.
    var sequences: [(offset: Int, parameters: [Int], final: UInt8)] {
        var found: [(Int, [Int], UInt8)] = []
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == 0x1B, bytes[i + 1] == 0x5B else {
                i += 1
                continue
            }
            let start = i
            var j = i + 2
            var parameters: [Int] = []
            var number: Int? = nil
            while j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x3F {  // digits ; < = > ?
                switch bytes[j] {
                case 0x30...0x39: number = (number ?? 0) * 10 + Int(bytes[j] - 0x30)
                case 0x3B:
                    parameters.append(number ?? 0)
                    number = nil
                default: break
                }
                j += 1
            }
            if let number { parameters.append(number) }
            if j < bytes.count { found.append((start, parameters, bytes[j])) }
            i = j + 1
        }
        return found
    }

    /// Every cursor move `ESC[row;columnH`, in order, with the byte offset.
    var moves: [(offset: Int, row: Int, column: Int)] {
        sequences.compactMap { s in
            s.final == UInt8(ascii: "H") && s.parameters.count == 2
                ? (s.offset, s.parameters[0], s.parameters[1]) : nil
        }
    }

    /// Offsets of every screen clear `ESC[2J`.
    var clears: [Int] {
        sequences.compactMap { s in
            s.final == UInt8(ascii: "J") && s.parameters == [2] ? s.offset : nil
        }
    }

    /// Every 24-bit colour `ESC[38;2;R;G;Bm` (foreground) or `48;2` (background).
    var colors: [(layer: Int, rgb: (Int, Int, Int))] {
        sequences.compactMap { s in
            let p = s.parameters
            guard s.final == UInt8(ascii: "m"), p.count == 5, p[0] == 38 || p[0] == 48, p[1] == 2
            else { return nil }
            return (p[0], (p[2], p[3], p[4]))
        }
    }
}

/// The terminal preview, `--device term`, in a real pseudo-terminal.
@Suite(.enabled(if: scriptPath != nil, "needs script(1) from util-linux"))
struct TerminalTests {
    /// Starts `fbanim ARGS` in a pty of `columns` x `rows` under script(1).
    /// The shell writes its pid (fbanim's, after exec) and the pty's name
    /// into `dir` first.
    func start(_ arguments: [String], columns: Int, rows: Int, dir: OutputDirectory) throws
        -> ChildProcess
    {
        let script = try #require(scriptPath)
        try #require(FileManager.default.isExecutableFile(atPath: Fbanim.binaryPath))
        func quoted(_ s: String) -> String {
            "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let command =
            "stty cols \(columns) rows \(rows) && tty > \(quoted(dir.file("tty"))) && "
            + "echo $$ > \(quoted(dir.file("pid"))) && exec "
            + ([Fbanim.binaryPath] + arguments).map(quoted).joined(separator: " ")
        // -q quiet, -e the command's exit status, -f flush at once, log to nowhere.
        return try ChildProcess(
            script, ["-qefc", command, "/dev/null"], environment: ["SHELL": "/bin/sh"])
    }

    /// fbanim's pid, once the shell has written it and fbanim catches SIGTERM.
    func fbanimPID(_ child: ChildProcess, _ dir: OutputDirectory) throws -> pid_t {
        var pid: pid_t?
        child.waitUntil(timeout: 10) {
            pid = dir.read("pid").flatMap {
                pid_t(
                    String(decoding: $0, as: UTF8.self).trimmingCharacters(
                        in: .whitespacesAndNewlines))
            }
            return pid.map { ChildProcess.isCatching(SIGTERM, pid: $0) } ?? false
        }
        return try #require(pid, "no pid from the shell: \(child.stderr)")
    }

    /// What every run must show: set up first, restored last, half blocks in
    /// 24-bit colour in between, all inside the terminal.
    func expectPreview(
        _ output: TerminalOutput, columns: Int, rows: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            output.text.hasPrefix(TerminalOutput.setUp),
            "alternate screen and hidden cursor first: \(output.text.prefix(40).debugDescription)",
            sourceLocation: sourceLocation)
        #expect(
            output.text.hasSuffix(TerminalOutput.restore),
            "cursor shown and main screen back at the end: \(output.text.suffix(40).debugDescription)",
            sourceLocation: sourceLocation)
        if let lastBlock = output.text.range(of: TerminalOutput.halfBlock, options: .backwards),
            let restored = output.text.range(of: TerminalOutput.restore, options: .backwards)
        {
            #expect(lastBlock.upperBound <= restored.lowerBound, sourceLocation: sourceLocation)
        } else {
            Issue.record("no half blocks or no restore", sourceLocation: sourceLocation)
        }
        let colors = output.colors
        #expect(
            colors.contains { $0.layer == 38 } && colors.contains { $0.layer == 48 },
            "24-bit foreground and background colours", sourceLocation: sourceLocation)
        #expect(
            colors.allSatisfy {
                [$0.rgb.0, $0.rgb.1, $0.rgb.2].allSatisfy { (0...255).contains($0) }
            },
            sourceLocation: sourceLocation)
        let moves = output.moves
        #expect(!moves.isEmpty, sourceLocation: sourceLocation)
        #expect(
            moves.allSatisfy { (1...rows).contains($0.row) && (1...columns).contains($0.column) },
            "cursor moves outside \(columns)x\(rows)", sourceLocation: sourceLocation)
    }

    /// Whether `rgb` is the loader's colour `main` over black at `alpha` or more.
    func isShade(_ rgb: (Int, Int, Int), of main: (Int, Int, Int), atLeast alpha: Double) -> Bool {
        let a = Double(rgb.1) / Double(main.1)
        guard a >= alpha, a <= 1.01 else { return false }
        return abs(Double(rgb.0) - a * Double(main.0)) <= 2
            && abs(Double(rgb.2) - a * Double(main.2)) <= 2
    }

    @Test func radarPlaysInTheTerminalForItsDuration() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let child = try start(
            ["--device", "term", "--duration", "1", "radar"], columns: 120, rows: 60, dir: dir)
        let end = child.wait(timeout: 15)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
        #expect(child.age >= 0.9, "--duration 1 took \(child.age) s")
        #expect(child.stderr.isEmpty, "\(child.stderr)")
        let output = TerminalOutput(child.out.bytes)
        expectPreview(output, columns: 120, rows: 60)
        // Fitted to the terminal: the first frame paints every row.
        #expect(output.moves.map(\.row).max() == 60)
        // The radar's colour, #34C759, exactly (at this size its 2-point
        // border covers whole pixels).
        #expect(output.colors.contains { $0.rgb == (52, 199, 89) }, "no 52;199;89")
        #expect(
            output.text.contains("\u{1B}[38;2;52;199;89m")
                || output.text.contains("\u{1B}[48;2;52;199;89m"))
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func stopSignalRestoresTheTerminal(_ signal: Int32) throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let child = try start(["--device", "term", "radar"], columns: 100, rows: 40, dir: dir)
        let pid = try fbanimPID(child, dir)
        usleep(500_000)
        #expect(child.isRunning)
        kill(pid, signal)
        let end = child.wait(timeout: 10)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
        let output = TerminalOutput(child.out.bytes)
        expectPreview(output, columns: 100, rows: 40)
        #expect(output.moves.map(\.row).max() == 40)
        // The radar's green (at this size no pixel is fully covered: a shade of it).
        #expect(
            output.colors.contains { isShade($0.rgb, of: (52, 199, 89), atLeast: 0.85) },
            "no radar green")
        #expect(output.text.contains(TerminalOutput.halfBlock))
    }

    /// The picture follows the terminal's size: after a resize the screen is
    /// cleared and every frame fits the new size.
    @Test func resizeRefitsThePicture() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let child = try start(["--device", "term", "ring"], columns: 100, rows: 40, dir: dir)
        let pid = try fbanimPID(child, dir)
        let tty = try #require(
            dir.read("tty").map {
                String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            })
        // Wait for the first frame, then shrink the terminal (the kernel
        // sends SIGWINCH to fbanim, the pty's foreground process).
        #expect(child.waitUntil(timeout: 5) { child.out.bytes.count > 10_000 })
        let before = child.out.bytes.count
        let stty = try ChildProcess("/bin/sh", ["-c", "stty -F \"$0\" cols 60 rows 20", tty])
        #expect(stty.wait(timeout: 5).exitedCleanly, "\(stty.stderr)")
        usleep(500_000)
        kill(pid, SIGTERM)
        let end = child.wait(timeout: 10)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")

        let output = TerminalOutput(child.out.bytes)
        expectPreview(output, columns: 100, rows: 40)
        let clears = output.clears
        #expect(clears.count == 2, "one clear at the start and one at the resize: \(clears)")
        guard clears.count == 2 else { return }
        #expect(clears[1] >= before - 64, "the clear after the resize")
        let moves = output.moves
        let old = moves.filter { $0.offset < clears[1] }
        let new = moves.filter { $0.offset > clears[1] }
        #expect(old.map(\.row).max() == 40)
        #expect(!new.isEmpty, "nothing drawn after the resize")
        #expect(
            new.allSatisfy { $0.row <= 20 && $0.column <= 60 },
            "frames after the resize outside 60x20")
        #expect(new.map(\.row).max() == 20, "the picture is redrawn in full at the new size")
    }
}

/// The terminal preview when the terminal misbehaves: it hangs up, or it
/// stops reading. A pseudo-terminal of the test's own, so that fbanim's exit
/// status stays visible.
@Suite struct TerminalTroubleTests {
    /// Closing the terminal (its window, an ssh connection) sends SIGHUP: a
    /// stop, exit 0, also when fbanim is in the middle of writing a frame
    /// (the terminal was not reading: writes fail with EIO at the hang-up).
    @Test(arguments: [false, true])
    func hangUpStopsTheRunCleanly(whileWriting: Bool) throws {
        let terminal = try PseudoTerminal(columns: 100, rows: 40)
        let child = try ChildProcess(
            Fbanim.binaryPath, ["--device", "term", "--stats", "text", "radar"], terminal: terminal,
            pausedTerminal: whileWriting)
        try #require(child.waitUntilCatching(SIGHUP))
        if whileWriting {
            usleep(500_000)  // the terminal's buffer fills in a frame or two
        } else {
            #expect(child.waitUntil(timeout: 5) { child.out.bytes.count > 10_000 }, "nothing drawn")
        }
        child.out.close()
        let end = child.wait(timeout: 5)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
        #expect(child.stderrLines.count == 1, "\(child.stderr)")
        #expect(child.stderr.hasPrefix("fbanim: radar on term (100x40 cells): "), "\(child.stderr)")
        #expect(!child.stderr.contains("Error"))
    }

    /// A terminal that takes no more bytes (XOFF, a stalled ssh connection)
    /// must not hold fbanim past SIGTERM: it gives up on the frame and on
    /// the restore after a while, and exits 0.
    @Test func terminalThatDoesNotReadDoesNotHoldSIGTERM() throws {
        let terminal = try PseudoTerminal(columns: 100, rows: 40)
        let child = try ChildProcess(
            Fbanim.binaryPath, ["--device", "term", "radar"], terminal: terminal,
            pausedTerminal: true)
        try #require(child.waitUntilCatching(SIGTERM))
        usleep(500_000)  // the terminal's buffer fills in a frame or two
        #expect(child.isRunning)
        let sent = Date()
        child.send(SIGTERM)
        let ended = child.waitUntil(timeout: 4) { !child.isRunning }
        let took = Date().timeIntervalSince(sent)
        child.out.resume()
        let end = child.wait(timeout: 5)
        #expect(ended, "still running \(took) s after SIGTERM")
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
        #expect(child.stderr.isEmpty, "\(child.stderr)")
    }

    /// A terminal that catches up soon after SIGTERM gets its restore.
    @Test func restoreReachesATerminalThatCatchesUp() throws {
        let terminal = try PseudoTerminal(columns: 100, rows: 40)
        let child = try ChildProcess(
            Fbanim.binaryPath, ["--device", "term", "radar"], terminal: terminal,
            pausedTerminal: true)
        try #require(child.waitUntilCatching(SIGTERM))
        usleep(400_000)
        child.send(SIGTERM)
        usleep(200_000)
        child.out.resume()
        let end = child.wait(timeout: 5)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
        let output = TerminalOutput(child.out.bytes)
        #expect(output.text.hasPrefix(TerminalOutput.setUp))
        #expect(
            output.text.hasSuffix(TerminalOutput.restore),
            "\(output.text.suffix(40).debugDescription)")
    }
}
