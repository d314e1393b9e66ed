import FBBoot

/// Entry points for the libFuzzer targets in `Fuzz/` (`Scripts/fuzz.sh`):
/// not part of the API (`@_spi(Fuzzing)`).
@_spi(Fuzzing) public enum FuzzingEntry {
    /// Parses `bytes` as a board profile and as `fbanim.conf`, strictly and
    /// leniently, and checks what every parse must keep to.
    public static func boardProfile(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = BoardProfile.lines(text).count
        for kind in [BoardProfile.Kind.board, .configuration] {
            do {
                let profile = try BoardProfile.parse(text, path: "fuzz.conf", kind: kind)
                check(profile, kind)
            } catch {
                let message = error.message
                precondition(message.hasPrefix("Error: fuzz.conf:"), message)
                precondition(message.dropLast().allSatisfy { !$0.isNewline }, message)
            }
            let (profile, problems) = BoardProfile.parseLeniently(
                text, path: "fuzz.conf", kind: kind)
            check(profile, kind)
            // One a line at most, plus the file's own: a missing device, two contradictions.
            precondition(problems.count <= lines + 3)
            for problem in problems {
                precondition(
                    problem.hasPrefix("fuzz.conf:") && !problem.contains(where: \.isNewline))
            }
        }
    }

    /// Every value a profile holds passes its option's own parser again.
    private static func check(_ profile: BoardProfile, _ kind: BoardProfile.Kind) {
        for (key, value) in profile.values {
            precondition(kind.keys.contains(key), "\(key) is not a \(kind) key")
            precondition(!value.contains(where: \.isNewline))
        }
        precondition(profile.version == nil || profile.version == BoardProfile.formatVersion)
        if let loader = profile.loader { precondition((try? parseLoader(loader)) != nil) }
    }
}

extension FuzzingEntry {
    /// The command line of every command, and what `play`, `render` and
    /// `splash` build from it. `bytes` holds up to four parts split by
    /// 0x1E: the words (split by NUL), the kernel command line, the text of
    /// `fbanim.conf` and of the board profile any name leads to. Checks:
    /// every failure is a usage error (64) in one line with no control
    /// character; what parses spells back to the same words; a command line
    /// that plays without files still plays whatever the kernel command
    /// line, the configuration file and the board profile say (a splash
    /// never stops a boot for its configuration), with each problem in one line.
    public static func commandLine(_ bytes: [UInt8]) {
        let parts = bytes.split(separator: 0x1E, maxSplits: 3, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let words = parts[0].split(separator: "\0", omittingEmptySubsequences: false)
            .prefix(64).map(String.init)
        let kernel = parts.count > 1 ? parts[1] : nil
        let config = parts.count > 2 ? parts[2] : nil
        let board = parts.count > 3 ? parts[3] : nil
        for command in Command.allCases {
            let parsed: ParsedCommandLine
            do {
                parsed = try parseCommandLine(words[...], for: command)
            } catch {
                checkUsage(error)
                continue
            }
            guard !parsed.wantsHelp else { continue }
            checkSpelling(parsed, for: command)
            switch command {
            case .play: play(parsed, board: board)
            case .render: expectUsage { () throws(CLIError) in _ = try RenderRequest(parsed) }
            case .splash: splash(parsed, kernel: kernel, config: config, board: board)
            case .devices, .testpattern, .ctl, .restoreConsole:
                expectUsage { () throws(CLIError) in try checkRequired(parsed, for: command) }
            }
        }
    }

    /// `play` as `PlayRequest` builds it, the board's text given.
    private static func play(_ parsed: ParsedCommandLine, board: String?) {
        var alone = parsed
        alone.values[.board] = nil
        let request = expectUsage { () throws(CLIError) in
            try PlayRequest(checked: alone, for: .play)
        }
        if let request {
            precondition(Limits.fps.contains(request.fps))
            precondition(request.frames.map { $0 >= 1 } ?? true)
            precondition(request.duration.map { $0 > 0 && $0.isFinite } ?? true)
            precondition(request.style.scale > 0 && request.style.scale <= Limits.scale)
        }
        guard parsed[.board] != nil, let board else { return }
        let profile: BoardProfile
        do {
            profile = try BoardProfile.parse(board, path: "fuzz.conf", kind: .board)
        } catch {
            checkUsage(error)
            return
        }
        let filled = expectUsage { () throws(CLIError) in
            try PlayRequest(checked: profile.filling(alone), for: .play)
        }
        // A profile's values are checked: it never breaks a command line that plays.
        precondition(request == nil || filled != nil, "a valid board broke a valid command line")
    }

    /// `splash` with the kernel command line and files from the input.
    private static func splash(
        _ parsed: ParsedCommandLine, kernel: String?, config: String?, board: String?
    ) {
        let configPath = parsed[.config] ?? "/etc/fbanim/fbanim.conf"
        let none = expectUsage { () throws(CLIError) in
            try SplashRequest(
                parsed, kernel: SplashKernelOptions(),
                readFile: { .failure(.noInput("no such file '\($0)'")) })
        }
        let options = SplashKernelOptions(KernelCommandLine(kernel ?? ""))
        let request = expectUsage { () throws(CLIError) in
            try SplashRequest(parsed, kernel: options) { path in
                let text = path == configPath ? config : board
                return text.map { .success($0) } ?? .failure(.noInput("no such file '\(path)'"))
            }
        }
        precondition(none == nil || request != nil, "the kernel line or a file stopped the splash")
        for problem in request?.problems ?? [] {
            precondition(!problem.isEmpty && !problem.unicodeScalars.contains(where: isControl))
        }
    }

    /// `parsed` written out as `--name=value` words and the arguments after
    /// `--`: read again, the same.
    private static func checkSpelling(_ parsed: ParsedCommandLine, for command: Command) {
        var words: [String] = []
        for (key, value) in parsed.values.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let name = OptionTable.spec(key).longName
            words.append(value.isEmpty ? name : name + "=" + value)
        }
        words.append("--")
        words += parsed.arguments
        let again = try? parseCommandLine(words[...], for: command)
        precondition(again == parsed, "\(words) reads back as \(String(describing: again))")
    }

    /// Runs `body`; a failure must be a usage error, said in one line.
    @discardableResult
    private static func expectUsage<T>(_ body: () throws(CLIError) -> T) -> T? {
        do {
            return try body()
        } catch {
            checkUsage(error)
            return nil
        }
    }

    private static func checkUsage(_ error: CLIError) {
        guard case .usage = error else { preconditionFailure("not a usage error: \(error)") }
        let message = error.message
        precondition(message.hasPrefix("Error: ") && message.hasSuffix("\n"), message)
        precondition(!message.dropLast().unicodeScalars.contains(where: isControl), message)
        // 400 characters, of which one escape may be cut short: "...".
        precondition(message.unicodeScalars.count <= 420, "error too long")
    }

    /// C0 and C1 controls, DEL, line and paragraph separators, a byte order mark.
    private static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s == "\u{2028}" || s == "\u{2029}"
            || s == "\u{FEFF}"
    }
}
