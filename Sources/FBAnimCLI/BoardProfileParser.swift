import FBDisplay
import FBRaster

/// One thing wrong with a profile: where, what, and how much of the file it costs.
struct ProfileProblem: Equatable {
    /// The line, from 1.
    let line: Int
    let reason: String
    /// The file cannot be read as a profile at all (not text, another
    /// format version): nothing in it is used.
    var dropsFile = false
    /// What the lenient reader does about it.
    var consequence = "line ignored"
    /// The key a file of its kind must set and did not.
    var missing: OptionKey? = nil
}

extension BoardProfile {
    /// Reads every line of `text`: the profile with what was good, and the
    /// problems in the order of their lines (then the file's own: a missing
    /// key, keys that contradict each other).
    static func scan(_ text: String, path: String, kind: Kind) -> (BoardProfile, [ProfileProblem]) {
        var profile = BoardProfile(path: path)
        var problems: [ProfileProblem] = []
        var sawContent = false
        var all = lines(text)
        // The empty piece after the last line's LF is no line of its own.
        if all.count > 1, all.last?.1.isEmpty == true { all.removeLast() }
        let lastLine = all.last?.0 ?? 1
        for (number, line) in all {
            // Bytes that are not UTF-8 (decoded as U+FFFD): a binary file
            // (an ELF, a picture), not one bad line. A NUL alone is the bad
            // value of its line, as any control character.
            if line.contains("\u{FFFD}") {
                problems.append(
                    ProfileProblem(
                        line: number, reason: "not a text file (bytes that are not UTF-8)",
                        dropsFile: true))
                return (profile, problems)
            }
            guard let (key, value) = split(line) else {
                if let problem = profile.takeFormatLine(line, number, first: !sawContent, kind) {
                    problems.append(problem)
                    if problem.dropsFile { return (profile, problems) }
                }
                sawContent = true
                continue
            }
            if key.isEmpty && value.isEmpty { continue }
            if !sawContent, kind == .board, key == formatWord {
                // `fbanim-board = 1`: a format line written as a key.
                problems.append(
                    formatProblem(
                        number, "expected '\(formatWord) 1', found '\(shown(String(line)))'"))
                return (profile, problems)
            }
            sawContent = true
            if let reason = profile.take(key, value, line: line, kind: kind) {
                problems.append(ProfileProblem(line: number, reason: reason))
            } else {
                profile.keyLines[key] = number
            }
        }
        if kind == .board && !sawContent {
            problems.append(
                ProfileProblem(
                    line: 1,
                    reason:
                        "empty board profile: it starts with '\(formatWord) 1' and names its device",
                    consequence: "defaults used"))
            return (profile, problems)
        }
        problems += profile.checkTogether(kind, lastLine: lastLine)
        return (profile, problems)
    }

    /// A line that is not `key = value`: the format line when it comes
    /// first in a board profile; else what is wrong with it.
    private mutating func takeFormatLine(
        _ line: Substring.UnicodeScalarView, _ number: Int, first: Bool, _ kind: Kind
    ) -> ProfileProblem? {
        let words = String(String.UnicodeScalarView(line.prefix { $0 != "#" }))
            .split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard kind == .board, words.first == Substring(BoardProfile.formatWord) else {
            return ProfileProblem(
                line: number, reason: "expected 'key = value', found '\(shown(String(line)))'")
        }
        guard first else {
            return ProfileProblem(
                line: number,
                reason:
                    "the format line '\(BoardProfile.formatWord) 1' must come first, before any key"
            )
        }
        guard words.count == 2, words[1].allSatisfy({ $0.isASCII && $0.isNumber }),
            let version = Int(words[1])
        else {
            return BoardProfile.formatProblem(
                number, "expected '\(BoardProfile.formatWord) 1', found '\(shown(String(line)))'")
        }
        guard version == BoardProfile.formatVersion else {
            return BoardProfile.formatProblem(
                number,
                "board profile format version \(version): this fbanim reads version "
                    + "\(BoardProfile.formatVersion) (see boards/README.md)")
        }
        self.version = version
        return nil
    }

    private static func formatProblem(_ line: Int, _ reason: String) -> ProfileProblem {
        ProfileProblem(line: line, reason: reason, dropsFile: true)
    }

