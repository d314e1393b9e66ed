import FBBoot
import FBLinux

/// The help paragraph of `fbanim splash`.
let splashDiscussion = """
    Plays a loader as the boot splash. Everything play does, plus: waits for its display as long \
    as the boot takes (showing on the first display there is until the named one comes, and \
    moving when a display goes or a better one appears); takes the boot's progress and a message \
    from psplash's FIFO ($PSPLASH_FIFO_DIR/psplash_fifo, /run by default), Plymouth's socket \
    (plymouth, systemd, display managers) and fbanim ctl; tells systemd READY=1 once its first \
    frame is on screen; hands the display over (deactivate, quit --retain) without a flash of \
    console text or black. Settings come from the command line, then the kernel command line \
    (fbanim.board=, fbanim.loader=, fbanim.enable=0), then /etc/fbanim/fbanim.conf, then the \
    board profile; a bad one is logged and skipped, never fatal.

    Runs until told to quit (fbanim ctl quit, plymouth quit, QUIT on the FIFO) or SIGTERM. \
    Exit statuses: 0 done, 64 a wrong command line, 66 no display within --wait, 77 permission \
    denied. For example:

      fbanim splash --board pi-dsi-800x480
      echo "PROGRESS 40" > /run/psplash_fifo; fbanim ctl message "Updating firmware"
    """

/// `fbanim splash [options] [LOADER]`.
func runSplash(_ words: ArraySlice<String>) throws(CLIError) {
    let parsed = try parseCommandLine(words, for: .splash)
    if parsed.wantsHelp {
        try writeOutput(helpText(for: .splash))
        return
    }
    let commandLine = KernelCommandLine(BootEnvironment.kernelCommandLine())
    let kernel = SplashKernelOptions(commandLine)
    if parsed[.checkPlymouth] != nil {
        if let why = PlymouthCheck.reasonToStandDown(commandLine: commandLine) {
            StandardStream.error.write("fbanim: \(why): fbanim stands down\n")
            throw .standDown
        }
        return
    }
    let log = SplashLog()
    if !kernel.enabled && parsed[.device] == nil {
        // Ready and done: a Type=notify unit whose process ends without
        // READY=1 would count as failed.
        BootEnvironment.notifySystemd("READY=1\nSTATUS=Turned off on the kernel command line")
        log(
            "fbanim.enable=\(shown(commandLine.value(of: "fbanim.enable") ?? "0")) on the kernel command line: no splash"
        )
        return
    }
    let request = try SplashRequest(parsed, kernel: kernel, readFile: readConfigurationFile)
    do {
        try SignalFlags.install()
        try SignalFlags.catchVTSwitches()
    } catch {
        throw .ioError("cannot catch signals: \(error)")
    }
    let session = try SplashSession(request, log: log)
    let status = session.run()
    if let format = request.play.stats, let books = session.books {
        let statistics = Statistics(
            books: books, loader: request.play.loader.rawValue, device: "splash")
        switch format {
        case .json: try writeOutput(statistics.json)
        case .text: StandardStream.error.write(statistics.text)
        }
    }
    if status != ExitStatus.success { throw .exit(status) }
}

/// Whether Plymouth is installed and enabled, so fbanim's units stand down.
enum PlymouthCheck {
    static let daemons = ["/usr/sbin/plymouthd", "/sbin/plymouthd", "/usr/bin/plymouthd"]
    static let unit = "plymouth-start.service"

    /// Why fbanim should not run, or `nil` when it should: a `plymouthd`
    /// is installed, `plymouth.enable=0` is not on the kernel command line,
    /// and its start unit is not masked (linked to /dev/null).
    /// - Parameter root: where the file system is (tests use a folder).
    static func reasonToStandDown(commandLine: KernelCommandLine, root: String = "") -> String? {
        guard let daemon = daemons.first(where: { pathExists(root + $0) }) else { return nil }
        if commandLine.value(of: "plymouth.enable") == "0" { return nil }
        for directory in ["/etc/systemd/system", "/run/systemd/system"] {
            let link = root + "\(directory)/\(unit)"
            if let target = linkTarget(link), target == "/dev/null" { return nil }
        }
        return "Plymouth is installed (\(daemon)) and \(unit) is not masked"
    }
}
