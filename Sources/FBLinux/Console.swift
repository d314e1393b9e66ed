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
public final class Console {
    /// The VT the console ioctls go to (`/dev/tty0` is the active one).
    public let path: String
    private let system: SystemCalls
    private var fd: FileDescriptor?

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
    public static func enterGraphics(
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
    public func restore() {
        guard let fd else { return }
        self.fd = nil
        if system is LinuxSystemCalls { fbl_crash_guard_vt(-1) }
        try? system.ioctl(fd, fbl_KDSETMODE, "KDSETMODE", value: fbl_KD_TEXT)
        try? system.write(fd, Array("\u{1B}[?25h".utf8))
        system.close(fd)
    }

    /// Leaves the VT as it is (in graphics mode, the picture on screen) and
    /// lets go of it: a retained splash or a shutdown screen. Safe to call twice.
    public func leaveAsItIs() {
        guard let fd else { return }
        self.fd = nil
        if system is LinuxSystemCalls { fbl_crash_guard_vt(-1) }
        system.close(fd)
    }

    /// Switches the VT back to graphics mode if something put it in text
    /// mode (systemd 256+ resets the console as PID 1 starts; a user's
    /// `chvt`; a getty starting early), and hides the cursor again.
    /// - Returns: whether it was in text mode (the picture must be redrawn:
    ///   fbcon painted over it).
    public func reassertGraphics() -> Bool {
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
    public static func restoreText(
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
    public static func mode(
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
