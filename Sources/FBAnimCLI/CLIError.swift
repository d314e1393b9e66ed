import FBBoot
import FBLinux

/// The exit statuses of `fbanim`, as `spec/cli.md` fixes them (the BSD `sysexits.h` values).
public enum ExitStatus {
    /// Done.
    public static let success: Int32 = 0
    /// The command line is wrong (`EX_USAGE`).
    public static let usage: Int32 = 64
    /// The device or a file named on the command line does not exist (`EX_NOINPUT`).
    public static let noInput: Int32 = 66
    /// The device or feature exists but cannot be used (`EX_UNAVAILABLE`).
    public static let unavailable: Int32 = 69
    /// An output file cannot be created (`EX_CANTCREAT`).
    public static let cannotCreate: Int32 = 73
    /// An I/O error while running (`EX_IOERR`).
    public static let ioError: Int32 = 74
    /// Permission denied (`EX_NOPERM`).
    public static let noPermission: Int32 = 77
}

/// Why a run of `fbanim` failed: the message on stderr and the exit status.
enum CLIError: Error, Equatable {
    /// A wrong command line: one line naming the bad word, for `command` (`nil`: the top level).
    case usage(String, Command?)
    /// Something this build cannot do, or a device that cannot be used.
    case unavailable(String)
    /// A device or file named on the command line does not exist.
    case noInput(String)
    /// Permission denied (opening a device).
    case noPermission(String)
    /// The output file could not be written.
    case cannotWrite(path: String, SystemError)
    /// A failure while running that is not the user's doing.
    case ioError(String)
    /// Not an error: the command's answer is "no" (`splash --check-plymouth`
    /// exits 1 when Plymouth runs), already said on stderr.
    case standDown
    /// Ends with this status; what there was to say is said.
    case exit(Int32)

    /// The status `fbanim` exits with.
    var exitStatus: Int32 {
        switch self {
        case .usage: return ExitStatus.usage
        case .unavailable: return ExitStatus.unavailable
        case .noInput: return ExitStatus.noInput
        case .noPermission: return ExitStatus.noPermission
        case .cannotWrite: return ExitStatus.cannotCreate
        case .ioError: return ExitStatus.ioError
        case .standDown: return 1
        case .exit(let status): return status
        }
    }

    /// What goes to stderr: one line, `Error: ...`, and for usage errors a
    /// pointer to the help at its end (shared/spec/cli.md: "a one-line error
    /// naming the bad word, and a pointer to `--help`").
    var message: String {
        oneLine(rawMessage) + (rawMessage.isEmpty ? "" : "\n")
    }

    private var rawMessage: String {
        switch self {
        case .usage(let text, let command):
            let helpCommand = command.map { "\($0.invocation) --help" } ?? "fbanim --help"
            return "Error: \(text) (see '\(helpCommand)')"
        case .unavailable(let text), .ioError(let text), .noInput(let text),
            .noPermission(let text):
            return "Error: \(text)"
        case .cannotWrite(let path, let error):
            return "Error: cannot write '\(path)': \(error.reason)"
        case .standDown, .exit: return ""
        }
    }
}

/// `text` as one line for a terminal: control characters (CR, LF, ESC,
/// NUL...), line separators and a byte order mark escaped as `\u{..}`, and
/// at most 400 characters (a 100 KB device name gives a short error).
func oneLine(_ text: String) -> String { loggable(text, limit: 400) }
