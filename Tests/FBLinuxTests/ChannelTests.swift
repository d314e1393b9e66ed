import CFBLinux
import FBBoot
import Foundation
import Glibc
import Testing
import _FBTestSupport

@testable import FBLinux

// The splash's control channels on real kernel objects (pipes, FIFOs,
// abstract Unix sockets) in this process, no devices. Every test uses its
// own socket name and temporary directory, so the suites run in parallel.
//
// Every EventLoop shares one signal pipe (`fbl_signal_wake_fd` is process
// wide), so the tests that raise signals run in a child process (exit
// tests): a signal's wake-up byte must not reach another test's loop.

// MARK: - Helpers

/// Places no other test, and no other process, uses.
enum TestPlaces {
    /// An abstract socket name unique to this call.
    static func socketName() -> String { "/fbanim-test/\(getpid())/\(UUID().uuidString)" }

    /// A new empty directory under /tmp; the caller removes it.
    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/fbanim-channels-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw SystemError(errno: errno, call: "mkdtemp")
        }
        return String(cString: made)
    }

    static func remove(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Nanoseconds from now on `CLOCK_MONOTONIC`.
func fromNow(milliseconds: Double) -> UInt64 {
    monotonicNanoseconds() + UInt64(milliseconds * 1_000_000)
}

/// This thread's CPU time in nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Runs `loop` until `condition()` holds, for at most `seconds`.
/// - Returns: whether the condition came to hold.
@discardableResult
func pump(_ loop: EventLoop, seconds: Double = 10, until condition: () -> Bool) -> Bool {
    let deadline = monotonicNanoseconds() + UInt64(seconds * 1e9)
    while !condition() {
        let now = monotonicNanoseconds()
        if now >= deadline { return false }
        // Short steps: a condition may change outside the loop (a client's socket).
        loop.wait(until: min(deadline, now + 5_000_000))
    }
    return true
}

/// A non-blocking pipe, both ends closed with it.
final class TestPipe {
    let read: Int32
    let write: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SystemError(errno: errno, call: "pipe") }
        for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        read = ends[0]
        write = ends[1]
    }

    deinit {
        close(read)
        close(write)
    }

    func put(_ text: String = "x") {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) }
    }

    /// Everything waiting in the pipe.
    @discardableResult
    func drain() -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
            if n <= 0 { return all }
            all += buffer.prefix(n)
        }
    }
}

/// Writes `bytes` to the FIFO at `path` as `echo` does: open, write, close.
/// Non-blocking open, so a FIFO without a reader is ENXIO, not a hang.
func echo(_ bytes: [UInt8], to path: String) throws {
    let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError(errno: errno, call: "open \(path)") }
    defer { close(fd) }
    let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    guard n == bytes.count else { throw SystemError(errno: n < 0 ? errno : EAGAIN, call: "write") }
}

/// A test's end of a Plymouth connection: non-blocking, read as it goes.
final class TestClient {
    let socket: UnixSocket
    private(set) var received: [UInt8] = []
    /// End of stream or a reset was seen (the server closed its end).
    private(set) var closed = false
    private var isOpen = true

    init(_ name: String) throws(SystemError) {
        socket = try UnixSocket.connect(abstract: name, nonBlocking: true)
    }

    deinit { disconnect() }

    func disconnect() {
        if isOpen { socket.close() }
        isOpen = false
    }

    /// Sends every byte, running `loop` while the socket is full.
    func send(_ bytes: [UInt8], loop: EventLoop) throws(SystemError) {
        var sent = 0
        while sent < bytes.count {
            let n = try socket.write(bytes[sent...])
            sent += n
            if n == 0 { loop.wait(until: fromNow(milliseconds: 5)) }
        }
    }

    /// Takes what arrived, without waiting; notes the end of the stream.
    func collect() {
        while !closed {
            do throws(SystemError) {
                guard let bytes = try socket.read(limit: 65536) else { return }
                if bytes.isEmpty { closed = true } else { received += bytes }
            } catch {
                closed = true  // ECONNRESET: closed with our request unread
            }
        }
    }
}

/// A mutable value shared with another thread.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}

/// A Plymouth server with its own loop on its own thread, for the blocking
/// `PlymouthClient` calls made from the test's thread.
final class ServerThread: @unchecked Sendable {
    let name = TestPlaces.socketName()
    /// When the server closed (it closes when `closeWhen` says so, or at `stop()`).
    let closedAt = Locked<UInt64?>(nil)
    private let stopRequested = Locked(false)
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let startError = Locked<SystemError?>(nil)

    /// - Parameters:
    ///   - answer: the answer to each request.
    ///   - closeWhen: asked with the client count between waits: `true` closes the server.
    init(
        answer: @escaping @Sendable (Plymouth.Request) -> PlymouthServer.Answer,
        closeWhen: @escaping @Sendable (Int) -> Bool = { _ in false }
    ) throws {
        let thread = Thread { [self] in run(answer, closeWhen) }
        thread.start()
        started.wait()
        if let error = startError.get() { throw error }
    }

