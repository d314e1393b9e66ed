import CDRM
import FBDisplay
import FBScheduler
import Glibc
import Testing

@testable import FBLinux

/// The C library with failures put in on demand: each call named in
/// `faults` fails with the next errno queued there; writes move at most
/// `writeLimit` bytes; `poll` can be faked (`pollAnswer`), and a test clock
/// moved on by the time each wait asked for. Everything else is the real call.
final class FaultySystemCalls: SystemCalls {
    /// Queued errnos by call name (`"write"`, `"fsync"`, `"poll"`...), first first.
    var faults: [String: [Int32]] = [:]
    /// Errnos a call fails with every time, once its queue is empty.
    var lastingFaults: [String: Int32] = [:]
    /// Descriptors `isatty` says are terminals.
    var terminals: Set<Int32> = []
    /// At most this many bytes a `write(2)`: short writes.
    var writeLimit = Int.max
    /// When set, `poll` and `pollInput` do not wait: they answer this many
    /// ready descriptors (no events) after moving `clock` by their timeout.
    var pollAnswer: Int?
    var clock: ManualClock?
    /// The timeouts `poll` and `pollInput` were given, in milliseconds.
    private(set) var pollTimeouts: [Int32] = []
    /// The writes made, by their length.
    private(set) var writes: [Int] = []
    /// Paths `open` answers with a descriptor of `fakeFiles` (nothing real is opened).
    var fakeFiles: [String: Glibc.stat] = [:]
    private var fakeDescriptors: [Int32: Glibc.stat] = [:]
    private(set) var closed: [Int32] = []
    private let real = LinuxSystemCalls.shared

    private func fault(_ call: String) throws(SystemError) {
        guard var queue = faults[call], !queue.isEmpty else {
            if let code = lastingFaults[call] { throw SystemError(errno: code, call: call) }
            return
        }
        let code = queue.removeFirst()
        faults[call] = queue
        throw SystemError(errno: code, call: call)
    }

    func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> FileDescriptor {
        try fault("open")
        if let info = fakeFiles[path] {
            let fd = Int32(1000 + fakeDescriptors.count)
            fakeDescriptors[fd] = info
            return FileDescriptor(rawValue: fd)
        }
        return try real.open(path, flags: flags, mode: mode)
    }

    func close(_ fd: FileDescriptor) {
        closed.append(fd.rawValue)
        if fakeDescriptors[fd.rawValue] == nil { real.close(fd) }
    }

    func isTerminal(_ fd: FileDescriptor) -> Bool {
        terminals.contains(fd.rawValue) || real.isTerminal(fd)
    }

    func fstat(_ fd: FileDescriptor) throws(SystemError) -> Glibc.stat {
        try fault("fstat")
        if let info = fakeDescriptors[fd.rawValue] { return info }
        return try real.fstat(fd)
    }

    func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer)
        throws(SystemError) -> Int
    {
        try fault("read")
        return try real.read(fd, into: buffer)
    }

    func write(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, inherited: Bool)
        throws(SystemError) -> Int
    {
        try fault("write")
        let part = UnsafeRawBufferPointer(rebasing: bytes.prefix(writeLimit))
        writes.append(part.count)
        return try real.write(fd, part, inherited: inherited)
    }

    func fsync(_ fd: FileDescriptor) throws(SystemError) {
        try fault("fsync")
        try real.fsync(fd)
    }

    func rename(_ from: String, to: String) throws(SystemError) {
        try fault("rename")
        try real.rename(from, to: to)
    }

    func poll(_ fds: UnsafeMutableBufferPointer<pollfd>, timeoutMilliseconds: Int32)
        throws(SystemError) -> Int
    {
        pollTimeouts.append(timeoutMilliseconds)
        try fault("poll")
        guard let pollAnswer else {
            return try real.poll(fds, timeoutMilliseconds: timeoutMilliseconds)
        }
        clock?.advance(by: UInt64(max(timeoutMilliseconds, 0)) * 1_000_000)
        return pollAnswer
    }

    func pollInput(_ fd: FileDescriptor, timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        pollTimeouts.append(timeoutMilliseconds)
        try fault("poll")
        clock?.advance(by: UInt64(max(timeoutMilliseconds, 0)) * 1_000_000)
        return false
    }
}

