import Foundation
import Glibc
import Testing

/// What one run of the built `fbanim` did.
struct RunResult {
    var status: Int32
    /// The process died of a signal (a trap) instead of exiting.
    var crashed: Bool
    var stdout: String
    var stderr: String

    var stderrLines: [String] {
        stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .dropLastEmpty()
    }
}

extension Array where Element == String {
    fileprivate func dropLastEmpty() -> [String] { last == "" ? Array(dropLast()) : self }
}

/// Runs the `fbanim` binary that `swift build` / `swift test` put next to the test runner.
enum Fbanim {
    /// `$FBANIM_BINARY` when set, else `fbanim` in the directory of the running
    /// test executable (SwiftPM's products directory, which `swift test` builds in full).
    static let binaryPath: String = {
        if let path = ProcessInfo.processInfo.environment["FBANIM_BINARY"] { return path }
        let runner =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: runner).deletingLastPathComponent()
            .appendingPathComponent("fbanim").path
    }()

    /// Whether the binary has no program interpreter (ELF64: no PT_INTERP
    /// among its program headers), that is, no dynamic loader.
    static var isStatic: Bool {
        // The headers are at the start: read 4 KiB, not the whole binary.
        // Missing or short: say static, and let the tests say what is wrong.
        guard let file = FileHandle(forReadingAtPath: binaryPath) else { return true }
        defer { try? file.close() }
        let bytes = [UInt8](file.readData(ofLength: 4096))
        guard bytes.count > 64 else { return true }
        func integer(_ at: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        let (offset, size, count) = (integer(32, 8), integer(54, 2), integer(56, 2))
        guard offset + size * count <= bytes.count else { return true }
        return !(0..<count).contains { integer(offset + $0 * size, 4) == 3 }
    }

    /// Longest a run may take before it is killed and the test fails.
    static let timeoutSeconds = 60

    /// Runs `fbanim arguments...`, waits, and collects its status and output.
    ///
    /// A run that outlives `timeoutSeconds` is killed with SIGKILL (SIGTERM
    /// may be blocked in a child of a test thread), so no test can hang.
    ///
    /// `redirect`: shell redirections applied to the binary's standard
    /// streams (`">&-"` closes standard output), through `/bin/sh -c exec`.
    /// `wrapper`: a program (an absolute path) and its arguments that run
    /// the binary, such as `strace`; not with `redirect`.
    static func run(
        _ arguments: [String], redirect: String? = nil, wrapper: [String] = []
    ) throws -> RunResult {
        try #require(
            FileManager.default.isExecutableFile(atPath: binaryPath),
            """
            the fbanim binary is missing at \(binaryPath): build it with 'swift build' \
            (swift test builds it too), or set FBANIM_BINARY
            """)
        let process = Process()
        if let redirect {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" \"$@\" \(redirect)", binaryPath] + arguments
        } else if let program = wrapper.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = wrapper.dropFirst() + [binaryPath] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binaryPath)
            process.arguments = arguments
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem {
            Issue.record("fbanim \(arguments) ran over \(timeoutSeconds) s: killed")
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .seconds(timeoutSeconds), execute: watchdog)
        defer { watchdog.cancel() }
        // Outputs are a few kilobytes: far below a pipe's buffer, so reading
        // one pipe after the other cannot dead-lock.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus,
            crashed: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// A fresh directory for one test's output files.
struct OutputDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "fbanim-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Names in the directory, hidden ones (temporary files) included.
    var entries: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? []
    }

    func file(_ name: String) -> String { path + "/" + name }

    func read(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: file(name)).map { [UInt8]($0) }
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
