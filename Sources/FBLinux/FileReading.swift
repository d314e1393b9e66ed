import Glibc

/// The whole contents of the file at `path`, up to `limit` bytes.
///
/// - Throws: `SystemError` from `open` (`ENOENT`, `EACCES`...), `read`, or
///   `EFBIG` when the file is larger than `limit`.
package func readFile(
    _ path: String, limit: Int = 1 << 20, system: SystemCalls = LinuxSystemCalls.shared
) throws(SystemError) -> [UInt8] {
    let fd = try system.open(path, flags: O_RDONLY)
    defer { system.close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = try system.read(fd, into: &chunk)
        if n == 0 { return bytes }
        bytes += chunk.prefix(n)
        if bytes.count > limit { throw SystemError(errno: EFBIG, call: "read") }
    }
}

/// The path of the running executable (`/proc/self/exe`), or `nil`.
package func executablePath(system: SystemCalls = LinuxSystemCalls.shared) -> String? {
    linkTarget("/proc/self/exe", system: system)
}

/// `path` with every link, `.` and `..` resolved (`realpath(3)`), or `nil`
/// when it does not lead anywhere.
package func canonicalPath(_ path: String, system: SystemCalls = LinuxSystemCalls.shared)
    -> String?
{
    try? system.realpath(path)
}

/// Where the symbolic link at `path` points (`readlink(2)`, not resolved
/// further), or `nil` when it is not a link.
package func linkTarget(_ path: String, system: SystemCalls = LinuxSystemCalls.shared) -> String? {
    guard let target = try? system.readlink(path), !target.isEmpty else { return nil }
    return target
}

/// Whether something exists at `path` (`stat` succeeds; a dangling link does not).
package func pathExists(_ path: String, system: SystemCalls = LinuxSystemCalls.shared) -> Bool {
    system.exists(path)
}
