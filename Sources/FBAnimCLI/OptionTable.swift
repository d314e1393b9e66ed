/// The options fbanim knows, by their long name without `--`.
enum OptionKey: String, CaseIterable, Sendable {
    case size, time, output, format
    case device, fps, frames, duration, board, stats
    case scale, color, background, rotate
    case message, font
    case textColor = "text-color"
    case progress
    case mode, wait, config
    case checkPlymouth = "check-plymouth"
    case ctlGroup = "ctl-group"
    case retain, timeout
    case help
}

/// One option: everything parsing, help and error messages need to know.
struct OptionSpec: Sendable {
    let key: OptionKey
    /// A one-letter alias, as in `-h`.
    let short: Character?
    /// What the value is called in help and errors (`WxH`); `nil` for a flag.
    let valueName: String?
    /// The commands that accept the option.
    let commands: Set<Command>
    /// Whether the command fails without it.
    let isRequired: Bool
    /// The explanation: meaning, unit, range.
    let help: String
    /// The value used when the option is absent, shown as `(default: ...)`.
    let defaultValue: String?

    /// `--name`.
    var longName: String { "--" + key.rawValue }

    /// `--name <value>`, as usage lines and errors show the option.
    var synopsis: String { valueName.map { "\(longName) <\($0)>" } ?? longName }

    /// `-h, --help` or `--size <WxH>`, as the help's option list shows it.
    var label: String { short.map { "-\($0), " + synopsis } ?? synopsis }
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    let name: String
    let commands: Set<Command>
    let help: String
    /// Whether the command runs without it (arguments after an optional one are optional too).
    var isOptional = false

    /// `<name>`.
    var synopsis: String { "<\(name)>" }
}

/// The one table of fbanim's command line: parsing, help and errors all read it.
enum OptionTable {
    static let arguments: [ArgumentSpec] = [
        ArgumentSpec(
            name: "loader", commands: [.play],
            help: "The loader to draw: ring, radar, spinner or orbit."),
        ArgumentSpec(
            name: "loader", commands: [.render],
            help: """
                The loader to draw: ring, radar, spinner or orbit; or testpattern, the picture \
                of 'fbanim testpattern'.
                """),
        ArgumentSpec(
            name: "loader", commands: [.splash],
            help: """
                The loader: ring (filled by the boot's progress), radar, spinner or orbit. \
                Default: the one fbanim.conf, fbanim.loader= or the board names, else ring.
                """, isOptional: true),
        ArgumentSpec(
            name: "command", commands: [.ctl],
            help: """
                progress N (0 to 100), message TEXT, hide-message, quit [--retain], deactivate, \
                reactivate, ping, wait, or newroot DIR.
                """),
        ArgumentSpec(
            name: "value", commands: [.ctl],
            help: "The value of progress, message and newroot.", isOptional: true),
    ]

