import CFBLinux
import FBScheduler
import Glibc

/// What a boot splash needs from the system around it: systemd's notify
/// socket, Plymouth's pid file, the kernel command line, small files that
/// must never block, the boot clock.
package enum BootEnvironment {
    /// Sends `state` (`READY=1`, `STATUS=...`) to `$NOTIFY_SOCKET`, the way
    /// `sd_notify` does (no libsystemd needed). Nothing when it is unset.
    /// - Returns: whether a datagram went out.
    @discardableResult
    package static func notifySystemd(
        _ state: String, system: SystemCalls = LinuxSystemCalls.shared
    )
        -> Bool
    {
        guard let address = environment("NOTIFY_SOCKET"), !address.isEmpty,
            address.hasPrefix("/") || address.hasPrefix("@")
        else { return false }
        return (try? UnixSocket.sendDatagram(Array(state.utf8), to: address, system: system)) != nil
    }

    /// Whether this run started before the kernel's random pool was ready,
    /// so that the Swift runtime seeded its hashing with 0 rather than wait
    /// for the pool (seconds, early in a boot; CFBLinux's `entropy.c`).
    /// The first read also takes the variable that told the runtime so out
    /// of the environment: read it early in `main`.
    package static let startedBeforeRandomPool = fbl_hashing_fixed_for_start() != 0

    /// The value of an environment variable.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Seconds since the kernel started (`CLOCK_BOOTTIME`: counts suspend too).
    package static func secondsSinceBoot() -> Double {
        var ts = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &ts) == 0 else {
            return Double(monotonicNanoseconds()) / 1e9
        }
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The kernel command line (`/proc/cmdline`), `""` when it cannot be read.
    package static func kernelCommandLine(
        path: String = "/proc/cmdline", system: SystemCalls = LinuxSystemCalls.shared
    ) -> String {
        (try? readSmallFile(path, limit: 65536, system: system)).map {
            String(decoding: $0, as: UTF8.self)
        } ?? ""
    }

    /// A small configuration or state file, read without ever blocking
    /// for long: opened `O_NONBLOCK` (a FIFO with no writer, a device); a
    /// regular file of at most `limit` bytes is read, and a pipe or FIFO
    /// (`--board <(...)`) until its writer closes it, 5 s at most.
    /// - Throws: `SystemError`: `ENOENT`, `EACCES`, `EISDIR` for a directory,
    ///   `EINVAL` for a device or socket, `EFBIG` when larger than `limit`,
    ///   `ETIMEDOUT` for a pipe whose writer neither writes nor closes.
    package static func readSmallFile(
        _ path: String, limit: Int, system: SystemCalls = LinuxSystemCalls.shared,
        time: FrameClock = MonotonicClock.shared
    ) throws(SystemError) -> [UInt8] {
        let fd = try system.open(path, flags: O_RDONLY | O_NONBLOCK | O_NOCTTY)
        defer { system.close(fd) }
        let info = try system.fstat(fd)
        let isPipe: Bool
        switch info.st_mode & S_IFMT {
        case S_IFREG: isPipe = false
        case S_IFIFO: isPipe = true
        case S_IFDIR: throw SystemError(errno: EISDIR, call: "read")
        default: throw SystemError(errno: EINVAL, call: "read")
        }
        guard info.st_size <= limit else { throw SystemError(errno: EFBIG, call: "read") }
        let deadline = time.now() + pipeTimeout
        // Sized by the file (a pipe grows it as bytes come), never by the
        // limit: a 64 MiB font limit must not cost 64 MiB for a 700 KB font.
        var bytes = [UInt8](repeating: 0, count: isPipe ? 4096 : Int(info.st_size) + 1)
        var count = 0
        while count <= limit {
            if count == bytes.count {
                bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - count))
            }
            let n: Int
            do throws(SystemError) {
                n = try system.read(fd, into: &bytes, at: count)
            } catch {
                guard error.errno == EAGAIN && isPipe else { throw error }
                let now = time.now()
                guard now < deadline else { throw SystemError(errno: ETIMEDOUT, call: "read") }
                // Woken by input, a signal or the timeout alike: the read says which.
                _ = try? system.pollInput(
                    fd, timeoutMilliseconds: Int32((deadline - now) / 1_000_000) + 1)
                continue
            }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { throw SystemError(errno: EFBIG, call: "read") }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// How long `readSmallFile` waits for a pipe's writer.
    static let pipeTimeout: UInt64 = 5_000_000_000

    /// Writes this process's id to `path` (Plymouth's `/run/plymouth/pid`,
    /// where systemd's tools look), making its folder if needed.
    /// - Throws: `SystemError` from `mkdir` or the write.
    package static func writePidFile(_ path: String, system: SystemCalls = LinuxSystemCalls.shared)
        throws(SystemError)
    {
        let (directory, _) = splitPath(path)
        try makeDirectory(directory, system: system)
        try writeFileAtomically(
            Array("\(getpid())\n".utf8), to: path, permissions: 0o644, system: system)
    }

    /// Makes `path` (one level) unless it exists.
    package static func makeDirectory(
        _ path: String, mode: mode_t = 0o755, system: SystemCalls = LinuxSystemCalls.shared
    ) throws(SystemError) {
        do throws(SystemError) {
            try system.mkdir(path, mode: mode)
        } catch {
            if error.errno != EEXIST {
                throw SystemError(errno: error.errno, call: "mkdir \(path)")
            }
        }
    }

    /// Removes the pid file at `path` if it still names this process.
    package static func removePidFile(_ path: String, system: SystemCalls = LinuxSystemCalls.shared)
    {
        guard let bytes = try? readSmallFile(path, limit: 64, system: system),
            String(decoding: bytes, as: UTF8.self).split(separator: "\n").first
                == Substring("\(getpid())")
        else { return }
        try? system.unlink(path)
    }

    /// Removes what a splash that was killed left behind: a pid file naming
    /// a process that is gone (it would keep systemd's console password
    /// agent from starting) and a FIFO nobody reads (an `echo` into it
    /// would block forever).
    /// - Returns: the paths removed.
    @discardableResult
    package static func removeStaleSplashFiles(
        pidFile: String, fifo: String, system: SystemCalls = LinuxSystemCalls.shared
    ) -> [String] {
        var removed: [String] = []
        if let bytes = try? readSmallFile(pidFile, limit: 64, system: system),
            let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first,
            let pid = Int32(line), pid > 0, signalError(pid, system) == ESRCH
        {
            if (try? system.unlink(pidFile)) != nil { removed.append(pidFile) }
        }
        if let info = try? system.stat(fifo, followLinks: false), info.st_mode & S_IFMT == S_IFIFO {
            do throws(SystemError) {
                system.close(try system.open(fifo, flags: O_WRONLY | O_NONBLOCK))
                // Someone reads it: a splash runs.
            } catch {
                if error.errno == ENXIO, (try? system.unlink(fifo)) != nil { removed.append(fifo) }
            }
        }
        return removed
    }

    /// The process named in a pid file, if it names a running one.
    package static func process(
        inPidFile path: String, system: SystemCalls = LinuxSystemCalls.shared
    )
        -> Int32?
    {
        guard let bytes = try? readSmallFile(path, limit: 64, system: system),
            let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first,
            let pid = Int32(line), pid > 0, [0, EPERM].contains(signalError(pid, system))
        else { return nil }
        return pid
    }

    /// The `errno` of `kill(pid, 0)`, 0 when it succeeds: `ESRCH` when no
    /// such process runs, `EPERM` when it runs as another user.
    private static func signalError(_ pid: Int32, _ system: SystemCalls) -> Int32 {
        do throws(SystemError) {
            try system.kill(pid, 0)
            return 0
        } catch {
            return error.errno
        }
    }

    /// The command name of process `pid` (`/proc/PID/comm`), if it runs.
    package static func commandName(of pid: Int32, system: SystemCalls = LinuxSystemCalls.shared)
        -> String?
    {
        guard let bytes = try? readSmallFile("/proc/\(pid)/comm", limit: 64, system: system) else {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self).trimmedSpaces
    }

    /// Marks this process as one systemd-shutdown must not kill in its last
    /// sweep (its `argv[0]` starts with `@`, as plymouthd's does), so a
    /// shutdown splash stays on screen until the power goes off.
    package static func spareAtShutdown() {
        guard let argv0 = CommandLine.unsafeArgv[0], argv0.pointee != 0 else { return }
        argv0.pointee = CChar(UInt8(ascii: "@"))
    }

    /// Moves this process into `directory` as its root (`chroot`, then
    /// `chdir("/")`), as plymouthd does when the boot leaves the initramfs.
    /// - Throws: `SystemError` (`ENOENT`, `ENOTDIR`, `EPERM` without root).
    package static func changeRoot(
        to directory: String, system: SystemCalls = LinuxSystemCalls.shared
    )
        throws(SystemError)
    {
        try system.chroot(directory)
        try system.chdir("/")
    }

    /// The id of the group `name`, if it exists.
    package static func groupID(_ name: String) -> UInt32? {
        groupID(name, system: LinuxSystemCalls.shared)
    }

    /// The id of the group `name`, if it exists, asked through `system`.
    package static func groupID(_ name: String, system: SystemCalls) -> UInt32? {
        system.groupID(name)
    }

    /// Whether process `pid` is in group `gid` (primary or supplementary:
    /// `/proc/PID/status`'s `Gid:` and `Groups:` lines).
    package static func process(
        _ pid: Int32, isInGroup gid: UInt32, system: SystemCalls = LinuxSystemCalls.shared
    ) -> Bool {
        guard let bytes = try? readSmallFile("/proc/\(pid)/status", limit: 65536, system: system)
        else {
            return false
        }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        where line.hasPrefix("Groups:") || line.hasPrefix("Gid:") {
            let ids = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst()
            if ids.contains(where: { UInt32($0) == gid }) { return true }
        }
        return false
    }

    /// This process's user id.
    package static var userID: UInt32 { getuid() }
}
