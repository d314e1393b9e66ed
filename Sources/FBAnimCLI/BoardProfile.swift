import FBLinux

/// A board profile (`boards/*.conf`): defaults for `fbanim --board`.
///
/// Versioned data, checked before use: every value goes through the parser
/// of the command-line option of the same name, and an error names the
/// file, the line and the key.
struct BoardProfile: Equatable {
    /// The file it was read from.
    let path: String
    /// Option values by key, as words (already checked).
    private(set) var values: [OptionKey: String] = [:]
    /// The loader to play when the command line names none.
    private(set) var loader: String?

    /// The keys a profile may set: the look and pacing options of `play`.
    static let keys: [OptionKey] = [.device, .rotate, .fps, .scale, .color, .background]

    /// Where `--board NAME` looks for `NAME.conf`, in order.
    static func searchPaths(for name: String) -> [String] {
        var directories = ["boards", "/etc/fbanim/boards"]
        if let exe = executablePath(), let slash = exe.lastIndex(of: "/") {
            directories.append(String(exe[..<slash]) + "/../share/fbanim/boards")
        }
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
            do {
                return try parse(String(decoding: readFile(path), as: UTF8.self), path: path)
            } catch let error as CLIError {
                throw error
            } catch {
                throw .noInput("cannot read board profile '\(path)': \(error)")
            }
        }
        throw .noInput(
            isPath
                ? "no such board profile '\(word)'"
                : "no board profile '\(word)' (looked in \(candidates.joined(separator: ", ")))")
    }

    /// Parses the text of a profile; `path` names it in errors.
    static func parse(_ text: String, path: String) throws(CLIError) -> BoardProfile {
        var profile = BoardProfile(path: path)
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
        {
            let line = rawLine.split(
                separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let trimmed = line.trimmingWhitespace
            if trimmed.isEmpty { continue }
            let at = "\(path):\(index + 1)"
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw .usage("\(at): expected 'key = value', found '\(trimmed)'", .play)
            }
            let key = trimmed[..<equals].trimmingWhitespace
            let value = trimmed[trimmed.index(after: equals)...].trimmingWhitespace
            let isKey = key == "loader" || OptionKey(rawValue: key).map(keys.contains) == true
            if value.isEmpty && isKey {
                let comment =
                    rawLine.contains("#") ? " ('#' starts a comment: write colours as RRGGBB)" : ""
                throw .usage("\(at): no value for '\(key)'\(comment)", .play)
            }
            if key == "loader" {
                guard profile.loader == nil else {
                    throw .usage("\(at): 'loader' is set twice", .play)
                }
                do {
                    _ = try parseLoader(value)
                } catch {
                    throw .usage("\(at): bad loader '\(value)': \(error.reason)", .play)
                }
                profile.loader = value
                continue
            }
            guard let option = OptionKey(rawValue: key), keys.contains(option) else {
                let known = (keys.map(\.rawValue) + ["loader"]).joined(separator: ", ")
                throw .usage("\(at): unknown key '\(key)' (known: \(known))", .play)
            }
            guard profile.values[option] == nil else {
                throw .usage("\(at): '\(key)' is set twice", .play)
            }
            do {
                try check(option, value)
            } catch {
                throw .usage("\(at): bad \(key) '\(value)': \(error.reason)", .play)
            }
            profile.values[option] = value
        }
        return profile
    }

    /// Runs the option's own parser on `value`.
    private static func check(_ key: OptionKey, _ value: String) throws(InvalidValue) {
        switch key {
        case .device: _ = try parseDevice(value)
        case .rotate: _ = try parseRotation(value)
        case .fps: _ = try parseFPS(value)
        case .scale: _ = try parseScale(value)
        case .color, .background: _ = try parseColor(value)
        default: preconditionFailure("not a board key: \(key)")
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

extension Substring {
    fileprivate var trimmingWhitespace: String {
        String(
            drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed()
                .drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    }
}