    private func run(
        _ answer: @escaping @Sendable (Plymouth.Request) -> PlymouthServer.Answer,
        _ closeWhen: @Sendable (Int) -> Bool
    ) {
        defer { finished.signal() }
        let loop: EventLoop
        let server: PlymouthServer
        do throws(SystemError) {
            loop = try EventLoop()
            server = try PlymouthServer(loop: loop, name: name, log: { _ in })
        } catch {
            startError.set(error)
            started.signal()
            return
        }
        server.onRequest = { request, _, _ in answer(request) }
        started.signal()
        while !stopRequested.get() {
            loop.wait(until: fromNow(milliseconds: 5))
            if closedAt.get() == nil && closeWhen(server.clientCount) {
                closedAt.set(monotonicNanoseconds())
                server.close()
            }
        }
        if closedAt.get() == nil { closedAt.set(monotonicNanoseconds()) }
        server.close()
    }

    /// Closes the server and waits for its thread to end.
    func stop() {
        stopRequested.set(true)
        finished.wait()
    }
}

/// The control channels: `EventLoop`, `PsplashFIFO`, `PlymouthServer` and
/// `PlymouthClient` (boot.md, Control channels), one nested suite each.
@Suite struct ChannelTests {}

// MARK: - EventLoop

extension ChannelTests {
    @Suite struct EventLoopTests {
        @Test func aReadyDescriptorRunsItsHandler() throws {
            let loop = try EventLoop()
            let pipe = try TestPipe()
            var seen: [UInt8] = []
            var events: Int16 = 0
            loop.watch(pipe.read) { returned in
                events |= returned
                seen += pipe.drain()
            }
            #expect(loop.count == 1)
            pipe.put("abc")
            #expect(pump(loop) { seen.count == 3 })
            #expect(seen == Array("abc".utf8))
            #expect(events & Int16(POLLIN) != 0)
            // Drained: the handler is not run again while nothing comes.
            seen = []
            #expect(!loop.wait(until: fromNow(milliseconds: 30)))
            #expect(seen.isEmpty)
        }

        @Test func interruptEndsTheWaitAtOnce() throws {
            let loop = try EventLoop()
            let pipe = try TestPipe()
            loop.watch(pipe.read) { [unowned loop] _ in
                pipe.drain()
                loop.interrupt()
            }
            pipe.put()
            let start = monotonicNanoseconds()
            #expect(loop.wait(until: start + 10_000_000_000))
            #expect(monotonicNanoseconds() - start < 2_000_000_000)

            // Asked before the wait: the wait returns at once, and only that one.
            loop.interrupt()
            #expect(loop.wait(until: fromNow(milliseconds: 10_000)))
            #expect(!loop.wait(until: fromNow(milliseconds: 20)))
            // drain() runs what is ready without waiting and reports the interrupt.
            pipe.put()
            #expect(loop.drain())
            #expect(!loop.drain())
        }

        @Test func aWaitLastsUntilItsDeadlineAndNoLonger() throws {
            let loop = try EventLoop()
            let idle = try TestPipe()
            loop.watch(idle.read) { _ in Issue.record("nothing was written") }
            // Past, sub-millisecond and millisecond deadlines: false, never early.
            for microseconds: UInt64 in [0, 300, 1_500, 30_000, 120_000] {
                let deadline = monotonicNanoseconds() + microseconds * 1000
                #expect(!loop.wait(until: deadline))
                let now = monotonicNanoseconds()
                #expect(now >= deadline, "returned \(deadline - now) ns early (\(microseconds) µs)")
                #expect(now - deadline < 1_000_000_000, "late by \(now - deadline) ns")
            }
            #expect(!loop.wait(until: 0))
        }

        @Test func handlersMayAddAndRemoveWatches() throws {
            let loop = try EventLoop()
            let a = try TestPipe()
            let b = try TestPipe()
            let c = try TestPipe()
            var calls: [String] = []
            var tokenB: EventLoop.Token?
            // A (registered first, so dispatched first) removes B, which is
            // ready in the same poll, and adds C.
            loop.watch(a.read) { [unowned loop] _ in
                calls.append("a")
                a.drain()
                loop.remove(tokenB!)
                loop.watch(c.read) { [unowned loop] _ in
                    calls.append("c")
                    c.drain()
                    loop.interrupt()
                }
            }
            tokenB = loop.watch(b.read) { _ in calls.append("b") }
            a.put()
            b.put()
            c.put()
            #expect(loop.wait(until: fromNow(milliseconds: 10_000)))
            #expect(calls == ["a", "c"])
            #expect(loop.count == 2)

            // A handler that removes itself is not run again.
            var selfRemoving = 0
            var token: EventLoop.Token?
            token = loop.watch(b.read) { [unowned loop] _ in
                selfRemoving += 1
                loop.remove(token!)
            }
            #expect(pump(loop, seconds: 5) { selfRemoving == 1 })  // b still holds its byte
            b.put()
            loop.wait(until: fromNow(milliseconds: 30))
            #expect(selfRemoving == 1)
            #expect(loop.count == 2)
        }

