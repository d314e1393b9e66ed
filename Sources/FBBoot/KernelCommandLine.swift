/// The kernel command line (`/proc/cmdline`), split as the kernel splits
/// it: parameters are separated by blanks, double quotes group blanks into
/// a value (`fbanim.message="Hello there"`) and are removed.
package struct KernelCommandLine: Sendable {
    /// Each parameter in order: its key and its value (`nil` without `=`).
    package private(set) var parameters: [(key: String, value: String?)] = []

    package init(_ text: String) {
        var word = ""
        var quoted = false
        var started = false
        func finish() {
            guard started else { return }
            started = false
            // A parameter quoted whole ("a=b c") loses its quotes, as the kernel's next_arg does.
            if word.hasPrefix("\"") {
                word.removeFirst()
                if word.hasSuffix("\"") { word.removeLast() }
            }
            let key: Substring
            var value: Substring?
            if let equals = word.firstIndex(of: "=") {
                key = word[..<equals]
                value = word[word.index(after: equals)...]
            } else {
                key = word[...]
            }
            if let v = value, v.count >= 2, v.first == "\"", v.last == "\"" {
                value = v.dropFirst().dropLast()
            }
            parameters.append((String(key.filter { $0 != "\"" }), value.map(String.init)))
            word = ""
        }
        for c in text {
            if c == "\"" { quoted.toggle() }
            if !quoted && (c == " " || c == "\t" || c == "\n" || c == "\r") {
                finish()
            } else {
                word.append(c)
                started = true
            }
        }
        finish()
    }

    /// Whether `key` appears, with or without a value.
    package func contains(_ key: String) -> Bool { parameters.contains { $0.key == key } }

    /// The value of the last `key=value` (the kernel's own rule: the last one wins).
    package func value(of key: String) -> String? {
        parameters.last { $0.key == key && $0.value != nil }?.value ?? nil
    }
}

/// The `fbanim.*` keys of the kernel command line, checked: a splash never
/// stops for a bad one, it logs the problem and goes on without it.
package struct SplashKernelOptions: Equatable, Sendable {
    /// `fbanim.enable=0` turns the splash off.
    package var enabled = true
    /// `fbanim.board=NAME`: a plain name (no `/`, no `..`; `NAME.conf` is
    /// NAME), so only a `NAME.conf` in the boards folders
    /// (`BoardProfile.searchPaths`).
    package var board: String?
    /// `fbanim.loader=NAME`, as the command line would take it (checked by the caller).
    package var loader: String?
    /// `splash` is on the command line.
    package var splash = false
    /// One line for each key that was ignored, and why.
    package var problems: [String] = []

    package static let keys = ["fbanim.enable", "fbanim.board", "fbanim.loader"]

    package init() {}

    package init(_ commandLine: KernelCommandLine) {
        splash = commandLine.contains("splash")
        for (key, value) in commandLine.parameters where key.hasPrefix("fbanim.") {
            guard SplashKernelOptions.keys.contains(key) else {
                problems.append(
                    "kernel command line: unknown key '\(loggable(key, limit: 40))' ignored "
                        + "(known: \(SplashKernelOptions.keys.joined(separator: ", ")))")
                continue
            }
            guard let value, !value.isEmpty else {
                problems.append("kernel command line: '\(key)' needs a value: ignored")
                continue
            }
            switch key {
            case "fbanim.enable":
                switch value.lowercased() {
                case "0", "no", "off", "false": enabled = false
                case "1", "yes", "on", "true": enabled = true
                default:
                    problems.append(
                        "kernel command line: fbanim.enable='\(loggable(value, limit: 20))' is not "
                            + "0 or 1: ignored")
                }
            case "fbanim.board":
                // `NAME.conf` is the name NAME: a word ending in `.conf`
                // would otherwise be read as a path by `--board`'s rules.
                let name = value.hasSuffix(".conf") ? String(value.dropLast(5)) : value
                if isPlainName(name) && !name.hasSuffix(".conf") {
                    board = name
                } else {
                    problems.append(
                        "kernel command line: fbanim.board='\(loggable(value, limit: 40))' is not a "
                            + "board name (letters, digits, '-', '_', '.'; no '/' or '..'): ignored"
                    )
                }
            default:
                loader = value
            }
        }
    }
}

/// A name that can only mean a file in a folder fbanim chose: letters,
/// digits, `-`, `_` and `.`, not starting with `.` (so no `..`), at most 64.
package func isPlainName(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count <= 64, name.first != "." else { return false }
    return name.unicodeScalars.allSatisfy { s in
        s.isASCII
            && ((s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9")
                || s == "-" || s == "_" || s == ".")
    }
}
