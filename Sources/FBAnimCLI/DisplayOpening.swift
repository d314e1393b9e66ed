import FBDisplay
import FBLinux

/// Opens the display `request` names, or the one fbanim picks without
/// `--device`. Returns it and whether the loader should fit it (a terminal).
func openDisplay(_ request: PlayRequest) throws(CLIError) -> (Display, Bool) {
    switch request.device {
    case let .simulated(options)?:
        return (SimulatedDisplay(options, systemClock: SystemClock()), false)
    case .terminal?:
        return (try openTerminal(), true)
    case let .fbdev(path)?, let .drm(path)?:
        guard pathExists(path) else { throw .noInput("no such device '\(path)'") }
        throw .unavailable(
            "'\(path)': fbdev and DRM/KMS displays are not available in this build yet; "
                + "use --device term or --device sim:WxH")
    case nil:
        guard StandardStream.output.isTerminal else {
            throw .unavailable(
                "no display found: no DRM or fbdev display this build can drive, and standard "
                    + "output is not a terminal; name one with --device")
        }
        StandardStream.error.write("fbanim: no display device found; playing in this terminal\n")
        return (try openTerminal(), true)
    }
}

private func openTerminal() throws(CLIError) -> TerminalDisplay {
    do {
        return try TerminalDisplay()
    } catch {
        throw .unavailable("--device term: standard output is not a terminal")
    }
}
