import Glibc

/// psplash's FIFO (`$PSPLASH_FIFO_DIR/psplash_fifo`, `/run` by default):
/// made with mode 0660 and group `video` where that group exists, read
/// without blocking, removed on close.
///
/// It is opened read-write: there is always a writer then (this process),
/// so writers coming and going never make it report end-of-file, and an
/// `echo` into it never blocks waiting for a reader.
public final class PsplashFIFO {
    public let path: String
    private let loop: EventLoop
    private var fd: Int32 = -1
    private var token: EventLoop.Token?
    private var identity: (dev: UInt, ino: UInt)?
    /// Where reads land, kept: a read costs no allocation.
    private var buffer = [UInt8](repeating: 0, count: PsplashFIFO.readLimit)
    /// Bytes read per wake-up: a 1 MB write is taken in pieces, between
    /// frames, each parsed in well under a millisecond.
    static let readLimit = 8192

    /// The FIFO's path for the environment: `$PSPLASH_FIFO_DIR/psplash_fifo`.
    public static func defaultPath(environment directory: String?) -> String {
        let dir = (directory?.isEmpty == false ? directory! : "/run")
        return dir.hasSuffix("/") ? dir + "psplash_fifo" : dir + "/psplash_fifo"
    }

    /// Makes (or replaces a left-over) FIFO at `path` and calls `onBytes`
    /// with what writers send.
    /// - Throws: `SystemError` when it cannot be made or opened (a read-only
    ///   or full `/run`, something else at that path: `EEXIST`).
    public init(
        path: String, group: String? = "video", loop: EventLoop,
        onBytes: @escaping (ArraySlice<UInt8>) -> Void
    ) throws(SystemError) {
        self.path = path
        self.loop = loop
        var info = stat()
        // Something else at the path (a file, a socket) is not ours to replace;
        // a FIFO left by a splash that did not clean up is replaced.
        if lstat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFIFO {
            throw SystemError(errno: EEXIST, call: "mkfifo \(path)")
        }
        // Made under a temporary name, opened, given its mode and group, then
        // renamed into place: a writer never finds it half set up (no
        // reader yet, or the umask's mode).
        let temporary = "\(path).\(getpid()).new"
        unlink(temporary)
        _ = try systemCall("mkfifo \(path)") { mkfifo(temporary, 0o600) }
        let fd: Int32
        do throws(SystemError) {
            fd = try systemCall("open \(path)") { open(temporary, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        } catch {
            unlink(temporary)
            throw error
        }
        // The mode without the umask, and the video group: its members may write.
        _ = fchmod(fd, 0o660)
        if getuid() == 0, let group, let entry = getgrnam(group) {
            _ = fchown(fd, 0, entry.pointee.gr_gid)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            Glibc.close(fd)
            unlink(temporary)
            throw SystemError(errno: code, call: "rename \(path)")
        }
        self.fd = fd
        if fstat(fd, &info) == 0 { identity = (UInt(info.st_dev), UInt(info.st_ino)) }
        token = loop.watch(fd) { [unowned self] _ in
            let n = buffer.withUnsafeMutableBytes { read(self.fd, $0.baseAddress, $0.count) }
            if n > 0 { onBytes(buffer[..<n]) }
        }
    }

    deinit { close() }

    /// Stops reading and removes the FIFO if it is still the one this made.
    public func close() {
        guard fd >= 0 else { return }
        if let token { loop.remove(token) }
        var info = stat()
        if let identity, lstat(path, &info) == 0, UInt(info.st_dev) == identity.dev,
            UInt(info.st_ino) == identity.ino
        {
            unlink(path)
        }
        Glibc.close(fd)
        fd = -1
    }
}
