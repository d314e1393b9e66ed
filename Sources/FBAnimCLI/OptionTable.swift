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

/// One option: everything parsing, checking, help and error messages need to know.
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
    /// The explanation: meaning and unit.
    let help: String
    /// The values it accepts, as help states them after `help` (`From 1 to
    /// 240.`), made from the `Limits` its parser checks; `nil` when `help`
    /// lists them.
    let accepts: String?
    /// The value used when the option is absent, shown as `(default: ...)`.
    let defaultValue: String?
    /// Runs the option's parser on a word (board profiles check their
    /// values before use); `nil` for a flag.
    let check: (@Sendable (String) throws(InvalidValue) -> Void)?

    /// An option with a value, read by `parser`.
    init<Value>(
        _ parser: OptionParser<Value>, short: Character? = nil, valueName: String,
        commands: Set<Command>, isRequired: Bool = false, help: String, accepts: String? = nil,
        defaultValue: String? = nil
    ) {
        key = parser.key
        self.short = short
        self.valueName = valueName
        self.commands = commands
        self.isRequired = isRequired
        self.help = help
        self.accepts = accepts
        self.defaultValue = defaultValue
        check = { word throws(InvalidValue) in _ = try parser.parse(word) }
    }

    /// A flag: an option without a value.
    init(flag key: OptionKey, short: Character? = nil, commands: Set<Command>, help: String) {
        self.key = key
        self.short = short
        valueName = nil
        self.commands = commands
        isRequired = false
        self.help = help
        accepts = nil
        defaultValue = nil
        check = nil
    }

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
            Parsers.device, valueName: "device",
            commands: [.play, .splash, .testpattern],
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
                """),
        OptionSpec(
            Parsers.size, valueName: "WxH", commands: [.render], isRequired: true,
            help: "Width and height of the frame in pixels, as in 240x240.",
            accepts: "Each \(Limits.frameSide.lowerBound) to \(Limits.frameSide.upperBound)."),
        OptionSpec(
            Parsers.time, valueName: "seconds", commands: [.render], isRequired: true,
            help: """
                Seconds since the loader appeared: the moment of the animation to draw, \
                fractions allowed, as in 1.25.
                """, accepts: "From 0 to \(shownLimit(Limits.seconds))."),
        OptionSpec(
            Parsers.output, valueName: "file", commands: [.render], isRequired: true,
            help: """
                The file to write; its extension chooses the format: .png for PNG, .ppm for \
                binary PPM. It is written to a temporary file in the same directory, then \
                renamed into place, so it is never left half-written.
                """),
        OptionSpec(
            Parsers.format, valueName: "format", commands: [.render],
            help: """
                The pixel format the frame is drawn in, as a display of that format would show \
                it, before conversion to the file's 8-bit RGB: rgb565, bgr565, xrgb8888, \
                xbgr8888, argb8888 or rgb888. 16-bit formats are dithered.
                """, defaultValue: "xrgb8888"),
        OptionSpec(
            Parsers.fps, valueName: "n", commands: [.play, .splash, .testpattern],
            help: "Target frame rate, in frames per second.",
            accepts: "From \(Limits.fps.lowerBound) to \(Limits.fps.upperBound).",
            defaultValue: "30"),
        OptionSpec(
            Parsers.frames, valueName: "n", commands: [.play, .splash, .testpattern],
            help: """
                Stop after this many frame slots (1/fps seconds each, whether a frame was \
                shown in it or dropped).
                """, accepts: "From \(Limits.frames.lowerBound) to \(Limits.frames.upperBound)."),
        OptionSpec(
            Parsers.duration, valueName: "seconds",
            commands: [.play, .splash, .testpattern],
            help: """
                Stop after this many seconds (of the display's clock: virtual seconds with \
                clock=virtual).
                """, accepts: "More than 0, at most \(shownLimit(Limits.seconds))."),
        OptionSpec(
            Parsers.scale, valueName: "x", commands: [.play, .render, .splash],
            help: """
                Size of the loader, in pixels per design point: every length of the loader's \
                design is multiplied by it, so 2 draws it twice as large.
                """, accepts: "More than 0, at most \(shownLimit(Limits.scale)).", defaultValue: "1"
        ),
        OptionSpec(
            Parsers.color, valueName: "RRGGBB", commands: [.play, .render, .splash],
            help: """
                Replaces the loader's main colour, keeping the spec's alpha: ring, the progress \
                arc; radar, the border and the sweep; orbit, the hearts; spinner, the current \
                leaf. Six hex digits, an optional leading '#'. Without it each loader keeps its \
                own colours.
                """),
        OptionSpec(
            Parsers.background, valueName: "RRGGBB", commands: [.play, .render, .splash],
            help: """
                The opaque colour behind the loader: six hex digits, an optional leading '#'.
                """, defaultValue: "000000"),
        OptionSpec(
            Parsers.rotate, valueName: "degrees",
            commands: [.play, .render, .splash, .testpattern],
            help: """
                Rotates the whole picture clockwise in the framebuffer, for panels mounted \
                sideways: 0, 90, 180 or 270.
                """, defaultValue: "0"),
        OptionSpec(
            Parsers.board, valueName: "name|file",
            commands: [.play, .splash, .testpattern],
            help: """
                Take defaults (device, pixel format, rotation, frame rate, scale, colours) from \
                a board profile in boards/ or a file (see 'fbanim devices' to choose one); \
                options on the command line win.
                """),
        OptionSpec(
            Parsers.stats, valueName: "json|text",
            commands: [.play, .splash, .testpattern],
            help: """
                On exit, print the frame statistics: json as one object on standard output \
                (frames_presented, frames_dropped, frames_late, fps_target, fps_achieved, \
                duration_s, frame_ms with p50, p99 and max: the time to draw and present a \
                frame; frames_unchanged: the dropped slots in which nothing changed; \
                draw_cpu_ms and draw_cpu_s: the CPU time frames took), text for a person on \
                standard error.
                """),
        OptionSpec(
            Parsers.message, valueName: "text", commands: [.play, .render, .splash],
            help: """
                A line of text shown below the loader, centred (moved up over the loader on \
                small screens), cut with an ellipsis when wider than the screen.
                """),
        OptionSpec(
            Parsers.font, valueName: "file", commands: [.play, .render, .splash],
            help: """
                The message's font: TrueType/OpenType, or a PSF1/PSF2 console font (gzipped or \
                not, as in /usr/share/consolefonts). Without it, the font built into fbanim.
                """),
        OptionSpec(
            Parsers.textColor, valueName: "RRGGBB", commands: [.play, .render, .splash],
            help: "The message's colour (drawn at opacity 0.9): six hex digits.",
            defaultValue: "FFFFFF"),
        OptionSpec(
            Parsers.progress, valueName: "percent", commands: [.render],
            help: """
                Draws the ring at this progress, settled, instead of its own clock, as a splash \
                shows the boot's progress.
                """,
            accepts: "From \(Limits.progress.lowerBound) to \(Limits.progress.upperBound)."),
        OptionSpec(
            Parsers.mode, valueName: "mode", commands: [.splash],
            help: """
                boot (progress from the boot, learned from the last one), shutdown or reboot \
                (the last frame stays until the power goes off), or update (progress from \
                the updater).
                """, defaultValue: "boot"),
        OptionSpec(
            Parsers.wait, valueName: "seconds", commands: [.splash],
            help: """
                Give up (exit 66) when no display has appeared after this long. Without it the \
                splash waits as long as the boot takes.
                """, accepts: "More than 0, at most \(shownLimit(Limits.seconds))."),
        OptionSpec(
            Parsers.config, valueName: "file", commands: [.splash],
            help: """
                The configuration file (board profile format: board, loader, fps, colours, \
                font, message...). A bad line is logged and skipped.
                """, defaultValue: "/etc/fbanim/fbanim.conf"),
        OptionSpec(
            Parsers.ctlGroup, valueName: "group", commands: [.splash],
            help: """
                Also take commands (fbanim ctl, plymouth) from members of this group, as video; \
                otherwise root only.
                """),
        OptionSpec(
            flag: .checkPlymouth, commands: [.splash],
            help: """
                Only check whether Plymouth is installed and enabled: exit 1 (saying so) when it \
                is, so fbanim stands down; 0 when fbanim should run. For ExecCondition=.
                """),
        OptionSpec(
            flag: .retain, commands: [.ctl],
            help: """
                With quit: leave the last frame on the screen and the console in graphics mode \
                for the next program.
                """),
        OptionSpec(
            Parsers.timeout, valueName: "seconds", commands: [.ctl],
            help: "How long to wait for the splash's answer (wait: for it to exit).",
            accepts: "More than 0, at most \(shownLimit(Limits.seconds)).",
            defaultValue: "30, wait: no limit"),
        OptionSpec(
            flag: .help, short: "h", commands: Set(Command.allCases),
            help: "Show help information."),
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
        // One pass, and no string made a comparison (a filtered copy of
        // the table and `--name` built for every entry: 130k instructions
        // a play's command line).
        let long = word.hasPrefix("--") ? word.dropFirst(2) : nil
        let short = word.count == 2 && word.first == "-" ? word.last : nil
        return options.first { spec in
            (long.map { $0 == spec.key.rawValue } ?? (short != nil && short == spec.short))
                && spec.commands.contains(command)
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

/// A limit as help and errors write it: `64`, `1e9` (a power of ten from
/// a million on).
func shownLimit(_ value: Double) -> String {
    var mantissa = value
    var exponent = 0
    while mantissa >= 10, mantissa.truncatingRemainder(dividingBy: 10) == 0 {
        mantissa /= 10
        exponent += 1
    }
    return mantissa == 1 && exponent >= 6 ? "1e\(exponent)" : "\(Int(value))"
}
