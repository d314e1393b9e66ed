import FBLinux

/// The `fbanim` command line: the only thing `main.swift` calls.
public enum FBAnimCommand {
    /// Runs `fbanim` with `arguments` (`CommandLine.arguments`: the program's name first).
    ///
    /// Prints help on stdout and errors on stderr.
    /// - Returns: the exit status (see `ExitStatus`).
    public static func main(_ arguments: [String]) -> Int32 {
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
        case "help":
            try showHelp(words.dropFirst())
        case let word? where isHelpFlag(word):
            StandardStream.output.write(topLevelHelpText())
        default:
            try runPlay(words)
        }
    }

    /// `fbanim [--device DEVICE] [options] LOADER`: plays the loader.
    static func runPlay(_ words: ArraySlice<String>) throws(CLIError) {
        let parsed = try parseCommandLine(words, for: .play)
        if parsed.wantsHelp {
            StandardStream.output.write(topLevelHelpText())
            return
        }
        try play(PlayRequest(parsed))
    }

    /// `fbanim help [SUBCOMMAND]`.
    static func showHelp(_ words: ArraySlice<String>) throws(CLIError) {
        guard let name = words.first, name != "help" else {
            StandardStream.output.write(topLevelHelpText())
            return
        }
        guard let command = Command(rawValue: name), command.isAvailable else {
            throw .usage("Unknown subcommand '\(name)'", nil)
        }
        if let extra = words.dropFirst().first {
            throw .usage("Unexpected argument '\(extra)'", nil)
        }
        StandardStream.output.write(helpText(for: command))
    }
}
