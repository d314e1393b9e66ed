import Glibc

/// A failed system call: its `errno` and the name of the call.
///
/// Made from the `errno` a call left behind by the funnels in this file
/// (`systemCall` for the C library, `libdrmCall` and `libdrmNullError` for
/// libdrm), or with the `errno` the C library would give where fbanim
/// finds the fault itself (`EISDIR` for a path that names a directory,
/// `EFBIG` for a file over its limit, `ETIMEDOUT` for a wait that ran
/// out). Its one line, `"<call>: <reason>"`, is made here only.
package struct SystemError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value, for example `ENOENT` (2).
    package let errno: Int32
    /// The C function that failed, for example `"rename"`.
    package let call: String

    package init(errno: Int32, call: String) {
        self.errno = errno
        self.call = call
    }

    /// The C library's sentence for `errno` (`strerror_r`), such as "No such file or directory".
    package var reason: String {
        var buffer = [CChar](repeating: 0, count: 256)
        // The XSI strerror_r: fills the buffer, thread-safe unlike strerror.
        guard strerror_r(errno, &buffer, buffer.count) == 0 else { return "error \(errno)" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// `"<call>: <reason>"`.
    package var description: String { "\(call): \(reason)" }

    /// What a failure means for the person running fbanim, by `errno`.
    package enum Category: Sendable, Equatable {
        /// The file or device is not there (`ENOENT`, `ENOTDIR`).
        case missing
        /// Not allowed for this user, or on a read-only file system
        /// (`EACCES`, `EPERM`, `EROFS`).
        case permissionDenied
        /// No driver answers behind the node: unplugged or unbound (`ENXIO`, `ENODEV`).
        case noDevice
        /// Anything else: the call's own reason says what.
        case other
    }

    /// The category of `errno`: the one table every caller reads, so a
    /// permission problem is one everywhere.
    package var category: Category {
        switch errno {
        case ENOENT, ENOTDIR: .missing
        case EACCES, EPERM, EROFS: .permissionDenied
        case ENXIO, ENODEV: .noDevice
        default: .other
        }
    }
}

/// Runs a system call and turns its `-1` into a `SystemError`: the one funnel.
///
/// `EBADF` and `EFAULT` are bugs (a closed descriptor, a bad pointer) and
/// stop the process with a precondition failure instead.
///
/// `EINTR` means a signal arrived before the call did anything, so the call
/// is made again, unless `retryOnInterrupt` is false (`close` must never be
/// repeated: on Linux the descriptor is gone even when it reports `EINTR`).
/// - Returns: the call's result, never `-1`.
@inline(__always)
func systemCall<Result: BinaryInteger>(
    _ name: String, retryOnInterrupt: Bool = true, inherited: Bool = false,
    _ call: () -> Result
) throws(SystemError) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = Glibc.errno
        if code == EINTR && retryOnInterrupt { continue }
        // A closed descriptor or a bad pointer is fbanim's bug, not the
        // system's answer: stop here rather than report it as an I/O error.
        // Except on a descriptor fbanim was given (`inherited`: standard
        // output or error), which its parent may have closed.
        precondition(
            (code != EBADF || inherited) && code != EFAULT,
            "\(name): \(SystemError(errno: code, call: name).reason) (a bug in fbanim)")
        throw SystemError(errno: code, call: name)
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