        /// A signal caught by `fbl_signal_catch` ends the wait: in a child
        /// process, so its wake-up byte reaches no other test's loop.
        @Test func aCaughtSignalEndsTheWait() async {
            await #expect(processExitsWith: .exitCode(0)) {
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, SIGUSR2)
                sigaddset(&set, SIGUSR1)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                guard fbl_signal_catch(SIGUSR2) == 0, let loop = try? EventLoop() else { exit(10) }

                // Raised before the wait: the handler's byte in the pipe ends it.
                raise(SIGUSR2)
                var start = monotonicNanoseconds()
                guard loop.wait(until: start + 5_000_000_000) else { exit(11) }
                guard monotonicNanoseconds() - start < 1_000_000_000 else { exit(12) }
                guard fbl_signal_take(SIGUSR2) == 1 else { exit(13) }
                // The pipe was emptied: the next wait lasts to its deadline.
                guard !loop.wait(until: fromNow(milliseconds: 50)) else { exit(14) }

                // Sent to this thread while it waits (EINTR or the pipe, whichever wins).
                let waiter = pthread_self()
                let done = Locked(false)
                let sender = Thread {
                    usleep(50_000)
                    // Again and again, in case one lands just before the poll.
                    while !done.get() {
                        pthread_kill(waiter, SIGUSR2)
                        usleep(20_000)
                    }
                }
                sender.start()
                start = monotonicNanoseconds()
                let woken = loop.wait(until: start + 5_000_000_000)
                let elapsed = monotonicNanoseconds() - start
                done.set(true)
                guard woken else { exit(15) }
                guard elapsed >= 40_000_000 && elapsed < 2_000_000_000 else { exit(16) }

                // fbanim's own signals, through SignalFlags: SIGUSR1 asks for the books.
                guard (try? SignalFlags.install()) != nil else { exit(17) }
                usleep(100_000)
                loop.drain()
                raise(SIGUSR1)
                guard loop.wait(until: fromNow(milliseconds: 5000)) else { exit(18) }
                guard SignalFlags.takeStatsRequest(), !SignalFlags.takeStatsRequest() else {
                    exit(19)
                }
                guard !SignalFlags.stopRequested else { exit(20) }
                exit(0)
            }
        }
    }

}

// MARK: - psplash FIFO

extension ChannelTests {
    @Suite struct PsplashFIFOTests {
        @Test func madeWithMode0660AndTheVideoGroup() throws {
            let dir = try TestPlaces.temporaryDirectory()
            defer { TestPlaces.remove(dir) }
            let loop = try EventLoop()
            let path = dir + "/psplash_fifo"
            let fifo = try PsplashFIFO(path: path, loop: loop) { _ in }
            defer { fifo.close() }
            var info = stat()
            #expect(lstat(path, &info) == 0)
            #expect(info.st_mode & S_IFMT == S_IFIFO)
            // Not narrowed by the umask (mkfifo alone would give 0640 under 022).
            #expect(info.st_mode & 0o7777 == 0o660)
            if getuid() == 0, let video = getgrnam("video") {
                #expect(info.st_gid == video.pointee.gr_gid)
                #expect(info.st_uid == 0)
            }
            #expect(PsplashFIFO.defaultPath(environment: nil) == "/run/psplash_fifo")
            #expect(PsplashFIFO.defaultPath(environment: "") == "/run/psplash_fifo")
            #expect(PsplashFIFO.defaultPath(environment: "/tmp/x/") == "/tmp/x/psplash_fifo")
        }

        @Test func echoStyleWritersComeAndGo() throws {
            let dir = try TestPlaces.temporaryDirectory()
            defer { TestPlaces.remove(dir) }
            let loop = try EventLoop()
            let path = dir + "/psplash_fifo"
            var received: [UInt8] = []
            var stream = PsplashStream()
            var outcomes: [PsplashStream.Outcome] = []
            let fifo = try PsplashFIFO(path: path, loop: loop) { bytes in
                received += bytes
                outcomes += stream.feed(bytes)
            }
            defer { fifo.close() }
            // One writer after another, each gone before the next; a message split over two.
            let writes = ["PROGRESS 10\n", "MSG one\0PROGRESS 2", "0\n", "QUIT\n"]
            var expected: [UInt8] = []
            for text in writes {
                try echo(Array(text.utf8), to: path)
                expected += Array(text.utf8)
                #expect(pump(loop) { received.count == expected.count })
            }
            // Two writers open at once, writing in turn.
            let first = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            let second = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            #expect(first >= 0 && second >= 0)
            for (fd, text) in [(first, "MSG a\n"), (second, "MSG b\n"), (first, "PROGRESS 30\n")] {
                _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                expected += Array(text.utf8)
                #expect(pump(loop) { received.count == expected.count })
            }
            close(first)
            close(second)
            #expect(received == expected)
            #expect(
                outcomes == [
                    .command(.progress(10)), .command(.message("one")), .command(.progress(20)),
                    .command(.quit(retain: false)), .command(.message("a")),
                    .command(.message("b")),
                    .command(.progress(30)),
                ])
        }

