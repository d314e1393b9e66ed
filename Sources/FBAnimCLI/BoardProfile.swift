import FBBoot
import FBLinux
import Glibc

/// A board profile (`boards/*.conf`) or the splash's configuration
/// (`/etc/fbanim/fbanim.conf`): defaults for the command line.
///
/// Versioned data, checked before use: every value goes through the parser
/// of the command-line option of the same name, and an error names the
/// file, the line and the key. `key = value` a line; `#` starts a comment
/// outside double quotes; a value in double quotes keeps its `#` and
/// blanks; lines may end in CR LF.
struct BoardProfile: Equatable {
    /// The file it was read from.
    let path: String
    /// Option values by key, as words (already checked).
    private(set) var values: [OptionKey: String] = [:]
    /// The loader to play when the command line names none.
    private(set) var loader: String?

    /// What a file may set.
    enum Kind {
        /// A board profile: the look and pacing options of `play`.
        case board
        /// `fbanim.conf`: those, the board to start from, and the message.
        case configuration

        var keys: [OptionKey] {
            switch self {
            case .board: return [.device, .rotate, .fps, .scale, .color, .background]
            case .configuration:
                return [
                    .board, .device, .rotate, .fps, .scale, .color, .background, .font, .message,
                    .textColor,
                ]
            }
        }
        /// Keys the runtime leaves to others (the initramfs hook reads them).
        var passiveKeys: [String] { self == .board ? ["initramfs-modules"] : [] }
    }

    /// Where `--board NAME` looks for `NAME.conf`, in order.
    static func searchPaths(for name: String) -> [String] {
        var directories = ["boards", "/etc/fbanim/boards"]
        if let exe = executablePath(), let slash = exe.lastIndex(of: "/") {
            directories.append(String(exe[..<slash]) + "/../share/fbanim/boards")
        }
        directories.append("/usr/share/fbanim/boards")
        return directories.map { "\($0)/\(name).conf" }
    }

