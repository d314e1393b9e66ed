import FBLinux
import FBScheduler
import Glibc

/// The splash's log: one line each on standard error (the journal, under
/// systemd), never blocking the frame loop and never flooding it. A burst
/// of garbage on a control channel gives a few lines and a count, not
/// thousands of lines.
final class SplashLog {
    /// Lines allowed at once, and how many come back a second.
    private let burst = 20.0
    private let perSecond = 2.0
    private var tokens = 20.0
    private var last = monotonicNanoseconds()
    private var dropped = 0
    /// Lines written (tests and the soak count them).
    private(set) var written = 0
    private var once = Set<String>()

    /// Writes `line` (a `fbanim: ` prefix is added) unless too many came
    /// lately; then the line is not even made.
    func callAsFunction(_ line: @autoclosure () -> String) {
        let now = monotonicNanoseconds()
        tokens = min(burst, tokens + Double(now - last) / 1e9 * perSecond)
        last = now
        guard tokens >= 1 else {
            dropped += 1
            return
        }
        tokens -= 1
        var text = "fbanim: \(line())\n"
        if dropped > 0 {
            text = "fbanim: (\(dropped) more lines not shown)\n" + text
            dropped = 0
        }
        if StandardStream.error.writeWithoutBlocking(text) { written += 1 }
    }

    /// Writes `line` only the first time this `key` is logged.
    func once(_ key: String, _ line: @autoclosure () -> String) {
        guard once.insert(key).inserted else { return }
        self(line())
    }

    /// Forgets that `key` was logged (the condition ended; say it again if it comes back).
    func reset(_ key: String) { once.remove(key) }
}

/// The splash's clock: `CLOCK_MONOTONIC`, whose waits are the event loop's
/// waits, so control channels are served while frames wait for their slot.
/// A wait ends early when something changed the picture
/// (`EventLoop.interrupt()`) or a signal came. About twice a second it runs
/// `tick` (the console and device checks), which may end the wait too.
///
/// Frames do not always wait (a display whose flips or transfers set the
/// pace, frames that are late): the session also calls `serveNow()` between
/// frames, so the channels and the checks never go unserved.
final class SplashClock: FrameClock {
    let loop: EventLoop
    /// Called about twice a second; `true` ends the wait.
    var tick: () -> Bool = { false }
    private var lastTick: UInt64 = 0
    /// How often `tick` runs: twice a second, so a console switched to text
    /// behind the splash is taken back and redrawn within a second
    /// (boot.md), the redraw included.
    static let tickInterval: UInt64 = 500_000_000

    init(loop: EventLoop) { self.loop = loop }

    func now() -> UInt64 { monotonicNanoseconds() }

    func sleep(until deadline: UInt64) {
        while monotonicNanoseconds() < deadline {
            let next = min(deadline, lastTick + SplashClock.tickInterval)
            if loop.wait(until: next) { return }
            if runTick() { return }
        }
    }

    /// Serves what is ready on the channels and runs `tick` if it is due,
    /// without waiting.
    /// - Returns: whether something asked for the main loop's attention.
    @discardableResult
    func serveNow() -> Bool {
        let interrupted = loop.drain()
        return runTick() || interrupted
    }

    /// Runs `tick` when `tickInterval` has passed since the last time.
    private func runTick() -> Bool {
        let now = monotonicNanoseconds()
        guard now >= lastTick + SplashClock.tickInterval else { return false }
        lastTick = now
        return tick()
    }
}