    /// Takes one `key = value`; returns what is wrong with it, if anything.
    private mutating func take(
        _ key: String, _ value: String, line: Substring.UnicodeScalarView, kind: Kind
    ) -> String? {
        let known = kind.keys.map(\.rawValue) + ["loader"] + kind.passiveKeys
        guard known.contains(key) else {
            return "unknown key '\(shown(key))' (known: \(known.joined(separator: ", ")))"
        }
        if value.isEmpty {
            let comment =
                String(line).contains("#") ? " ('#' starts a comment: write colours as RRGGBB)" : ""
            return "no value for '\(key)'\(comment)"
        }
        guard keyLines[key] == nil else {
            return "'\(key)' is set twice (first on line \(keyLines[key]!))"
        }
        if key == "initramfs-modules" {
            let modules = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if let bad = modules.first(where: { !isModuleName($0) }) {
                return "bad initramfs-modules '\(shown(bad))': expected kernel module names "
                    + "(letters, digits, '-' and '_') separated by blanks"
            }
            initramfsModules = modules
            return nil
        }
        if key == "initramfs-firmware" {
            let files = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if let bad = files.first(where: { !isFirmwareName($0) }) {
                return "bad initramfs-firmware '\(shown(bad))': expected file names under "
                    + "/lib/firmware (letters, digits, '-', '_', '.', '+', '/' between names; "
                    + "no '..') separated by blanks"
            }
            initramfsFirmware = files
            return nil
        }
        if key == "loader" {
            do {
                _ = try parseLoader(value)
            } catch {
                return "bad loader '\(shown(value))': \(error.reason)"
            }
            loader = value
            return nil
        }
        let option = OptionKey(rawValue: key)!
        do {
            try BoardProfile.check(option, value)
        } catch {
            return "bad \(key) '\(shown(value))': \(error.reason)"
        }
        values[option] = value
        return nil
    }

    /// Problems between keys, once every line is read: a required key that
    /// is missing (reported at the last line), a `format` or `size` that
    /// contradicts the device (reported at the later of the two lines; the
    /// lenient reader drops the `format` or `size`).
    private mutating func checkTogether(_ kind: Kind, lastLine: Int) -> [ProfileProblem] {
        var problems: [ProfileProblem] = []
        for key in kind.requiredKeys where values[key] == nil {
            problems.append(
                ProfileProblem(
                    line: lastLine,
                    reason: "no '\(key.rawValue) = ...' in this \(kind.noun): it must name its "
                        + "display (drm:DRIVER[:CONNECTOR], fb:ID, a path; see 'fbanim devices'), "
                        + "or give --device",
                    consequence: "the first display is used", missing: key))
        }
        guard let word = values[.device], let device = try? parseDevice(word) else {
            return problems
        }
        // What the device itself says about its size and format, if anything.
        var has: (size: (Int, Int)?, format: PixelFormat?)
        switch device {
        case .simulated(let options): has = ((options.width, options.height), options.format)
        case .terminal: has = ((0, 0), nil)
        default: return problems
        }
        for key in [OptionKey.size, .format] {
            guard let value = values[key] else { continue }
            let conflict: Bool
            if case .terminal = device {
                conflict = true
            } else if key == .size, let size = try? parseSize(value), let own = has.size {
                conflict = size != own
            } else if key == .format, let format = try? parsePixelFormat(value) {
                conflict = format != has.format
            } else {
                conflict = false
            }
            guard conflict else { continue }
            let lines = (keyLines[key.rawValue] ?? lastLine, keyLines["device"] ?? lastLine)
            problems.append(
                ProfileProblem(
                    line: max(lines.0, lines.1),
                    reason: "\(key.rawValue) = \(shown(value)) contradicts device = \(shown(word)) "
                        + "(line \(min(lines.0, lines.1)))",
                    consequence: "\(key.rawValue) ignored"))
            values[key] = nil
        }
        return problems
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

    /// Runs the option's own parser (the option table's) on `value`.
    private static func check(_ key: OptionKey, _ value: String) throws(InvalidValue) {
        guard let check = OptionTable.spec(key).check else {
            preconditionFailure("a profile key without a value: \(key)")
        }
        try check(value)
    }
}

/// A file under `/lib/firmware` as `request_firmware` names it: relative,
/// components of letters, digits and `-_.+`, none empty, `.` or `..`.
private func isFirmwareName(_ word: String) -> Bool {
    guard !word.isEmpty, word.utf8.count <= 128 else { return false }
    let parts = word.split(separator: "/", omittingEmptySubsequences: false)
    return parts.allSatisfy { part in
        !part.isEmpty && part != "." && part != ".."
            && part.unicodeScalars.allSatisfy { s in
                s.isASCII
                    && ((s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9")
                        || s == "-" || s == "_" || s == "." || s == "+")
            }
    }
}

/// A kernel module's name as `modprobe` takes it: letters, digits, `-`, `_`, at most 64.
private func isModuleName(_ word: String) -> Bool {
    !word.isEmpty && word.utf8.count <= 64
        && word.unicodeScalars.allSatisfy { s in
            s.isASCII
                && ((s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9")
                    || s == "-" || s == "_")
        }
}

private func trimmed(_ text: Substring) -> String {
    String(
        text.drop(while: { $0 == " " || $0 == "\t" }).reversed()
            .drop(while: { $0 == " " || $0 == "\t" }).reversed())
}
