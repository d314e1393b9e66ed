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
    /// Bytes read per wake-up: a 1 MB write is taken in pieces, between frames.
    static let readLimit = 65536

    /// The FIFO's path for the environment: `$PSPLASH_FIFO_DIR/psplash_fifo`.
    public static func defaultPath(environment directory: String?) -> String {
        let dir = (directory?.isEmpty == false ? directory! : "/run")
        return dir.hasSuffix("/") ? dir + "psplash_fifo" : dir + "/psplash_fifo"
    }

    /// Makes (or takes over a left-over) FIFO at `path` and calls `onBytes`
    /// with what writers send.
    /// - Throws: `SystemError` when it cannot be made or opened (a read-only
    ///   or full `/run`, something else at that path: `EEXIST`).
    public init(path: String, group: String? = "video", loop: EventLoop,
        onBytes: @escaping ([UInt8]) -> Void) throws(SystemError)
    {
        self.path = path
        self.loop = loop
        if mkfifo(path, 0o660) != 0 {
            let code = errno
            var info = stat()
            // A FIFO left by a splash that did not clean up is taken over;
            // anything else there is not ours to replace.
            guard code == EEXIST, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else {
                throw SystemError(errno: code == EEXIST ? EEXIST : code, call: "mkfifo \(path)")
            }
        }
        let fd = try systemCall("open \(path)") { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        self.fd = fd
        var info = stat()
        if fstat(fd, &info) == 0 { identity = (UInt(info.st_dev), UInt(info.st_ino)) }
        // The mode without the umask, and the video group: its members may write.
        _ = fchmod(fd, 0o660)
        if getuid() == 0, let group, let entry = getgrnam(group) {
            _ = fchown(fd, 0, entry.pointee.gr_gid)
        }
        token = loop.watch(fd) { [unowned self] _ in
            var buffer = [UInt8](repeating: 0, count: PsplashFIFO.readLimit)
            let n = buffer.withUnsafeMutableBytes { read(self.fd, $0.baseAddress, $0.count) }
            if n > 0 { onBytes(Array(buffer.prefix(n))) }
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
