import FBBoot
import FBScheduler
import Glibc

/// A client of Plymouth's protocol, as `plymouth` is: what `fbanim ctl` uses.
package enum PlymouthClient {
    /// Why a request got no answer.
    package enum Failure: Error, Equatable, Sendable {
        /// Nothing listens on the socket: no splash runs.
        case notRunning
        /// No answer within the time given.
        case timedOut
        /// The splash closed the connection without answering.
        case closed
        case system(SystemError)
    }

    /// Sends `request` and waits up to `timeoutMilliseconds` for its answer byte.
    package static func send(
        _ request: Plymouth.Request, socket name: String = Plymouth.socketName,
        timeoutMilliseconds: Int32, system: SystemCalls = LinuxSystemCalls.shared
    ) throws(Failure) -> UInt8 {
        let socket = try connect(name, system)
        defer { socket.close() }
        let bytes = request.encoded
        var sent = 0
        writing: while sent < bytes.count {
            let n: Int
            do throws(Failure) {
                n = try io { () throws(SystemError) in try socket.write(bytes[sent...]) }
            } catch {
                // A splash that refuses this peer answers NAK at once and
                // closes: the answer can be waiting before the request went.
                if error == .closed { break writing }
                throw error
            }
            if n == 0 { try waitFor(socket, POLLOUT, timeoutMilliseconds, system) }
            sent += n
        }
        try waitFor(socket, POLLIN, timeoutMilliseconds, system)
        guard let answer = try io({ () throws(SystemError) in try socket.read(limit: 1) }) else {
            throw .timedOut
        }
        guard let byte = answer.first else { throw .closed }
        return byte
    }

    private static func io<T>(_ body: () throws(SystemError) -> T) throws(Failure) -> T {
        do throws(SystemError) {
            return try body()
        } catch {
            if error.errno == ECONNRESET || error.errno == EPIPE { throw .closed }
            throw .system(error)
        }
    }

    /// Connects and waits until the splash closes the connection (it
    /// exited), at most `timeoutMilliseconds` (negative: no limit).
    /// - Returns: `false` when nothing was running to begin with.
    package static func waitForExit(
        socket name: String = Plymouth.socketName, timeoutMilliseconds: Int32,
        system: SystemCalls = LinuxSystemCalls.shared, time: FrameClock = MonotonicClock.shared
    ) throws(Failure) -> Bool {
        let socket: UnixSocket
        do throws(Failure) {
            socket = try connect(name, system)
        } catch {
            if error == .notRunning { return false }
            throw error
        }
        defer { socket.close() }
        let deadline =
            timeoutMilliseconds < 0
            ? UInt64.max : time.now() + UInt64(timeoutMilliseconds) * 1_000_000
        while true {
            let now = time.now()
            if deadline != .max && now >= deadline { throw .timedOut }
            let left = deadline == .max ? Int32(-1) : Int32(clamping: (deadline - now) / 1_000_000)
            // A wait cut short (EINTR) or timed out loops back to the clock;
            // another failure is left to the read to report.
            let ready: Bool
            do throws(SystemError) {
                ready = try poll(socket, POLLIN, left, system)
            } catch {
                ready = error.errno != EINTR
            }
            guard ready else { continue }
            do throws(SystemError) {
                // Anything read is discarded; end of stream is the exit.
                if let bytes = try socket.read(limit: 256), bytes.isEmpty { return true }
            } catch {
                return true  // ECONNRESET: gone
            }
        }
    }

    private static func connect(_ name: String, _ system: SystemCalls) throws(Failure) -> UnixSocket
    {
        do throws(SystemError) {
            return try UnixSocket.connect(abstract: name, nonBlocking: true, system: system)
        } catch {
            if [ECONNREFUSED, ENOENT].contains(error.errno) { throw .notRunning }
            throw .system(error)
        }
    }

    private static func waitFor(
        _ socket: UnixSocket, _ event: Int32, _ timeout: Int32, _ system: SystemCalls
    ) throws(Failure) {
        while true {
            let ready: Bool
            do throws(SystemError) {
                ready = try poll(socket, event, timeout, system)
            } catch {
                // EINTR: a signal; the wait starts again. Any other failure
                // is left to the socket's next call to report.
                if error.errno == EINTR { continue }
                return
            }
            if ready { return }
            throw .timedOut
        }
    }

    /// One `poll(2)` of `socket` for `event`: whether it came (or an error
    /// or hang-up did) within `timeout` milliseconds.
    private static func poll(
        _ socket: UnixSocket, _ event: Int32, _ timeout: Int32, _ system: SystemCalls
    ) throws(SystemError) -> Bool {
        var entry = pollfd(fd: socket.fd, events: Int16(event), revents: 0)
        return try withUnsafeMutablePointer(to: &entry) { pointer throws(SystemError) in
            try system.poll(
                UnsafeMutableBufferPointer(start: pointer, count: 1), timeoutMilliseconds: timeout)
        } > 0
    }
}
