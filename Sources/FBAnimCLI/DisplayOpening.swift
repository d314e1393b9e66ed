import FBDisplay
import FBLinux

/// What to tell a user who may not open a display device.
let permissionHint =
    "add your user to the 'video' group (sudo usermod -aG video $USER, then log in again) "
    + "or install udev/99-fbanim.rules"

/// Opens the display `request` names, or the one fbanim picks without
/// `--device`. Returns it and whether the loader should fit it (a terminal).
///
/// fbdev and DRM displays hold the console in graphics mode until `close()`.
func openDisplay(_ request: PlayRequest) throws(CLIError) -> (Display, Bool) {
    switch request.device {
    case let .simulated(options)?:
        return (SimulatedDisplay(options, systemClock: SystemClock()), false)
    case .terminal?:
        return (try openTerminal(), true)
    case let .fbdev(path)?:
        return (try openFramebuffer(path), false)
    case let .drm(path)?:
        return (try openDRM(path), false)
    case nil:
        return try openDefaultDisplay()
    }
}

/// Without `--device` (spec/cli.md): the first DRM device with a connected
/// output, else `/dev/fb0`, else the terminal when standard output is one.
///
/// A DRM device another program is master of (a desktop's display server)
/// is passed over, and so is `/dev/fb0` then: it shows the same screen, under
/// that program. Permission problems are reported, not passed over: the user
/// has a display and should learn how to use it.
private func openDefaultDisplay() throws(CLIError) -> (Display, Bool) {
    var busy: DeviceError?
    for path in DeviceDiscovery.drmCards() {
        do throws(DeviceError) {
            let display = try DRMDisplay(path: path)
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

private func openFramebuffer(_ path: String) throws(CLIError) -> FramebufferDisplay {
    do throws(DeviceError) {
        let display = try FramebufferDisplay(path: path)
        display.console = Console.enterGraphics()
        return display
    } catch {
        throw cliError(error)
    }
}

private func openDRM(_ path: String) throws(CLIError) -> DRMDisplay {
    do throws(DeviceError) {
        let display = try DRMDisplay(path: path)
        display.console = Console.enterGraphics()
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
