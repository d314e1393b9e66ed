import Foundation
import Glibc
import Testing

/// Collects everything a child writes to one pipe (or a pseudo-terminal's
/// master side), on a thread of its own, so the child never blocks on a
/// full pipe and the test can look at the output while the child runs.
final class PipeCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data: [UInt8] = []
    private var ended = false
    private var paused: Bool
    private var closing = false

    /// Starts reading `fd`, which it owns and closes at end of file (or at
    /// `close()`). A `paused` collector reads nothing until `resume()`, as a
    /// terminal that does not read.
    init(reading fd: Int32, paused: Bool = false) {
        self.paused = paused
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let (isPaused, isClosing) = lock.withLock { (self.paused, closing) }
                if isClosing { break }
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if isPaused || poll(&p, 1, 20) == 0 {
                    if isPaused { usleep(10_000) }
                    continue
                }
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    lock.withLock { data += chunk[..<n] }
                } else if n < 0 && (errno == EINTR || errno == EAGAIN) {
                    continue
                } else {
                    break  // end of file; EIO from a terminal nobody holds any more
                }
            }
            Glibc.close(fd)
            lock.withLock { ended = true }
        }
        thread.start()
    }

    var bytes: [UInt8] { lock.withLock { data } }
    var text: String { String(decoding: bytes, as: UTF8.self) }
    /// Whether the writing end is closed by everyone (end of file seen).
    var isEnded: Bool { lock.withLock { ended } }

    func resume() { lock.withLock { paused = false } }

    /// Stops reading and closes the descriptor (for a terminal's master
    /// side: hangs the terminal up). Waits until it is closed.
    func close() {
        lock.withLock { closing = true }
        while !isEnded { usleep(2_000) }
    }
}

/// A pseudo-terminal the test holds the master side of, as a terminal
/// emulator does.
final class PseudoTerminal {
    /// The master side, until a `ChildProcess` takes it.
    fileprivate(set) var master: Int32
    let slavePath: String

    init(columns: Int, rows: Int) throws {
        master = GNU.posixOpenpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0, "posix_openpt: \(errno)")
        try #require(GNU.unlockpt(master) == 0)
        var name = [CChar](repeating: 0, count: 128)
        try #require(GNU.ptsnameR(master, &name, name.count) == 0)
        slavePath = String(
            decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        try resize(columns: columns, rows: rows)
    }

    deinit { if master >= 0 { Glibc.close(master) } }

    /// Sets the window size (the kernel sends SIGWINCH to the foreground).
    func resize(columns: Int, rows: Int) throws {
        var size = winsize(
            ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        try #require(ioctl(master, UInt(TIOCSWINSZ), &size) == 0)
    }
}

/// glibc's GNU extensions (`_GNU_SOURCE`), which the Glibc module does not
/// import: looked up by name.
enum GNU {
    static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let address = dlsym(nil, name) else { fatalError("glibc lacks \(name)") }
        return unsafeBitCast(address, to: type)
    }

    /// `pipe2(2)`.
    nonisolated(unsafe) static let pipe2 = symbol(
        "pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34).
    nonisolated(unsafe) static let addClosefrom = symbol(
        "posix_spawn_file_actions_addclosefrom_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self
    )
    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29).
    nonisolated(unsafe) static let addChdir = symbol(
        "posix_spawn_file_actions_addchdir_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>)
            -> Int32).self)
    /// `POSIX_SPAWN_SETSID`: the child starts a session of its own.
    static let spawnSetsid: Int32 = 0x80
    nonisolated(unsafe) static let posixOpenpt = symbol(
        "posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    nonisolated(unsafe) static let unlockpt = symbol(
        "unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    nonisolated(unsafe) static let ptsnameR = symbol(
        "ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
}

/// How a child ended.
struct Termination: Equatable, CustomStringConvertible {
    /// The exit status, when it exited.
    var status: Int32?
    /// The signal that killed it, when one did.
    var signal: Int32?
    /// The test killed it (SIGKILL) because it ran over its time.
    var timedOut = false

    var exitedCleanly: Bool { status == 0 && signal == nil && !timedOut }

    var description: String {
        if timedOut { return "killed after running over its time" }
        if let signal { return "killed by signal \(signal)" }
        return "exit status \(status ?? -1)"
    }
}

