import Foundation
import Glibc
import Testing

/// A splash started from the built binary, with its FIFO, Plymouth socket
/// name and state folder of its own (so splash tests run side by side).
final class SplashHarness {
    let dir: OutputDirectory
    let socket: String
    var environment: [String: String]
    private(set) var child: ChildProcess?

    /// The FIFO's path.
    var fifo: String { dir.file("psplash_fifo") }

    /// - Parameter realSocket: use Plymouth's own socket name (for the real
    ///   `plymouth` client, which knows no other).
    init(realSocket: Bool = false) throws {
        dir = try OutputDirectory()
        socket =
            realSocket
            ? "/org/freedesktop/plymouthd" : "/fbanim-test/\(getpid())/\(UUID().uuidString)"
        environment = [
            "PSPLASH_FIFO_DIR": dir.path, "FBANIM_STATE_DIR": dir.file("state"),
            "NOTIFY_SOCKET": "",
        ]
        if !realSocket { environment["FBANIM_PLYMOUTH_SOCKET"] = socket }
    }

    deinit {
        if let child, child.isRunning { child.send(SIGKILL) }
        dir.remove()
    }

    /// Starts `fbanim splash arguments...` (no configuration file) and waits
    /// until its FIFO exists (its channels are open).
    func start(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> ChildProcess
    {
        let child = try ChildProcess(
            Fbanim.binaryPath, ["splash", "--config", dir.file("none.conf")] + arguments,
            environment: environment)
        self.child = child
        let up = child.waitUntil(timeout: 10) {
            FileManager.default.fileExists(atPath: fifo) || !child.isRunning
        }
        try #require(
            up && child.isRunning, "the splash did not open its FIFO: \(child.stderr)",
            sourceLocation: sourceLocation)
        return child
    }

    /// Runs `fbanim ctl arguments...` against this splash.
    func ctl(_ arguments: [String], asUser uid: Int? = nil) throws -> (Termination, String) {
        var command = [Fbanim.binaryPath, "ctl"] + arguments
        if let uid {
            command =
                ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] + command
        }
        let process = try ChildProcess(
            command[0], Array(command.dropFirst()), environment: environment)
        let end = process.wait(timeout: 20)
        return (end, process.stderr)
    }

    /// Writes `bytes` to the FIFO as `echo` does: open, write, close.
    func write(_ bytes: [UInt8]) throws {
        let fd = open(fifo, O_WRONLY | O_NONBLOCK)
        try #require(fd >= 0, "cannot open the FIFO: \(String(cString: strerror(errno)))")
        defer { close(fd) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EAGAIN {
                usleep(1000)
                continue
            }
            try #require(n > 0, "write: \(String(cString: strerror(errno)))")
            sent += n
        }
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// A raw connection to the splash's Plymouth socket.
    func connect() throws -> Int32 {
        let fd = socket_(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name = [0] + Array(socket.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in name.enumerated() { raw[i] = b }
        }
        let length = socklen_t(
            MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + name.count)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        try #require(rc == 0, "connect: \(String(cString: strerror(errno)))")
        return fd
    }
}

/// `socket(2)` (the name `socket` is a property of the harness).
func socket_(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
    socket(domain, type, proto)
}

/// Sends `bytes` on `fd` and reads `count` answer bytes (5 s at most).
func exchange(_ fd: Int32, _ bytes: [UInt8], answers count: Int) -> [UInt8] {
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var answers: [UInt8] = []
    let deadline = Date().addingTimeInterval(5)
    while answers.count < count && Date() < deadline {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 100) == 1 else { continue }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { break }
        answers += buffer.prefix(n)
    }
    return answers
}
