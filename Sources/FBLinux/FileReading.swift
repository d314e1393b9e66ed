import Glibc

/// The whole contents of the file at `path`, up to `limit` bytes.
///
/// - Throws: `SystemError` from `open` (`ENOENT`, `EACCES`...), `read`, or
///   `EFBIG` when the file is larger than `limit`.
public func readFile(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> [UInt8] {
    let fd = try systemCall("open") { open(path, O_RDONLY | O_CLOEXEC) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = try systemCall("read") {
            chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        }
        if n == 0 { return bytes }
        bytes += chunk.prefix(n)
        if bytes.count > limit { throw SystemError(errno: EFBIG, call: "read") }
    }
}

/// The path of the running executable (`/proc/self/exe`), or `nil`.
public func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// `path` with every link, `.` and `..` resolved (`realpath(3)`), or `nil`
/// when it does not lead anywhere.
public func canonicalPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// Where the symbolic link at `path` points (`readlink(2)`, not resolved
/// further), or `nil` when it is not a link.
public func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
