import FBDisplay
import FBLinux
import FBRaster
import Glibc

// Opening displays, for `fbanim` (its `--device` and the choice without
// one) and for `FBAnim.play(_:on:)` alike.

/// Why a display could not be opened, as one line, and what kind of
/// failure it is (`fbanim` turns the kind into its exit status).
public struct DisplayOpenError: Error, CustomStringConvertible, Sendable {
    /// No such device (yet): 66 for `fbanim`.
    /// The user may not open it: 77. Anything else: 69.
    public enum Kind: Sendable { case missing, noPermission, unavailable }
    /// What kind of failure.
    public let kind: Kind
    /// The line, without a program name or a newline.
    public let description: String

    /// See the properties.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// A device that cannot be opened: missing, permission (with the hint), else unavailable.
    package init(_ error: DeviceError) {
        switch error.kind {
        case .missing: self.init(.missing, "no such device '\(error.path)'")
        case .permissionDenied:
            self.init(.noPermission, "\(error.description); \(displayPermissionHint)")
        case .unusable, .busy: self.init(.unavailable, error.description)
        }
    }
}

/// What to tell a user who may not open a display device.
package let displayPermissionHint =
    "add your user to the 'video' group (sudo usermod -aG video $USER, then log in again) "
    + "or install udev/99-fbanim.rules"

/// Opens the display `device` names; stable names (`drm:DRIVER[:CONNECTOR]`,
/// `fb:ID`, links such as `/dev/dri/by-path/...`) are looked up first.
/// A DRM device draws in `format` when its planes take it. Returns it and
/// whether the loader should fit it (a terminal).
package func openDisplayNamed(
    _ device: DeviceName, format: PixelFormat? = nil, holdsConsole: Bool = true
) throws(DisplayOpenError) -> (Display, Bool) {
    switch device {
    case let .simulated(options):
        return (
            SimulatedDisplay(
                options, systemClock: SystemClock(), work: threadCPUNanoseconds,
                memory: { MappedMemory(byteCount: $0) }),
            false
        )
    case .terminal:
        return (try openTerminal(), true)
    case let .fbdev(path):
        // A link to a DRM card (a udev alias of the user's) is a DRM device.
        if let real = canonicalPath(path), real.hasPrefix("/dev/dri/") {
            return (try openDRMDisplay(path, format: format, holdsConsole: holdsConsole), false)
        }
        return (try openFramebufferDisplay(path, holdsConsole: holdsConsole), false)
    case let .drm(path):
        return (try openDRMDisplay(path, format: format, holdsConsole: holdsConsole), false)
    case let .drmDriver(driver, connector):
        guard let path = DeviceDiscovery.drmCard(driver: driver, connector: connector) else {
            let screen = connector.map { " with a screen connected to \($0)" } ?? ""
            throw DisplayOpenError(.missing, "no DRM device of driver '\(driver)'\(screen)")
        }
        return (
            try openDRMDisplay(
                path, connector: connector, format: format, holdsConsole: holdsConsole),
            false
        )
    case let .fbID(id):
        guard let path = DeviceDiscovery.framebuffer(id: id) else {
            throw DisplayOpenError(.missing, "no framebuffer device with id '\(id)'")
        }
        return (try openFramebufferDisplay(path, holdsConsole: holdsConsole), false)
    }
}

/// Without `--device` (spec/cli.md): the first DRM device with a connected
/// output, else `/dev/fb0`, else the terminal when standard output is one.
///
/// A DRM device another program is master of (a desktop's display server)
/// is passed over, and so is `/dev/fb0` then: it shows the same screen, under
/// that program. Permission problems are reported, not passed over: the user
/// has a display and should learn how to use it.
package func openAutomaticDisplay(format: PixelFormat? = nil) throws(DisplayOpenError) -> (
    Display, Bool
) {
    // A /dev/dri this user may not list hides the cards: that is a
    // permission problem to report, not "no display".
    if let error = DeviceDiscovery.unlistableDRMFolder(), error.errno == EACCES {
        throw DisplayOpenError(
            .noPermission, "cannot list /dev/dri (\(error.reason)); \(displayPermissionHint)")
    }
    var busy: DeviceError?
    for path in DeviceDiscovery.drmCards() {
        do throws(DeviceError) {
            let display = try DRMDisplay(path: path, format: format)
            display.console = Console.enterGraphics()
            return (display, false)
        } catch {
            switch error.kind {
            case .permissionDenied: throw DisplayOpenError(error)
            case .busy: busy = busy ?? error
            case .missing, .unusable: continue
            }
        }
    }
    if busy == nil && pathExists("/dev/fb0") {
        return (try openFramebufferDisplay("/dev/fb0"), false)
    }
    guard StandardStream.output.isTerminal else {
        if let busy { throw DisplayOpenError(busy) }
        throw DisplayOpenError(
            .unavailable,
            "no display found: no DRM device with a connected output, no /dev/fb0, and standard "
                + "output is not a terminal; name one with --device")
    }
    let why = busy.map { "\($0.path) is in use by another program" } ?? "no display device found"
    StandardStream.error.write("fbanim: \(why); playing in this terminal\n")
    return (try openTerminal(), true)
}

/// Opens the fbdev device at `path`, holding the console in graphics mode if asked.
package func openFramebufferDisplay(_ path: String, holdsConsole: Bool = true)
    throws(DisplayOpenError) -> FramebufferDisplay
{
    do throws(DeviceError) {
        let display = try FramebufferDisplay(path: path)
        if holdsConsole { display.console = Console.enterGraphics() }
        return display
    } catch {
        throw DisplayOpenError(error)
    }
}

/// Opens the DRM device at `path` (its `connector`, else the first
/// connected), drawing in `format` where its planes take it.
package func openDRMDisplay(
    _ path: String, connector: String? = nil, format: PixelFormat? = nil, holdsConsole: Bool = true
) throws(DisplayOpenError) -> DRMDisplay {
    do throws(DeviceError) {
        let display = try DRMDisplay(path: path, connector: connector, format: format)
        if holdsConsole { display.console = Console.enterGraphics() }
        return display
    } catch {
        throw DisplayOpenError(error)
    }
}

private func openTerminal() throws(DisplayOpenError) -> TerminalDisplay {
    do {
        return try TerminalDisplay()
    } catch {
        throw DisplayOpenError(.unavailable, "--device term: standard output is not a terminal")
    }
}
