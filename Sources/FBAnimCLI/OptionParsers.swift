import FBAnimation
import FBDisplay
import FBImage
import FBRaster

/// An option's one parser: how its word becomes a value, or why it cannot.
///
/// The option table's parser column. Play, render, splash, ctl and board
/// profiles read an option's value only through its parser here, so a key
/// is tied to its parser in exactly one place.
struct OptionParser<Value>: Sendable {
    let key: OptionKey
    let parse: @Sendable (String) throws(InvalidValue) -> Value

    init(_ key: OptionKey, _ parse: @escaping @Sendable (String) throws(InvalidValue) -> Value) {
        self.key = key
        self.parse = parse
    }
}

/// The ranges options accept: parsers check them and the option table
/// states them in help, from these numbers only.
enum Limits {
    /// `--fps`, frames per second.
    static let fps = 1...240
    /// `--frames`, slots.
    static let frames = 1...1_000_000_000
    /// `render --size`, pixels a side.
    static let frameSide = 1...8192
    /// `--scale`: more than 0, at most this.
    static let scale = 64.0
    /// `--time`, `--duration`, `--wait`, `--timeout`: seconds, at most this
    /// (about 31 years: far past any boot).
    static let seconds = 1e9
    /// `render --progress`, percent.
    static let progress = 0...100
}

/// The parser of every option that takes a value.
enum Parsers {
    static let device = OptionParser(.device, parseDevice)
    static let size = OptionParser(.size, parseSize)
    static let time = OptionParser(.time, parseTime)
    static let output = OptionParser(.output, parseOutputFormat)
    static let format = OptionParser(.format, parsePixelFormat)
    static let fps = OptionParser(.fps, parseFPS)
    static let frames = OptionParser(.frames, parseFrameCount)
    static let duration = OptionParser(.duration, parseDuration)
    static let scale = OptionParser(.scale, parseScale)
    static let color = OptionParser(.color, parseColor)
    static let background = OptionParser(.background, parseColor)
    static let rotate = OptionParser(.rotate, parseRotation)
    static let board = OptionParser(.board, parseBoardName)
    static let stats = OptionParser(.stats, parseStatsFormat)
    static let message = OptionParser(.message, parseText)
    static let font = OptionParser(.font, parseText)
    static let textColor = OptionParser(.textColor, parseColor)
    static let progress = OptionParser(.progress, parseProgress)
    static let mode = OptionParser(.mode, parseSplashMode)
    static let wait = OptionParser(.wait, parseDuration)
    static let config = OptionParser(.config, parseText)
    static let ctlGroup = OptionParser(.ctlGroup, parseBoardName)
    static let timeout = OptionParser(.timeout, parseDuration)
}

extension ParsedCommandLine {
    /// The value of `parser`'s option, checked and converted, or `nil` when
    /// the option was not given.
    /// - Throws: `CLIError.usage` naming the bad word and the option.
    func value<T>(_ parser: OptionParser<T>, for command: Command) throws(CLIError) -> T? {
        guard let word = self[parser.key] else { return nil }
        do {
            return try parser.parse(word)
        } catch {
            throw invalid(word, OptionTable.spec(parser.key).synopsis, error, for: command)
        }
    }
}
