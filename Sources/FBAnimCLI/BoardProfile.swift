import FBBoot
import FBLinux
import Glibc

/// A board profile (`boards/*.conf`) or the splash's configuration
/// (`/etc/fbanim/fbanim.conf`): defaults for the command line.
///
/// Versioned data, checked before use (boards/README.md, "Format"): a
/// board profile starts with the format line `fbanim-board 1`, must name
/// its `device`, and every value goes through the parser of the option of
/// the same name; an error names the file, the line and the key. `key =
/// value` a line; `#` starts a comment outside double quotes; a value in
/// double quotes keeps its `#` and blanks; lines may end in CR LF. The
/// parsing itself is in BoardProfileParser.swift.
struct BoardProfile: Equatable {
    /// The file it was read from.
    let path: String
    /// The version its format line gives (1); `nil` for a file written
    /// before profiles had the line, read as version 1.
    var version: Int?
    /// Option values by key, as words (already checked).
    var values: [OptionKey: String] = [:]
    /// The loader to play when the command line names none.
    var loader: String?
    /// The kernel modules the initramfs hook copies (`initramfs-modules`).
    var initramfsModules: [String] = []
    /// Firmware files, relative to `/lib/firmware`, the initramfs hook copies
    /// with the modules (`initramfs-firmware`): a driver that reads its
    /// firmware when it probes (panel-mipi-dbi) fails without it.
    var initramfsFirmware: [String] = []
    /// The line each key was set on, for problems found between keys.
    var keyLines: [String: Int] = [:]

    /// The format version this fbanim reads and writes.
    static let formatVersion = 1
    /// The first word of a board profile's format line.
    static let formatWord = "fbanim-board"

    /// What a file may set.
    enum Kind {
        /// A board profile: the display and the look and pacing options of `play`.
        case board
        /// `fbanim.conf`: those, the board to start from, and the message.
        case configuration

        var keys: [OptionKey] {
            switch self {
            case .board:
                return [.device, .format, .size, .rotate, .fps, .scale, .color, .background]
            case .configuration:
                return [
                    .board, .device, .rotate, .fps, .scale, .color, .background, .font, .message,
                    .textColor,
                ]
            }
        }
        /// Keys the runtime leaves to others (the initramfs hook reads them).
        var passiveKeys: [String] {
            self == .board ? ["initramfs-modules", "initramfs-firmware"] : []
        }
        /// Keys a file of this kind must set.
        var requiredKeys: [OptionKey] { self == .board ? [.device] : [] }
        /// How errors call such a file.
        var noun: String { self == .board ? "board profile" : "configuration file" }
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
    /// - Throws: `CLIError`: 64 for a bad name or a bad profile (naming the
    ///   file and the line), 66 when no such profile exists, 77 without permission.
    /// `deviceGiven`: the command line names the display, so the profile
    /// need not (it gives the other defaults).
    static func load(_ word: String, deviceGiven: Bool = false) throws(CLIError) -> BoardProfile {
        let isPath = word.contains("/") || word.hasSuffix(".conf")
        if !isPath && !isPlainName(word) {
            throw .usage(
                "The value '\(shown(word))' is invalid for '--board <name|file>': not a board name",
                .play)
        }
        let candidates = isPath ? [word] : searchPaths(for: word)
        // A link that leads nowhere (or round in a loop) is a bad profile, not a missing one.
        for path in candidates where pathExists(path) || isSymbolicLink(path) {
            return try parse(
                readProfile(path), path: path, kind: .board,
                excusing: deviceGiven ? [.device] : [])
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
    /// - Throws: `CLIError.usage` naming the file, the line and the key of
    ///   the first problem.
    /// `excusing`: required keys the caller has values for.
    static func parse(
        _ text: String, path: String, kind: Kind, excusing: Set<OptionKey> = []
    ) throws(CLIError) -> BoardProfile {
        let (profile, problems) = scan(text, path: path, kind: kind)
        if let first = problems.first(where: { $0.missing.map(excusing.contains) != true }) {
            throw .usage("\(path):\(first.line): \(first.reason)", .play)
        }
        return profile
    }

    /// Parses what can be parsed: a bad line is reported and skipped, a file
    /// that cannot be a profile at all (not text, another format version)
    /// is reported once and gives no values (a splash never stops for its
    /// configuration).
    static func parseLeniently(_ text: String, path: String, kind: Kind) -> (
        BoardProfile, problems: [String]
    ) {
        let (profile, problems) = scan(text, path: path, kind: kind)
        if let whole = problems.first(where: \.dropsFile) {
            return (
                BoardProfile(path: path),
                [oneLine("\(path):\(whole.line): \(whole.reason); file ignored")]
            )
        }
        let said = problems.map { problem in
            oneLine("\(path):\(problem.line): \(problem.reason); \(problem.consequence)")
        }
        return (profile, said)
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
    guard isPlainName(word) else {
        throw InvalidValue("expected a board name: letters, digits, '-', '_' and '.'")
    }
    return word
}

/// Text for a message or a file name: one line, at most 4096 bytes.
func parseText(_ word: String) throws(InvalidValue) -> String {
    guard word.utf8.count <= 4096 else { throw InvalidValue("longer than 4096 bytes") }
    guard !word.contains(where: { $0.isNewline }) else { throw InvalidValue("more than one line") }
    return word
}

/// The CLI error for a profile that cannot be read: 77 without permission,
/// 66 when missing, 64 for something that is not a profile file (a
/// directory, a device, a link loop, more than 1 MiB), 74 when reading it
/// failed (`EIO`: `/proc/self/mem`; a pipe whose writer never finishes).
func profileError(_ path: String, _ error: SystemError, what: String = "board profile") -> CLIError
{
    let shownPath = shown(path)
    switch error.errno {
    case ENOENT, ENOTDIR: return .noInput("no such \(what) '\(shownPath)'")
    case EACCES, EPERM: return .noPermission("cannot read \(what) '\(shownPath)': \(error.reason)")
    case EISDIR: return .usage("\(what) '\(shownPath)' is a directory", .play)
    case EFBIG: return .usage("\(what) '\(shownPath)' is larger than 1 MiB", .play)
    case EINVAL: return .usage("\(what) '\(shownPath)' is not a regular file", .play)
    case ELOOP: return .usage("\(what) '\(shownPath)' is a loop of symbolic links", .play)
    case ENAMETOOLONG: return .usage("\(what) path '\(shownPath)' is too long", .play)
    default: return .ioError("cannot read \(what) '\(shownPath)': \(error.reason)")
    }
}

/// Text from a file or a command line, safe for a one-line error: control
/// characters escaped, at most 80 characters.
func shown(_ text: String) -> String { loggable(text, limit: 80) }

/// Whether `path` is a symbolic link (`lstat`), whatever it points to.
private func isSymbolicLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
}
