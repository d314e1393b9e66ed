import Glibc

/// A file descriptor the display backends opened (never `-1`: a failed open throws).
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
}

/// The calls the display backends make to the kernel, one method each, so
/// unit tests can swap in a recording mock (as swift-system tests its calls).
///
/// Every failure is a `SystemError` made by the `systemCall` funnel (or
/// `libdrmCall` for libdrm); `EINTR` is retried where a call can block.
public protocol SystemCalls: AnyObject {
    /// `open(2)` with `O_CLOEXEC` added.
    func open(_ path: String, flags: Int32) throws(SystemError) -> FileDescriptor
    /// `close(2)`, never retried (the descriptor is gone even after `EINTR`).
    func close(_ fd: FileDescriptor)
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
    /// `munmap(2)`; failure would be a bug (a wrong address or length).
    func munmap(_ address: UnsafeMutableRawPointer, length: Int)
    /// `poll(2)` for input on one descriptor.
    /// - Parameter timeoutMilliseconds: how long to wait at most; `EINTR`
    ///   starts the wait again.
    /// - Returns: whether `fd` became readable before the timeout.
    func pollInput(_ fd: FileDescriptor, timeoutMilliseconds: Int32) throws(SystemError) -> Bool
    /// `write(2)` of every byte.
    func write(_ fd: FileDescriptor, _ bytes: [UInt8]) throws(SystemError)
    /// `pwrite(2)` of `count` bytes from `bytes` at `offset`, every byte.
    func pwrite(_ fd: FileDescriptor, _ bytes: UnsafeRawPointer, count: Int, offset: Int64)
        throws(SystemError)
    /// The names in a directory (`opendir`/`readdir`), without `.` and `..`; empty when it cannot be read.
    func directoryEntries(_ path: String) -> [String]
}

/// The real system calls, through the one funnel `systemCall`.
public final class LinuxSystemCalls: SystemCalls {
    /// The process has one kernel: share one instance.
    nonisolated(unsafe) public static let shared = LinuxSystemCalls()

    public init() {}

    public func open(_ path: String, flags: Int32) throws(SystemError) -> FileDescriptor {
        FileDescriptor(rawValue: try systemCall("open") { Glibc.open(path, flags | O_CLOEXEC) })
    }

    public func close(_ fd: FileDescriptor) {
        _ = try? systemCall("close", retryOnInterrupt: false) { Glibc.close(fd.rawValue) }
    }

    public func ioctl<T>(_ fd: FileDescriptor, _ request: UInt, _ name: String, _ argument: inout T)
        throws(SystemError)
    {
        _ = try systemCall(name) {
            withUnsafeMutablePointer(to: &argument) {
                Glibc.ioctl(fd.rawValue, request, UnsafeMutableRawPointer($0))
            }
        }
    }

    public func ioctl(_ fd: FileDescriptor, _ request: UInt, _ name: String, value: Int32)
        throws(SystemError)
    {
        _ = try systemCall(name) { Glibc.ioctl(fd.rawValue, request, value) }
    }

    public func mmap(_ fd: FileDescriptor, length: Int, offset: Int64) throws(SystemError)
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

    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        let rc = Glibc.munmap(address, length)
        precondition(rc == 0, "munmap of a mapping fbanim made failed")
    }

    public func pollInput(_ fd: FileDescriptor, timeoutMilliseconds: Int32) throws(SystemError)
        -> Bool
    {
        var entry = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        let ready = try systemCall("poll") { Glibc.poll(&entry, 1, timeoutMilliseconds) }
        if ready > 0 && entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
            // The device went away under us (unplugged, driver unbound).
            throw SystemError(errno: ENODEV, call: "poll")
        }
        return ready > 0
    }

    public func write(_ fd: FileDescriptor, _ bytes: [UInt8]) throws(SystemError) {
        try writeAll(fd.rawValue, bytes, call: "write")
    }

    public func pwrite(_ fd: FileDescriptor, _ bytes: UnsafeRawPointer, count: Int, offset: Int64)
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

    public func directoryEntries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = cString(entry.pointee.d_name)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// Runs a libdrm call and turns its failure into a `SystemError`: libdrm's funnel.
///
/// libdrm reports failure two ways: `-1` with `errno` (`drmIoctl`,
/// `drmSetMaster`) or `-errno` (the `drmMode*` calls). Both end here.
/// `drmIoctl` itself already repeats `EINTR` and `EAGAIN`.
@inline(__always)
func libdrmCall(_ name: String, _ call: () -> Int32) throws(SystemError) -> Int32 {
    let result = call()
    if result >= 0 { return result }
    // -1 is also -EPERM; errno is EPERM then as well, so errno is right either way.
    throw SystemError(errno: result == -1 ? Glibc.errno : -result, call: name)
}

/// The error of a libdrm call that returned `NULL`: its `errno`, or `EIO` when it left none.
func libdrmNullError(_ name: String) -> SystemError {
    SystemError(errno: Glibc.errno != 0 ? Glibc.errno : EIO, call: name)
}
