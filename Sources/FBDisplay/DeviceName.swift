import FBRaster

/// A `--device` value, parsed (`shared/spec/cli.md`, boot.md "Devices").
public enum DeviceName: Equatable, Sendable {
    /// `/dev/fbN` or another path to a framebuffer device.
    case fbdev(String)
    /// `/dev/dri/cardN`, or a path whose links lead to one
    /// (`/dev/dri/by-path/platform-gpu-card`).
    case drm(String)
    /// `drm:DRIVER` or `drm:DRIVER:CONNECTOR`: the DRM device whose driver
    /// is `DRIVER` (`vc4`, `panel-mipi-dbi`), on `CONNECTOR` only (`DSI-1`)
    /// when named, whatever its card number.
    case drmDriver(String, connector: String?)
    /// `fb:ID`: the fbdev whose id (`fb_fix_screeninfo.id`) is `ID` (`fb_ili9340`).
    case fbID(String)
    /// `sim:WxH[:FORMAT][?key=value&...]`.
    case simulated(SimulatedDisplay.Options)
    /// `term`: the terminal fbanim runs in.
    case terminal

    /// Why a `--device` value is not understood: one line, naming the bad part.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The longest device word taken (a path or a name); longer ones are an error.
    public static let maximumLength = 1024

    public static func parse(_ text: String) throws(ParseError) -> DeviceName {
        guard text.utf8.count <= maximumLength else {
            throw ParseError(description: "device name longer than \(maximumLength) bytes")
        }
        // A NUL would cut the path short where the kernel reads it (a
        // different file than the one named); no device name holds control
        // characters (C0, DEL, C1: a C1 CSI starts a terminal escape), line
        // breaks or a byte order mark.
        guard
            !text.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control
                    || $0.properties.isWhitespace && $0 != " " || $0 == "\u{2028}"
                    || $0 == "\u{2029}" || $0 == "\u{FEFF}"
            })
        else {
            throw ParseError(description: "device name with control characters or line breaks")
        }
        if text == "term" { return .terminal }
        if text.hasPrefix("sim:") { return .simulated(try SimulatedDisplay.Options.parse(text)) }
        if text.hasPrefix("drm:") {
            let parts = text.dropFirst(4).split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy(isNamePart) else {
                throw ParseError(
                    description:
                        "bad device '\(text)': expected drm:DRIVER or drm:DRIVER:CONNECTOR, as in "
                        + "drm:vc4:HDMI-A-1")
            }
            return .drmDriver(
                String(parts[0]), connector: parts.count == 2 ? String(parts[1]) : nil)
        }
        if text.hasPrefix("fb:") {
            let id = text.dropFirst(3)
            // fb_fix_screeninfo.id is 16 bytes with its NUL.
            guard !id.isEmpty, id.utf8.count <= 15, !id.contains(where: { $0.isNewline }) else {
                throw ParseError(
                    description:
                        "bad device '\(text)': expected fb:ID with the fbdev's id, as in fb:fb_ili9340"
                )
            }
            return .fbID(String(id))
        }
        if text.hasPrefix("/dev/dri/") { return .drm(text) }
        if text.hasPrefix("/") { return .fbdev(text) }
        throw ParseError(
            description:
                "unknown device '\(text)': expected /dev/fbN, /dev/dri/cardN, drm:DRIVER[:CONNECTOR], "
                + "fb:ID, sim:WxH[:FORMAT] or term"
        )
    }

    /// A driver or connector name: letters, digits, `-`, `_` and `.`.
    private static func isNamePart(_ part: Substring) -> Bool {
        !part.isEmpty && part.utf8.count <= 64
            && part.unicodeScalars.allSatisfy { s in
                s.isASCII
                    && ((s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9")
                        || s == "-" || s == "_" || s == ".")
            }
    }
}
