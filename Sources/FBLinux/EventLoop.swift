import FBScheduler
import Glibc

/// One `poll(2)` set for everything a splash listens to while it plays:
/// the psplash FIFO, Plymouth's socket and its clients, and the signals
/// (through the self-pipe of `fbl_signal_wake_fd`). The scheduler's next
/// deadline is the poll's timeout, so frames stay on time and a slow or
/// silent client never holds a frame up. One thread, no locks.
package final class EventLoop {
    /// A registered descriptor.
    package struct Token: Hashable, Sendable {
        let value: Int
    }

    private struct Watch {
        var fd: Int32
        var events: Int16
        var handler: (Int16) -> Void
    }

    private var watches: [Int: Watch] = [:]
    private var nextToken = 0
    private var fds: [pollfd] = []
    private var tokens: [Int] = []
    private var changed = true
    private var interrupted = false
    private var rotation = 0
    private let signalFD: FileDescriptor
    private let system: SystemCalls
    /// The clock its deadlines are read on (`MonotonicClock` in real life).
    package let time: FrameClock

    /// - Parameters:
    ///   - system: where `poll` and the signal pipe's reads go.
    ///   - time: the clock of the deadlines given to `wait(until:)` and `drain(budget:)`.
    /// - Throws: `SystemError` when the signal pipe cannot be made (no descriptors left).
    package init(
        system: SystemCalls = LinuxSystemCalls.shared, time: FrameClock = MonotonicClock.shared
    ) throws(SystemError) {
        self.system = system
        self.time = time
        signalFD = try system.signalWakePipe()
    }

    /// Calls `handler` with the returned events (`POLLIN`, `POLLOUT`,
    /// `POLLHUP`...) whenever `fd` is ready for `events`.
    @discardableResult
    package func watch(
        _ fd: Int32, events: Int16 = Int16(POLLIN), _ handler: @escaping (Int16) -> Void
    )
        -> Token
    {
        nextToken += 1
        watches[nextToken] = Watch(fd: fd, events: events, handler: handler)
        changed = true
        return Token(value: nextToken)
    }

    /// Changes what `token`'s descriptor is watched for (add `POLLOUT` while output is queued).
    package func update(_ token: Token, events: Int16) {
        guard watches[token.value]?.events != events else { return }
        watches[token.value]?.events = events
        changed = true
    }

    /// Stops watching; the caller closes the descriptor.
    package func remove(_ token: Token) {
        if watches.removeValue(forKey: token.value) != nil { changed = true }
    }

    /// How many descriptors are watched (the signal pipe not counted).
    package var count: Int { watches.count }

    /// Makes the wait under way (or the next one) return at once: something
    /// changed that the caller must look at (a new progress value, a quit).
    package func interrupt() { interrupted = true }

    /// Waits until `deadline` (nanoseconds of `time`), running the
    /// handlers of the descriptors that become ready.
    /// - Returns: `true` when cut short by `interrupt()` or a signal.
    @discardableResult
    package func wait(until deadline: UInt64) -> Bool {
        while true {
            if interrupted {
                interrupted = false
                return true
            }
            let now = time.now()
            guard now < deadline else { return false }
            // Millisecond timeouts, rounded up so the wait never ends early.
            let ms = Int32(min((deadline - now + 999_999) / 1_000_000, 60_000))
            pollOnce(timeoutMilliseconds: ms, until: deadline)
        }
    }

    /// Runs the handlers of what is ready now, without waiting, for about
    /// `budget` nanoseconds at most (one handler at least; the rest stay
    /// ready for the next call): between frames, a flood must not cost one.
    /// - Returns: `true` when something asked to interrupt (or a signal came).
    @discardableResult
    package func drain(budget: UInt64 = 2_000_000) -> Bool {
        pollOnce(timeoutMilliseconds: 0, until: time.now() + budget)
        defer { interrupted = false }
        return interrupted
    }

    /// Polls once and runs the handlers of what is ready, in turn, while
    /// `deadline` has not passed (a frame is due then: the rest stay ready
    /// and are served at the next wait). One handler at least runs.
    private func pollOnce(timeoutMilliseconds: Int32, until deadline: UInt64) {
        if changed { rebuild() }
        let polled = fds.withUnsafeMutableBufferPointer { list in
            Result { () throws(SystemError) in
                try system.poll(list, timeoutMilliseconds: timeoutMilliseconds)
            }
        }
        // EINTR: a signal; the pipe says which flags to look at. Any other
        // failure (ENOMEM) is a wait that ended early: the caller waits again.
        guard case .success(let ready) = polled, ready > 0 else {
            if case .failure(let error) = polled, error.errno == EINTR { interrupted = true }
            return
        }
        if fds[0].revents != 0 {
            // Drained into a buffer on the stack: a signal costs no allocation.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { sink in
                let raw = UnsafeMutableRawBufferPointer(sink)
                while ((try? system.read(signalFD, into: raw)) ?? 0) > 0 {}
            }
            interrupted = true
        }
        // `fds` and `tokens` change only at the next poll (`rebuild`), so
        // handlers that add or remove watches do not disturb this walk. The
        // next ones first next time: a flood on one descriptor does not
        // starve the others.
        let count = tokens.count
        guard count > 0 else { return }
        var ran = 0
        for k in 0..<count {
            let i = (k + rotation) % count
            let revents = fds[i + 1].revents
            guard revents != 0 else { continue }
            if ran > 0 && deadline > 0 && time.now() >= deadline { break }
            watches[tokens[i]]?.handler(revents)
            ran += 1
        }
        rotation = (rotation + 1) % count
    }

    private func rebuild() {
        changed = false
        fds.removeAll(keepingCapacity: true)
        tokens.removeAll(keepingCapacity: true)
        fds.append(pollfd(fd: signalFD.rawValue, events: Int16(POLLIN), revents: 0))
        for (token, watch) in watches.sorted(by: { $0.key < $1.key }) {
            tokens.append(token)
            fds.append(pollfd(fd: watch.fd, events: watch.events, revents: 0))
        }
    }
}
