import CFBLinux
import Glibc

/// The Linux virtual terminal under a picture: in graphics mode while the
/// picture is up, so fbcon neither draws over it (its blinking cursor would
/// overwrite the top-left cell of an fbdev picture) nor repaints the console
/// on top, and with the text cursor hidden.
///
/// `restore()` puts the VT back in `KD_TEXT` with the cursor shown; the
/// displays call it from their `close()`, which the command line runs on
/// every way out (end of the run, SIGTERM/SIGINT/SIGHUP, a fatal error).
package final class Console {
    /// The VT the console ioctls go to (`/dev/tty0` is the active one).
    package let path: String
    private let system: SystemCalls
    private var fd: FileDescriptor?
    /// The VT's switches are this process's (`VT_PROCESS`) until restored.
    package private(set) var ownsSwitching = false

    private init(path: String, system: SystemCalls, fd: FileDescriptor) {
        self.path = path
        self.system = system
        self.fd = fd
    }

    deinit { restore() }

    /// Switches the active VT to graphics mode and hides its cursor.
    ///
    /// The VT is opened non-blocking: a console stopped with Ctrl-S or
    /// Scroll Lock takes no writes, and the cursor escapes are then lost
    /// rather than holding the splash (or its exit) forever.
    ///
    /// `open(/dev/tty0)`, `ioctl(KDSETMODE, KD_GRAPHICS)`, then `ESC [ ? 25 l`
    /// written to it.
    /// - Returns: the console to restore later, or `nil` when there is none
    ///   to switch: no VT at all (a kernel without `CONFIG_VT`, a container),
    ///   or no permission to change it. Both are fine: nothing draws over the
    ///   picture then, or nothing fbanim could prevent.
    package static func enterGraphics(
        path: String = "/dev/tty0", system: SystemCalls = LinuxSystemCalls.shared
    ) -> Console? {
        guard let fd = try? system.open(path, flags: O_RDWR | O_NOCTTY | O_NONBLOCK) else {
            return nil
        }
        do {
            try system.ioctl(fd, fbl_KDSETMODE, "KDSETMODE", value: fbl_KD_GRAPHICS)
        } catch {
            // ENOTTY: not a VT (a serial line); EPERM: not ours to change.
            system.close(fd)
            return nil
        }
        try? system.write(fd, Array("\u{1B}[?25l".utf8))
        // Only a real VT is worth restoring from a crash handler.
        if system is LinuxSystemCalls { fbl_crash_guard_vt(fd.rawValue) }
        return Console(path: path, system: system, fd: fd)
    }

    /// Back to `KD_TEXT` (fbcon repaints the console) with the cursor shown.
    /// Safe to call twice; failures are ignored, there is nothing else to try.
    package func restore() {
        guard let fd else { return }
        giveBackSwitching(fd)
        self.fd = nil
        if system is LinuxSystemCalls { fbl_crash_guard_vt(-1) }
        try? system.ioctl(fd, fbl_KDSETMODE, "KDSETMODE", value: fbl_KD_TEXT)
        try? system.write(fd, Array("\u{1B}[?25h".utf8))
        system.close(fd)
    }

    /// Leaves the VT as it is (in graphics mode, the picture on screen) and
    /// lets go of it: a retained splash or a shutdown screen. Safe to call twice.
    package func leaveAsItIs() {
        guard let fd else { return }
        giveBackSwitching(fd)
        self.fd = nil
        if system is LinuxSystemCalls { fbl_crash_guard_vt(-1) }
        system.close(fd)
    }

    // MARK: VT switches (VT_PROCESS)

    /// Takes the VT's switches into this process's hands (`VT_SETMODE`
    /// `VT_PROCESS`): a switch away sends `signal` and waits for
    /// `allowLeave()` (the display released first), a switch back sends
    /// `signal` again, answered by `acknowledgeReturn()`. One signal for
    /// both, as X.org does: whether the VT is shown tells which it is.
    /// The signal must be caught before this is called (its default action
    /// ends the process). The kernel gives the VT back to `VT_AUTO` by
    /// itself when this process dies (a switch then goes through), so a
    /// killed splash never leaves the VTs unswitchable.
    /// - Returns: whether the VT is now `VT_PROCESS` (`false` with no VT,
    ///   or when the kernel refuses).
    @discardableResult
    package func ownSwitching(signal: Int32) -> Bool {
        guard let fd else { return false }
        // The VT on screen now is this console's (`/dev/tty0` was opened on it).
        if number == nil { number = activeVT(fd) }
        var mode = vt_mode()
        mode.mode = CChar(fbl_VT_PROCESS)
        mode.waitv = 0
        mode.relsig = Int16(signal)
        mode.acqsig = Int16(signal)
        mode.frsig = 0
        ownsSwitching = (try? system.ioctl(fd, fbl_VT_SETMODE, "VT_SETMODE", &mode)) != nil
        switchSignal = signal
        return ownsSwitching
    }
    private var switchSignal: Int32 = 0
    /// This console's VT number (1 for tty1), once switches are owned.
    package private(set) var number: Int?

    /// Whether this console's VT is the one on screen (`VT_GETSTATE`);
    /// `nil` when that cannot be told.
    package var isShown: Bool? {
        guard let fd, let number, let active = activeVT(fd) else { return nil }
        return active == number
    }

    private func activeVT(_ fd: FileDescriptor) -> Int? {
        var state = vt_stat()
        guard (try? system.ioctl(fd, fbl_VT_GETSTATE, "VT_GETSTATE", &state)) != nil else {
            return nil
        }
        return Int(state.v_active)
    }

    /// Whether another program reset the VT to `VT_AUTO` behind this one
    /// (systemd resets a VT it starts a getty on; a `chvt` tool may too): if
    /// so, `VT_PROCESS` is taken again. Runs with the console checks.
    /// - Returns: whether it had to be taken again.
    @discardableResult
    package func reassertSwitching() -> Bool {
        guard ownsSwitching, let fd else { return false }
        var mode = vt_mode()
        guard (try? system.ioctl(fd, fbl_VT_GETMODE, "VT_GETMODE", &mode)) != nil,
            Int32(mode.mode) != fbl_VT_PROCESS
        else { return false }
        return ownSwitching(signal: switchSignal)
    }

    /// Lets a requested switch away go through (`VT_RELDISP 1`); call it
    /// once the display is released.
    /// - Returns: whether a switch was waiting (`EINVAL` when none was: the
    ///   signal came from someone else, and the VT is still on screen).
    @discardableResult
    package func allowLeave() -> Bool {
        guard ownsSwitching, let fd else { return false }
        return (try? system.ioctl(fd, fbl_VT_RELDISP, "VT_RELDISP", value: 1)) != nil
    }

    /// Answers the switch back to this VT (`VT_RELDISP VT_ACKACQ`).
    package func acknowledgeReturn() {
        guard ownsSwitching, let fd else { return }
        try? system.ioctl(fd, fbl_VT_RELDISP, "VT_RELDISP", value: fbl_VT_ACKACQ)
    }

    /// Back to `VT_AUTO` (switches go through without asking). A switch
    /// away still waiting for an answer is let through first: `VT_SETMODE`
    /// would cancel it, and whoever asked (`chvt`) would wait forever.
    private func giveBackSwitching(_ fd: FileDescriptor) {
        guard ownsSwitching else { return }
        ownsSwitching = false
        try? system.ioctl(fd, fbl_VT_RELDISP, "VT_RELDISP", value: 1)
        var mode = vt_mode()
        mode.mode = CChar(fbl_VT_AUTO)
        try? system.ioctl(fd, fbl_VT_SETMODE, "VT_SETMODE", &mode)
    }

    /// Switches the VT back to graphics mode if something put it in text
    /// mode (systemd 256+ resets the console as PID 1 starts; a user's
    /// `chvt`; a getty starting early), and hides the cursor again.
    /// - Returns: whether it was in text mode (the picture must be redrawn:
    ///   fbcon painted over it).
    package func reassertGraphics() -> Bool {
        guard let fd else { return false }
        var mode: Int32 = -1
        guard (try? system.ioctl(fd, fbl_KDGETMODE, "KDGETMODE", &mode)) != nil,
            mode == fbl_KD_TEXT
        else { return false }
        try? system.ioctl(fd, fbl_KDSETMODE, "KDSETMODE", value: fbl_KD_GRAPHICS)
        try? system.write(fd, Array("\u{1B}[?25l".utf8))
        return true
    }

    /// Puts the VT at `path` in text mode with its cursor shown, whoever
    /// left it in graphics mode (a splash killed with SIGKILL). Nothing
    /// happens where there is no VT or no right to change it.
    package static func restoreText(
        path: String = "/dev/tty0", system: SystemCalls = LinuxSystemCalls.shared
    ) {
        guard let fd = try? system.open(path, flags: O_RDWR | O_NOCTTY | O_NONBLOCK) else { return }
        defer { system.close(fd) }
        guard (try? system.ioctl(fd, fbl_KDSETMODE, "KDSETMODE", value: fbl_KD_TEXT)) != nil else {
            return
        }
        try? system.write(fd, Array("\u{1B}[?25h".utf8))
    }

    /// The mode of the VT at `path`: `KD_TEXT` (0) or `KD_GRAPHICS` (1),
    /// `nil` when it cannot be read (`ioctl(KDGETMODE)`).
    package static func mode(
        path: String = "/dev/tty0", system: SystemCalls = LinuxSystemCalls.shared
    ) -> Int32? {
        guard let fd = try? system.open(path, flags: O_RDONLY | O_NOCTTY) else { return nil }
        defer { system.close(fd) }
        // KDGETMODE writes an int (not a long) through the pointer.
        var mode: Int32 = -1
        guard (try? system.ioctl(fd, fbl_KDGETMODE, "KDGETMODE", &mode)) != nil else { return nil }
        return mode
    }
}
