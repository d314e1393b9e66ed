import Glibc

/// psplash's FIFO (`$PSPLASH_FIFO_DIR/psplash_fifo`, `/run` by default):
/// made with mode 0660 and group `video` where that group exists, read
/// without blocking, removed on close.
///
/// It is opened read-write: there is always a writer then (this process),
/// so writers coming and going never make it report end-of-file, and an
/// `echo` into it never blocks waiting for a reader.
package final class PsplashFIFO {
    package let path: String
    private let loop: EventLoop
    private let system: SystemCalls
    private var fd: FileDescriptor?
    private var token: EventLoop.Token?
    private var identity: (dev: UInt, ino: UInt)?
    /// Where reads land, kept: a read costs no allocation.
    private var buffer = [UInt8](repeating: 0, count: PsplashFIFO.readLimit)
    /// Bytes read per wake-up: a 1 MB write is taken in pieces, between
    /// frames, each parsed in well under a millisecond.
    static let readLimit = 8192

    /// The FIFO's path for the environment: `$PSPLASH_FIFO_DIR/psplash_fifo`.
    package static func defaultPath(environment directory: String?) -> String {
        let dir = (directory?.isEmpty == false ? directory! : "/run")
        return dir.hasSuffix("/") ? dir + "psplash_fifo" : dir + "/psplash_fifo"
    }

    /// Makes (or replaces a left-over) FIFO at `path` and calls `onBytes`
    /// with what writers send.
    /// - Throws: `SystemError` when it cannot be made or opened (a read-only
    ///   or full `/run`, something else at that path: `EEXIST`).
    package init(
        path: String, group: String? = "video", loop: EventLoop,
        system: SystemCalls = LinuxSystemCalls.shared,
        onBytes: @escaping (ArraySlice<UInt8>) -> Void
    ) throws(SystemError) {
        self.path = path
        self.loop = loop
        self.system = system
        // Something else at the path (a file, a socket) is not ours to replace;
        // a FIFO left by a splash that did not clean up is replaced.
        if let info = try? system.stat(path, followLinks: false), info.st_mode & S_IFMT != S_IFIFO {
            throw SystemError(errno: EEXIST, call: "mkfifo \(path)")
        }
        // Made under a temporary name, opened, given its mode and group, then
        // renamed into place: a writer never finds it half set up (no
        // reader yet, or the umask's mode).
        let temporary = "\(path).\(getpid()).new"
        try? system.unlink(temporary)
        do throws(SystemError) {
            try system.mkfifo(temporary, mode: 0o600)
        } catch {
            throw SystemError(errno: error.errno, call: "mkfifo \(path)")
        }
        let fd: FileDescriptor
        do throws(SystemError) {
            fd = try system.open(temporary, flags: O_RDWR | O_NONBLOCK)
        } catch {
            try? system.unlink(temporary)
            throw SystemError(errno: error.errno, call: "open \(path)")
        }
        // The mode without the umask, and the video group: its members may write.
        try? system.fchmod(fd, 0o660)
        if getuid() == 0, let group, let gid = system.groupID(group) {
            try? system.fchown(fd, user: 0, group: gid)
        }
        do throws(SystemError) {
            try system.rename(temporary, to: path)
        } catch {
            system.close(fd)
            try? system.unlink(temporary)
            throw SystemError(errno: error.errno, call: "rename \(path)")
        }
        self.fd = fd
        if let info = try? system.fstat(fd) { identity = (UInt(info.st_dev), UInt(info.st_ino)) }
        token = loop.watch(fd.rawValue) { [unowned self] _ in
            guard let n = try? system.read(fd, into: &buffer), n > 0 else { return }
            onBytes(buffer[..<n])
        }
    }

    deinit { close() }

    /// Stops reading and removes the FIFO if it is still the one this made.
    package func close() {
        guard let fd else { return }
        if let token { loop.remove(token) }
        if let identity, let info = try? system.stat(path, followLinks: false),
            UInt(info.st_dev) == identity.dev, UInt(info.st_ino) == identity.ino
        {
            try? system.unlink(path)
        }
        system.close(fd)
        self.fd = nil
    }
}
