/// The commands of fbanim's command line.
enum Command: String, CaseIterable, Sendable {
    /// `fbanim [--device DEVICE] [options] LOADER`.
    case play
    /// `fbanim render LOADER --size WxH --time T --output FILE [options]`.
    case render
    /// `fbanim devices`: lists the displays fbanim finds (DevicesCommand.swift).
    case devices

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
                8 bits a channel), chosen by the file's extension. For example:

                  fbanim render ring --size 240x240 --time 1.5 --output ring.png
                """
        case .devices: return devicesDiscussion
        }
    }
}

/// The options fbanim knows, by their long name without `--`.
enum OptionKey: String, CaseIterable, Sendable {
    case size, time, output, format
    case device, fps, frames, duration, board, stats
    case scale, color, background, rotate
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

/// A positional argument: only the loader so far.
struct ArgumentSpec: Sendable {
    let name: String
    let commands: Set<Command>
    let help: String

    /// `<name>`.
    var synopsis: String { "<\(name)>" }
}

/// The one table of fbanim's command line: parsing, help and errors all read it.
enum OptionTable {
    static let arguments: [ArgumentSpec] = [
        ArgumentSpec(
            name: "loader", commands: [.play, .render],
            help: "The loader to draw: ring, radar, spinner or orbit.")
    ]

    /// Every option, in the order help lists them.
    static let options: [OptionSpec] = [
        OptionSpec(
            key: .device, short: nil, valueName: "device", commands: [.play], isRequired: false,
            help: """
                The display: /dev/fbN (a Linux framebuffer), /dev/dri/cardN (DRM/KMS), term \
                (this terminal, in 24-bit colour half blocks, fitted to its size) or \
                sim:WxH[:FORMAT][?key=value&...], a display in memory (FORMAT as in render, \
                default xrgb8888; keys refresh=HZ, default 60; present_ms=MS, how long a \
                present takes, default 0; clock=virtual, a clock of its own that jumps instead \
                of sleeping). By default the first DRM device with a connected output, else \
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
            key: .fps, short: nil, valueName: "n", commands: [.play], isRequired: false,
            help: "Target frame rate, in frames per second, from 1 to 240.", defaultValue: "30"),
        OptionSpec(
            key: .frames, short: nil, valueName: "n", commands: [.play], isRequired: false,
            help: """
                Stop after this many frame slots (1/fps seconds each, whether a frame was \
                shown in it or dropped).
                """, defaultValue: nil),
        OptionSpec(
            key: .duration, short: nil, valueName: "seconds", commands: [.play],
            isRequired: false,
            help: """
                Stop after this many seconds (of the display's clock: virtual seconds with \
                clock=virtual).
                """, defaultValue: nil),
        OptionSpec(
            key: .scale, short: nil, valueName: "x", commands: [.play, .render], isRequired: false,
            help: """
                Size of the loader, in pixels per design point: every length of the loader's \
                design is multiplied by it, so 2 draws it twice as large. Greater than 0, at \
                most 64.
                """, defaultValue: "1"),
        OptionSpec(
            key: .color, short: nil, valueName: "RRGGBB", commands: [.play, .render],
            isRequired: false,
            help: """
                Replaces the loader's main colour, keeping the spec's alpha: ring, the progress \
                arc; radar, the border and the sweep; orbit, the hearts; spinner, the current \
                leaf. Six hex digits, an optional leading '#'. Without it each loader keeps its \
                own colours.
                """, defaultValue: nil),
        OptionSpec(
            key: .background, short: nil, valueName: "RRGGBB", commands: [.play, .render],
            isRequired: false,
            help: """
                The opaque colour behind the loader: six hex digits, an optional leading '#'.
                """, defaultValue: "000000"),
        OptionSpec(
            key: .rotate, short: nil, valueName: "degrees", commands: [.play, .render],
            isRequired: false,
            help: """
                Rotates the whole picture clockwise in the framebuffer, for panels mounted \
                sideways: 0, 90, 180 or 270.
                """, defaultValue: "0"),
        OptionSpec(
            key: .board, short: nil, valueName: "name|file", commands: [.play], isRequired: false,
            help: """
                Take defaults (device, rotation, frame rate, scale, colours) from a board \
                profile in boards/ or a file; options on the command line win.
                """, defaultValue: nil),
        OptionSpec(
            key: .stats, short: nil, valueName: "json|text", commands: [.play], isRequired: false,
            help: """
                On exit, print the frame statistics: json as one object on standard output \
                (frames_presented, frames_dropped, frames_late, fps_target, fps_achieved, \
                duration_s, frame_ms with p50, p99 and max: the time to draw and present a \
                frame), text for a person on standard error.
                """, defaultValue: nil),
        OptionSpec(
            key: .help, short: "h", valueName: nil, commands: [.play, .render, .devices],
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
