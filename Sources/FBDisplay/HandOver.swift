/// A display another program can take over and give back, as a boot
/// splash hands the screen to a display manager (boot.md, Hand-over and
/// console).
public protocol HandOverDisplay: Display {
    /// Stops using the display and lets another program take it (DRM: drops
    /// master), leaving the last frame on screen. Nothing is presented until
    /// `reactivate()`.
    func deactivate()

    /// Takes the display back after `deactivate()`; the next present shows
    /// a whole frame again (setting the mode where another program changed it).
    /// - Throws: when another program still holds the display.
    func reactivate() throws

    /// Ends without restoring anything: the last frame stays on screen and
    /// the console stays in graphics mode, for the next program to take over
    /// without a flash of console text or black.
    /// - Returns: whether the picture lasts only while this process keeps
    ///   the device open (a DRM device whose kernel lacks
    ///   `DRM_IOCTL_MODE_CLOSEFB`): the caller then stays until
    ///   `isShowingPicture` turns false, and calls `releaseRetained()`.
    func closeRetainingPicture() -> Bool

    /// Whether the screen still shows this display's picture (another
    /// program has not set its own yet).
    var isShowingPicture: Bool { get }

    /// Releases what `closeRetainingPicture()` kept, restoring nothing.
    func releaseRetained()

    /// The screen no longer shows the last frame (the console painted over
    /// it): the next present shows the whole picture.
    func invalidateScreen()
    /// Whether another program's picture is on the screen this display
    /// set up, without this display having let go: another program became
    /// DRM master behind its back (or, once that one let go, the kernel's
    /// console took the screen back). Cheap enough for twice a second.
    var screenTaken: Bool { get }

    /// Whether the device went away (its driver unbound, the device
    /// unplugged) although nothing was presented to find out: a still
    /// picture presents nothing. Cheap enough for twice a second.
    var isGone: Bool { get }
}

extension HandOverDisplay {
    /// Displays that cannot tell (fbdev, the simulated one) never report it.
    public var screenTaken: Bool { false }
    public var isGone: Bool { false }
}