/// A child process started with `posix_spawn`, with a clean signal state
/// (empty mask, default dispositions) unless told otherwise, standard input
/// from /dev/null, and standard output and error collected while it runs.
///
/// Everything is bounded: `wait(timeout:)` kills a child that runs over (and
/// records a test failure), and a child still running when its
/// `ChildProcess` goes away is killed.
final class ChildProcess {
    let pid: pid_t
    let commandLine: [String]
    let out: PipeCollector
    let err: PipeCollector
    private(set) var termination: Termination?
    let started = Date()

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - directory: the child's working directory (the test's own by default).
    ///   - environment: variables to set or replace in the child's environment.
    ///   - blockedSignals: signals to leave blocked in the child (default none),
    ///     as a careless parent (a test runner's thread, a service manager) would.
    ///   - terminal: standard output is this terminal, the controlling
    ///     terminal of a session the child leads (as a shell's job would be);
    ///     the child's `out` reads its master side, from then on owned by it
    ///     (paused when `pausedTerminal`).
    init(
        _ executable: String, _ arguments: [String], directory: String? = nil,
        environment: [String: String] = [:], blockedSignals: [Int32] = [],
        terminal: PseudoTerminal? = nil, pausedTerminal: Bool = false
    ) throws {
        commandLine = [executable] + arguments
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        // Close-on-exec: a child spawned at the same time by another test
        // must not inherit these (it would hold the pipes open).
        try #require(GNU.pipe2(&outPipe, O_CLOEXEC) == 0 && GNU.pipe2(&errPipe, O_CLOEXEC) == 0)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        if let terminal {
            // Opened after setsid and without O_NOCTTY: the controlling terminal.
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, terminal.slavePath, O_RDWR, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], STDOUT_FILENO)
        }
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], STDERR_FILENO)
        // Nothing else of the test runner's leaks into the child.
        try #require(GNU.addClosefrom(&actions, 3) == 0)
        if let directory { try #require(GNU.addChdir(&actions, directory) == 0) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in blockedSignals { sigaddset(&mask, signal) }
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group (or session): signals meant for the test
        // runner's group (a ^C) do not reach it, and it cannot reach them.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes,
            Int16(
                POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
                    | (terminal == nil ? POSIX_SPAWN_SETPGROUP : GNU.spawnSetsid)))

        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let argv = commandLine.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        if rc != 0 {
            close(outPipe[0])
            close(errPipe[0])
            throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO)
        }
        pid = child
        if let terminal {
            close(outPipe[0])
            out = PipeCollector(reading: terminal.master, paused: pausedTerminal)
            terminal.master = -1
        } else {
            out = PipeCollector(reading: outPipe[0])
        }
        err = PipeCollector(reading: errPipe[0])
    }

    deinit {
        if termination == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
    }

    var stdout: String { out.text }
    var stderr: String { err.text }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// Seconds since the child was started.
    var age: Double { Date().timeIntervalSince(started) }

    /// Reaps the child if it has ended.
    @discardableResult
    func poll() -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        let rc = waitpid(pid, &status, WNOHANG)
        guard rc == pid else { return nil }
        termination = Termination(status: status)
        return termination
    }

    var isRunning: Bool { poll() == nil }

    /// Sends `signal` to the child (only while it has not been reaped, so
    /// the pid cannot belong to another process).
    func send(_ signal: Int32) {
        guard poll() == nil else { return }
        kill(pid, signal)
    }

    /// Waits for the child to end and for its output to be complete. A child
    /// that runs over `timeout` seconds is killed, and the test fails.
    @discardableResult
    func wait(timeout: Double, sourceLocation: SourceLocation = #_sourceLocation) -> Termination {
        let deadline = Date().addingTimeInterval(timeout)
        while poll() == nil {
            if Date() >= deadline {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                termination = Termination(status: nil, signal: SIGKILL, timedOut: true)
                Issue.record(
                    "\(commandLine.joined(separator: " ")) ran over \(timeout) s: killed",
                    sourceLocation: sourceLocation)
                break
            }
            usleep(5_000)
        }
        // The pipes end with the child (and whatever it started).
        let outputDeadline = Date().addingTimeInterval(5)
        while !(out.isEnded && err.isEnded) && Date() < outputDeadline { usleep(2_000) }
        return termination!
    }

    /// Waits until `condition` holds, the child ends, or `timeout` passes.
    /// - Returns: whether `condition` held.
    @discardableResult
    func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            if poll() != nil { return condition() }
            usleep(5_000)
        }
        return condition()
    }

    /// Whether process `pid` has a handler installed for `signal`
    /// (`SigCgt` in /proc/PID/status).
    static func isCatching(_ signal: Int32, pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
            let mask = UInt64(
                line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (UInt64(1) << UInt64(signal - 1)) != 0
    }

    /// Waits until the child catches `signal` (fbanim has installed its
    /// handlers: a signal sent earlier would kill it by default).
    func waitUntilCatching(_ signal: Int32, timeout: Double = 10) -> Bool {
        waitUntil(timeout: timeout) { ChildProcess.isCatching(signal, pid: pid) }
    }
}