        @Test func aMegabyteArrivesWholeInPieces() throws {
            let dir = try TestPlaces.temporaryDirectory()
            defer { TestPlaces.remove(dir) }
            let loop = try EventLoop()
            let path = dir + "/psplash_fifo"
            var received: [UInt8] = []
            var pieces = 0
            var largest = 0
            let fifo = try PsplashFIFO(path: path, loop: loop) { bytes in
                received += bytes
                pieces += 1
                largest = max(largest, bytes.count)
            }
            defer { fifo.close() }
            let size = 1 << 20
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 % 251) }
            // One blocking write of the whole megabyte, from another thread, as `cat big > fifo`.
            let written = Locked(-1)
            let finished = DispatchSemaphore(value: 0)
            Thread {
                defer { finished.signal() }
                // Should the test give up reading, the write ends in EPIPE, not a SIGPIPE.
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { return }
                written.set(payload.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) })
                close(fd)
            }.start()
            let complete = pump(loop, seconds: 20) { received.count >= size }
            if !complete { fifo.close() }  // no reader left: the writer's write ends
            finished.wait()
            #expect(complete)
            #expect(written.get() == size)
            #expect(received.count == size)
            #expect(received == payload)
            // Taken at most readLimit bytes a wake-up, so frames go on between pieces.
            #expect(largest <= PsplashFIFO.readLimit)
            #expect(pieces >= size / PsplashFIFO.readLimit)
        }

        /// Opened read-write, the FIFO never reports end-of-file when its writers go:
        /// an idle wait sleeps instead of spinning on POLLHUP.
        @Test func noEndOfFileSpinAfterTheWritersLeave() throws {
            let dir = try TestPlaces.temporaryDirectory()
            defer { TestPlaces.remove(dir) }
            let loop = try EventLoop()
            let path = dir + "/psplash_fifo"
            var calls = 0
            let fifo = try PsplashFIFO(path: path, loop: loop) { _ in calls += 1 }
            defer { fifo.close() }
            try echo(Array("PROGRESS 5\n".utf8), to: path)
            #expect(pump(loop) { calls == 1 })
            let cpu = threadCPUNanoseconds()
            let start = monotonicNanoseconds()
            #expect(!loop.wait(until: start + 200_000_000))
            let spent = threadCPUNanoseconds() - cpu
            #expect(monotonicNanoseconds() - start >= 200_000_000)
            #expect(calls == 1)
            // A spinning poll burns most of the 200 ms; a sleeping one next to nothing.
            #expect(spent < 40_000_000, "\(spent / 1_000_000) ms of CPU in an idle 200 ms wait")
        }

        @Test func aLeftOverFIFOIsTakenOver() throws {
            let dir = try TestPlaces.temporaryDirectory()
            defer { TestPlaces.remove(dir) }
            let loop = try EventLoop()
            let path = dir + "/psplash_fifo"
            #expect(mkfifo(path, 0o600) == 0)
            var received: [UInt8] = []
            let fifo = try PsplashFIFO(path: path, loop: loop) { received += $0 }
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & 0o7777 == 0o660)
            try echo(Array("QUIT\n".utf8), to: path)
            #expect(pump(loop) { received.count == 5 })
            fifo.close()
            #expect(access(path, F_OK) != 0 && errno == ENOENT)
        }

        @Test func somethingElseAtThePathIsRefusedAndLeftAlone() throws {
            let dir = try TestPlaces.temporaryDirectory()
            defer { TestPlaces.remove(dir) }
            let loop = try EventLoop()
            let path = dir + "/psplash_fifo"
            let content = Data("not a fifo\n".utf8)
            #expect(FileManager.default.createFile(atPath: path, contents: content))
            #expect(throws: SystemError(errno: EEXIST, call: "mkfifo \(path)")) {
                _ = try PsplashFIFO(path: path, loop: loop) { _ in }
            }
            #expect(FileManager.default.contents(atPath: path) == content)
            #expect(loop.count == 0)

            // A symbolic link, even to a FIFO, is not followed.
            let target = dir + "/elsewhere"
            let link = dir + "/link"
            #expect(mkfifo(target, 0o600) == 0 && symlink(target, link) == 0)
            #expect(throws: SystemError(errno: EEXIST, call: "mkfifo \(link)")) {
                _ = try PsplashFIFO(path: link, loop: loop) { _ in }
            }
            var info = stat()
            #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
            #expect(stat(target, &info) == 0 && info.st_mode & 0o7777 == 0o600)
        }

        @Test func aMissingDirectoryIsAnError() throws {
            let dir = try TestPlaces.temporaryDirectory()
            defer { TestPlaces.remove(dir) }
            let loop = try EventLoop()
            let path = dir + "/missing/psplash_fifo"
            #expect(throws: SystemError(errno: ENOENT, call: "mkfifo \(path)")) {
                _ = try PsplashFIFO(path: path, loop: loop) { _ in }
            }
            #expect(loop.count == 0)
        }

        @Test func closeRemovesOnlyItsOwnFIFO() throws {
            let dir = try TestPlaces.temporaryDirectory()
            defer { TestPlaces.remove(dir) }
            let loop = try EventLoop()
            let path = dir + "/psplash_fifo"
            let mine = try PsplashFIFO(path: path, loop: loop) { _ in }
            #expect(loop.count == 1)
            mine.close()
            mine.close()
            #expect(access(path, F_OK) != 0)
            #expect(loop.count == 0)

            // Another splash replaced it meanwhile (a new inode at the path): left there.
            let replaced = try PsplashFIFO(path: path, loop: loop) { _ in }
            #expect(unlink(path) == 0 && mkfifo(path, 0o600) == 0)
            var before = stat()
            #expect(lstat(path, &before) == 0)
            replaced.close()
            var after = stat()
            #expect(lstat(path, &after) == 0)
            #expect(after.st_ino == before.st_ino && after.st_mode & S_IFMT == S_IFIFO)
            #expect(unlink(path) == 0)

            // Gone already: nothing to remove, no trap.
            let gone = try PsplashFIFO(path: path, loop: loop) { _ in }
            #expect(unlink(path) == 0)
            gone.close()
            #expect(loop.count == 0)
        }
    }

}

