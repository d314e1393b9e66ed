import Glibc

/// An open file descriptor fbanim did not open itself: standard output or error.
package struct StandardStream: @unchecked Sendable {
    let fd: FileDescriptor
    /// Where its calls go (`LinuxSystemCalls.shared`; a test's double).
    let system: SystemCalls

    /// File descriptor `fd`, written through `system`.
    package init(fd: Int32, system: SystemCalls = LinuxSystemCalls.shared) {
        self.fd = FileDescriptor(rawValue: fd)
        self.system = system
    }

    /// File descriptor 1.
    package static let output = StandardStream(fd: STDOUT_FILENO)
    /// File descriptor 2.
    package static let error = StandardStream(fd: STDERR_FILENO)

    /// Writes all of `text` as UTF-8 (`write(2)`, repeated after short
    /// writes). Returns the failure, if any (a closed or full output is the
    /// caller's to report, or not: a message that cannot reach the terminal
    /// has nowhere else to go).
    @discardableResult
    package func write(_ text: String) -> SystemError? {
        do throws(SystemError) {
            try system.write(fd, Array(text.utf8), inherited: true)
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
    package func writeWithoutBlocking(_ text: String) -> Bool {
        var entry = pollfd(fd: fd.rawValue, events: Int16(POLLOUT), revents: 0)
        let ready = try? withUnsafeMutablePointer(to: &entry) { pointer throws(SystemError) in
            try system.poll(
                UnsafeMutableBufferPointer(start: pointer, count: 1), timeoutMilliseconds: 0)
        }
        guard ready == 1, entry.revents & Int16(POLLOUT) != 0,
            entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) == 0
        else { return false }
        return write(text) == nil
    }

    /// Whether the stream is a terminal (`isatty(3)`).
    package var isTerminal: Bool { system.isTerminal(fd) }

    /// Whether the parent left this stream closed (see `claimClosedStreams`).
    package var wasClosed: Bool { closedAtStart & (1 << fd.rawValue) != 0 }

    /// Puts `/dev/null` on standard input, output and error where the parent
    /// closed them (a service manager may): else the next file fbanim opens
    /// (the console, a framebuffer) would take that number, and messages
    /// meant for standard error would be written into the device. Call once,
    /// first thing.
    package static func claimClosedStreams(system: SystemCalls = LinuxSystemCalls.shared) {
        for number: Int32 in 0...2 {
            let fd = FileDescriptor(rawValue: number)
            do throws(SystemError) {
                _ = try system.fcntl(fd, F_GETFD, 0)
                continue
            } catch {
                guard error.errno == EBADF else { continue }
            }
            // The lowest free number, so `fd` itself (lower ones are open by now).
            if let null = try? system.open("/dev/null", flags: O_RDWR) {
                if null != fd {
                    try? system.duplicate(null, as: fd)  // dup2 leaves O_CLOEXEC off
                    system.close(null)
                } else {
                    // A standard stream stays open across exec, as the parent's would.
                    _ = try? system.fcntl(fd, F_SETFD, 0)
                }
            }
            closedAtStart |= 1 << number
        }
    }
}

/// Bit n: descriptor n was closed when fbanim started.
nonisolated(unsafe) private var closedAtStart: Int32 = 0

/// Ends the process with `status` (`exit(3)`).
package func exitProcess(_ status: Int32) -> Never {
    exit(status)
}
