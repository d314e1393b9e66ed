import FBAnimation
import FBDisplay
import FBLinux
import FBRaster
import FBScheduler

/// `CLOCK_MONOTONIC`, slept on with absolute deadlines. A stop signal cuts a
/// sleep short; other signals (SIGUSR1, SIGWINCH) do not.
final class SystemClock: FrameClock {
    func now() -> UInt64 { monotonicNanoseconds() }

    func sleep(until deadline: UInt64) {
        while !sleepUntilMonotonic(deadline) {
            if SignalFlags.stopRequested { return }
        }
    }

    func finish(until deadline: UInt64) {
        while !sleepUntilMonotonic(deadline) {}
    }
}

/// Draws a loader's frames into a display's back buffers and presents only
/// what changed.
final class LoaderPlayer: FramePresenter {
    let display: Display
    let kind: LoaderKind
    let style: LoaderStyle
    /// Fit the loader to the display (a terminal) instead of `style.scale`.
    let fitsDisplay: Bool
    private var renderer: FrameRenderer?
    private var back: BackBuffer?

    init(display: Display, kind: LoaderKind, style: LoaderStyle, fitsDisplay: Bool) {
        self.display = display
        self.kind = kind
        self.style = style
        self.fitsDisplay = fitsDisplay
    }

    /// Takes the back buffer (waiting for a pending flip) before the frame's clock starts.
    func prepareFrame() throws {
        // A buffer kept from a frame that changed nothing is stale once the
        // terminal is resized: a still picture must be refitted too.
        if let resizable = display as? ResizableDisplay, try resizable.updateSize() { back = nil }
        if back == nil { back = try display.backBuffer() }
    }

    func presentFrame(at time: Double) throws -> FrameOutcome {
        let back = try self.back ?? display.backBuffer()
        self.back = nil
        let s = back.surface
        var age = back.age
        // A display that changed size (a resized terminal) needs a renderer of its size.
        if renderer.map({ $0.width != s.width || $0.height != s.height }) ?? true {
            var style = self.style
            if fitsDisplay {
                // At scale 1 every loader fits in 240 px; keep a margin.
                style.scale = max(0.05, min(64, Double(min(s.width, s.height)) / 240))
            }
            renderer = FrameRenderer(kind: kind, width: s.width, height: s.height, style: style)
            age = 0
        }
        guard let damage = renderer?.renderDamage(time: time, into: s, age: age) else {
            // Nothing changed: the screen already shows this frame, and the
            // buffer stays ours for the next one; the scheduler may sleep for
            // as long as the loader says the picture stays.
            self.back = back
            return .unchanged(until: renderer?.stillUntil(time) ?? time)
        }
        try display.present(damage: damage.rects)
        return .presented
    }
}

/// Plays `request` until it ends, then restores the display and prints the books.
func play(_ request: PlayRequest) throws(CLIError) {
    do {
        try SignalFlags.install()
    } catch {
        throw .ioError("cannot catch signals: \(error)")
    }
    let (display, fits) = try openDisplay(request)
    let player = LoaderPlayer(
        display: display, kind: request.loader, style: request.style,
        fitsDisplay: fits && !request.scaleGiven)
    let scheduler = FrameScheduler(fps: request.fps, clock: display.clock ?? SystemClock())
    let name = display.description.name
    var failure: CLIError?
    do {
        try scheduler.run(
            player, slots: request.frames,
            duration: request.duration.map { UInt64(($0 * 1e9).rounded()) },
            shouldStop: {
                if SignalFlags.takeStatsRequest() {
                    let s = Statistics.running(
                        books: scheduler.books, loader: request.loader.rawValue,
                        device: display.description.name)
                    StandardStream.error.write(s.text)
                    // On a terminal preview the text landed on the picture.
                    (display as? TerminalDisplay)?.repaintEverything()
                }
                return SignalFlags.stopRequested
            })
    } catch let error as SystemError {
        failure = .ioError("\(name): \(error)")
    } catch {
        failure = .ioError("\(name): \(error)")
    }
    // Restore the console, terminal or CRTC before anything else is printed.
    display.close()
    if let failure { throw failure }
    let statistics = Statistics(
        books: scheduler.books, loader: request.loader.rawValue,
        device: display.description.name)
    switch request.stats {
    case .json?: try writeOutput(statistics.json)
    case .text?: StandardStream.error.write(statistics.text)
    case nil: break
    }
}
