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

/// What changes a frame besides the loader's own clock: the ring's
/// progress and the message line (a splash's inputs, or `--message`).
protocol FrameInputs: AnyObject {
    /// Sets the renderer's progress and message for the frame at `time`.
    /// - Returns: whether the frame must be drawn whole (the screen was
    ///   painted over, or the display changed).
    func prepare(_ renderer: FrameRenderer, at time: Double) -> Bool
    /// The time until which nothing these inputs hold changes the frame
    /// (`.infinity`: until something from outside arrives).
    func stillUntil(_ time: Double) -> Double
}

/// Draws a loader's frames into a display's back buffers and presents only
/// what changed.
final class LoaderPlayer: FramePresenter {
    let display: Display
    let kind: LoaderKind
    /// The style as drawn: the request's, turned further by the display's
    /// `panelRotation` (a DRM panel's orientation, `video=...,rotate=`).
    let style: LoaderStyle
    /// Fit the loader to the display (a terminal) instead of `style.scale`.
    let fitsDisplay: Bool
    /// Progress and message, if anything drives them.
    var inputs: FrameInputs?
    /// Added to the scheduler's time: a splash that moved to another
    /// display goes on where the animation was.
    var timeOffset = 0.0
    /// Frames presented.
    private(set) var presented = 0
    /// Called once, after the first frame is presented (a splash tells systemd it is ready).
    var onFirstFrame: (() -> Void)?
    /// Makes the picture for a screen instead of `kind`'s loader (the test
    /// pattern): given the picture's width and height before rotation, drawn at scale 1.
    var makePicture: ((_ width: Int, _ height: Int) -> any Loader)?
    private var renderer: FrameRenderer?
    private var back: BackBuffer?

    init(
        display: Display, kind: LoaderKind, style: LoaderStyle, fitsDisplay: Bool,
        inputs: FrameInputs? = nil
    ) {
        self.display = display
        self.kind = kind
        var style = style
        style.rotation = style.rotation.adding(display.panelRotation)
        self.style = style
        self.fitsDisplay = fitsDisplay
        self.inputs = inputs
    }

    /// Takes the back buffer (waiting for a pending flip) before the frame's clock starts.
    func prepareFrame() throws {
        // A buffer kept from a frame that changed nothing is stale once the
        // terminal is resized: a still picture must be refitted too.
        if let resizable = display as? ResizableDisplay, try resizable.updateSize() { back = nil }
        if back == nil { back = try display.backBuffer() }
    }

    func presentFrame(at slotTime: Double) throws -> FrameOutcome {
        let time = slotTime + timeOffset
        let back = try self.back ?? display.backBuffer()
        self.back = nil
        let s = back.surface
        var age = back.age
        // A display that changed size (a resized terminal) needs a renderer of its size.
        if renderer.map({ $0.width != s.width || $0.height != s.height }) ?? true {
            var style = self.style
            if fitsDisplay && makePicture == nil {
                // At scale 1 every loader fits in 240 px; keep a margin.
                style.scale = max(0.05, min(64, Double(min(s.width, s.height)) / 240))
            }
            if let makePicture {
                let turned = style.rotation.isQuarterTurn
                renderer = FrameRenderer(
                    loader: makePicture(turned ? s.height : s.width, turned ? s.width : s.height),
                    width: s.width, height: s.height, style: style)
            } else {
                renderer = FrameRenderer(kind: kind, width: s.width, height: s.height, style: style)
            }
            age = 0
        }
        guard let renderer else { preconditionFailure("no renderer") }
        if let inputs, inputs.prepare(renderer, at: time) { age = 0 }
        guard let damage = renderer.renderDamage(time: time, into: s, age: age) else {
            // Nothing changed: the screen already shows this frame, and the
            // buffer stays ours for the next one; the scheduler may sleep for
            // as long as the loader (and the inputs) say the picture stays.
            self.back = back
            let until = min(renderer.stillUntil(time), inputs?.stillUntil(time) ?? .infinity)
            return .unchanged(until: until.isFinite ? until - timeOffset : nil)
        }
        try display.present(damage: damage.rects)
        presented += 1
        if presented == 1, let onFirstFrame {
            self.onFirstFrame = nil
            onFirstFrame()
        }
        return .presented
    }
}

/// A message line drawn once: `--message` on play.
final class FixedMessage: FrameInputs {
    let line: MessageLine?

    init(_ line: MessageLine?) { self.line = line }

    func prepare(_ renderer: FrameRenderer, at time: Double) -> Bool {
        if renderer.message != line { renderer.message = line }
        return false
    }

    func stillUntil(_ time: Double) -> Double { .infinity }
}

/// Plays `request` until it ends (the test pattern instead of its loader
/// when `testPattern`), then restores the display and prints the books.
func play(_ request: PlayRequest, testPattern: Bool = false) throws(CLIError) {
    do {
        try SignalFlags.install()
    } catch {
        throw .ioError("cannot catch signals: \(error)")
    }
    // The font first: a bad one is reported before the screen changes.
    let typesetter = try MessageTypesetter(request.text, scale: request.style.scale)
    let (display, fits) = try openDisplay(request)
    if let warning = boardMismatch(request, display.description) {
        StandardStream.error.write(warning)
    }
    let player = LoaderPlayer(
        display: display, kind: request.loader, style: request.style,
        fitsDisplay: fits && !request.scaleGiven)
    if testPattern {
        player.makePicture = testPatternMaker(
            TestPatternText.playing(display.description, fps: request.fps, style: player.style))
    } else {
        // Cut to the width of the picture as drawn, the panel's turn included.
        player.inputs = request.text.message.flatMap {
            typesetter.line($0, on: display.description, rotation: player.style.rotation)
        }.map { FixedMessage($0) }
    }
    let loaderName = testPattern ? "testpattern" : request.loader.rawValue
    let scheduler = FrameScheduler(
        fps: request.fps, clock: display.clock ?? SystemClock(), cpuTime: processCPUNanoseconds)
    let name = display.description.name
    var failure: CLIError?
    do {
        try scheduler.run(
            player, slots: request.frames,
            duration: request.duration.map { UInt64(($0 * 1e9).rounded()) },
            shouldStop: {
                if SignalFlags.takeStatsRequest() {
                    let s = Statistics.running(
                        books: scheduler.books, loader: loaderName,
                        device: display.description.name)
                    // A reader that stopped reading costs these books, never a frame.
                    StandardStream.error.writeWithoutBlocking(s.text)
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
        books: scheduler.books, loader: loaderName,
        device: display.description.name)
    switch request.stats {
    case .json?: try writeOutput(statistics.json)
    case .text?: StandardStream.error.write(statistics.text)
    case nil: break
    }
}
