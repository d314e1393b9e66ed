import FBBoot
import Glibc

/// A client of Plymouth's protocol, as `plymouth` is: what `fbanim ctl` uses.
public enum PlymouthClient {
    /// Why a request got no answer.
    public enum Failure: Error, Equatable, Sendable {
        /// Nothing listens on the socket: no splash runs.
        case notRunning
        /// No answer within the time given.
        case timedOut
        /// The splash closed the connection without answering.
        case closed
        case system(SystemError)
    }

    /// Sends `request` and waits up to `timeoutMilliseconds` for its answer byte.
    public static func send(
        _ request: Plymouth.Request, socket name: String = Plymouth.socketName,
        timeoutMilliseconds: Int32
    ) throws(Failure) -> UInt8 {
        let socket = try connect(name)
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
            if n == 0 { try waitFor(socket, POLLOUT, timeoutMilliseconds) }
            sent += n
        }
        try waitFor(socket, POLLIN, timeoutMilliseconds)
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
    public static func waitForExit(
        socket name: String = Plymouth.socketName, timeoutMilliseconds: Int32
    ) throws(Failure) -> Bool {
        let socket: UnixSocket
        do throws(Failure) {
            socket = try connect(name)
        } catch {
            if error == .notRunning { return false }
            throw error
        }
        defer { socket.close() }
        let deadline =
            timeoutMilliseconds < 0
            ? UInt64.max : monotonicNanoseconds() + UInt64(timeoutMilliseconds) * 1_000_000
        while true {
            let left =
                deadline == .max
                ? Int32(-1) : Int32(clamping: (deadline &- monotonicNanoseconds()) / 1_000_000)
            if deadline != .max && monotonicNanoseconds() >= deadline { throw .timedOut }
            var entry = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, left)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            do throws(SystemError) {
                // Anything read is discarded; end of stream is the exit.
                if let bytes = try socket.read(limit: 256), bytes.isEmpty { return true }
            } catch {
                return true  // ECONNRESET: gone
            }
        }
    }

    private static func connect(_ name: String) throws(Failure) -> UnixSocket {
        do throws(SystemError) {
            return try UnixSocket.connect(abstract: name, nonBlocking: true)
        } catch {
            if [ECONNREFUSED, ENOENT].contains(error.errno) { throw .notRunning }
            throw .system(error)
        }
    }

    private static func waitFor(_ socket: UnixSocket, _ event: Int32, _ timeout: Int32)
        throws(Failure)
    {
        while true {
            var entry = pollfd(fd: socket.fd, events: Int16(event), revents: 0)
            let ready = poll(&entry, 1, timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { throw .timedOut }
            return
        }
    }
}
