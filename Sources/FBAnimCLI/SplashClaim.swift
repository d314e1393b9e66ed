import FBDisplay

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
