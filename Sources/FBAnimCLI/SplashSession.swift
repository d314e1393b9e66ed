import FBAnim
import FBAnimation
import FBBoot
import FBDisplay
import FBLinux
import FBScheduler
import FBText
import Glibc

/// A running boot splash: one display at a time (waited for, moved from
/// when it goes or a better one comes), the control channels, the boot's
/// progress and message, and the hand-over. One thread: the scheduler's
/// waits are the event loop's waits (`SplashClock`).
final class SplashSession {
    let request: SplashRequest
    let log: SplashLog
    let loop: EventLoop
    let clock: SplashClock
    var channels: SplashChannels!

    // What the boot told the splash.
    var progress: BootProgress
    var eased = EasedValue.ringProgress()
    var message: String?
    var messageChanged = true
    let typesetter: MessageTypesetter

    // What it was asked to do and has not done yet.
    struct Quit {
        var retain: Bool
        var clients: [PlymouthServer.ClientID]
        /// Give up on the fill after this (a display that stopped presenting).
        var deadline: UInt64
    }
    var quit: Quit?
    var deactivateClients: [PlymouthServer.ClientID] = []
    var wantDeactivate = false
    var wantReactivate = false
    var wantHide = false
    var wantShow = false
    var deactivated = false
    var hidden = false
    /// The VT switched away, or DRM master taken by another program (`ScreenClaim`).
    var claim = ScreenClaim()
    /// `SignalFlags.vtSwitchSignal` came while frames played: handled by the main loop.
    var vtSwitchPending = false
    /// The display answered ENODEV between frames: closed by the main loop.
    var displayGone = false
    /// The root moved once already (`newroot`).
    var changedRoot = false

    // The display.
    var display: HandOverDisplay?
    var console: Console?
    var player: LoaderPlayer?
    var onFallback = false
    /// Showing on fbdev with no device named while a DRM card is there.
    var onFramebufferFallback = false
    /// When to look for the named display again while on the fallback.
    var nextLookForNamed: UInt64 = 0
    var switchRequested = false
    var redrawWhole = false
    /// Animation time carried from one display to the next.
    var animationTime = 0.0
    var lastFrameTime = 0.0
    /// A frame has been drawn since the quit, with the ring moving to full.
    var fillStarted = false
    var readySent = false
    let bootStart: Double
    let started = monotonicNanoseconds()
    /// The books of every stretch played so far (a hand-over or a move
    /// ends one), added up: `--stats` at exit covers the whole run.
    var books: Books?

    init(_ request: SplashRequest, log: SplashLog) throws(CLIError) {
        self.request = request
        self.log = log
        do throws(SystemError) {
            loop = try EventLoop()
        } catch {
            throw .ioError("cannot make the event loop: \(error)")
        }
        clock = SplashClock(loop: loop)
        progress = BootProgress(history: nil)
        bootStart = BootEnvironment.secondsSinceBoot()
        do throws(CLIError) {
            typesetter = try MessageTypesetter(request.play.text, scale: request.play.style.scale)
        } catch {
            // A splash never stops for its font: the built-in one shows the text.
            log(error.message.dropLast().replacingErrorPrefix + "; using the built-in font")
            typesetter = MessageTypesetter(
                font: Font.builtIn(), scale: request.play.style.scale,
                color: request.play.text.color)
        }
        message = request.play.text.message
    }

    /// Whether the ring shows the boot's progress (other loaders ignore it).
    var showsProgress: Bool { request.play.loader == .ring }

    /// The seconds the boot's own progress is measured in: since the kernel
    /// started (boot: the whole boot counts, waits for a display and
    /// hand-overs included), else since the splash started (shutdown and
    /// reboot, against 20 s).
    var progressSeconds: Double {
        let sinceStart = Double(monotonicNanoseconds() - started) / 1e9
        return request.mode == .boot ? bootStart + sinceStart : sinceStart
    }