    /// Reads the profile `word` names: a file path (with `/` or ending in
    /// `.conf`), else a profile name looked up in `searchPaths(for:)`.
    static func load(_ word: String) throws(CLIError) -> BoardProfile {
        let isPath = word.contains("/") || word.hasSuffix(".conf")
        if !isPath
            && (word.isEmpty
                || !word.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }))
        {
            throw .usage(
                "The value '\(word)' is invalid for '--board <name|file>': not a board name", .play)
        }
        let candidates = isPath ? [word] : searchPaths(for: word)
        for path in candidates where pathExists(path) {
            return try parse(readProfile(path), path: path, kind: .board)
        }
        throw .noInput(
            isPath
                ? "no such board profile '\(word)'"
                : "no board profile '\(word)' (looked in \(candidates.joined(separator: ", ")))")
    }

    /// The text of the file at `path`: a regular file of at most 1 MiB,
    /// opened so that a FIFO or a device never blocks.
    static func readProfile(_ path: String) throws(CLIError) -> String {
        do throws(SystemError) {
            return String(
                decoding: try BootEnvironment.readSmallFile(path, limit: 1 << 20), as: UTF8.self)
        } catch {
            throw profileError(path, error)
        }
    }

    /// Parses the text of a profile; `path` names it in errors.
    /// - Throws: `CLIError.usage` naming the file, the line and the key.
    static func parse(_ text: String, path: String, kind: Kind) throws(CLIError) -> BoardProfile {
        var profile = BoardProfile(path: path)
        for (number, line) in lines(text) {
            if let problem = profile.take(line, kind: kind) {
                throw .usage("\(path):\(number): \(problem)", .play)
            }
        }
        return profile
    }

    /// Parses what can be parsed: a bad line is reported and skipped (a
    /// splash never stops for its configuration).
    static func parseLeniently(_ text: String, path: String, kind: Kind) -> (
        BoardProfile, problems: [String]
    ) {
        var profile = BoardProfile(path: path)
        var problems: [String] = []
        for (number, line) in lines(text) {
            if let problem = profile.take(line, kind: kind) {
                problems.append(oneLine("\(path):\(number): \(problem); line ignored"))
            }
        }
        return (profile, problems)
    }

    /// The file's lines with their numbers from 1, split at LF (a CR before
    /// it is dropped: files edited on Windows work).
    static func lines(_ text: String) -> [(Int, Substring.UnicodeScalarView)] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { index, line in
                var line = line
                if line.last == "\r" { line.removeLast() }
                return (index + 1, line)
            }
    }

    /// Takes one line; returns what is wrong with it, if anything.
    private mutating func take(_ line: Substring.UnicodeScalarView, kind: Kind) -> String? {
        guard let (key, value) = BoardProfile.split(line) else {
            return "expected 'key = value', found '\(shown(String(line)))'"
        }
        if key.isEmpty && value.isEmpty { return nil }
        let known = kind.keys.map(\.rawValue) + ["loader"] + kind.passiveKeys
        guard known.contains(key) else {
            return "unknown key '\(shown(key))' (known: \(known.joined(separator: ", ")))"
        }
        if kind.passiveKeys.contains(key) { return nil }
        if value.isEmpty {
            let comment =
                String(line).contains("#") ? " ('#' starts a comment: write colours as RRGGBB)" : ""
            return "no value for '\(key)'\(comment)"
        }
        if key == "loader" {
            guard loader == nil else { return "'loader' is set twice" }
            do {
                _ = try parseLoader(value)
            } catch {
                return "bad loader '\(shown(value))': \(error.reason)"
            }
            loader = value
            return nil
        }
        let option = OptionKey(rawValue: key)!
        guard values[option] == nil else { return "'\(key)' is set twice" }
        do {
            try BoardProfile.check(option, value)
        } catch {
            return "bad \(key) '\(shown(value))': \(error.reason)"
        }
        values[option] = value
        return nil
    }

    /// `key = value` with blanks trimmed and the comment removed; `("", "")`
    /// for a blank or comment line; `nil` for a line without `=`.
    static func split(_ line: Substring.UnicodeScalarView) -> (String, String)? {
        var quoted = false
        var content = String.UnicodeScalarView()
        for scalar in line {
            if scalar == "\"" { quoted.toggle() }
            if scalar == "#" && !quoted { break }
            content.append(scalar)
        }
        let text = String(content)
        if text.allSatisfy({ $0 == " " || $0 == "\t" }) { return ("", "") }
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let key = trimmed(text[..<equals])
        var value = trimmed(text[text.index(after: equals)...])
        if value.count >= 2, value.first == "\"", value.last == "\"" {
            value = String(value.dropFirst().dropLast())
        }
        return (key, value)
    }

    /// Runs the option's own parser on `value`.
    private static func check(_ key: OptionKey, _ value: String) throws(InvalidValue) {
        switch key {
        case .device: _ = try parseDevice(value)
        case .rotate: _ = try parseRotation(value)
        case .fps: _ = try parseFPS(value)
        case .scale: _ = try parseScale(value)
        case .color, .background, .textColor: _ = try parseColor(value)
        case .board: _ = try parseBoardName(value)
        case .font, .message: _ = try parseText(value)
        default: preconditionFailure("not a profile key: \(key)")
        }
    }

    /// `parsed` with the profile's values wherever the command line gave none.
    func filling(_ parsed: ParsedCommandLine) -> ParsedCommandLine {
        var merged = parsed
        for (key, value) in values where merged.values[key] == nil { merged.values[key] = value }
        if merged.arguments.isEmpty, let loader { merged.arguments = [loader] }
        return merged
    }
}

/// A board name from a file or the kernel command line: a plain name.
func parseBoardName(_ word: String) throws(InvalidValue) -> String {
    guard !word.isEmpty, word.utf8.count <= 64, word.first != ".",
        word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
    else { throw InvalidValue("expected a board name: letters, digits, '-', '_' and '.'") }
    return word
}

/// Text for a message or a file name: one line, at most 4096 bytes.
func parseText(_ word: String) throws(InvalidValue) -> String {
    guard word.utf8.count <= 4096 else { throw InvalidValue("longer than 4096 bytes") }
    guard !word.contains(where: { $0.isNewline }) else { throw InvalidValue("more than one line") }
    return word
}

/// The CLI error for a profile that cannot be read: 77 without permission,
/// 66 when missing, 64 for something that is not a profile file.
func profileError(_ path: String, _ error: SystemError, what: String = "board profile") -> CLIError {
    let shownPath = shown(path)
    switch error.errno {
    case ENOENT, ENOTDIR: return .noInput("no such \(what) '\(shownPath)'")
    case EACCES, EPERM: return .noPermission("cannot read \(what) '\(shownPath)': \(error.reason)")
    case EISDIR: return .usage("\(what) '\(shownPath)' is a directory", .play)
    case EFBIG: return .usage("\(what) '\(shownPath)' is larger than 1 MiB", .play)
    case EINVAL: return .usage("\(what) '\(shownPath)' is not a regular file", .play)
    default: return .noInput("cannot read \(what) '\(shownPath)': \(error.reason)")
    }
}

/// Text from a file or a command line, safe for a one-line error: control
/// characters escaped, at most 80 characters.
func shown(_ text: String) -> String { loggable(text, limit: 80) }

private func trimmed(_ text: Substring) -> String {
    String(
        text.drop(while: { $0 == " " || $0 == "\t" }).reversed()
            .drop(while: { $0 == " " || $0 == "\t" }).reversed())
}