extension Termination {
    /// Decodes a `waitpid` status.
    init(status raw: Int32) {
        let signal = raw & 0x7F
        if signal == 0 {
            self.init(status: (raw >> 8) & 0xFF, signal: nil)
        } else {
            self.init(status: nil, signal: signal)
        }
    }
}

extension Fbanim {
    /// Starts the built `fbanim` with `arguments` (see `ChildProcess`).
    static func start(
        _ arguments: [String], directory: String? = nil, blockedSignals: [Int32] = []
    ) throws -> ChildProcess {
        try #require(
            FileManager.default.isExecutableFile(atPath: binaryPath),
            "the fbanim binary is missing at \(binaryPath): build it first, or set FBANIM_BINARY")
        return try ChildProcess(
            binaryPath, arguments, directory: directory, blockedSignals: blockedSignals)
    }

    /// Runs `fbanim arguments...` to its end (at most `timeout` seconds).
    static func run(
        _ arguments: [String], directory: String?, timeout: Double = 30
    ) throws -> (Termination, stdout: String, stderr: String) {
        let child = try start(arguments, directory: directory)
        let end = child.wait(timeout: timeout)
        return (end, child.stdout, child.stderr)
    }
}

/// The object `--stats json` prints, parsed with `JSONSerialization`.
struct PlayStats: CustomStringConvertible {
    let object: [String: Any]
    let text: String

    /// Parses standard output: exactly one JSON object on one line.
    init(stdout: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        text = stdout
        #expect(
            stdout.hasSuffix("}\n"), "stdout must end with the object and a newline: \(stdout)",
            sourceLocation: sourceLocation)
        #expect(
            stdout.filter { $0 == "\n" }.count == 1, "one line on stdout: \(stdout)",
            sourceLocation: sourceLocation)
        let parsed = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        object = try #require(
            parsed as? [String: Any], "not a JSON object: \(stdout)",
            sourceLocation: sourceLocation)
    }

    var description: String { text }

    /// A field that must be a whole number.
    func int(_ key: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let number = try #require(
            object[key] as? NSNumber, "\(key) missing or not a number in \(text)",
            sourceLocation: sourceLocation)
        let value = number.doubleValue
        try #require(
            value == value.rounded() && abs(value) < 1e15, "\(key) is not a whole number: \(value)",
            sourceLocation: sourceLocation)
        return Int(value)
    }

    /// A field that must be a number.
    func double(_ key: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Double {
        let number = try #require(
            object[key] as? NSNumber, "\(key) missing or not a number in \(text)",
            sourceLocation: sourceLocation)
        return number.doubleValue
    }

    /// `frame_ms.p50`, `.p99` and `.max`.
    func frameMS(sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (p50: Double, p99: Double, max: Double)
    {
        try milliseconds("frame_ms", sourceLocation: sourceLocation)
    }

    /// `draw_cpu_ms.p50`, `.p99` and `.max`.
    func drawCPU(sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (p50: Double, p99: Double, max: Double)
    {
        try milliseconds("draw_cpu_ms", sourceLocation: sourceLocation)
    }

    /// The `p50`, `p99` and `max` of the object `name` (milliseconds).
    func milliseconds(_ name: String, sourceLocation: SourceLocation) throws
        -> (p50: Double, p99: Double, max: Double)
    {
        let times = try #require(
            object[name] as? [String: Any], "\(name) missing in \(text)",
            sourceLocation: sourceLocation)
        func field(_ key: String) throws -> Double {
            try #require(
                times[key] as? NSNumber, "\(name).\(key) missing in \(text)",
                sourceLocation: sourceLocation
            ).doubleValue
        }
        return (try field("p50"), try field("p99"), try field("max"))
    }

    var presented: Int { get throws { try int("frames_presented") } }
    var dropped: Int { get throws { try int("frames_dropped") } }
    /// Dropped slots in which nothing changed (the picture stayed right).
    var unchanged: Int { get throws { try int("frames_unchanged") } }
    var late: Int { get throws { try int("frames_late") } }
    var fpsTarget: Int { get throws { try int("fps_target") } }
    var fpsAchieved: Double { get throws { try double("fps_achieved") } }
    var duration: Double { get throws { try double("duration_s") } }
}

/// The repository's root directory (where `boards/` is).
let repositoryRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
