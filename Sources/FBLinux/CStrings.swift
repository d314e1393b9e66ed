/// The text of a fixed-size C `char` array (a `utsname` field, a
/// `fb_fix_screeninfo.id`, a `dirent.d_name`): up to its first NUL.
func cString<T>(_ array: T) -> String {
    withUnsafeBytes(of: array) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
}

extension StringProtocol {
    /// Without the spaces, tabs and line ends at either end.
    var trimmedSpaces: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
