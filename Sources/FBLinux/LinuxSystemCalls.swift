import CFBLinux
import Glibc

/// The real system calls: the protocol's default implementations, each
/// through the one funnel `systemCall`.
package final class LinuxSystemCalls: SystemCalls {
    /// The process has one kernel: share one instance.
    nonisolated(unsafe) package static let shared = LinuxSystemCalls()

    package init() {}
}

// The real calls, shared by `LinuxSystemCalls` and by any test double that
// fakes only some of them.
extension SystemCalls {
    package func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError)
        -> FileDescriptor
    {
        FileDescriptor(
            rawValue: try systemCall("open") { Glibc.open(path, flags | O_CLOEXEC, mode) })
    }

    package func close(_ fd: FileDescriptor) { try? closeReportingFailure(fd) }

    package func closeReportingFailure(_ fd: FileDescriptor) throws(SystemError) {
        _ = try systemCall("close", retryOnInterrupt: false) { Glibc.close(fd.rawValue) }
    }

    package func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer)
        throws(SystemError) -> Int
    {
        try systemCall("read") { Glibc.read(fd.rawValue, buffer.baseAddress, buffer.count) }
    }

    package func write(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, inherited: Bool)
        throws(SystemError) -> Int
    {
        try systemCall("write", inherited: inherited) {
            Glibc.write(fd.rawValue, bytes.baseAddress, bytes.count)
        }
    }

    package func pwrite(_ fd: FileDescriptor, _ bytes: UnsafeRawPointer, count: Int, offset: Int64)
        throws(SystemError)
    {
        var done = 0
        while done < count {
            let n = try systemCall("pwrite") {
                Glibc.pwrite(fd.rawValue, bytes + done, count - done, off_t(offset) + off_t(done))
            }
            guard n > 0 else { throw SystemError(errno: EIO, call: "pwrite") }
            done += n
        }
    }

    package func fcntl(_ fd: FileDescriptor, _ command: Int32, _ value: Int32) throws(SystemError)
        -> Int32
    {
        try systemCall("fcntl", inherited: true) { Glibc.fcntl(fd.rawValue, command, value) }
    }

    package func duplicate(_ fd: FileDescriptor, as target: FileDescriptor) throws(SystemError) {
        _ = try systemCall("dup2") { Glibc.dup2(fd.rawValue, target.rawValue) }
    }

    package func isTerminal(_ fd: FileDescriptor) -> Bool { Glibc.isatty(fd.rawValue) == 1 }

    package func stat(_ path: String, followLinks: Bool) throws(SystemError) -> Glibc.stat {
        var info = Glibc.stat()
        if followLinks {
            _ = try systemCall("stat") { statPath(path, &info) }
        } else {
            _ = try systemCall("lstat") { Glibc.lstat(path, &info) }
        }
        return info
    }

    package func fstat(_ fd: FileDescriptor) throws(SystemError) -> Glibc.stat {
        var info = Glibc.stat()
        _ = try systemCall("fstat") { Glibc.fstat(fd.rawValue, &info) }
        return info
    }

    package func access(_ path: String, _ mode: Int32) throws(SystemError) {
        _ = try systemCall("faccessat") { Glibc.faccessat(AT_FDCWD, path, mode, AT_EACCESS) }
    }

    package func makeTemporaryFile(_ template: inout [CChar]) throws(SystemError) -> FileDescriptor
    {
        let fd = try systemCall("mkstemp") { Glibc.mkstemp(&template) }
        // Only hygiene: fbanim does not exec, but a library user might.
        _ = try? systemCall("fcntl") { Glibc.fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return FileDescriptor(rawValue: fd)
    }

    package func fchmod(_ fd: FileDescriptor, _ mode: mode_t) throws(SystemError) {
        _ = try systemCall("fchmod") { Glibc.fchmod(fd.rawValue, mode) }
    }

    package func fchown(_ fd: FileDescriptor, user: uid_t, group: gid_t) throws(SystemError) {
        _ = try systemCall("fchown") { Glibc.fchown(fd.rawValue, user, group) }
    }

    package func fsync(_ fd: FileDescriptor) throws(SystemError) {
        _ = try systemCall("fsync") { Glibc.fsync(fd.rawValue) }
    }

    package func rename(_ from: String, to: String) throws(SystemError) {
        _ = try systemCall("rename") { Glibc.rename(from, to) }
    }

    package func unlink(_ path: String) throws(SystemError) {
        _ = try systemCall("unlink") { Glibc.unlink(path) }
    }

    package func mkdir(_ path: String, mode: mode_t) throws(SystemError) {
        _ = try systemCall("mkdir") { Glibc.mkdir(path, mode) }
    }

    package func mkfifo(_ path: String, mode: mode_t) throws(SystemError) {
        _ = try systemCall("mkfifo") { Glibc.mkfifo(path, mode) }
    }

    package func readlink(_ path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = try systemCall("readlink") { Glibc.readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package func realpath(_ path: String) throws(SystemError) -> String {
        // NULL instead of -1: the funnel sees the address as an integer.
        let address = try systemCall("realpath") {
            Int(bitPattern: Glibc.realpath(path, nil)).nonZeroOrFailure
        }
        let resolved = UnsafeMutablePointer<CChar>(bitPattern: address)!
        defer { free(resolved) }
        return String(cString: resolved)
    }

    package func listDirectory(_ path: String) throws(SystemError) -> [String] {
        let address = try systemCall("opendir") {
            Int(bitPattern: Glibc.opendir(path)).nonZeroOrFailure
        }
        let directory = OpaquePointer(bitPattern: address)!
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = cString(entry.pointee.d_name)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    package func chroot(_ path: String) throws(SystemError) {
        _ = try systemCall("chroot") { Glibc.chroot(path) }
    }

    package func chdir(_ path: String) throws(SystemError) {
        _ = try systemCall("chdir") { Glibc.chdir(path) }
    }

    package func ioctl<T>(
        _ fd: FileDescriptor, _ request: UInt, _ name: String, _ argument: inout T
    )
        throws(SystemError)
    {
        _ = try systemCall(name) {
            withUnsafeMutablePointer(to: &argument) {
                Glibc.ioctl(fd.rawValue, request, UnsafeMutableRawPointer($0))
            }
        }
    }

    package func ioctl(_ fd: FileDescriptor, _ request: UInt, _ name: String, value: Int32)
        throws(SystemError)
    {
        _ = try systemCall(name) { Glibc.ioctl(fd.rawValue, request, value) }
    }

    package func mmap(_ fd: FileDescriptor, length: Int, offset: Int64) throws(SystemError)
        -> UnsafeMutableRawPointer
    {
        // MAP_FAILED is (void *)-1: as an integer it is the funnel's -1.
        let address = try systemCall("mmap") {
            Int(
                bitPattern: Glibc.mmap(
                    nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, off_t(offset)))
        }
        guard let pointer = UnsafeMutableRawPointer(bitPattern: address) else {
            throw SystemError(errno: ENOMEM, call: "mmap")
        }
        return pointer
    }

    package func mapAnonymous(length: Int, flags: Int32) throws(SystemError)
        -> UnsafeMutableRawPointer
    {
        let address = try systemCall("mmap") {
            Int(
                bitPattern: Glibc.mmap(
                    nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1,
                    0))
        }
        guard let pointer = UnsafeMutableRawPointer(bitPattern: address) else {
            throw SystemError(errno: ENOMEM, call: "mmap")
        }
        return pointer
    }

    package func advise(_ address: UnsafeMutableRawPointer, length: Int, _ advice: Int32)
        throws(SystemError)
    {
        _ = try systemCall("madvise") { Glibc.madvise(address, length, advice) }
    }

    package func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        let rc = Glibc.munmap(address, length)
        precondition(rc == 0, "munmap of a mapping fbanim made failed")
    }

    package func poll(_ fds: UnsafeMutableBufferPointer<pollfd>, timeoutMilliseconds: Int32)
        throws(SystemError) -> Int
    {
        Int(
            try systemCall("poll", retryOnInterrupt: false) {
                Glibc.poll(fds.baseAddress, nfds_t(fds.count), timeoutMilliseconds)
            })
    }

    package func pollInput(_ fd: FileDescriptor, timeoutMilliseconds: Int32) throws(SystemError)
        -> Bool
    {
        var entry = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        var ready = 0
        repeat {
            do throws(SystemError) {
                ready = try withUnsafeMutablePointer(to: &entry) { pointer throws(SystemError) in
                    try poll(
                        UnsafeMutableBufferPointer(start: pointer, count: 1),
                        timeoutMilliseconds: timeoutMilliseconds)
                }
                break
            } catch {
                guard error.errno == EINTR else { throw error }
            }
        } while true
        if ready > 0 && entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
            // The device went away under us (unplugged, driver unbound).
            throw SystemError(errno: ENODEV, call: "poll")
        }
        return ready > 0
    }

    package func socket(_ domain: Int32, _ type: Int32) throws(SystemError) -> FileDescriptor {
        FileDescriptor(rawValue: try systemCall("socket") { Glibc.socket(domain, type, 0) })
    }

    package func bind(_ fd: FileDescriptor, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
        throws(SystemError)
    {
        _ = try systemCall("bind") { Glibc.bind(fd.rawValue, address, length) }
    }

    package func listen(_ fd: FileDescriptor, backlog: Int32) throws(SystemError) {
        _ = try systemCall("listen") { Glibc.listen(fd.rawValue, backlog) }
    }

    package func connect(
        _ fd: FileDescriptor, _ address: UnsafePointer<sockaddr>, _ length: socklen_t
    ) throws(SystemError) {
        _ = try systemCall("connect") { Glibc.connect(fd.rawValue, address, length) }
    }

    package func accept(_ fd: FileDescriptor) throws(SystemError) -> FileDescriptor {
        FileDescriptor(rawValue: try systemCall("accept") { Glibc.accept(fd.rawValue, nil, nil) })
    }

    package func send(
        _ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, flags: Int32,
        to address: UnsafePointer<sockaddr>?, _ length: socklen_t
    ) throws(SystemError) -> Int {
        try systemCall(address == nil ? "send" : "sendto") {
            Glibc.sendto(fd.rawValue, bytes.baseAddress, bytes.count, flags, address, length)
        }
    }

    package func peerCredentials(_ fd: FileDescriptor) throws(SystemError) -> (
        pid: Int32, uid: UInt32, gid: UInt32
    ) {
        var credentials = fbl_ucred()
        var length = socklen_t(MemoryLayout<fbl_ucred>.size)
        _ = try systemCall("getsockopt") {
            Glibc.getsockopt(fd.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
        }
        return (credentials.pid, credentials.uid, credentials.gid)
    }

    package func kill(_ pid: Int32, _ signal: Int32) throws(SystemError) {
        _ = try systemCall("kill") { Glibc.kill(pid, signal) }
    }

    package func catchSignal(_ signal: Int32) throws(SystemError) {
        _ = try systemCall("sigaction") { fbl_signal_catch(signal) }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        // pthread_sigmask returns the error number instead of setting errno.
        let rc = pthread_sigmask(SIG_UNBLOCK, &set, nil)
        if rc != 0 { throw SystemError(errno: rc, call: "pthread_sigmask") }
    }

    package func ignoreSignal(_ signal: Int32) { _ = Glibc.signal(signal, SIG_IGN) }

    package func signalWakePipe() throws(SystemError) -> FileDescriptor {
        FileDescriptor(rawValue: try systemCall("pipe2") { fbl_signal_wake_fd() })
    }

    package func groupID(_ name: String) -> gid_t? { getgrnam(name)?.pointee.gr_gid }
}

/// `stat(2)`: at file scope, where the name is the function's, not the struct's.
private func statPath(_ path: String, _ info: inout Glibc.stat) -> Int32 { stat(path, &info) }

extension Int {
    /// A C pointer result as the funnel reads it: `NULL` is the failure, `-1`.
    fileprivate var nonZeroOrFailure: Int { self == 0 ? -1 : self }
}