    /// Every option, in the order help lists them.
    static let options: [OptionSpec] = [
        OptionSpec(
            key: .device, short: nil, valueName: "device",
            commands: [.play, .splash, .testpattern], isRequired: false,
            help: """
                The display: /dev/fbN (a Linux framebuffer), /dev/dri/cardN (DRM/KMS), \
                drm:DRIVER[:CONNECTOR] (the DRM device of that driver, as drm:vc4:DSI-1), fb:ID \
                (the framebuffer with that id, as fb:fb_ili9340), a link to one \
                (/dev/dri/by-path/...), term (this terminal, in 24-bit colour half blocks, \
                fitted to its size) or \
                sim:WxH[:FORMAT][?key=value&...], a display in memory (FORMAT as in render, \
                default xrgb8888; keys refresh=HZ, default 60; present_ms=MS, how long a \
                present takes, default 0; clock=virtual, a clock of its own that jumps instead \
                of sleeping, on which drawing takes the CPU time it took). By default the first DRM device with a connected output, else \
                /dev/fb0, else the terminal.
                """, defaultValue: nil),
        OptionSpec(
            key: .size, short: nil, valueName: "WxH", commands: [.render], isRequired: true,
            help: "Width and height of the frame in pixels, each from 1 to 8192, as in 240x240.",
            defaultValue: nil),
        OptionSpec(
            key: .time, short: nil, valueName: "seconds", commands: [.render], isRequired: true,
            help: """
                Seconds since the loader appeared: the moment of the animation to draw. From 0 \
                to 1e9, fractions allowed, as in 1.25.
                """, defaultValue: nil),
        OptionSpec(
            key: .output, short: nil, valueName: "file", commands: [.render], isRequired: true,
            help: """
                The file to write; its extension chooses the format: .png for PNG, .ppm for \
                binary PPM. It is written to a temporary file in the same directory, then \
                renamed into place, so it is never left half-written.
                """, defaultValue: nil),
        OptionSpec(
            key: .format, short: nil, valueName: "format", commands: [.render], isRequired: false,
            help: """
                The pixel format the frame is drawn in, as a display of that format would show \
                it, before conversion to the file's 8-bit RGB: rgb565, bgr565, xrgb8888, \
                xbgr8888, argb8888 or rgb888. 16-bit formats are dithered.
                """, defaultValue: "xrgb8888"),
        OptionSpec(
            key: .fps, short: nil, valueName: "n", commands: [.play, .splash, .testpattern],
            isRequired: false,
            help: "Target frame rate, in frames per second, from 1 to 240.", defaultValue: "30"),
        OptionSpec(
            key: .frames, short: nil, valueName: "n", commands: [.play, .splash, .testpattern],
            isRequired: false,
            help: """
                Stop after this many frame slots (1/fps seconds each, whether a frame was \
                shown in it or dropped).
                """, defaultValue: nil),
        OptionSpec(
            key: .duration, short: nil, valueName: "seconds",
            commands: [.play, .splash, .testpattern],
            isRequired: false,
            help: """
                Stop after this many seconds (of the display's clock: virtual seconds with \
                clock=virtual).
                """, defaultValue: nil),
        OptionSpec(
            key: .scale, short: nil, valueName: "x", commands: [.play, .render, .splash],
            isRequired: false,
            help: """
                Size of the loader, in pixels per design point: every length of the loader's \
                design is multiplied by it, so 2 draws it twice as large. Greater than 0, at \
                most 64.
                """, defaultValue: "1"),
        OptionSpec(
            key: .color, short: nil, valueName: "RRGGBB", commands: [.play, .render, .splash],
            isRequired: false,
            help: """
                Replaces the loader's main colour, keeping the spec's alpha: ring, the progress \
                arc; radar, the border and the sweep; orbit, the hearts; spinner, the current \
                leaf. Six hex digits, an optional leading '#'. Without it each loader keeps its \
                own colours.
                """, defaultValue: nil),
        OptionSpec(
            key: .background, short: nil, valueName: "RRGGBB", commands: [.play, .render, .splash],
            isRequired: false,
            help: """
                The opaque colour behind the loader: six hex digits, an optional leading '#'.
                """, defaultValue: "000000"),
        OptionSpec(
            key: .rotate, short: nil, valueName: "degrees",
            commands: [.play, .render, .splash, .testpattern],
            isRequired: false,
            help: """
                Rotates the whole picture clockwise in the framebuffer, for panels mounted \
                sideways: 0, 90, 180 or 270.
                """, defaultValue: "0"),
        OptionSpec(
            key: .board, short: nil, valueName: "name|file",
            commands: [.play, .splash, .testpattern], isRequired: false,
            help: """
                Take defaults (device, pixel format, rotation, frame rate, scale, colours) from \
                a board profile in boards/ or a file (see 'fbanim devices' to choose one); \
                options on the command line win.
                """, defaultValue: nil),
        OptionSpec(
            key: .stats, short: nil, valueName: "json|text",
            commands: [.play, .splash, .testpattern], isRequired: false,
            help: """
                On exit, print the frame statistics: json as one object on standard output \
                (frames_presented, frames_dropped, frames_late, fps_target, fps_achieved, \
                duration_s, frame_ms with p50, p99 and max: the time to draw and present a \
                frame; frames_unchanged: the dropped slots in which nothing changed; \
                draw_cpu_ms and draw_cpu_s: the CPU time drawing took), text for a person on \
                standard error.
                """, defaultValue: nil),
        OptionSpec(
            key: .message, short: nil, valueName: "text", commands: [.play, .render, .splash],
            isRequired: false,
            help: """
                A line of text shown below the loader, centred (moved up over the loader on \
                small screens), cut with an ellipsis when wider than the screen.
                """, defaultValue: nil),
        OptionSpec(
            key: .font, short: nil, valueName: "file", commands: [.play, .render, .splash],
            isRequired: false,
            help: """
                The message's font: TrueType/OpenType, or a PSF1/PSF2 console font (gzipped or \
                not, as in /usr/share/consolefonts). Without it, the font built into fbanim.
                """, defaultValue: nil),
        OptionSpec(
            key: .textColor, short: nil, valueName: "RRGGBB", commands: [.play, .render, .splash],
            isRequired: false,
            help: "The message's colour (drawn at opacity 0.9): six hex digits.",
            defaultValue: "FFFFFF"),
        OptionSpec(
            key: .progress, short: nil, valueName: "percent", commands: [.render],
            isRequired: false,
            help: """
                Draws the ring at this progress (0 to 100, settled) instead of its own clock, as \
                a splash shows the boot's progress.
                """, defaultValue: nil),
        OptionSpec(
            key: .mode, short: nil, valueName: "mode", commands: [.splash], isRequired: false,
            help: """
                boot (progress from the boot, learned from the last one), shutdown or reboot \
                (the last frame stays until the power goes off), or update (progress from \
                the updater).
                """, defaultValue: "boot"),
        OptionSpec(
            key: .wait, short: nil, valueName: "seconds", commands: [.splash], isRequired: false,
            help: """
                Give up (exit 66) when no display has appeared after this long. Without it the \
                splash waits as long as the boot takes.
                """, defaultValue: nil),
        OptionSpec(
            key: .config, short: nil, valueName: "file", commands: [.splash], isRequired: false,
            help: """
                The configuration file (board profile format: board, loader, fps, colours, \
                font, message...). A bad line is logged and skipped.
                """, defaultValue: "/etc/fbanim/fbanim.conf"),
        OptionSpec(
            key: .ctlGroup, short: nil, valueName: "group", commands: [.splash], isRequired: false,
            help: """
                Also take commands (fbanim ctl, plymouth) from members of this group, as video; \
                otherwise root only.
                """, defaultValue: nil),
        OptionSpec(
            key: .checkPlymouth, short: nil, valueName: nil, commands: [.splash],
            isRequired: false,
            help: """
                Only check whether Plymouth is installed and enabled: exit 1 (saying so) when it \
                is, so fbanim stands down; 0 when fbanim should run. For ExecCondition=.
                """, defaultValue: nil),
        OptionSpec(
            key: .retain, short: nil, valueName: nil, commands: [.ctl], isRequired: false,
            help: """
                With quit: leave the last frame on the screen and the console in graphics mode \
                for the next program.
                """, defaultValue: nil),
        OptionSpec(
            key: .timeout, short: nil, valueName: "seconds", commands: [.ctl], isRequired: false,
            help: "How long to wait for the splash's answer (wait: for it to exit).",
            defaultValue: "30, wait: no limit"),
        OptionSpec(
            key: .help, short: "h", valueName: nil, commands: Set(Command.allCases),
            isRequired: false, help: "Show help information.", defaultValue: nil),
    ]

    /// The options `command` accepts, in help order.
    static func options(for command: Command) -> [OptionSpec] {
        options.filter { $0.commands.contains(command) }
    }

    /// The positional arguments `command` takes, in order.
    static func arguments(for command: Command) -> [ArgumentSpec] {
        arguments.filter { $0.commands.contains(command) }
    }

    /// The option `command` accepts under `--name` or `-n`, or `nil`.
    static func option(named word: Substring, for command: Command) -> OptionSpec? {
        options(for: command).first { spec in
            word == spec.longName || spec.short.map { word == "-\($0)" } == true
        }
    }

    /// The option with that key (every key has exactly one entry).
    static func spec(_ key: OptionKey) -> OptionSpec {
        guard let spec = options.first(where: { $0.key == key }) else {
            preconditionFailure("OptionTable lacks --\(key.rawValue)")
        }
        return spec
    }
}
