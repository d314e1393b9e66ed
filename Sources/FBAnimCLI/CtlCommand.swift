import FBBoot
import FBLinux
import Glibc

/// The help paragraph of `fbanim ctl`.
let ctlDiscussion = """
    Talks to a running fbanim splash (or anything speaking Plymouth's protocol) through \
    Plymouth's socket, and exits when it has answered. Commands: progress N (0 to 100: the \
    ring's progress), message TEXT (the message line), hide-message, quit [--retain] (returns \
    once the splash has let go of its channels and the display; --retain leaves its last frame \
    on screen for the next program), deactivate (stop drawing and hand the display over), \
    reactivate, ping (is one running?), wait (returns when it has closed its channels), \
    newroot DIR (the boot moved to its real root; root only).

    Only root (or the user the splash runs as, or the group its --ctl-group names) may send \
    commands. Exit statuses: 0 done, 64 a wrong command line, 69 no splash running (or it \
    refused), 74 no answer in time, 77 not allowed. For example:

      fbanim ctl progress 40
      fbanim ctl message "Updating firmware 42%"
      fbanim ctl quit --retain
    """

/// `fbanim ctl COMMAND [VALUE] [--retain] [--timeout S]`.
func runControl(_ words: ArraySlice<String>) throws(CLIError) {
    let parsed = try parseCommandLine(words, for: .ctl)
    if parsed.wantsHelp {
        try writeOutput(helpText(for: .ctl))
        return
    }
    try checkRequired(parsed, for: .ctl)
    let name = parsed.arguments[0]
    let value = parsed.arguments.count > 1 ? parsed.arguments[1] : nil
    let timeout = try parsed.value(Parsers.timeout, for: .ctl)
    let socket = SplashChannels.socketName
    func needs(_ takesValue: Bool) throws(CLIError) {
        if takesValue && value == nil {
            throw .usage("'\(name)' needs a value", .ctl)
        }
        if !takesValue, let value {
            throw .usage("Unexpected argument '\(shown(value))'", .ctl)
        }
        if parsed[.retain] != nil && name != "quit" {
            throw .usage("--retain goes with quit only", .ctl)
        }
    }
    let command: BootCommand
    switch name {
    case "progress":
        try needs(true)
        guard let percent = parsePercent(value!, range: 0...100), value!.utf8.count <= 20,
            (0...100).contains(Int(value!.trimmedBlanks) ?? -1)
        else {
            throw invalid(
                value!, "<value>", InvalidValue("expected a whole number from 0 to 100"), for: .ctl)
        }
        command = .progress(percent)
    case "message":
        try needs(true)
        command = .message(value!)
    case "hide-message":
        try needs(false)
        command = .hideMessage
    case "quit":
        try needs(false)
        command = .quit(retain: parsed[.retain] != nil)
    case "deactivate":
        try needs(false)
        command = .deactivate
    case "reactivate":
        try needs(false)
        command = .reactivate
    case "ping":
        try needs(false)
        command = .ping
    case "newroot":
        try needs(true)
        command = .newRoot(value!)
    case "wait":
        try needs(false)
        let ms = timeout.map { Int32(clamping: Int(($0 * 1000).rounded(.up))) } ?? -1
        do throws(PlymouthClient.Failure) {
            _ = try PlymouthClient.waitForExit(socket: socket, timeoutMilliseconds: ms)
            return
        } catch {
            throw failure(error, name)
        }
    default:
        throw invalid(
            name, "<command>",
            InvalidValue(
                "expected progress, message, hide-message, quit, deactivate, reactivate, ping, "
                    + "wait or newroot"), for: .ctl)
    }
    let ms = Int32(clamping: Int(((timeout ?? 30) * 1000).rounded(.up)))
    let answer: UInt8
    do throws(PlymouthClient.Failure) {
        answer = try PlymouthClient.send(
            Plymouth.request(for: command), socket: socket, timeoutMilliseconds: ms)
    } catch {
        throw failure(error, name)
    }
    guard answer == Plymouth.ack else {
        if BootEnvironment.userID != 0 {
            throw .noPermission(
                "the splash refused '\(name)': only root (or its --ctl-group) may control it")
        }
        throw .unavailable("the splash refused '\(name)'")
    }
}

private func failure(_ error: PlymouthClient.Failure, _ name: String) -> CLIError {
    switch error {
    case .notRunning:
        return .unavailable("no splash running (nothing listens on Plymouth's socket)")
    case .timedOut: return .ioError("the splash did not answer '\(name)' in time")
    case .closed: return .ioError("the splash closed the connection without answering '\(name)'")
    case .system(let e):
        if e.errno == EACCES || e.errno == EPERM {
            return .noPermission("cannot reach the splash: \(e.reason)")
        }
        return .ioError("talking to the splash: \(e)")
    }
}

/// `fbanim restore-console`: the VT in text mode, its cursor shown.
func runRestoreConsole(_ words: ArraySlice<String>) throws(CLIError) {
    let parsed = try parseCommandLine(words, for: .restoreConsole)
    if parsed.wantsHelp {
        try writeOutput(helpText(for: .restoreConsole))
        return
    }
    try checkRequired(parsed, for: .restoreConsole)
    Console.restoreText()
    BootEnvironment.removeStaleSplashFiles(
        pidFile: "/run/plymouth/pid",
        fifo: PsplashFIFO.defaultPath(environment: BootEnvironment.environment("PSPLASH_FIFO_DIR")))
}

extension String {
    fileprivate var trimmedBlanks: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