/// Timeouts driven by a test clock instead of waited out, and failures put
/// into the calls under the code that must survive them.
@Suite struct TimeoutTests {
    /// A flip whose event never comes: `backBuffer()` gives up after one
    /// second of the display's clock (one poll of 1000 ms, not a spin), and
    /// `deactivate()` after 200 ms, then drops master all the same.
    @Test func aLostFlipEventTimesOutOnTheInjectedClock() throws {
        let kms = MockModeSetting.card([("Virtual-1", UInt32(DRM_MODE_CONNECTOR_VIRTUAL), 64, 32)])
        kms.errors["DirtyFB"] = ENOSYS
        let clock = ManualClock(start: 5_000_000_000)
        kms.system.pollReady = false
        kms.system.onPoll = { clock.advance(by: UInt64($0) * 1_000_000) }
        let display = try DRMDisplay(
            path: "/dev/dri/card0", system: kms.system, kms: kms, time: clock)
        defer { display.close() }
        for _ in 0..<2 {  // the mode set, then a flip left in flight
            let back = try display.backBuffer()
            try display.present(damage: [back.surface.bounds])
        }
        var mark = kms.system.trace.count
        #expect(throws: SystemError(errno: ETIMEDOUT, call: "waiting for the page flip event")) {
            _ = try display.backBuffer()
        }
        #expect(kms.system.calls(since: mark) == ["poll"])
        #expect(clock.now() == 6_000_000_000)
        mark = kms.system.trace.count
        display.deactivate()
        #expect(kms.system.calls(since: mark) == ["poll", "drmDropMaster"])
        #expect(clock.now() == 6_200_000_000)
    }

    /// The event loop's deadlines are read on its clock: a wait polls for
    /// what is left of it (rounded up to whole milliseconds, at most a
    /// minute at a time), and a signal's `EINTR` ends the wait at once.
    @Test func eventLoopWaitsOnItsClock() throws {
        let clock = ManualClock(start: 1_000)
        let system = FaultySystemCalls()
        system.pollAnswer = 0
        system.clock = clock
        let loop = try EventLoop(system: system, time: clock)
        #expect(loop.wait(until: 1_000 + 2_500_000_500) == false)
        #expect(system.pollTimeouts == [2501])
        #expect(clock.now() == 1_000 + 2_501_000_000)

        let start = clock.now()
        #expect(loop.wait(until: start + 150_000_000_000) == false)
        #expect(system.pollTimeouts.dropFirst() == [60_000, 60_000, 30_000])

        system.faults["poll"] = [EINTR]
        let before = clock.now()
        #expect(loop.wait(until: before + 1_000_000_000) == true)
        #expect(clock.now() == before)
        #expect(system.pollTimeouts.last == 1000)
    }

    /// A pipe whose writer neither writes nor closes (`--board <(sleep 1d)`)
    /// fails with `ETIMEDOUT` after 5 s of the clock given, and its
    /// descriptor is closed.
    @Test func aSilentPipeTimesOutOnTheInjectedClock() {
        let clock = ManualClock()
        let system = FaultySystemCalls()
        system.clock = clock
        var fifo = Glibc.stat()
        fifo.st_mode = S_IFIFO | 0o600
        system.fakeFiles["/run/silent"] = fifo
        system.faults["read"] = [EAGAIN, EAGAIN]
        #expect(throws: SystemError(errno: ETIMEDOUT, call: "read")) {
            try BootEnvironment.readSmallFile(
                "/run/silent", limit: 100, system: system, time: clock)
        }
        #expect(system.pollTimeouts == [5001])
        #expect(clock.now() == 5_001_000_000)
        #expect(system.closed == [1000])
    }

    /// Short writes are continued until every byte is in the file; a
    /// failed `fsync` leaves the old file whole and no temporary file.
    @Test func atomicFilesSurviveShortWritesAndReportAFailedSync() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let path = dir.path + "/state"
        let system = FaultySystemCalls()
        system.writeLimit = 3
        let bytes = Array("0123456789".utf8)
        try writeFileAtomically(bytes, to: path, system: system)
        #expect(fileContents(path) == bytes)
        #expect(system.writes == [3, 3, 3, 1])

        system.faults["fsync"] = [EIO]
        #expect(throws: SystemError(errno: EIO, call: "fsync")) {
            try writeFileAtomically(Array("new".utf8), to: path, system: system)
        }
        #expect(fileContents(path) == bytes)
        #expect(dir.entries == ["state"])
    }

    /// A standard stream whose reader went away reports `EPIPE` as a value
    /// (the caller decides); an interrupted poll costs the line, not a wait.
    @Test func standardStreamsReportFailuresAsValues() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            Glibc.close(ends[0])
            Glibc.close(ends[1])
        }
        let system = FaultySystemCalls()
        let stream = StandardStream(fd: ends[1], system: system)
        system.faults["write"] = [EPIPE]
        #expect(stream.write("lost\n") == SystemError(errno: EPIPE, call: "write"))
        system.writeLimit = 2
        #expect(stream.write("kept\n") == nil)
        #expect(system.writes == [2, 2, 1])
        system.faults["poll"] = [EINTR]
        #expect(stream.writeWithoutBlocking("dropped\n") == false)
        #expect(stream.writeWithoutBlocking("sent\n") == true)
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = Glibc.read(ends[0], &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) == "kept\nsent\n")
    }

    /// A terminal that takes no bytes (XOFF, a stalled ssh): the restore at
    /// close gives up after one second of the display's clock, in 50 ms
    /// waits, so a stop is never held up by it.
    @Test func aStalledTerminalsRestoreGivesUpOnTheInjectedClock() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { for fd in ends { Glibc.close(fd) } }
        let clock = ManualClock()
        let system = FaultySystemCalls()
        system.terminals = [ends[1]]
        system.pollAnswer = 0
        system.clock = clock
        let display = try TerminalDisplay(fd: ends[1], system: system, time: clock)
        #expect(display.description.width == 80)  // a pipe has no window size
        system.lastingFaults["write"] = EAGAIN
        display.close()
        #expect(system.pollTimeouts == Array(repeating: 50, count: 20))
        #expect(clock.now() == 1_000_000_000)
    }

    /// A terminal that hangs up fails writes a moment before SIGHUP comes:
    /// the write waits 100 ms of the clock for the signal, then reports `EIO`.
    @Test func aHungUpTerminalGetsItsGraceOnTheInjectedClock() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { for fd in ends { Glibc.close(fd) } }
        let clock = ManualClock(start: 7)
        let system = FaultySystemCalls()
        system.terminals = [ends[1]]
        let display = try TerminalDisplay(fd: ends[1], system: system, time: clock)
        let back = try display.backBuffer()
        system.faults["write"] = [EIO]
        #expect(throws: SystemError(errno: EIO, call: "write")) {
            try display.present(damage: [back.surface.bounds])
        }
        #expect(clock.now() == 7 + 100_000_000)
        system.faults["write"] = nil
        display.close()
    }
}
