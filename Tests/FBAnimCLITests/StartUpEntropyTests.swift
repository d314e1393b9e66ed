import Foundation
import Testing

/// fbanim early in a boot, before the kernel's random pool is ready: the
/// Swift runtime would wait for the pool to seed its hashing (a second or
/// more on a board without a hardware generator, 1.0 s in the VM of
/// Tests/VM); CFBLinux's `entropy.c` has it take a fixed seed instead.
/// `strace` makes every `getrandom` fail with EAGAIN, as a non-blocking
/// read does while the pool is not ready.
///
/// Only a static binary can do this (`entropy.c` says why), and fbanim is
/// one; the AddressSanitizer build (`Scripts/sanitize.sh`) links it
/// dynamically, and there the suite does not run.
@Suite(.enabled(if: Fbanim.isStatic, "fbanim is linked dynamically"))
struct StartUpEntropyTests {
    static let strace = "/usr/bin/strace"

    /// Plays a few frames with the pool "not ready"; returns the run and
    /// the `getrandom` calls it made, one line each.
    func playWithoutPool(_ arguments: [String]) throws -> (RunResult, [String]) {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.strace),
            "strace is missing (Scripts/setup.sh installs it)")
        let trace = FileManager.default.temporaryDirectory
            .appendingPathComponent("fbanim-getrandom-\(getpid())-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: trace) }
        // Start-up is one thread: no -f, so no call is split across lines.
        let result = try Fbanim.run(
            arguments,
            wrapper: [
                Self.strace, "-o", trace, "-e", "trace=getrandom",
                "-e", "inject=getrandom:error=EAGAIN",
            ])
        let log = try #require(
            try? String(contentsOfFile: trace, encoding: .utf8),
            "strace wrote no trace (can it trace here?): \(result)")
        let calls = log.split(separator: "\n").map(String.init).filter { $0.contains("getrandom(") }
        return (result, calls)
    }

    @Test func noRandomReadThatWaitsForThePool() throws {
        let (result, calls) = try playWithoutPool([
            "--device", "sim:64x48?clock=virtual", "--fps", "30", "--frames", "3",
            "--stats", "text", "spinner",
        ])
        #expect(result.status == 0 && !result.crashed, "\(result)")
        // Something asked (glibc and the start-up check do, without waiting) ...
        #expect(!calls.isEmpty, "strace saw no getrandom: the check cannot have run")
        // ... and nothing asked in a way that waits: a flags argument of 0
        // is the runtime's blocking read.
        for call in calls {
            #expect(call.contains("GRND_NONBLOCK"), "a read that waits for the pool: \(call)")
        }
    }

    /// Telling the runtime to take a fixed seed moves the environment, where
    /// the runtime finds the command line: the arguments must still arrive.
    @Test func theCommandLineStillArrives() throws {
        let (result, _) = try playWithoutPool([
            "--device", "sim:64x48?clock=virtual", "--fps", "30", "--frames", "3",
            "--stats", "text", "spinner",
        ])
        #expect(result.status == 0 && !result.crashed, "\(result)")
        #expect(result.stderr.contains("spinner on sim:64x48"), "\(result)")
        // And a bad one still gets its usage error, not a different one.
        let (bad, _) = try playWithoutPool(["--fps", "0", "ring"])
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderr.contains("--fps"), "\(bad)")
    }
}
