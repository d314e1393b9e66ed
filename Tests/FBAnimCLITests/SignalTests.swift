import Foundation
import Glibc
import Testing

/// Signals ending (and querying) a run on the real clock, with no limit of
/// frames or time: a boot splash.
@Suite struct SignalTests {
    static let arguments = ["--device", "sim:320x240", "--stats", "json", "radar"]

    /// Starts a run, lets it play `seconds` after its handlers are in place,
    /// and sends `signal`.
    /// - Returns: the stats, and the times (seconds after the handlers were
    ///   seen) at which the signal was sent and the child had ended.
    func stop(
        with signal: Int32, after seconds: Double = 0.5, blockedSignals: [Int32] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (stats: PlayStats, sent: Double, ended: Double) {
        let child = try Fbanim.start(Self.arguments, blockedSignals: blockedSignals)
        try #require(
            child.waitUntilCatching(SIGTERM),
            "fbanim never installed its handlers: \(child.stderr)",
            sourceLocation: sourceLocation)
        let ready = Date()
        usleep(UInt32(seconds * 1e6))
        #expect(
            child.isRunning, "it stopped on its own: \(child.stderr)",
            sourceLocation: sourceLocation)
        let sent = Date().timeIntervalSince(ready)
        child.send(signal)
        let end = child.wait(timeout: 5, sourceLocation: sourceLocation)
        let ended = Date().timeIntervalSince(ready)
        #expect(
            end.exitedCleanly, "\(end); stderr: \(child.stderr)", sourceLocation: sourceLocation)
        #expect(child.stderr.isEmpty, "stderr: \(child.stderr)", sourceLocation: sourceLocation)
        // It stops within a frame or two, not at some later timeout.
        #expect(ended - sent < 1, "took \(ended - sent) s to stop", sourceLocation: sourceLocation)
        return (try PlayStats(stdout: child.stdout, sourceLocation: sourceLocation), sent, ended)
    }

    /// The books account for the slots that elapsed until the signal.
    func checkBooks(
        _ run: (stats: PlayStats, sent: Double, ended: Double),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let stats = run.stats
        let slots = try stats.presented + stats.dropped
        #expect(try stats.presented > 0, "\(stats)", sourceLocation: sourceLocation)
        #expect(try stats.fpsTarget == 30, sourceLocation: sourceLocation)
        // The books are whole slots of 1/30 s.
        #expect(
            abs(Double(slots) - (try stats.duration) * 30) <= 1, "\(stats)",
            sourceLocation: sourceLocation)
        // The run began after the handlers were seen (give startup 3 slots)
        // and stopped between the signal and the exit.
        let earliest = Int((run.sent * 30).rounded(.down)) - 3
        let latest = Int((run.ended * 30).rounded(.up)) + 2
        #expect(
            (earliest...latest).contains(slots),
            "\(slots) slots, expected \(earliest)...\(latest) (signal at \(run.sent) s, exit at \(run.ended) s): \(stats)",
            sourceLocation: sourceLocation)
        let t = try stats.frameMS()
        #expect(t.max > 0 && t.p50 <= t.max, "\(stats)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func stopSignalEndsTheRunWithItsBooks(_ signal: Int32) throws {
        try checkBooks(try stop(with: signal))
    }

    /// A parent that leaves the stop signals blocked (a test runner's thread)
    /// must not make fbanim deaf to them: it unblocks them itself.
    @Test func inheritedBlockedSignalsAreUnblocked() throws {
        let run = try stop(
            with: SIGTERM, after: 0.3, blockedSignals: [SIGTERM, SIGINT, SIGHUP, SIGUSR1])
        #expect(try run.stats.presented > 0)
    }

    /// SIGUSR1 prints the books so far on stderr (as dd does) and the run goes on.
    @Test func usr1PrintsTheBooksAndTheRunGoesOn() throws {
        let child = try Fbanim.start(Self.arguments)
        try #require(child.waitUntilCatching(SIGUSR1), "no handler for SIGUSR1: \(child.stderr)")
        usleep(400_000)
        child.send(SIGUSR1)
        #expect(
            child.waitUntil(timeout: 3) { child.stderrLines.count == 1 }, "no line: \(child.stderr)"
        )
        #expect(child.isRunning, "SIGUSR1 ended the run: \(child.stderr)")
        usleep(300_000)
        child.send(SIGUSR1)
        #expect(
            child.waitUntil(timeout: 3) { child.stderrLines.count == 2 },
            "no second line: \(child.stderr)")
        #expect(child.isRunning)
        #expect(child.stdout.isEmpty, "the JSON comes only at exit: \(child.stdout)")
        usleep(200_000)
        child.send(SIGTERM)
        let end = child.wait(timeout: 5)
        #expect(end.exitedCleanly, "\(end)")

        let lines = child.stderrLines
        #expect(lines.count == 2, "\(child.stderr)")
        var counts: [Int] = []
        for line in lines {
            // fbanim: radar on sim:320x240:xrgb8888: N frames presented, M dropped, L late in S s (F of 30 fps); ...
            #expect(line.hasPrefix("fbanim: radar on sim:320x240:xrgb8888: "), "\(line)")
            let numbers = try #require(
                line.firstMatch(
                    of:
                        /: (\d+) frames presented, (\d+) dropped, (\d+) late in ([0-9.]+) s \(([0-9.]+) of 30 fps\)/
                ),
                "\(line)")
            let presented = try #require(Int(numbers.1))
            let dropped = try #require(Int(numbers.2))
            let seconds = try #require(Double(numbers.4))
            let fps = try #require(Double(numbers.5))
            #expect(presented > 0, "\(line)")
            // The books so far, with the time they cover: not "in 0 s (0 of 30 fps)".
            #expect(abs(seconds * 30 - Double(presented + dropped)) <= 1, "\(line)")
            #expect(fps > 0 && fps <= 30.5, "\(line)")
            #expect(line.contains("p50") && line.contains("max"), "\(line)")
            counts.append(presented)
        }
        let stats = try PlayStats(stdout: child.stdout)
        if counts.count == 2 {
            #expect(counts[0] < counts[1], "\(lines)")
            #expect(counts[1] < (try stats.presented), "the run went on after SIGUSR1: \(stats)")
        }
    }

    /// "Finishes the frame in flight": a stop during a slow panel's transfer
    /// (1.2 s here) waits for it, then exits 0 with that frame in the books.
    @Test func stopDuringASlowPresentFinishesIt() throws {
        let child = try Fbanim.start(
            ["--device", "sim:64x64?present_ms=1200", "--stats", "json", "radar"])
        try #require(child.waitUntilCatching(SIGTERM))
        usleep(300_000)
        let sent = Date()
        child.send(SIGTERM)
        let end = child.wait(timeout: 5)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
        #expect(Date().timeIntervalSince(sent) >= 0.5, "the transfer was cut short")
        let stats = try PlayStats(stdout: child.stdout)
        #expect(try stats.presented >= 1, "\(stats)")
        #expect(try stats.frameMS().max >= 1200, "\(stats)")
    }

    /// Stopped without `--stats`: exit 0 and nothing printed.
    @Test func stopWithoutStatsPrintsNothing() throws {
        let child = try Fbanim.start(["--device", "sim:160x120", "spinner"])
        try #require(child.waitUntilCatching(SIGTERM))
        usleep(200_000)
        child.send(SIGINT)
        let end = child.wait(timeout: 5)
        #expect(end.exitedCleanly, "\(end)")
        #expect(child.stdout.isEmpty && child.stderr.isEmpty, "\(child.stdout)\(child.stderr)")
    }

    /// `--stats text` at a stop signal: the line goes to stderr.
    @Test func stopWithTextStats() throws {
        let child = try Fbanim.start(["--device", "sim:160x120", "--stats", "text", "ring"])
        try #require(child.waitUntilCatching(SIGTERM))
        usleep(300_000)
        child.send(SIGTERM)
        let end = child.wait(timeout: 5)
        #expect(end.exitedCleanly, "\(end)")
        #expect(child.stdout.isEmpty)
        #expect(child.stderrLines.count == 1, "\(child.stderr)")
        #expect(child.stderr.hasPrefix("fbanim: ring on sim:160x120:xrgb8888: "), "\(child.stderr)")
    }

    /// A slow panel on the real clock: presents of 50 ms at 30 fps drop
    /// about every other slot, and the books still account for every slot.
    @Test func slowPanelOnTheRealClock() throws {
        let child = try Fbanim.start([
            "--device", "sim:160x120?present_ms=50", "--stats", "json", "radar",
        ])
        try #require(child.waitUntilCatching(SIGTERM))
        let ready = Date()
        usleep(600_000)
        let sent = Date().timeIntervalSince(ready)
        child.send(SIGTERM)
        let end = child.wait(timeout: 5)
        let ended = Date().timeIntervalSince(ready)
        #expect(end.exitedCleanly, "\(end)")
        let stats = try PlayStats(stdout: child.stdout)
        try checkBooks((stats, sent, ended))
        let presented = try stats.presented
        let dropped = try stats.dropped
        #expect(dropped >= presented - 2, "50 ms presents cannot fill 33 ms slots: \(stats)")
        #expect(try stats.frameMS().max >= 50, "\(stats)")
    }
}
