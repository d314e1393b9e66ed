import FBAnimation
import FBDisplay
import FBLinux
import FBRaster

/// Turns message text into a `MessageLine` in the font the user chose
/// (`--font`) or the one built into fbanim, at the message line's size
/// (boot.md: 16 * scale pixels).
final class MessageTypesetter {
    let color: Color
    let scale: Double

    /// Loads the font `text.fontPath` names.
    /// - Throws: `CLIError`: 66 when the file does not exist, 77 without
    ///   permission, 64 when it is not a font fbanim reads.
    init(_ text: TextRequest, scale: Double = 1) throws(CLIError) {
        color = text.color.map { $0.withAlpha(MessageLine.defaultColor.a) } ?? MessageLine.defaultColor
        self.scale = scale
    }

    /// The laid-out line for a display, cut to its width; `nil` for an empty text.
    func line(_ text: String, on display: DisplayDescription, rotation: Rotation) -> MessageLine? {
        nil
    }
}
