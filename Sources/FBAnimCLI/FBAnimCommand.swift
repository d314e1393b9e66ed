import FBLinux
import Glibc

/// The `fbanim` command line: the only thing `main.swift` calls.
public enum FBAnimCommand {
    /// Runs `fbanim` with `arguments` (`CommandLine.arguments`: the program's name first).
    ///
    /// Prints help on stdout and errors on stderr.
    /// - Returns: the exit status (see `ExitStatus`).
    public static func main(_ arguments: [String]) -> Int32 {
        StandardStream.claimClosedStreams()
        _ = BootEnvironment.startedBeforeRandomPool
        do {
            try run(arguments.dropFirst())
            return ExitStatus.success
        } catch {
            StandardStream.error.write(error.message)
            return error.exitStatus
        }
    }

    /// Ends the process with `status`.
    public static func exit(_ status: Int32) -> Never {
        exitProcess(status)
    }

    /// Picks the command from the first word.
    static func run(_ words: ArraySlice<String>) throws(CLIError) {
        switch words.first {
        case "render":
            try runRender(words.dropFirst())
        case "devices":
            try runDevices(words.dropFirst())
        case "testpattern":
            try runTestPattern(words.dropFirst())
        case "splash":
            try runSplash(words.dropFirst())
        case "ctl":
            try runControl(words.dropFirst())
        case "restore-console":
            try runRestoreConsole(words.dropFirst())
        case "help":
            try showHelp(words.dropFirst())
        case let word? where isHelpFlag(word):
            try writeOutput(topLevelHelpText())
        default:
            try runPlay(words)
        }
    }

    /// `fbanim [--device DEVICE] [options] LOADER`: plays the loader.
    static func runPlay(_ words: ArraySlice<String>) throws(CLIError) {
        let parsed = try parseCommandLine(words, for: .play)
        if parsed.wantsHelp {
            try writeOutput(topLevelHelpText())
            return
        }
        try play(PlayRequest(parsed))
    }

    /// `fbanim help [SUBCOMMAND]`.
    static func showHelp(_ words: ArraySlice<String>) throws(CLIError) {
        guard let name = words.first, name != "help" else {
            try writeOutput(topLevelHelpText())
            return
        }
        guard let command = Command(rawValue: name), command.isAvailable else {
            throw .usage("Unknown subcommand '\(name)'", nil)
        }
        if let extra = words.dropFirst().first {
            throw .usage("Unexpected argument '\(extra)'", nil)
        }
        try writeOutput(helpText(for: command))
    }
}

/// Writes `text` to standard output. A reader that went away (`EPIPE`, as
/// `fbanim --help | head -1`) ends the output quietly, as SIGPIPE would;
/// any other failure (a closed or full output) is an I/O error, exit 74.
func writeOutput(_ text: String) throws(CLIError) {
    // A closed output was given /dev/null at start (so no device takes its
    // number): writing there would pass for success.
    let failure =
        StandardStream.output.wasClosed
        ? SystemError(errno: EBADF, call: "write") : StandardStream.output.write(text)
    guard let error = failure, error.errno != EPIPE else { return }
    throw .ioError("cannot write to standard output: \(error.reason)")
}
