/// The commands of fbanim's command line.
enum Command: String, CaseIterable, Sendable {
    /// `fbanim [--device DEVICE] [options] LOADER`.
    case play
    /// `fbanim render LOADER --size WxH --time T --output FILE [options]`.
    case render
    /// `fbanim devices`: lists the displays fbanim finds (DevicesCommand.swift).
    case devices
    /// `fbanim testpattern`: the bring-up picture, played (TestPatternCommand.swift).
    case testpattern
    /// `fbanim splash`: play as the boot splash, with its control channels (Splash.swift).
    case splash
    /// `fbanim ctl COMMAND [VALUE]`: talk to a running splash (CtlCommand.swift).
    case ctl
    /// `fbanim restore-console`: the VT back in text mode (after a splash was killed).
    case restoreConsole = "restore-console"

    /// Whether this build can run the command; help documents only those.
    var isAvailable: Bool { true }

    /// How the command is invoked before its arguments.
    var invocation: String { self == .play ? "fbanim" : "fbanim \(rawValue)" }

    /// One line for the overview and the list of subcommands.
    var abstract: String {
        switch self {
        case .play: return "Play a loader on a display."
        case .render: return "Draw one frame of a loader to a PNG or PPM file."
        case .devices: return "List the displays fbanim finds and the one it would use."
        case .testpattern:
            return "Show a test pattern: which way is up, colour order, tearing, mode and rate."
        case .splash:
            return "Play as the boot splash: wait for the display, take progress and messages."
        case .ctl: return "Tell a running splash the boot's progress, a message, or to quit."
        case .restoreConsole:
            return "Put the console back in text mode (after a splash was killed)."
        }
    }

    /// Paragraphs shown under the overview in the command's help.
    var discussion: String {
        switch self {
        case .play:
            return """
                Plays one of four loaders (ring, radar, spinner, orbit) on a display: a Linux \
                framebuffer, a DRM/KMS device, this terminal, or a simulated display. Frames \
                are paced on the monotonic clock: a frame that cannot be shown in its slot is \
                counted dropped and the animation keeps its speed. Only what changed is drawn.

                Runs until SIGTERM or SIGINT (or --frames, --duration), then restores the \
                console and the display and exits 0. SIGUSR1 prints the frame statistics on \
                standard error while it runs. Exit statuses: 64 a wrong command line, 66 no \
                such device, 69 a device that cannot be used, 74 an I/O error while running, \
                77 permission denied. For example:

                  fbanim --device /dev/fb0 ring
                  fbanim --device sim:320x240:rgb565?clock=virtual --frames 90 --stats json radar
                """
        case .render:
            return """
                Draws the loader as it looks --time seconds after it appeared, in the pixel \
                format --format, and writes that frame to --output as PNG or binary PPM (P6, \
                8 bits a channel), chosen by the file's extension. The loader testpattern is \
                the picture of 'fbanim testpattern' (--scale, --color, --background, \
                --message and --progress do not change it). For example:

                  fbanim render ring --size 240x240 --time 1.5 --output ring.png
                  fbanim render testpattern --size 320x240 --time 0 --output tp.png
                """
        case .devices: return devicesDiscussion
        case .testpattern: return testPatternDiscussion
        case .splash: return splashDiscussion
        case .ctl: return ctlDiscussion
        case .restoreConsole:
            return """
                Switches the active virtual terminal (/dev/tty0) back to text mode and shows its \
                cursor, and removes what the splash leaves only when it dies (a psplash FIFO \
                nobody reads, a /run/plymouth/pid naming a process that is gone): what a \
                splash does when it ends, for when it could not (killed with SIGKILL). The \
                splash's systemd unit runs it after an abnormal exit. Does nothing where there \
                is no virtual terminal or nothing was left.
                """
        }
    }
}
