/// What a program at boot asks the splash to do, whichever channel it came
/// through (the psplash FIFO, Plymouth's socket, `fbanim ctl`).
package enum BootCommand: Equatable, Sendable {
    /// An explicit progress value in percent: `-100...100` (psplash: a
    /// negative value fills the ring counter-clockwise), `0...100` from
    /// Plymouth's `u` and `fbanim ctl progress`.
    case progress(Int)
    /// Show this line of text (already valid UTF-8; may be empty).
    case message(String)
    /// Clear the message line.
    case hideMessage
    /// Stop: fill the ring, restore the console and the display, exit.
    /// `retain` leaves the last frame on screen and restores nothing.
    case quit(retain: Bool)
    /// Stop drawing and drop DRM master, keeping the frame on screen, so
    /// the next program can take the display over.
    case deactivate
    /// Take the display back and draw again.
    case reactivate
    /// Show the splash again after `hideSplash`.
    case showSplash
    /// Give the screen back to the text console, keep listening.
    case hideSplash
    /// A unit became active (systemd's `U` notice, with the unit's name): boot progress.
    case unitActive(String)
    /// Are you there? (Answered, nothing else.)
    case ping
    /// The root file system became writable (Plymouth's `S`).
    case rootWritable
    /// The boot moved to a new root at this path (Plymouth's `R`, `fbanim ctl newroot`).
    case newRoot(String)
}

/// Text from another program as a `String`: invalid UTF-8 becomes U+FFFD,
/// so nothing a client sends can make text handling fail.
@inlinable
package func decodeClientText<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    String(decoding: bytes, as: UTF8.self)
}

/// `text` made safe for one line of a log: control characters (CR, LF,
/// ESC, NUL, DEL, C1), line and paragraph separators and a byte order mark
/// are written as `\u{..}` escapes, and the result is cut with `...` once
/// it reaches `limit` characters.
package func loggable(_ text: String, limit: Int = 60) -> String {
    var out = ""
    var count = 0
    for scalar in text.unicodeScalars {
        let v = scalar.value
        let escaped =
            v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xFEFF || (0x2028...0x2029).contains(v)
        let piece = escaped ? "\\u{" + String(v, radix: 16) + "}" : String(scalar)
        if count + piece.unicodeScalars.count > limit {
            out += "..."
            break
        }
        out += piece
        count += piece.unicodeScalars.count
    }
    return out
}
