import Glibc

/// An open file descriptor fbanim did not open itself: standard output or error.
public struct StandardStream: Sendable {
    let fd: Int32

    /// File descriptor 1.
    public static let output = StandardStream(fd: STDOUT_FILENO)
    /// File descriptor 2.
    public static let error = StandardStream(fd: STDERR_FILENO)

    /// Writes all of `text` as UTF-8 (`write(2)`, repeated after short
    /// writes). Returns the failure, if any (a closed or full output is the
    /// caller's to report, or not: a message that cannot reach the terminal
    /// has nowhere else to go).
    @discardableResult
    public func write(_ text: String) -> SystemError? {
        let bytes = Array(text.utf8)
        do throws(SystemError) {
            try writeAll(fd, bytes, call: "write", inherited: true)
            return nil
        } catch {
            return error
        }
    }

    /// Writes `text` only if the stream can take it now (`poll` says it is
    /// writable: a pipe has room for at least 4096 bytes, so a shorter line
    /// goes whole without blocking); a reader that stopped reading costs
    /// the line, never the caller's time.
    /// - Returns: whether it was written.
    @discardableResult
    public func writeWithoutBlocking(_ text: String) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&entry, 1, 0) == 1, entry.revents & Int16(POLLOUT) != 0,
            entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) == 0
        else { return false }
        return write(text) == nil
    }

    /// Whether the stream is a terminal (`isatty(3)`).
    public var isTerminal: Bool { isatty(fd) == 1 }

    /// Whether the parent left this stream closed (see `claimClosedStreams`).
    public var wasClosed: Bool { closedAtStart & (1 << fd) != 0 }

    /// Puts `/dev/null` on standard input, output and error where the parent
    /// closed them (a service manager may): else the next file fbanim opens
    /// (the console, a framebuffer) would take that number, and messages
    /// meant for standard error would be written into the device. Call once,
    /// first thing.
    public static func claimClosedStreams() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // The lowest free number, so `fd` itself (lower ones are open by now).
            let null = open("/dev/null", O_RDWR)
            if null >= 0 && null != fd {
                _ = dup2(null, fd)
                _ = Glibc.close(null)
            }
            closedAtStart |= 1 << fd
        }
    }
}

/// Bit n: descriptor n was closed when fbanim started.
nonisolated(unsafe) private var closedAtStart: Int32 = 0

/// Ends the process with `status` (`exit(3)`).
public func exitProcess(_ status: Int32) -> Never {
    exit(status)
}

/// Writes every byte to `fd`, continuing after short writes and `EINTR`.
/// `inherited`: `fd` came from the parent (standard output or error), and
/// may have been closed there: `EBADF` is an answer, not a bug.
func writeAll(_ fd: Int32, _ bytes: [UInt8], call: String, inherited: Bool = false)
    throws(SystemError)
{
    // withUnsafeBytes is not typed-throws yet: carry the error out as a value.
    let failure: SystemError? = bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            // Linux moves at most 0x7ffff000 bytes a call anyway.
            let count = min(buffer.count - offset, 1 << 30)
            let written: Int
            do throws(SystemError) {
                written = try systemCall(call, inherited: inherited) {
                    Glibc.write(fd, buffer.baseAddress! + offset, count)
                }
            } catch {
                return error
            }
            // write(2) returns 0 only for a zero count; never loop on it.
            guard written > 0 else { return SystemError(errno: EIO, call: call) }
            offset += written
        }
        return nil
    }
    if let failure { throw failure }
}
