import FBDisplay
import FBLinux
import FBRaster
import FBScheduler
import Glibc
import Testing

@testable import FBAnimCLI

/// The splash's claim on its display when the VT is switched away and
/// back (VT_PROCESS) and when another program takes DRM master without a
/// `deactivate` (`ScreenClaim`), on a display that records what it is told
/// and refuses `reactivate()` while "another program" holds it.
@Suite struct SplashClaimTests {
    /// A display whose master another program may hold.
    final class ContestedDisplay: HandOverDisplay {
        let description = DisplayDescription(
            name: "contested", width: 8, height: 8, format: .xrgb8888, refreshHz: 60)
        let clock: FrameClock? = nil
        /// Another program is master: `reactivate()` fails with EBUSY.
        var heldElsewhere = false
        /// What the splash did, in order.
        var calls: [String] = []

        func backBuffer() throws -> BackBuffer {
            throw SystemError(errno: ENOSYS, call: "backBuffer")
        }
        func present(damage: [IntRect]) throws {}
        func close() { calls.append("close") }
        func deactivate() { calls.append("deactivate") }
        func reactivate() throws {
            calls.append("reactivate")
            if heldElsewhere { throw SystemError(errno: EBUSY, call: "drmSetMaster") }
        }
        func closeRetainingPicture() -> Bool { false }
        var isShowingPicture: Bool { false }
        func releaseRetained() {}
        func invalidateScreen() { calls.append("invalidate") }
    }

    static let second: UInt64 = 1_000_000_000

    /// Leave: the display is let go before the kernel is answered; nothing
    /// is asked for while away, however often the session looks.
    @Test func leavingReleasesTheDisplayAndTakesNothingWhileAway() {
        let display = ContestedDisplay()
        var claim = ScreenClaim()
        #expect(claim.mayDraw)
        claim.leave(display)
        #expect(claim.state == .away)
        #expect(!claim.mayDraw)
        #expect(display.calls == ["deactivate"])
        for k in 0..<5 { #expect(claim.retry(display, now: UInt64(k) * Self.second) == nil) }
        #expect(display.calls == ["deactivate"])
    }

    /// Return with the display free: taken back at once, the whole picture
    /// to be drawn again.
    @Test func returningTakesTheDisplayBackAndRedraws() {
        let display = ContestedDisplay()
        var claim = ScreenClaim()
        claim.leave(display)
        claim.returned(hasDisplay: true, handedOver: false, now: 5 * Self.second)
        #expect(!claim.mayDraw)
        #expect(claim.retry(display, now: 5 * Self.second) == true)
        #expect(claim.mayDraw)
        #expect(display.calls == ["deactivate", "reactivate", "invalidate"])
    }

    /// Return while another program still holds the display: one try a
    /// second, none in between, until it lets go.
    @Test func returningToAHeldDisplayTriesOnceASecond() {
        let display = ContestedDisplay()
        var claim = ScreenClaim()
        claim.leave(display)
        display.heldElsewhere = true
        let start = 10 * Self.second
        claim.returned(hasDisplay: true, handedOver: false, now: start)
        #expect(claim.retry(display, now: start) == false)
        // 100 looks within the next second (a woken loop): no try.
        for k in 1..<100 {
            #expect(claim.retry(display, now: start + UInt64(k) * 10_000_000) == nil)
        }
        #expect(claim.nextTry == start + Self.second)
        #expect(claim.retry(display, now: start + Self.second) == false)
        #expect(claim.failedTries == 2)
        display.heldElsewhere = false
        #expect(claim.retry(display, now: start + 2 * Self.second) == true)
        #expect(claim.mayDraw)
        #expect(
            display.calls == ["deactivate", "reactivate", "reactivate", "reactivate", "invalidate"])
    }

    /// A present refused for want of master: the display is given up (so
    /// the next reactivate asks the kernel) and asked for a second later.
    @Test func aRefusedPresentWaitsThenTakesTheDisplayBack() {
        let display = ContestedDisplay()
        var claim = ScreenClaim()
        display.heldElsewhere = true
        claim.denied(display, now: 0)
        #expect(claim.state == .waitingForDisplay)
        #expect(display.calls == ["deactivate"])
        #expect(claim.retry(display, now: Self.second / 2) == nil)
        #expect(claim.retry(display, now: Self.second) == false)
        display.heldElsewhere = false
        #expect(claim.retry(display, now: 2 * Self.second) == true)
        #expect(display.calls == ["deactivate", "reactivate", "reactivate", "invalidate"])
    }

    /// A display handed over on a channel (`deactivate`) is not taken back
    /// by a VT return: `reactivate` does that.
    @Test func aHandedOverDisplayIsNotTakenBackOnReturn() {
        let display = ContestedDisplay()
        var claim = ScreenClaim()
        claim.leave(display)
        claim.returned(hasDisplay: true, handedOver: true, now: 0)
        #expect(claim.state == .drawing)
        #expect(claim.retry(display, now: Self.second) == nil)
        #expect(display.calls == ["deactivate"])
    }

    /// The display went away while waiting for it: nothing to take back;
    /// while away, the VT stays away.
    @Test func aClosedDisplayEndsTheWaitButNotTheAbsence() {
        var claim = ScreenClaim()
        let display = ContestedDisplay()
        claim.denied(display, now: 0)
        claim.displayClosed()
        #expect(claim.mayDraw)
        claim.leave(nil)
        claim.displayClosed()
        #expect(claim.state == .away)
        claim.returned(hasDisplay: false, handedOver: false, now: 0)
        #expect(claim.mayDraw)
    }
}
