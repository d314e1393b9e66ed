import FBDisplay
import FBLinux
import Glibc

/// Whether the splash may draw on its display now, apart from what it was
/// asked on a channel (`deactivate`, `hide`), and how it gets the display
/// back (boot.md, Hand-over and console):
///
/// - its VT switched away (`chvt`, a display manager on another VT): with
///   the VT in `VT_PROCESS` the splash is asked first, lets the display go
///   (DRM master dropped) and answers; when the VT comes back it takes the
///   display back and draws a whole frame;
/// - another program became DRM master without a `deactivate` (a present
///   was refused): the display is kept open, nothing is drawn, and master
///   is asked for again once a second until the other program lets go.
///
/// No waiting here: the session waits on its event loop until `nextTry`.
struct ScreenClaim {
    enum State: Equatable {
        /// The splash draws.
        case drawing
        /// Its VT is not on screen: nothing is drawn, nothing is taken.
        case away
        /// Its VT is on screen but another program holds the display.
        case waitingForDisplay
    }

    private(set) var state = State.drawing
    /// When `retry` may ask for the display again.
    private(set) var nextTry: UInt64 = 0
    /// Failed tries since the display was lost (for the log).
    private(set) var failedTries = 0
    /// One try a second: a display held for minutes costs a few system
    /// calls a second, never a busy loop.
    static let retryInterval: UInt64 = 1_000_000_000

    var mayDraw: Bool { state == .drawing }

    /// A switch away from the splash's VT was asked for: let the display go
    /// (the caller answers the kernel after this).
    mutating func leave(_ display: HandOverDisplay?) {
        display?.deactivate()
        state = .away
    }

    /// The splash's VT is on screen again. The display is to be taken back
    /// (`retry`, due at once) unless it was handed over on a channel
    /// (`handedOver`: `reactivate` takes it then) or there is none open.
    mutating func returned(hasDisplay: Bool, handedOver: Bool, now: UInt64) {
        failedTries = 0
        if hasDisplay && !handedOver {
            state = .waitingForDisplay
            nextTry = now
        } else {
            state = .drawing
        }
    }

    /// A present was refused for want of DRM master: another program holds
    /// the display. It is given up (so `reactivate` asks the kernel again)
    /// and asked for from the next second on.
    mutating func denied(_ display: HandOverDisplay, now: UInt64) {
        display.deactivate()
        if state == .drawing { failedTries = 0 }
        state = .waitingForDisplay
        nextTry = now + ScreenClaim.retryInterval
    }

    /// Asks for the display when a try is due.
    /// - Returns: `true` when it was taken back (the whole picture must be
    ///   drawn again), `false` when it is still held by another program,
    ///   `nil` when no try was due.
    mutating func retry(_ display: HandOverDisplay?, now: UInt64) -> Bool? {
        guard state == .waitingForDisplay, now >= nextTry else { return nil }
        guard let display else {
            state = .drawing
            return true
        }
        do {
            try display.reactivate()
        } catch {
            failedTries += 1
            nextTry = now + ScreenClaim.retryInterval
            return false
        }
        display.invalidateScreen()
        state = .drawing
        return true
    }

    /// The display was closed (it went away, or the splash moved): nothing
    /// to take back; an `away` VT stays away.
    mutating func displayClosed() {
        if state == .waitingForDisplay { state = .drawing }
    }
}

extension SplashSession {
    /// Whether a present failed for want of DRM master (`EACCES`; `EPERM`
    /// on some drivers), not because the device broke.
    func isDenied(_ error: SystemError) -> Bool {
        error.errno == EACCES || error.errno == EPERM
    }

    /// Answers the kernel about a VT switch (`VT_PROCESS`, `Console`): on
    /// a leave request the display is let go first, then the switch allowed;
    /// on the return it is acknowledged and the display taken back.
    func handleVTSwitch() {
        let signalled = SignalFlags.takeVTSwitch() || vtSwitchPending
        vtSwitchPending = false
        guard signalled, let console, console.ownsSwitching else { return }
        if claim.state == .away {
            // A stray SIGUSR2 while another VT is shown: not a return.
            guard console.isShown != false else { return }
            console.acknowledgeReturn()
            claim.returned(
                hasDisplay: display != nil, handedOver: deactivated || hidden,
                now: monotonicNanoseconds())
            log("back on the splash's VT")
            redrawWhole = true
        } else {
            claim.leave(display)
            if console.allowLeave() {
                log("the VT is switched away: display released until it comes back")
            } else {
                // No switch was waiting (a stray SIGUSR2): the VT is still
                // on screen; take the display back.
                claim.returned(
                    hasDisplay: display != nil, handedOver: deactivated || hidden,
                    now: monotonicNanoseconds())
            }
        }
    }

    /// While the splash may not draw: takes the display back when due, else
    /// waits (signals, channels) until the next try.
    /// - Returns: `true` to go round the main loop again.
    func waitForScreen() -> Bool {
        let now = monotonicNanoseconds()
        if let display, display.isGone {
            log("\(display.description.name) went away; waiting for a display")
            closeDisplay(restoringConsole: false)
        }
        if claim.state == .waitingForDisplay, display == nil { claim.displayClosed() }
        switch claim.retry(display, now: now) {
        case true?:
            redrawWhole = true
            log.reset("master")
            log("took \(display?.description.name ?? "the display") back")
            return false
        case false?:
            log.once(
                "master-wait",
                "another program holds \(display?.description.name ?? "the display"); "
                    + "asking again once a second")
        case nil: break
        }
        let next = claim.state == .away ? now + 1_000_000_000 : max(claim.nextTry, now + 1_000_000)
        loop.wait(until: next)
        return true
    }
}
