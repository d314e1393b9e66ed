import FBAnimation
import FBDisplay
import FBRaster

/// How `--stats` prints the books at exit.
enum StatsFormat: String, Sendable {
    case json, text
}

/// Everything `fbanim [--device DEVICE] LOADER` (and `fbanim splash`) needs, checked.
struct PlayRequest: Sendable {
    var loader: LoaderKind
    var device: DeviceName?
    var fps = 30
    /// Stop after this many slots.
    var frames: Int?
    /// Stop after this many seconds.
    var duration: Double?
    var style = LoaderStyle()
    /// Whether `--scale` was given (a terminal otherwise fits the loader to its size).
    var scaleGiven = false
    var stats: StatsFormat?
    /// The message line, its font file and colour.
    var text = TextRequest()
    /// A board profile's `format`: the pixel format to draw in where the
    /// device lets fbanim choose (DRM), else the one it should have.
    var format: PixelFormat?
    /// A board profile's `size`: the picture size the device should have.
    var size: (width: Int, height: Int)?
    /// The board profile the device came from, when it did: its `size` and
    /// `format` are checked against the display then.
    var boardPath: String?

    /// Checks and converts the words of a play command line.
    /// - Throws: `CLIError.usage` naming the first bad word.
    init(_ commandLine: ParsedCommandLine, for command: Command = .play) throws(CLIError) {
        // A board profile fills in what the command line leaves out.
        let profile = try commandLine[.board].map { word throws(CLIError) in
            try BoardProfile.load(word, deviceGiven: commandLine[.device] != nil)
        }
        try self.init(checked: profile?.filling(commandLine) ?? commandLine, for: command)
        if let profile, commandLine[.device] == nil { boardPath = profile.path }
    }

    /// Checks and converts words already merged from every source (for
    /// `splash`: a missing loader is the ring).
    init(checked parsed: ParsedCommandLine, for command: Command) throws(CLIError) {
        func value<T>(_ parser: OptionParser<T>) throws(CLIError) -> T? {
            try parsed.value(parser, for: command)
        }
        let loader = try parsed.loader(for: command)
        let device = try value(Parsers.device)
        let fps = try value(Parsers.fps)
        let frames = try value(Parsers.frames)
        let duration = try value(Parsers.duration)
        let look = try StyleRequest(parsed, for: command)
        let stats = try value(Parsers.stats)
        let text = try TextRequest(parsed, for: command)
        // Only a board profile sets these for play (render's --format and --size are its own).
        format = try value(Parsers.format)
        size = try value(Parsers.size)
        try checkRequired(parsed, for: command)
        guard let loader = loader ?? (command == .play ? nil : .ring) else {
            preconditionFailure("play: the loader slipped through")
        }

        self.loader = loader
        self.device = device
        if let fps { self.fps = fps }
        self.frames = frames
        self.duration = duration
        style = look.style
        scaleGiven = look.scaleGiven
        self.stats = stats
        self.text = text
    }
}

/// `--scale`, `--color`, `--background`, `--rotate`, checked (in that
/// order), over the default look.
struct StyleRequest: Sendable {
    var style = LoaderStyle()
    /// Whether `--scale` was given.
    var scaleGiven = false

    init(_ parsed: ParsedCommandLine, for command: Command) throws(CLIError) {
        if let scale = try parsed.value(Parsers.scale, for: command) {
            style.scale = scale
            scaleGiven = true
        }
        style.color = try parsed.value(Parsers.color, for: command)
        if let background = try parsed.value(Parsers.background, for: command) {
            style.background = background
        }
        if let rotation = try parsed.value(Parsers.rotate, for: command) {
            style.rotation = rotation
        }
    }
}

/// `--message`, `--font`, `--text-color`, checked.
struct TextRequest: Sendable {
    var message: String?
    var fontPath: String?
    var color: Color?

    init() {}

    init(_ parsed: ParsedCommandLine, for command: Command) throws(CLIError) {
        message = try parsed.value(Parsers.message, for: command)
        fontPath = try parsed.value(Parsers.font, for: command)
        color = try parsed.value(Parsers.textColor, for: command)
    }
}

/// Parses `--device` (`shared/spec/cli.md`).
func parseDevice(_ word: String) throws(InvalidValue) -> DeviceName {
    do {
        return try DeviceName.parse(word)
    } catch {
        throw InvalidValue(error.description)
    }
}

/// Parses `--fps`: a whole number in `Limits.fps`.
func parseFPS(_ word: String) throws(InvalidValue) -> Int {
    guard word.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(word), Limits.fps.contains(n)
    else {
        throw InvalidValue(
            "expected a whole number of frames per second from \(Limits.fps.lowerBound) to "
                + "\(Limits.fps.upperBound)")
    }
    return n
}

/// Parses `--frames`: a whole number of slots in `Limits.frames`.
func parseFrameCount(_ word: String) throws(InvalidValue) -> Int {
    guard word.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(word),
        Limits.frames.contains(n)
    else {
        throw InvalidValue(
            "expected a whole number of frames from \(Limits.frames.lowerBound) to "
                + "\(Limits.frames.upperBound)")
    }
    return n
}

/// Parses `--duration` (and `--wait`, `--timeout`): seconds, more than 0, at most `Limits.seconds`.
func parseDuration(_ word: String) throws(InvalidValue) -> Double {
    guard let seconds = parseDecimal(word) else {
        throw InvalidValue("expected a number of seconds, as in 2.5")
    }
    guard seconds > 0, seconds <= Limits.seconds else {
        throw InvalidValue(
            "duration must be more than 0 and at most \(shownLimit(Limits.seconds)) seconds")
    }
    return seconds
}

/// Parses `--stats`: `json` or `text`.
func parseStatsFormat(_ word: String) throws(InvalidValue) -> StatsFormat {
    guard let format = StatsFormat(rawValue: word) else {
        throw InvalidValue("expected 'json' or 'text'")
    }
    return format
}
