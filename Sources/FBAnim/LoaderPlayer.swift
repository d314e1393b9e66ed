import FBAnimation
import FBDisplay
import FBLinux
import FBRaster
import FBScheduler

// The player `fbanim` and `FBAnim.play` share: a loader's frames drawn into
// a display's back buffers, only what changed presented, paced by the
// scheduler on the system's monotonic clock.

/// The system's monotonic clock, slept on with absolute deadlines; a stop
/// signal cuts a sleep short, other signals (SIGUSR1, SIGWINCH) do not. The
/// same clock FBLinux's displays and event loop read (`MonotonicClock`).
public typealias SystemClock = MonotonicClock

/// What changes a frame besides the loader's own clock: the ring's
/// progress and the message line (a splash's inputs, or `--message`).
package protocol FrameInputs: AnyObject {
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
package final class LoaderPlayer: FramePresenter {
    package let display: Display
    /// The loader drawn: a built-in or anyone's.
    package let loader: any Loader
    /// The style as drawn: the request's, turned further by the display's
    /// `panelRotation` (a DRM panel's orientation, `video=...,rotate=`).
    package let style: LoaderStyle
    /// Fit the loader to the display (a terminal) instead of `style.scale`.
    package let fitsDisplay: Bool
    /// Progress and message, if anything drives them.
    package var inputs: FrameInputs?
    /// Added to the scheduler's time: a splash that moved to another
    /// display goes on where the animation was.
    package var timeOffset = 0.0
    /// Frames presented.
    package private(set) var presented = 0
    /// Called once, after the first frame is presented (a splash tells systemd it is ready).
    package var onFirstFrame: (() -> Void)?
    /// Makes the picture for a screen instead of `loader` (the test
    /// pattern): given the picture's width and height before rotation, drawn at scale 1.
    package var makePicture: ((_ width: Int, _ height: Int) -> any Loader)?
    private var renderer: FrameRenderer?
    private var back: BackBuffer?
    /// `display` when it can change size (a terminal): asked once, not every frame.
    private let resizable: ResizableDisplay?

    package init(
        display: Display, loader: any Loader, style: LoaderStyle, fitsDisplay: Bool,
        inputs: FrameInputs? = nil
    ) {
        self.display = display
        resizable = display as? ResizableDisplay
        self.loader = loader
        var style = style
        style.rotation = style.rotation.adding(display.panelRotation)
        self.style = style
        self.fitsDisplay = fitsDisplay
        self.inputs = inputs
    }

    /// Takes the back buffer (waiting for a pending flip) before the frame's clock starts.
    package func prepareFrame() throws {
        // A buffer kept from a frame that changed nothing is stale once the
        // terminal is resized: a still picture must be refitted too.
        if let resizable, try resizable.updateSize() { back = nil }
        if back == nil { back = try display.backBuffer() }
    }

    package func presentFrame(at slotTime: Double) throws -> FrameOutcome {
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
                renderer = FrameRenderer(loader, width: s.width, height: s.height, style: style)
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
package final class FixedMessage: FrameInputs {
    package let line: MessageLine?

    package init(_ line: MessageLine?) { self.line = line }

    package func prepare(_ renderer: FrameRenderer, at time: Double) -> Bool {
        if renderer.message != line { renderer.message = line }
        return false
    }

    package func stillUntil(_ time: Double) -> Double { .infinity }
}

/// Progress read from the caller before every slot (`FBAnim.play`'s `progress:`).
final class PolledProgress: FrameInputs {
    let read: () -> Double?

    init(_ read: @escaping () -> Double?) { self.read = read }

    func prepare(_ renderer: FrameRenderer, at time: Double) -> Bool {
        let p = read().map { $0.isFinite ? min(max($0, -1), 1) : 0 }
        if renderer.progress != p { renderer.progress = p }
        return false
    }

    /// It may change at any time: ask again at the next slot.
    func stillUntil(_ time: Double) -> Double { time }
}