    /// The quit can end now: no fill to wait for (a retain, another loader,
    /// no display), or the ring is full on screen, or it took too long.
    var quitIsDue: Bool {
        guard let quit else { return false }
        if quit.retain || !showsProgress || display == nil || deactivated || hidden
            || !claim.mayDraw
        {
            return true
        }
        if fillStarted && lastFrameTime >= eased.settlesAt { return true }
        return monotonicNanoseconds() > quit.deadline
    }

    /// Whether the scheduler must stop to let the main loop act.
    var mustStopPlaying: Bool {
        if SignalFlags.takeVTSwitch() { vtSwitchPending = true }
        return SignalFlags.stopRequested || quitIsDue || wantDeactivate || wantHide
            || switchRequested || vtSwitchPending || !claim.mayDraw || displayGone
    }

    /// Runs until quit or a stop signal; returns the exit status.
    func run() -> Int32 {
        if request.mode.staysToTheEnd { BootEnvironment.spareAtShutdown() }
        if request.mode == .boot { progress.history = readHistory() }
        // An update's progress is the updater's alone.
        if request.mode == .update { progress.followsTime = false }
        channels = SplashChannels(session: self)
        guard channels.open() else {  // another splash runs
            endStart("Another splash is running")
            return ExitStatus.success
        }
        for problem in request.problems { log(problem) }
        clock.tick = { [unowned self] in tick() }
        let status = mainLoop()
        finish()
        if status == ExitStatus.success { endStart("Ended before a display appeared") }
        return status
    }

    /// A splash that ends well without having shown a frame (told to quit
    /// while it still waited for its display: a headless boot with `splash`)
    /// still ends its start for systemd: a Type=notify unit whose process
    /// exits before READY=1 is marked failed (result 'protocol').
    private func endStart(_ status: String) {
        guard !readySent else { return }
        readySent = true
        BootEnvironment.notifySystemd("READY=1\nSTATUS=\(status)")
    }

    private func mainLoop() -> Int32 {
        while true {
            handleVTSwitch()
            if SignalFlags.stopRequested || quitIsDue { return ExitStatus.success }
            if wantShow {
                wantShow = false
                hidden = false
            }
            // Hidden before any display came: do not take one.
            if wantHide && display == nil {
                wantHide = false
                hidden = true
            }
            if deactivated || hidden {
                if wantReactivate { reactivate() }
                // Taken back: draw at once, not after another second's wait.
                if deactivated || hidden {
                    loop.wait(until: monotonicNanoseconds() + 1_000_000_000)
                    continue
                }
            }
            wantReactivate = false
            if !claim.mayDraw {
                if waitForScreen() { continue }
            }
            if display == nil {
                if let status = openDisplay() { return status }
                if display == nil {
                    loop.wait(until: monotonicNanoseconds() + 250_000_000)
                    continue
                }
            }
            play()
            afterPlaying()
        }
    }

    /// Plays on the open display until something needs the main loop.
    private func play() {
        guard let display, let player else { return }
        let scheduler = FrameScheduler(fps: request.play.fps, clock: display.clock ?? clock)
        let limit = request.play.duration.map { UInt64(max(($0 - animationTime) * 1e9, 1)) }
        // --frames counts the slots of the whole run, not of each stretch.
        let slotsLeft = request.play.frames.map { $0 - (books?.slots ?? 0) }
        if let slotsLeft, slotsLeft <= 0 {
            if quit == nil { quit = Quit(retain: false, clients: [], deadline: 0) }
            return
        }
        var failed = false
        do {
            try scheduler.run(
                player, slots: slotsLeft, duration: limit,
                shouldStop: { [unowned self] in
                    // Between frames too: when flips or transfers set the
                    // pace the scheduler never sleeps on the event loop.
                    clock.serveNow()
                    if SignalFlags.takeStatsRequest() {
                        log(
                            Statistics.running(
                                books: scheduler.books, loader: request.play.loader.rawValue,
                                device: display.description.name
                            ).text.split(separator: "\n").joined(separator: "; "))
                    }
                    return mustStopPlaying
                })
        } catch let error as SystemError where display is DRMDisplay && isDenied(error) {
            // Another program became DRM master behind the splash's back.
            log.once(
                "master",
                "another program took \(display.description.name) (\(error)); waiting to take it back"
            )
            claim.denied(display, now: monotonicNanoseconds())
            failed = true
        } catch {
            log("\(display.description.name) stopped working (\(error)); waiting for a display")
            closeDisplay(restoringConsole: false)
            failed = true
            // Not at once again: a display that opens but cannot present
            // would make this a busy loop.
            loop.wait(until: monotonicNanoseconds() + 250_000_000)
        }
        animationTime += Double(scheduler.books.elapsed) / 1e9
        player.timeOffset = animationTime
        if books == nil { books = scheduler.books } else { books?.append(scheduler.books) }
        // --frames or --duration reached: the run is over.
        if !failed && !mustStopPlaying && quit == nil {
            quit = Quit(retain: false, clients: [], deadline: 0)
        }
    }

