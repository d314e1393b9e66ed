import FBAnimation
import FBDisplay
import FBRaster

/// How `--stats` prints the books at exit.
enum StatsFormat: String, Sendable {
    case json, text
}

/// Largest `--fps`.
let maximumFPS = 240

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
            try BoardProfile.load(word)
        }
        try self.init(checked: profile?.filling(commandLine) ?? commandLine, for: command)
        if let profile, commandLine[.device] == nil { boardPath = profile.path }
    }

    /// Checks and converts words already merged from every source (for
    /// `splash`: a missing loader is the ring).
    init(checked parsed: ParsedCommandLine, for command: Command) throws(CLIError) {
        func value<T>(_ key: OptionKey, _ parse: (String) throws(InvalidValue) -> T)
            throws(CLIError) -> T?
        { try parsed.value(key, for: command, parse) }
        let loader = try parsed.loader(for: command)
        let device = try value(.device, parseDevice)
        let fps = try value(.fps, parseFPS)
        let frames = try value(.frames, parseFrameCount)
        let duration = try value(.duration, parseDuration)
        let scale = try value(.scale, parseScale)
        let color = try value(.color, parseColor)
        let background = try value(.background, parseColor)
        let rotation = try value(.rotate, parseRotation)
        let stats = try value(.stats, parseStatsFormat)
        let text = try TextRequest(parsed, for: command)
        // Only a board profile sets these for play (render's --format and --size are its own).
        format = try value(.format, parsePixelFormat)
        size = try value(.size, parseSize)
        try checkRequired(parsed, for: command)
        guard let loader = loader ?? (command == .play ? nil : .ring) else {
            preconditionFailure("play: the loader slipped through")
        }

        self.loader = loader
        self.device = device
        if let fps { self.fps = fps }
        self.frames = frames
        self.duration = duration
        if let scale {
            style.scale = scale
            scaleGiven = true
        }
        style.color = color
        if let background { style.background = background }
        if let rotation { style.rotation = rotation }
        self.stats = stats
        self.text = text
    }
}

/// `--message`, `--font`, `--text-color`, checked.
struct TextRequest: Sendable {
    var message: String?
    var fontPath: String?
    var color: Color?

    init() {}

    init(_ parsed: ParsedCommandLine, for command: Command) throws(CLIError) {
        message = try parsed.value(.message, for: command, parseText)
        fontPath = try parsed.value(.font, for: command, parseText)
        color = try parsed.value(.textColor, for: command, parseColor)
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

/// Parses `--fps`: a whole number from 1 to 240.
func parseFPS(_ word: String) throws(InvalidValue) -> Int {
    guard word.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(word),
        (1...maximumFPS).contains(n)
    else {
        throw InvalidValue("expected a whole number of frames per second from 1 to \(maximumFPS)")
    }
    return n
}

/// Parses `--frames`: a whole number of slots, at least 1.
func parseFrameCount(_ word: String) throws(InvalidValue) -> Int {
    guard word.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(word), n >= 1,
        n <= 1_000_000_000
    else { throw InvalidValue("expected a whole number of frames from 1 to 1000000000") }
    return n
}

/// Parses `--duration`: seconds, more than 0, at most 1e9.
func parseDuration(_ word: String) throws(InvalidValue) -> Double {
    guard let seconds = parseDecimal(word) else {
        throw InvalidValue("expected a number of seconds, as in 2.5")
    }
    guard seconds > 0, seconds <= maximumTime else {
        throw InvalidValue("duration must be more than 0 and at most 1e9 seconds")
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
