import FBDisplay
import FBLinux
import FBRaster
import Glibc

/// What to tell a user who may not open a display device.
let permissionHint =
    "add your user to the 'video' group (sudo usermod -aG video $USER, then log in again) "
    + "or install udev/99-fbanim.rules"

/// Opens the display `request` names, or the one fbanim picks without
/// `--device`. Returns it and whether the loader should fit it (a terminal).
///
/// fbdev and DRM displays hold the console in graphics mode until `close()`.
func openDisplay(_ request: PlayRequest) throws(CLIError) -> (Display, Bool) {
    guard let device = request.device else { return try openDefaultDisplay(format: request.format) }
    return try openNamedDisplay(device, format: request.format)
}

/// Opens the display `device` names; stable names (`drm:DRIVER[:CONNECTOR]`,
/// `fb:ID`, links such as `/dev/dri/by-path/...`) are looked up first.
/// A DRM device draws in `format` when its planes take it.
/// - Throws: `CLIError` with the exit status of spec/cli.md: 66 when no
///   such device exists (yet), 69, 77...
func openNamedDisplay(
    _ device: DeviceName, format: PixelFormat? = nil, holdsConsole: Bool = true
) throws(CLIError) -> (Display, Bool) {
    switch device {
    case let .simulated(options):
        return (
            SimulatedDisplay(options, systemClock: SystemClock(), work: processCPUNanoseconds),
            false
        )
    case .terminal:
        return (try openTerminal(), true)
    case let .fbdev(path):
        // A link to a DRM card (a udev alias of the user's) is a DRM device.
        if let real = canonicalPath(path), real.hasPrefix("/dev/dri/") {
            return (try openDRM(path, format: format, holdsConsole: holdsConsole), false)
        }
        return (try openFramebuffer(path, holdsConsole: holdsConsole), false)
    case let .drm(path):
        return (try openDRM(path, format: format, holdsConsole: holdsConsole), false)
    case let .drmDriver(driver, connector):
        guard let path = DeviceDiscovery.drmCard(driver: driver, connector: connector) else {
            let screen = connector.map { " with a screen connected to \($0)" } ?? ""
            throw .noInput("no DRM device of driver '\(driver)'\(screen)")
        }
        return (
            try openDRM(path, connector: connector, format: format, holdsConsole: holdsConsole),
            false
        )
    case let .fbID(id):
        guard let path = DeviceDiscovery.framebuffer(id: id) else {
            throw .noInput("no framebuffer device with id '\(id)'")
        }
        return (try openFramebuffer(path, holdsConsole: holdsConsole), false)
    }
}

/// Without `--device` (spec/cli.md): the first DRM device with a connected
/// output, else `/dev/fb0`, else the terminal when standard output is one.
///
/// A DRM device another program is master of (a desktop's display server)
/// is passed over, and so is `/dev/fb0` then: it shows the same screen, under
/// that program. Permission problems are reported, not passed over: the user
/// has a display and should learn how to use it.
func openDefaultDisplay(format: PixelFormat? = nil) throws(CLIError) -> (Display, Bool) {
    // A /dev/dri this user may not list hides the cards: that is a
    // permission problem to report, not "no display".
    if let error = DeviceDiscovery.unlistableDRMFolder(), error.errno == EACCES {
        throw .noPermission("cannot list /dev/dri (\(error.reason)); \(permissionHint)")
    }
    var busy: DeviceError?
    for path in DeviceDiscovery.drmCards() {
        do throws(DeviceError) {
            let display = try DRMDisplay(path: path, format: format)
            display.console = Console.enterGraphics()
            return (display, false)
        } catch {
            switch error.kind {
            case .permissionDenied: throw cliError(error)
            case .busy: busy = busy ?? error
            case .missing, .unusable: continue
            }
        }
    }
    if busy == nil && pathExists("/dev/fb0") {
        return (try openFramebuffer("/dev/fb0"), false)
    }
    guard StandardStream.output.isTerminal else {
        if let busy { throw cliError(busy) }
        throw .unavailable(
            "no display found: no DRM device with a connected output, no /dev/fb0, and standard "
                + "output is not a terminal; name one with --device")
    }
    let why = busy.map { "\($0.path) is in use by another program" } ?? "no display device found"
    StandardStream.error.write("fbanim: \(why); playing in this terminal\n")
    return (try openTerminal(), true)
}

func openFramebuffer(_ path: String, holdsConsole: Bool = true) throws(CLIError)
    -> FramebufferDisplay
{
    do throws(DeviceError) {
        let display = try FramebufferDisplay(path: path)
        if holdsConsole { display.console = Console.enterGraphics() }
        return display
    } catch {
        throw cliError(error)
    }
}

func openDRM(
    _ path: String, connector: String? = nil, format: PixelFormat? = nil, holdsConsole: Bool = true
) throws(CLIError) -> DRMDisplay {
    do throws(DeviceError) {
        let display = try DRMDisplay(path: path, connector: connector, format: format)
        if holdsConsole { display.console = Console.enterGraphics() }
        return display
    } catch {
        throw cliError(error)
    }
}

/// The exit status and one-line message for a device that cannot be opened:
/// missing 66, permission 77 (with the hint), anything else 69.
func cliError(_ error: DeviceError) -> CLIError {
    switch error.kind {
    case .missing:
        return .noInput("no such device '\(error.path)'")
    case .permissionDenied:
        return .noPermission("\(error.description); \(permissionHint)")
    case .unusable, .busy:
        return .unavailable(error.description)
    }
}

private func openTerminal() throws(CLIError) -> TerminalDisplay {
    do {
        return try TerminalDisplay()
    } catch {
        throw .unavailable("--device term: standard output is not a terminal")
    }
}

/// One line for stderr when the display that opened is not what the board
/// profile it came from says (`size`, `format`): a device that is not the
/// panel (another `/dev/fbN`), or a panel the overlay turned otherwise.
/// `nil` when they agree, or when the device was not the profile's.
func boardMismatch(_ request: PlayRequest, _ display: DisplayDescription) -> String? {
    guard let path = request.boardPath else { return nil }
    var wanted: [String] = []
    var found: [String] = []
    if let size = request.size, size != (display.width, display.height) {
        wanted.append("\(size.width)x\(size.height)")
        found.append("\(display.width)x\(display.height)")
    }
    if let format = request.format, format != display.format {
        wanted.append(format.name)
        found.append(display.format.name)
    }
    guard !wanted.isEmpty else { return nil }
    return oneLine(
        "fbanim: warning: the board profile \(shown(path)) describes a \(wanted.joined(separator: " "))"
            + " panel, but \(display.name) is \(found.joined(separator: " ")): another display, or "
            + "one set up otherwise (see 'Check it' in boards/README.md)") + "\n"
}
