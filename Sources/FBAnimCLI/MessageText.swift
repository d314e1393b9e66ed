import FBAnimation
import FBDisplay
import FBLinux
import FBRaster
import FBText

/// Turns message text into a `MessageLine` in the font the user chose
/// (`--font`) or the one built into fbanim, at the message line's size
/// (boot.md: 16 * scale pixels, colour `#FFFFFF` at alpha 0.9 unless
/// `--text-color` says otherwise).
final class MessageTypesetter {
    let font: Font
    let color: Color
    /// The em size in pixels, 16 * scale.
    let pixelSize: Fixed

    /// The largest font file read (a CJK font is about 20 MB).
    static let fontLimit = 64 << 20

    /// Loads the font `text.fontPath` names, or the built-in one.
    /// - Throws: `CLIError`: 66 when the file does not exist, 77 without
    ///   permission, 64 when it is not a font fbanim reads.
    convenience init(_ text: TextRequest, scale: Double = 1) throws(CLIError) {
        guard let path = text.fontPath else {
            self.init(font: Font.builtIn(), scale: scale, color: text.color)
            return
        }
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try BootEnvironment.readSmallFile(path, limit: MessageTypesetter.fontLimit)
        } catch {
            throw profileError(path, error, what: "font").asFontError
        }
        do throws(FontError) {
            self.init(font: try Font(bytes: bytes), scale: scale, color: text.color)
        } catch {
            throw .usage("'\(shown(path))' is not a font fbanim reads: \(error)", nil)
        }
    }

    /// `font` at 16 * `scale` px, in `color` at the message's opacity
    /// (the default colour when `nil`); a splash whose chosen font failed
    /// passes the built-in one.
    init(font: Font, scale: Double, color: Color?) {
        self.font = font
        self.color =
            color.map { $0.withAlpha(MessageLine.defaultColor.a) } ?? MessageLine.defaultColor
        pixelSize = Fixed(raw: Int64((16 * scale * 65536).rounded()))
    }

    /// The laid-out line for a display, cut to its width (W - 16 before
    /// rotation); `nil` for an empty text.
    func line(_ text: String, on display: DisplayDescription, rotation: Rotation) -> MessageLine? {
        let turned = rotation == .degrees90 || rotation == .degrees270
        return line(text, pictureWidth: turned ? display.height : display.width)
    }

    /// The laid-out line for a picture `pictureWidth` wide (before rotation).
    func line(_ text: String, pictureWidth: Int) -> MessageLine? {
        guard !text.isEmpty else { return nil }
        let maxWidth = MessageLine.maximumWidth(pictureWidth: pictureWidth)
        let laid = font.layOut(
            text, pixelSize: pixelSize, maxWidth: Fixed(raw: Int64((maxWidth * 65536).rounded())))
        guard !laid.text.isEmpty else { return nil }
        return MessageLine(
            path: laid.path, width: Double(laid.advance.raw) / 65536,
            height: Double(laid.height.raw) / 65536, color: color)
    }
}

extension CLIError {
    /// A font file's problem: its kind of error, worded for a font.
    fileprivate var asFontError: CLIError {
        switch self {
        case .usage(let m, _): return .usage(m, nil)
        default: return self
        }
    }
}