// MARK: - Plymouth server and client

extension ChannelTests {
    @Suite struct PlymouthTests {
        static let ping = Plymouth.request(for: .ping).encoded

        /// A loop and a server on a name of its own, answering with `onRequest`.
        static func server(
            log: @escaping (String) -> Void = { _ in }
        ) throws(SystemError) -> (EventLoop, PlymouthServer, String) {
            let loop = try EventLoop()
            let name = TestPlaces.socketName()
            let server = try PlymouthServer(loop: loop, name: name, log: log)
            return (loop, server, name)
        }

        @Test func pingIsAcknowledged() throws {
            let server = try ServerThread {
                Plymouth.meaning(of: $0) == .command(.ping) ? .ack : .nak
            }
            defer { server.stop() }
            let ping = Plymouth.request(for: .ping)
            #expect(
                try PlymouthClient.send(ping, socket: server.name, timeoutMilliseconds: 5000)
                    == Plymouth.ack)
            // A password prompt gets NAK, so the caller falls back to the console.
            let ask = Plymouth.Request(
                command: UInt8(ascii: "*"), argument: Array("Password:".utf8))
            #expect(
                try PlymouthClient.send(ask, socket: server.name, timeoutMilliseconds: 5000)
                    == Plymouth.nak)
        }

        @Test func theServerSeesWhoAsks() throws {
            let (loop, server, name) = try Self.server()
            var peers: [UnixSocket.Peer?] = []
            server.onRequest = { _, peer, _ in
                peers.append(peer)
                return .ack
            }
            let client = try TestClient(name)
            try client.send(Self.ping, loop: loop)
            #expect(pump(loop) { peers.count == 1 })
            let peer = try #require(peers.first ?? nil)
            #expect(peer.pid == getpid())
            #expect(peer.uid == getuid())
            #expect(peer.gid == getgid())
            #expect(
                pump(loop) {
                    client.collect()
                    return client.received == [Plymouth.ack]
                })
        }

        @Test func aDeferredAnswerComesWhenGiven() throws {
            let (loop, server, name) = try Self.server()
            var waiting: [PlymouthServer.ClientID] = []
            server.onRequest = { request, _, id in
                guard request.command == UInt8(ascii: "Q") else { return .ack }
                waiting.append(id)
                return .later
            }
            let client = try TestClient(name)
            try client.send(
                Plymouth.request(for: .quit(retain: true)).encoded + Self.ping, loop: loop)
            // The ping behind the quit is answered at once; the quit is not.
            #expect(
                pump(loop) {
                    client.collect()
                    return waiting.count == 1 && client.received.count == 1
                })
            loop.wait(until: fromNow(milliseconds: 30))
            client.collect()
            #expect(client.received == [Plymouth.ack])
            server.answer(waiting[0], Plymouth.nak)
            #expect(
                pump(loop) {
                    client.collect()
                    return client.received.count == 2
                })
            #expect(client.received == [Plymouth.ack, Plymouth.nak])
        }

        /// A deferred answer to a client that has gone goes nowhere, even when a
        /// new client got the gone one's descriptor number.
        @Test func aDeferredAnswerToAGoneClientReachesNoOtherClient() throws {
            let (loop, server, name) = try Self.server()
            var waiting: [PlymouthServer.ClientID] = []
            var askers: [PlymouthServer.ClientID] = []
            server.onRequest = { request, _, id in
                askers.append(id)
                guard request.command == UInt8(ascii: "D") else { return .nak }
                waiting.append(id)
                return .later
            }
            let gone = try TestClient(name)
            try gone.send(Plymouth.request(for: .deactivate).encoded, loop: loop)
            #expect(pump(loop) { waiting.count == 1 })
            gone.disconnect()
            #expect(pump(loop) { server.clientCount == 0 })
            let next = try TestClient(name)
            #expect(pump(loop) { server.clientCount == 1 })
            // The deactivation is done: its answer is owed to the client that left.
            server.answer(waiting[0], Plymouth.ack)
            try next.send([UInt8(ascii: "?"), 0], loop: loop)
            #expect(
                pump(loop) {
                    next.collect()
                    return !next.received.isEmpty
                })
            loop.wait(until: fromNow(milliseconds: 30))
            next.collect()
            #expect(next.received == [Plymouth.nak], "the new client got someone else's answer")
            // Whatever descriptor it got, the new client is not the one that left.
            #expect(askers.count == 2 && askers[0] != askers[1])
        }

        @Test func manyRequestsInOneWriteGetAsManyAnswers() throws {
            let (loop, server, name) = try Self.server()
            var requests: [Plymouth.Request] = []
            server.onRequest = { request, _, _ in
                requests.append(request)
                return request.command == UInt8(ascii: "P") ? .ack : .nak
            }
            var bytes: [UInt8] = []
            var sent: [Plymouth.Request] = []
            for i in 0..<1000 {
                let request =
                    i % 3 == 0
                    ? Plymouth.Request(command: UInt8(ascii: "P"))
                    : Plymouth.Request(
                        command: UInt8(ascii: "M"), argument: Array("message \(i)".utf8))
                sent.append(request)
                bytes += request.encoded
            }
            #expect(bytes.count > PlymouthServer.readLimit)  // more than one read's worth
            let client = try TestClient(name)
            try client.send(bytes, loop: loop)
            #expect(
                pump(loop) {
                    client.collect()
                    return client.received.count >= sent.count
                })
            #expect(requests == sent)
            #expect(
                client.received
                    == sent.map { $0.command == UInt8(ascii: "P") ? Plymouth.ack : Plymouth.nak })
        }

        @Test func aRequestSplitByteByByte() throws {
            let (loop, server, name) = try Self.server()
            var requests: [Plymouth.Request] = []
            server.onRequest = { request, _, _ in
                requests.append(request)
                return .ack
            }
            let client = try TestClient(name)
            let message = Plymouth.request(for: .message("hello")).encoded
            for (i, byte) in message.enumerated() {
                try client.send([byte], loop: loop)
                loop.wait(until: fromNow(milliseconds: 3))
                if i < message.count - 1 {
                    #expect(requests.isEmpty, "a request before its last byte (\(i))")
                }
            }
            #expect(pump(loop) { requests.count == 1 })
            #expect(
                requests == [
                    Plymouth.Request(command: UInt8(ascii: "M"), argument: Array("hello".utf8))
                ])
            #expect(
                pump(loop) {
                    client.collect()
                    return client.received == [Plymouth.ack]
                })
        }

        @Test func aClientThatLeavesMidRequestOrBeforeItsAnswer() throws {
            let (loop, server, name) = try Self.server()
            var requests = 0
            server.onRequest = { _, _, _ in
                requests += 1
                return .ack
            }
            // Half a request, then gone.
            let half = try TestClient(name)
            try half.send([UInt8(ascii: "M"), 2, 6, UInt8(ascii: "a")], loop: loop)
            #expect(pump(loop) { server.clientCount == 1 })
            half.disconnect()
            #expect(pump(loop) { server.clientCount == 0 })
            #expect(requests == 0)
            // A whole request, then gone before its answer: the answer's EPIPE is no SIGPIPE.
            let hasty = try TestClient(name)
            try hasty.send(Self.ping, loop: loop)
            hasty.disconnect()
            #expect(pump(loop) { server.clientCount == 0 && requests == 1 })
            // The server goes on.
            let next = try TestClient(name)
            try next.send(Self.ping, loop: loop)
            #expect(
                pump(loop) {
                    next.collect()
                    return next.received == [Plymouth.ack]
                })
        }

        /// More clients than `maximumClients` at once: the extra ones are closed,
        /// the others answered; once some leave, new ones are served again.
        @Test func aThousandClientsAtOnce() throws {
            let total = 1000
            // Our 1000 ends, the server's 512 and the refused ones it closes as it goes.
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            let needed = rlim_t(total + PlymouthServer.maximumClients + 256)
            if limit.rlim_cur < needed {
                limit.rlim_cur = min(needed, limit.rlim_max)
                setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            }
            try #require(limit.rlim_cur >= needed, "RLIMIT_NOFILE is \(limit.rlim_cur)")

            var logs: [String] = []
            let (loop, server, name) = try Self.server { logs.append($0) }
            server.onRequest = { _, _, _ in .ack }
            var clients: [TestClient] = []
            for _ in 0..<total {
                while true {
                    do throws(SystemError) {
                        clients.append(try TestClient(name))
                        break
                    } catch {
                        // The listen backlog is full: let the server accept some.
                        try #require(error.errno == EAGAIN, "\(error)")
                        loop.wait(until: fromNow(milliseconds: 5))
                    }
                }
            }
            for client in clients {
                do throws(SystemError) {
                    _ = try client.socket.write(Self.ping[...])
                } catch {
                    #expect(error.errno == EPIPE || error.errno == ECONNRESET)  // already refused
                }
            }
            let settled = pump(loop, seconds: 30) {
                clients.allSatisfy { client in
                    client.collect()
                    return client.closed || !client.received.isEmpty
                }
            }
            #expect(settled)
            let served = clients.filter { $0.received == [Plymouth.ack] && !$0.closed }
            let refused = clients.filter { $0.closed && $0.received.isEmpty }
            #expect(served.count == PlymouthServer.maximumClients)
            #expect(refused.count == total - PlymouthServer.maximumClients)
            #expect(server.clientCount == PlymouthServer.maximumClients)
            #expect(logs.filter { $0.contains("refusing more") }.count == 1)

            // The served ones are still served.
            for client in served { try client.send(Self.ping, loop: loop) }
            #expect(
                pump(loop, seconds: 30) {
                    served.allSatisfy {
                        $0.collect()
                        return $0.received.count == 2
                    }
                })
            // Ten leave: ten newcomers are served.
            for client in served.prefix(10) { client.disconnect() }
            #expect(pump(loop) { server.clientCount == PlymouthServer.maximumClients - 10 })
            let newcomers = try (0..<10).map { _ in try TestClient(name) }
            for client in newcomers { try client.send(Self.ping, loop: loop) }
            #expect(
                pump(loop, seconds: 30) {
                    newcomers.allSatisfy {
                        $0.collect()
                        return $0.received == [Plymouth.ack]
                    }
                })
            #expect(server.clientCount == PlymouthServer.maximumClients)
            server.close()
            #expect(server.clientCount == 0 && loop.count == 0)
        }

        /// A client that sends without reading its answers is dropped once
        /// `outputLimit` answers wait for it; the loop never blocks on it, and
        /// another client is answered all along.
        @Test func aClientThatNeverReadsIsDropped() throws {
            var logs: [String] = []
            let (loop, server, name) = try Self.server { logs.append($0) }
            server.onRequest = { _, _, _ in .ack }
            let flooder = try TestClient(name)
            let polite = try TestClient(name)
            let chunk = [[UInt8]](repeating: Self.ping, count: 32768).flatMap { $0 }  // 64 KiB
            var sent = 0
            var dropped = false
            var slowest: UInt64 = 0
            var politeAnswers = 0
            let start = monotonicNanoseconds()
            while !dropped && sent < 64 << 20 && monotonicNanoseconds() - start < 30_000_000_000 {
                do throws(SystemError) {
                    sent += try flooder.socket.write(chunk[(sent % chunk.count)...])
                } catch {
                    #expect(error.errno == EPIPE || error.errno == ECONNRESET)
                    dropped = true
                }
                let before = monotonicNanoseconds()
                loop.wait(until: before + 2_000_000)
                slowest = max(slowest, monotonicNanoseconds() - before)
                // The polite client is answered between the flood's reads.
                if polite.received.count == politeAnswers {
                    try polite.send(Self.ping, loop: loop)
                    politeAnswers += 1
                }
                polite.collect()
            }
            #expect(dropped)
            #expect(politeAnswers >= 2)
            // Dropped for the answers it left, not for what it sent.
            #expect(sent > PlymouthServer.outputLimit * 2)
            #expect(sent < 64 << 20)
            #expect(slowest < 1_000_000_000, "a wait took \(slowest / 1_000_000) ms")
            #expect(logs.contains { $0.contains("does not read its answers") })
            #expect(pump(loop) { server.clientCount == 1 })
            try polite.send(Self.ping, loop: loop)
            #expect(
                pump(loop) {
                    polite.collect()
                    return polite.received.count == politeAnswers + 1
                })
            #expect(polite.received.allSatisfy { $0 == Plymouth.ack } && !polite.closed)
        }

        @Test func aSecondServerOnTheSameNameIsRefused() throws {
            let (loop, first, name) = try Self.server()
            #expect(throws: SystemError(errno: EADDRINUSE, call: "bind")) {
                _ = try PlymouthServer(loop: loop, name: name, log: { _ in })
            }
            // The name is free again as soon as the first closes.
            first.close()
            let second = try PlymouthServer(loop: loop, name: name, log: { _ in })
            second.onRequest = { _, _, _ in .ack }
            let client = try TestClient(name)
            try client.send(Self.ping, loop: loop)
            #expect(
                pump(loop) {
                    client.collect()
                    return client.received == [Plymouth.ack]
                })
        }

        @Test func nobodyListening() throws {
            let name = TestPlaces.socketName()
            #expect(throws: PlymouthClient.Failure.notRunning) {
                try PlymouthClient.send(
                    Plymouth.request(for: .ping), socket: name, timeoutMilliseconds: 1000)
            }
            #expect(
                try PlymouthClient.waitForExit(socket: name, timeoutMilliseconds: 1000) == false)
        }

        @Test func waitForExitReturnsWhenTheServerCloses() throws {
            // Closes once the waiting client is in, 100 ms later.
            let firstSeen = Locked<UInt64?>(nil)
            let server = try ServerThread(answer: { _ in .ack }) { clients in
                guard clients > 0 else { return false }
                if firstSeen.get() == nil { firstSeen.set(monotonicNanoseconds()) }
                return monotonicNanoseconds() - firstSeen.get()! > 100_000_000
            }
            defer { server.stop() }
            #expect(
                try PlymouthClient.waitForExit(socket: server.name, timeoutMilliseconds: 10_000))
            let returned = monotonicNanoseconds()
            let closed = try #require(server.closedAt.get(), "returned before the server closed")
            #expect(closed <= returned)
        }

        @Test func clientTimeouts() throws {
            // A server that never answers, and never closes.
            let server = try ServerThread { _ in .later }
            defer { server.stop() }
            var start = monotonicNanoseconds()
            #expect(throws: PlymouthClient.Failure.timedOut) {
                try PlymouthClient.send(
                    Plymouth.request(for: .ping), socket: server.name, timeoutMilliseconds: 100)
            }
            #expect(monotonicNanoseconds() - start >= 100_000_000)
            start = monotonicNanoseconds()
            #expect(throws: PlymouthClient.Failure.timedOut) {
                try PlymouthClient.waitForExit(socket: server.name, timeoutMilliseconds: 100)
            }
            #expect(monotonicNanoseconds() - start >= 100_000_000)
        }

        @Test func aServerThatClosesWithoutAnswering() throws {
            let server = try ServerThread(answer: { _ in .later }) { $0 > 0 }
            defer { server.stop() }
            #expect(throws: PlymouthClient.Failure.closed) {
                try PlymouthClient.send(
                    Plymouth.request(for: .ping), socket: server.name, timeoutMilliseconds: 5000)
            }
        }

        /// Random bytes through a real socket: the server never traps, and
        /// answers exactly the requests Plymouth's decoder finds in them, in order.
        @Test(arguments: 1...6 as ClosedRange<UInt64>)
        func randomBytes(seed: UInt64) throws {
            var random = SeededRandom(seed: seed)
            // Mostly protocol-shaped bytes (commands, 0x00, 0x02, small lengths), some noise.
            let alphabet: [UInt8] = [0, 0, 2, 2, 1, 3, 0x50, 0x51, 0x4D, 0x55, 0x75, 0x2A, 0xFF]
            let count = Int.random(in: 2_000...40_000, using: &random)
            let bytes = (0..<count).map { _ -> UInt8 in
                Bool.random(using: &random)
                    ? alphabet.randomElement(using: &random)!
                    : UInt8.random(in: 0...255, using: &random)
            }
            var decoder = Plymouth.Decoder()
            let expected = decoder.feed(bytes)
            #expect(expected.count > 100)

            let (loop, server, name) = try Self.server()
            var requests: [Plymouth.Request] = []
            server.onRequest = { request, _, _ in
                requests.append(request)
                return request.command & 1 == 0 ? .ack : .nak
            }
            let client = try TestClient(name)
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + Int.random(in: 1...700, using: &random))
                try client.send(Array(bytes[offset..<end]), loop: loop)
                offset = end
                if Bool.random(using: &random) { loop.drain() }
                client.collect()
            }
            #expect(
                pump(loop) {
                    client.collect()
                    return client.received.count >= expected.count
                })
            loop.wait(until: fromNow(milliseconds: 20))
            client.collect()
            #expect(requests == expected)
            #expect(
                client.received
                    == expected.map { $0.command & 1 == 0 ? Plymouth.ack : Plymouth.nak })
            #expect(!client.closed && server.clientCount == 1)
        }
    }
}
