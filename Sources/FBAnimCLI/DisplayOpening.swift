import FBAnim
import FBDisplay
import FBLinux
import FBRaster

/// What to tell a user who may not open a display device.
let permissionHint = displayPermissionHint

// Opening displays moved to FBAnim (`FBAnim.play` opens them the same way);
// here they report in `CLIError`s, whose kind gives the exit status.

/// Opens the display `request` names, or the one fbanim picks without
/// `--device`. Returns it and whether the loader should fit it (a terminal).
///
/// fbdev and DRM displays hold the console in graphics mode until `close()`.
func openDisplay(_ request: PlayRequest) throws(CLIError) -> (Display, Bool) {
    guard let device = request.device else { return try openDefaultDisplay(format: request.format) }
    return try openNamedDisplay(device, format: request.format)
}

/// `openDisplayNamed`, its failure as a `CLIError`.
/// - Throws: `CLIError` with the exit status of spec/cli.md: 66 when no
///   such device exists (yet), 69, 77...
func openNamedDisplay(
    _ device: DeviceName, format: PixelFormat? = nil, holdsConsole: Bool = true
) throws(CLIError) -> (Display, Bool) {
    do throws(DisplayOpenError) {
        return try openDisplayNamed(device, format: format, holdsConsole: holdsConsole)
    } catch { throw CLIError(error) }
}

/// `openAutomaticDisplay`: the first DRM device with a connected
/// output, else `/dev/fb0`, else the terminal; failures as `CLIError`s.
func openDefaultDisplay(format: PixelFormat? = nil) throws(CLIError) -> (Display, Bool) {
    do throws(DisplayOpenError) {
        return try openAutomaticDisplay(format: format)
    } catch { throw CLIError(error) }
}

func openFramebuffer(_ path: String, holdsConsole: Bool = true) throws(CLIError)
    -> FramebufferDisplay
{
    do throws(DisplayOpenError) {
        return try openFramebufferDisplay(path, holdsConsole: holdsConsole)
    } catch { throw CLIError(error) }
}

func openDRM(
    _ path: String, connector: String? = nil, format: PixelFormat? = nil, holdsConsole: Bool = true
) throws(CLIError) -> DRMDisplay {
    do throws(DisplayOpenError) {
        return try openDRMDisplay(
            path, connector: connector, format: format, holdsConsole: holdsConsole)
    } catch { throw CLIError(error) }
}

/// The exit status and one-line message for a device that cannot be opened:
/// missing 66, permission 77 (with the hint), anything else 69.
func cliError(_ error: DeviceError) -> CLIError { CLIError(DisplayOpenError(error)) }

extension CLIError {
    /// A display that could not be opened: missing 66, permission 77, else 69.
    init(_ error: DisplayOpenError) {
        switch error.kind {
        case .missing: self = .noInput(error.description)
        case .noPermission: self = .noPermission(error.description)
        case .unavailable: self = .unavailable(error.description)
        }
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
