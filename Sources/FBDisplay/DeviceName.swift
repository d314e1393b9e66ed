import FBRaster

/// A `--device` value, parsed (`shared/spec/cli.md`).
public enum DeviceName: Equatable, Sendable {
    /// `/dev/fbN` or another path to a framebuffer device.
    case fbdev(String)
    /// `/dev/dri/cardN`.
    case drm(String)
    /// `sim:WxH[:FORMAT][?key=value&...]`.
    case simulated(SimulatedDisplay.Options)
    /// `term`: the terminal fbanim runs in.
    case terminal

    /// Why a `--device` value is not understood: one line, naming the bad part.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ text: String) throws(ParseError) -> DeviceName {
        if text == "term" { return .terminal }
        if text.hasPrefix("sim:") { return .simulated(try SimulatedDisplay.Options.parse(text)) }
        if text.hasPrefix("/dev/dri/") { return .drm(text) }
        if text.hasPrefix("/") { return .fbdev(text) }
        throw ParseError(
            description:
                "unknown device '\(text)': expected /dev/fbN, /dev/dri/cardN, sim:WxH[:FORMAT] or term"
        )
    }
}
