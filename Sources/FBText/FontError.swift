/// Why bytes could not be used as a font: one line, naming what was wrong.
public enum FontError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A PSF console font (it had the PSF or gzip magic) that is malformed.
    case psf(PSFError)
    /// FreeType could not open it as an outline font (FreeType's error code).
    case freeType(code: Int32)
    /// FreeType opened it, but it has no outlines (a bitmap-only font).
    case notScalable

    public var description: String {
        switch self {
        case .psf(let e):
            return e.description
        case .freeType(let code):
            return "not a font FreeType can read (FreeType error 0x"
                + String(code, radix: 16) + ": " + FontError.freeTypeMeaning(code) + ")"
        case .notScalable:
            return
                "a bitmap-only font: use an outline font (TrueType, OpenType) or a PSF console font"
        }
    }

    /// The few FreeType errors opening a font gives (fterrdef.h); its own
    /// error strings are compiled out of Debian's library.
    static func freeTypeMeaning(_ code: Int32) -> String {
        switch code {
        case 0x01: "cannot open resource"
        case 0x02: "unknown file format"
        case 0x03: "broken file"
        case 0x04: "invalid FreeType version"
        case 0x06: "invalid argument"
        case 0x07: "unimplemented feature"
        case 0x08: "broken table"
        case 0x09: "broken offset within table"
        case 0x40: "out of memory"
        case 0x51...0x58: "cut short or unreadable"
        case 0x8E: "table missing"
        case 0x8F: "horizontal header missing"
        case 0x90: "locations missing"
        default: "see fterrdef.h"
        }
    }
}
