@_exported import FBAnimation
@_exported import FBDisplay
import FBLinux
@_exported import FBRaster
@_exported import FBScheduler

/// Plays a loader on a screen: the few lines a program needs.
///
///     import FBAnim
///
///     struct Pulse: Loader { ... }
///     try FBAnim.play(Pulse(), on: .automatic)
///
/// It is what `fbanim LOADER` does: the same display choice, player,
/// scheduler and damage tracking; it stops on SIGTERM, SIGINT, SIGHUP or
/// SIGQUIT, and gives the console back.
public enum FBAnim {
    /// Where to play.
    public enum Screen {
        /// What `fbanim` picks with no `--device`: the first DRM device with
        /// a connected output, else `/dev/fb0`, else this terminal.
        case automatic
        /// A device as `fbanim --device` names it: `/dev/fb0`,
        /// `/dev/dri/card0`, `drm:vc4:HDMI-A-1`, `fb:ID`, `term`, `sim:...`.
        case device(String)
        /// The simulated display (no device): frames are drawn and counted,
        /// and written out where its options say.
        case simulated(SimulatedDisplay.Options)
        /// A display you opened; it is closed when the play ends.
        case display(any Display)
    }

    /// How long and how fast to play.
    public struct Timing: Sendable {
        /// Frames per second, `1...240`.
        public var fps: Int
        /// Stop after this many frame slots; `nil`: no limit.
        public var frames: Int?
        /// Stop after this many seconds; `nil`: no limit.
        public var duration: Double?

        /// Until a stop signal, at `fps` frames per second, unless `frames` or `duration` say.
        public init(fps: Int = 30, frames: Int? = nil, duration: Double? = nil) {
            self.fps = fps
            self.frames = frames
            self.duration = duration
        }
    }

    /// Why a play failed.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// The screen could not be opened (its kind says why).
        case open(DisplayOpenError)
        /// A `.device` name that is not one (`fbanim --device` explains the forms).
        case badDeviceName(String)
        /// The display failed while playing (`description` says how).
        case display(String)
        /// `Timing` out of range.
        case badTiming(String)

        /// One line saying what failed.
        public var description: String {
            switch self {
            case .open(let e): e.description
            case .badDeviceName(let s), .display(let s), .badTiming(let s): s
            }
        }
    }

    /// Plays `loader` on `screen` until `timing` ends it or a stop signal
    /// comes, then closes the display. Returns the scheduler's books
    /// (frames presented, dropped, late).
    ///
    /// - Parameters:
    ///   - style: scale, colour (replaces `mainColor`), background, rotation;
    ///     on a terminal the loader is fitted to it unless `fitTerminal` is false.
    ///   - progress: asked before every frame slot for the progress the
    ///     loader sees as `LoaderContext.progress` (`-1...1`, negative
    ///     filling counter-clockwise; `nil`: none), on the thread that
    ///     called `play`. A frame whose picture does not change is not drawn.
    /// - Throws: `FBAnim.Error`; the display is closed by then.
    @discardableResult
    public static func play(
        _ loader: some Loader, on screen: Screen = .automatic, style: LoaderStyle = .init(),
        timing: Timing = .init(), fitTerminal: Bool = true, progress: (() -> Double?)? = nil
    ) throws(FBAnim.Error) -> Books {
        guard (1...240).contains(timing.fps) else { throw .badTiming("fps must be 1...240") }
        if let d = timing.duration, !(d.isFinite && d > 0) {
            throw .badTiming("a duration is a positive number of seconds")
        }
        if let n = timing.frames, n <= 0 { throw .badTiming("frames must be positive") }
        do {
            try SignalFlags.install()
        } catch {
            throw .display("cannot catch signals: \(error)")
        }
        let (display, fits) = try open(screen)
        let player = LoaderPlayer(
            display: display, loader: loader, style: style, fitsDisplay: fits && fitTerminal)
        if let progress { player.inputs = PolledProgress(progress) }
        do {
            return try run(player, on: display, timing: timing)
        } catch {
            throw .display(error.description)
        }
    }

    /// Opens `screen`; returns the display and whether it is a terminal to fit.
    static func open(_ screen: Screen) throws(FBAnim.Error) -> (Display, Bool) {
        var device = DeviceName.terminal
        switch screen {
        case .display(let d): return (d, d is TerminalDisplay)
        case .simulated(let options): device = .simulated(options)
        case .device(let name):
            do throws(DeviceName.ParseError) {
                device = try DeviceName.parse(name)
            } catch {
                throw .badDeviceName("\(name): \(error.description)")
            }
        case .automatic: break
        }
        do throws(DisplayOpenError) {
            if case .automatic = screen { return try openAutomaticDisplay() }
            return try openDisplayNamed(device)
        } catch {
            throw .open(error)
        }
    }
}

/// Why a run stopped early: the display's error, as one line.
package struct PlayFailure: Error, CustomStringConvertible {
    /// One line: the display's name and what failed.
    package let description: String
}

/// Runs `player` on `display` at `timing` until it ends or a stop signal
/// comes (`everySlot` runs between frames; return true to stop too), then
/// closes the display. Returns the books. The caller has installed the
/// signal flags (`SignalFlags.install()`), before opening the display.
/// - Throws: `PlayFailure` naming the display, after closing it.
package func run(
    _ player: LoaderPlayer, on display: Display, timing: FBAnim.Timing,
    everySlot: (FrameScheduler) -> Bool = { _ in false }
) throws(PlayFailure) -> Books {
    let scheduler = FrameScheduler(
        fps: timing.fps, clock: display.clock ?? SystemClock(),
        cpuMeter: display.workMeter ?? CPUMeter(threadCPUNanoseconds))
    var failure: PlayFailure?
    do {
        try scheduler.run(
            player, slots: timing.frames,
            duration: timing.duration.map { UInt64(($0 * 1e9).rounded()) },
            shouldStop: { everySlot(scheduler) || SignalFlags.stopRequested })
    } catch {
        failure = PlayFailure(description: "\(display.description.name): \(error)")
    }
    // Restore the console, terminal or CRTC before anything else is printed.
    display.close()
    if let failure { throw failure }
    return scheduler.books
}
