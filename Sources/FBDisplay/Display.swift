import FBRaster
import FBScheduler

/// What a display is: its size, pixel format and pacing.
public struct DisplayDescription: Sendable, Equatable {
    /// How fbanim names it to a person: `sim:320x240:rgb565`, `/dev/fb0 (bochs-drmdrmfb)`...
    public var name: String
    public var width: Int
    public var height: Int
    public var format: PixelFormat
    /// Vertical blanks per second when the display reports them (presents
    /// then land on blanks); `nil` when it does not.
    public var refreshHz: Int?

    public init(name: String, width: Int, height: Int, format: PixelFormat, refreshHz: Int?) {
        self.name = name
        self.width = width
        self.height = height
        self.format = format
        self.refreshHz = refreshHz
    }
}

/// A buffer to draw the next frame into.
public struct BackBuffer {
    public var surface: Surface
    /// How many presents ago this buffer's contents were on screen: 1 when it
    /// holds the last frame shown (a single shadow buffer), 2 with double
    /// buffering, 0 when its contents are unknown (draw everything).
    public var age: Int

    public init(surface: Surface, age: Int) {
        self.surface = surface
        self.age = age
    }
}

/// The display contract: open (the initialiser), describe, back buffer,
/// present damage, close. The scheduler and the loaders never know which
/// backend runs.
public protocol Display: AnyObject {
    var description: DisplayDescription { get }

    /// The display's own clock when it keeps one (`clock=virtual`); `nil`
    /// means frames are paced on the system's monotonic clock.
    var clock: FrameClock? { get }

    /// The CPU meter `clock` reads (a virtual clock charges drawing its CPU
    /// time), for the scheduler's books to share, so a read serves both. A
    /// display that has one reads it as its present begins (after the
    /// drawing) and in its waits. `nil` (the default): none; the scheduler
    /// reads its own, once a frame.
    var workMeter: CPUMeter? { get }

    /// The buffer the next frame is drawn into.
    func backBuffer() throws -> BackBuffer

    /// Shows the back buffer. `damage` lists the rectangles (within the
    /// screen) that differ from what the buffer held `age` presents ago;
    /// a display that copies (a shadow buffer, a terminal, an SPI panel)
    /// copies only those. A flip is queued, not waited for: the next
    /// `backBuffer()` waits until the buffer it hands out is off screen.
    func present(damage: [IntRect]) throws

    /// Restores what opening the display changed and releases it. Safe to call twice.
    func close()

    /// How far the picture must be turned clockwise, in degrees (0, 90,
    /// 180 or 270), on top of `--rotate`, for the screen to stand the way
    /// the system says it is mounted: a DRM output's panel orientation and
    /// `video=...,rotate=` (FBBoot's `pictureRotation`). 0 for displays
    /// that do not know (fbdev, the terminal, the simulated display).
    var panelRotation: Int { get }
}

extension Display {
    public var panelRotation: Int { 0 }
    public var workMeter: CPUMeter? { nil }
}
