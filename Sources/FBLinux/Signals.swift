import CFBLinux
import Glibc

/// Signals fbanim reacts to, read as flags between frames (never handled in
/// Swift inside a signal handler).
package enum SignalFlags {
    /// Signals that end a run cleanly: SIGTERM, SIGINT, SIGHUP, SIGQUIT
    /// (Ctrl-\\ would otherwise dump core with the console in graphics mode).
    package static let stopSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGQUIT]

    /// Catches the stop signals, SIGUSR1 (print the books) and SIGWINCH
    /// (terminal resized). Blocking sleeps then return early when one arrives.
    ///
    /// The signals are also unblocked: a mask inherited from the parent (a
    /// test runner, a service manager) must not make fbanim deaf to SIGTERM.
    package static func install(system: SystemCalls = LinuxSystemCalls.shared) throws(SystemError) {
        for sig in stopSignals + [SIGUSR1, SIGWINCH] { try system.catchSignal(sig) }
        // A closed pipe on stdout or stderr (`--stats json | head`) must not
        // kill fbanim before it restores the console: writes report EPIPE
        // instead, and the writers drop it.
        system.ignoreSignal(SIGPIPE)
        // A fault after the display opened must not leave the console in
        // graphics mode (see CFBLinux.h).
        fbl_crash_guard_install()
    }

    /// Whether a stop signal arrived since the start (it stays set).
    package static var stopRequested: Bool {
        if stopped { return true }
        for sig in stopSignals where fbl_signal_take(sig) == 1 { stopped = true }
        return stopped
    }
    nonisolated(unsafe) private static var stopped = false

    /// Whether SIGUSR1 arrived since the last call.
    package static func takeStatsRequest() -> Bool { fbl_signal_take(SIGUSR1) == 1 }

    /// The signal the kernel sends a splash that owns its VT's switches
    /// (`Console.ownSwitching`): a switch away is asked for, or the VT is back.
    package static let vtSwitchSignal = SIGUSR2

    /// Catches `vtSwitchSignal` (the splash only: elsewhere SIGUSR2 keeps
    /// its default action). Must run before the VT is put in `VT_PROCESS`.
    package static func catchVTSwitches(system: SystemCalls = LinuxSystemCalls.shared)
        throws(SystemError)
    {
        try system.catchSignal(vtSwitchSignal)
        catchesVTSwitches = true
    }
    /// `catchVTSwitches()` ran.
    nonisolated(unsafe) package private(set) static var catchesVTSwitches = false

    /// Whether `vtSwitchSignal` arrived since the last call.
    package static func takeVTSwitch() -> Bool { fbl_signal_take(vtSwitchSignal) == 1 }

    /// Whether SIGWINCH arrived since the last call.
    package static func takeResize() -> Bool { fbl_signal_take(SIGWINCH) == 1 }
}