    /// Does what stopped the scheduler.
    private func afterPlaying() {
        if displayGone {
            displayGone = false
            log("\(display?.description.name ?? "the display") went away; waiting for a display")
            closeDisplay(restoringConsole: false)
        }
        if switchRequested {
            switchRequested = false
            log(
                onFramebufferFallback
                    ? "a DRM display has a screen connected: moving to it"
                    : "moving to the display the configuration names")
            closeDisplay(restoringConsole: false)
        }
        if wantDeactivate {
            wantDeactivate = false
            display?.deactivate()
            deactivated = true
            channels.answer(deactivateClients, ack: true)
            deactivateClients = []
            BootEnvironment.notifySystemd("STATUS=Handed the display over")
        }
        if wantHide {
            wantHide = false
            hidden = true
            closeDisplay(restoringConsole: true)
        }
    }

    private func reactivate() {
        wantReactivate = false
        guard deactivated else { return }
        // On another VT: taken back when the splash's VT returns.
        guard claim.state != .away else {
            deactivated = false
            return
        }
        guard let display else {
            deactivated = false
            return
        }
        do {
            try display.reactivate()
            deactivated = false
            redrawWhole = true
            log.reset("reactivate")
        } catch {
            log.once("reactivate", "cannot take the display back yet (\(error)); still handed over")
        }
    }

    /// Runs about twice a second while frames wait: the console, a better display.
    private func tick() -> Bool {
        console?.reassertSwitching()
        // A still picture presents nothing, so a failed present cannot
        // tell: the device answers ENODEV, or the CRTC shows another
        // program's framebuffer.
        if let display, display.isGone {
            displayGone = true
            return true
        }
        if claim.mayDraw, !deactivated, !hidden, let display, display.screenTaken {
            log.once(
                "master",
                "another program took \(display.description.name) (its picture is on the screen); "
                    + "waiting to take it back")
            claim.denied(display, now: monotonicNanoseconds())
            return true
        }
        if claim.mayDraw, let console, console.reassertGraphics() {
            log.once("console", "the console was switched to text mode; taking it back")
            display?.invalidateScreen()
            redrawWhole = true
            return true
        }
        // The named display is looked for every 2 s (probing cards costs),
        // and 10 s after a move to it failed.
        let now = monotonicNanoseconds()
        if onFramebufferFallback, now >= nextLookForNamed {
            // A failed move comes back here: the next look 10 s later.
            nextLookForNamed = now + 10_000_000_000
            if SplashSession.drmCardIsConnected() {
                switchRequested = true
                return true
            }
            nextLookForNamed = now + 2_000_000_000
        }
        if onFallback, now >= nextLookForNamed, let named = request.play.device {
            nextLookForNamed = now + 2_000_000_000
            if DeviceLookup.isAvailable(named) {
                switchRequested = true
                return true
            }
        }
        return false
    }
}
