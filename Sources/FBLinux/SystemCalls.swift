import Glibc

/// A file descriptor fbanim opened or was given (never `-1`: a failed open throws).
package struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }
}

/// Every call FBLinux makes to the C library and the kernel, one method
/// each, so unit tests can swap in a recording mock or inject a failure
/// (`EINTR`, `EAGAIN`, `ENODEV`, `EPIPE`, a short write) into any of them,
/// as swift-system tests its calls.
///
/// The real calls are the protocol's default implementations
/// (`LinuxSystemCalls.swift`): a test double implements only the calls it
/// fakes and gets the real ones for the rest. Every failure is a
/// `SystemError` made by the `systemCall` funnel (or `libdrmCall` for
/// libdrm); `EINTR` is retried where a call can block, except where the
/// caller must see it (`poll`). Calls that cannot fail (`getpid`, `getenv`)
/// and the signal handlers' flags in the C shim are not here. Time is
/// injected separately, as a `FrameClock` (`MonotonicClock` in real life).
package protocol SystemCalls: AnyObject {
    // MARK: Files

    /// `open(2)` with `O_CLOEXEC` added; `mode` for a file `O_CREAT` makes.
    func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> FileDescriptor
    /// `close(2)`, never retried (the descriptor is gone even after `EINTR`).
    func close(_ fd: FileDescriptor)
    /// `close(2)` of a file just written, whose failure (`EIO`, `ENOSPC` on
    /// a network file system) says the bytes may not have arrived. Never
    /// retried: the descriptor is gone either way.
    func closeReportingFailure(_ fd: FileDescriptor) throws(SystemError)
    /// `read(2)` into `buffer`: the count read, 0 at the end; `EAGAIN` is thrown.
    func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer)
        throws(SystemError) -> Int
    /// One `write(2)` of `bytes`: the count written, which may be short.
    /// - Parameter inherited: `fd` came from the parent (standard output or
    ///   error), which may have closed it: `EBADF` is an answer, not a bug.
    func write(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, inherited: Bool)
        throws(SystemError) -> Int
    /// `fcntl(2)` with an integer argument (`F_GETFD`, `F_SETFD`, `F_GETFL`, `F_SETFL`).
    func fcntl(_ fd: FileDescriptor, _ command: Int32, _ value: Int32) throws(SystemError) -> Int32
    /// `dup2(2)`.
    func duplicate(_ fd: FileDescriptor, as target: FileDescriptor) throws(SystemError)
    /// `isatty(3)`.
    func isTerminal(_ fd: FileDescriptor) -> Bool
    /// `stat(2)` (follows links), or `lstat(2)` when `followLinks` is false.
    func stat(_ path: String, followLinks: Bool) throws(SystemError) -> Glibc.stat
    /// `fstat(2)`.
    func fstat(_ fd: FileDescriptor) throws(SystemError) -> Glibc.stat
    /// `faccessat(AT_FDCWD, path, mode, AT_EACCESS)`: judged with the effective ids.
    func access(_ path: String, _ mode: Int32) throws(SystemError)
    /// `mkstemp(3)`: creates and opens the file, replacing the template's `XXXXXX`.
    func makeTemporaryFile(_ template: inout [CChar]) throws(SystemError) -> FileDescriptor
    /// `fchmod(2)`.
    func fchmod(_ fd: FileDescriptor, _ mode: mode_t) throws(SystemError)
    /// `fchown(2)`.
    func fchown(_ fd: FileDescriptor, user: uid_t, group: gid_t) throws(SystemError)
    /// `fsync(2)`.
    func fsync(_ fd: FileDescriptor) throws(SystemError)
    /// `rename(2)`.
    func rename(_ from: String, to: String) throws(SystemError)
    /// `unlink(2)`.
    func unlink(_ path: String) throws(SystemError)
    /// `mkdir(2)`.
    func mkdir(_ path: String, mode: mode_t) throws(SystemError)
    /// `mkfifo(3)`.
    func mkfifo(_ path: String, mode: mode_t) throws(SystemError)
    /// `readlink(2)`: where the link points, not resolved further.
    func readlink(_ path: String) throws(SystemError) -> String
    /// `realpath(3)`: every link, `.` and `..` resolved.
    func realpath(_ path: String) throws(SystemError) -> String
    /// The names in a directory (`opendir`/`readdir`), without `.` and `..`.
    func listDirectory(_ path: String) throws(SystemError) -> [String]
    /// `chroot(2)`.
    func chroot(_ path: String) throws(SystemError)
    /// `chdir(2)`.
    func chdir(_ path: String) throws(SystemError)

    // MARK: Devices

    /// `ioctl(2)` with a pointer to `argument`, read and written in place.
    /// - Parameter name: the request's C name, for the error (`"FBIOGET_VSCREENINFO"`).
    func ioctl<T>(_ fd: FileDescriptor, _ request: UInt, _ name: String, _ argument: inout T)
        throws(SystemError)
    /// `ioctl(2)` with a plain integer argument (`KDSETMODE`).
    func ioctl(_ fd: FileDescriptor, _ request: UInt, _ name: String, value: Int32)
        throws(SystemError)
    /// `mmap(2)` of `length` bytes at `offset`, shared, read and write.
    func mmap(_ fd: FileDescriptor, length: Int, offset: Int64) throws(SystemError)
        -> UnsafeMutableRawPointer
    /// `mmap(2)` of `length` bytes of private anonymous memory, read and
    /// write, with `flags` added (`MAP_POPULATE`, say): zeroed by the kernel.
    func mapAnonymous(length: Int, flags: Int32) throws(SystemError) -> UnsafeMutableRawPointer
    /// `madvise(2)`: advice the kernel may refuse (older kernels, no huge pages).
    func advise(_ address: UnsafeMutableRawPointer, length: Int, _ advice: Int32)
        throws(SystemError)
    /// `munmap(2)`; failure would be a bug (a wrong address or length).
    func munmap(_ address: UnsafeMutableRawPointer, length: Int)

    // MARK: Waiting

    /// `poll(2)` on `fds`: how many have events. `EINTR` is thrown (a signal
    /// arrived: the caller looks at its flags), never retried here.
    func poll(_ fds: UnsafeMutableBufferPointer<pollfd>, timeoutMilliseconds: Int32)
        throws(SystemError) -> Int
    /// `poll(2)` for input on one descriptor.
    /// - Parameter timeoutMilliseconds: how long to wait at most; `EINTR`
    ///   starts the wait again.
    /// - Returns: whether `fd` became readable before the timeout.
    /// - Throws: `ENODEV` when the device went away (`POLLERR`, `POLLHUP`, `POLLNVAL`).
    func pollInput(_ fd: FileDescriptor, timeoutMilliseconds: Int32) throws(SystemError) -> Bool

    // MARK: Sockets

    /// `socket(2)`.
    func socket(_ domain: Int32, _ type: Int32) throws(SystemError) -> FileDescriptor
    /// `bind(2)`.
    func bind(_ fd: FileDescriptor, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
        throws(SystemError)
    /// `listen(2)`.
    func listen(_ fd: FileDescriptor, backlog: Int32) throws(SystemError)
    /// `connect(2)`.
    func connect(_ fd: FileDescriptor, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
        throws(SystemError)
    /// `accept(2)` without the peer's address; `EAGAIN` when none waits.
    func accept(_ fd: FileDescriptor) throws(SystemError) -> FileDescriptor
    /// `sendto(2)` (`send(2)` without an address): the count sent.
    func send(
        _ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, flags: Int32,
        to address: UnsafePointer<sockaddr>?, _ length: socklen_t
    ) throws(SystemError) -> Int
    /// `getsockopt(SO_PEERCRED)`: the peer's pid, uid and gid.
    func peerCredentials(_ fd: FileDescriptor) throws(SystemError) -> (
        pid: Int32, uid: UInt32, gid: UInt32
    )

    // MARK: Processes and signals

    /// `kill(2)` (signal 0: whether the process exists and may be signalled).
    func kill(_ pid: Int32, _ signal: Int32) throws(SystemError)
    /// Catches `signal` into the C shim's flag (`sigaction`) and unblocks it
    /// (`pthread_sigmask`).
    func catchSignal(_ signal: Int32) throws(SystemError)
    /// `signal(sig, SIG_IGN)`.
    func ignoreSignal(_ signal: Int32)
    /// The read end of the C shim's self-pipe, written by the signal handler (`pipe2`).
    func signalWakePipe() throws(SystemError) -> FileDescriptor
    /// The id of the group `name` (`getgrnam`), if it exists.
    func groupID(_ name: String) -> gid_t?
    /// `pwrite(2)` of `count` bytes from `bytes` at `offset`, every byte.
    func pwrite(_ fd: FileDescriptor, _ bytes: UnsafeRawPointer, count: Int, offset: Int64)
        throws(SystemError)
}

extension SystemCalls {
    /// `open(2)` with `O_CLOEXEC` added, for a file that exists.
    package func open(_ path: String, flags: Int32) throws(SystemError) -> FileDescriptor {
        try open(path, flags: flags, mode: 0)
    }

    /// Writes every byte, continuing after short writes (`write(2)` again)
    /// and `EINTR` (the funnel).
    package func writeAll(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, inherited: Bool)
        throws(SystemError)
    {
        var offset = 0
        while offset < bytes.count {
            // Linux moves at most 0x7ffff000 bytes a call anyway.
            let count = min(bytes.count - offset, 1 << 30)
            let written = try write(
                fd, UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]),
                inherited: inherited)
            // write(2) returns 0 only for a zero count; never loop on it.
            guard written > 0 else { throw SystemError(errno: EIO, call: "write") }
            offset += written
        }
    }

    /// Writes every byte of `bytes` (see `writeAll(_:_:inherited:)`).
    package func write(_ fd: FileDescriptor, _ bytes: [UInt8], inherited: Bool = false)
        throws(SystemError)
    {
        // withUnsafeBytes is not typed-throws yet: carry the error out as a value.
        let failure: SystemError? = bytes.withUnsafeBytes { buffer in
            do throws(SystemError) {
                try writeAll(fd, buffer, inherited: inherited)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// `read(2)` into `bytes[offset...]`: the count read, 0 at the end.
    package func read(_ fd: FileDescriptor, into bytes: inout [UInt8], at offset: Int = 0)
        throws(SystemError) -> Int
    {
        // withUnsafeMutableBytes is not typed-throws yet: carry the error out as a value.
        let result: Result<Int, SystemError> = bytes.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) in
                try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[offset...]))
            }
        }
        return try result.get()
    }

    /// The names in a directory, empty when it cannot be read.
    package func directoryEntries(_ path: String) -> [String] {
        (try? listDirectory(path)) ?? []
    }

    /// Whether something exists at `path` (`stat` succeeds; a dangling link does not).
    package func exists(_ path: String) -> Bool {
        (try? stat(path, followLinks: true)) != nil
    }
}
