import FBAnimation
import FBBoot
import FBLinux

/// What the splash is for (`--mode`).
enum SplashMode: String, Sendable, CaseIterable {
    /// Progress from the boot (units, time, learned from the last boot).
    case boot
    /// The last frame stays until the power goes off.
    case shutdown, reboot
    /// Progress from the updater (`u`, `PROGRESS`, `ctl progress`).
    case update

    /// Whether the splash outlives the system (shutdown, reboot).
    var staysToTheEnd: Bool { self == .shutdown || self == .reboot }
}

/// Everything `fbanim splash` needs, merged from every place it is set,
/// highest first: the command line, the kernel command line
/// (`fbanim.board=`, `fbanim.loader=`), the configuration file, the board
/// profile. A bad value from a file or the kernel command line is logged
/// and dropped: a splash never stops a boot for its configuration.
struct SplashRequest: Sendable {
    var play: PlayRequest
    var mode = SplashMode.boot
    /// Give up when no display came within this many seconds.
    var wait: Double?
    /// Members of this group may send commands too.
    var controlGroup: String?
    /// One line for each setting that was ignored, and why.
    var problems: [String] = []

    /// - Parameters:
    ///   - commandLine: the words of `fbanim splash`.
    ///   - kernel: the `fbanim.*` keys of the kernel command line.
    ///   - readFile: reads a configuration or profile file (the file
    ///     system, or a table in tests); `nil` with the error's text when it cannot.
    /// - Throws: `CLIError.usage` for a bad word on the command line itself.
    init(
        _ commandLine: ParsedCommandLine, kernel: SplashKernelOptions,
        readFile: (String) -> Result<String, CLIError>
    ) throws(CLIError) {
        var merged = commandLine
        problems = kernel.problems
        if merged.arguments.isEmpty, let loader = kernel.loader {
            if (try? parseLoader(loader)) != nil {
                merged.arguments = [loader]
            } else {
                problems.append(
                    "kernel command line: fbanim.loader='\(shown(loader))' is not ring, radar, "
                        + "spinner or orbit: ignored")
            }
        }
        if merged[.board] == nil, let board = kernel.board { merged.values[.board] = board }
        let configPath = commandLine[.config] ?? "/etc/fbanim/fbanim.conf"
        switch readFile(configPath) {
        case .success(let text):
            let (configuration, found) = BoardProfile.parseLeniently(
                text, path: configPath, kind: .configuration)
            problems += found
            merged = configuration.filling(merged)
        case .failure(let error):
            // No configuration file is the usual case; say why only when it exists.
            if case .noInput = error, commandLine[.config] == nil {
            } else {
                let text = error.message.dropLast().replacingErrorPrefix
                problems.append(
                    text.replacingFirst("board profile", with: "configuration file")
                        + "; using defaults")
            }
        }
        if let board = merged[.board] {
            do {
                let profile = try BoardProfile.loadLeniently(board, readFile: readFile)
                problems += profile.problems
                merged = profile.profile.filling(merged)
            } catch {
                problems.append(error.message.dropLast().replacingErrorPrefix + "; using defaults")
            }
        }
        merged.values[.board] = nil
        play = try PlayRequest(checked: merged, for: .splash)
        if let mode = try commandLine.value(Parsers.mode, for: .splash) {
            self.mode = mode
        }
        wait = try commandLine.value(Parsers.wait, for: .splash)
        controlGroup = try commandLine.value(Parsers.ctlGroup, for: .splash)
    }
}

extension BoardProfile {
    /// Reads the profile `word` names (as `load`), keeping the good lines of a bad file.
    static func loadLeniently(
        _ word: String, readFile: (String) -> Result<String, CLIError>
    ) throws(CLIError) -> (profile: BoardProfile, problems: [String]) {
        let isPath = word.contains("/") || word.hasSuffix(".conf")
        let candidates = isPath ? [word] : searchPaths(for: try checkedName(word))
        for path in candidates {
            switch readFile(path) {
            case .success(let text):
                let (profile, problems) = parseLeniently(text, path: path, kind: .board)
                return (profile, problems)
            case .failure(.noInput): continue
            case .failure(let error): throw error
            }
        }
        throw .noInput(
            "no board profile '\(shown(word))' (looked in \(candidates.joined(separator: ", ")))")
    }

    private static func checkedName(_ word: String) throws(CLIError) -> String {
        do {
            return try parseBoardName(word)
        } catch {
            throw .usage("board '\(shown(word))' is not a board name", .splash)
        }
    }
}

/// Parses `--mode`.
func parseSplashMode(_ word: String) throws(InvalidValue) -> SplashMode {
    guard let mode = SplashMode(rawValue: word) else {
        throw InvalidValue("expected \(listing(SplashMode.allCases.map(\.rawValue)))")
    }
    return mode
}

/// Reads a configuration or profile file for the splash: `.noInput` when it
/// does not exist, another error (permission, not a regular file, too large) else.
func readConfigurationFile(_ path: String) -> Result<String, CLIError> {
    do throws(SystemError) {
        let bytes = try BootEnvironment.readSmallFile(path, limit: 1 << 20)
        return .success(String(decoding: bytes, as: UTF8.self))
    } catch {
        return .failure(profileError(path, error))
    }
}

extension String {
    /// The text with the first `old` replaced by `new`.
    func replacingFirst(_ old: String, with new: String) -> String {
        guard let range = firstRange(of: old) else { return self }
        return self[..<range.lowerBound] + new + self[range.upperBound...]
    }
}

extension StringProtocol {
    /// An error message without its `Error: ` prefix, for a log line.
    var replacingErrorPrefix: String {
        hasPrefix("Error: ") ? String(dropFirst(7)) : String(self)
    }
}
