import Glibc

/// Replaces the file at `path` with `bytes`, all at once or not at all.
///
/// Writes a temporary file next to the destination (`mkstemp`, named
/// `.NAME.XXXXXX`), `fsync`s it, sets its mode with `fchmod`, then `rename`s
/// it over `path`, so a reader sees either the old file or the complete new
/// one. On any failure the temporary file is removed: nothing half-written
/// is left behind. Finally the directory is `fsync`ed (best effort) so the
/// rename itself survives a power cut.
/// - Parameters:
///   - path: the destination; its directory must exist and be writable.
///   - permissions: the new file's mode (not masked by the umask); by
///     default the mode of the file it replaces, or 0666 less the umask for
///     a new file.
/// - Throws: `SystemError` naming the call that failed: `mkstemp` (missing
///   or read-only directory), `write`, `fsync`, `close`, `rename` (`EISDIR`
///   when `path` is a directory), ...
public func writeFileAtomically(
    _ bytes: [UInt8], to path: String, permissions: mode_t? = nil
) throws(SystemError) {
    do {
        try writeFileAtomically(to: path, permissions: permissions) { file in
            try writeAll(file.fd, bytes, call: "write")
        }
    } catch let error as SystemError {
        throw error
    } catch {
        preconditionFailure("only system errors: \(error)")
    }
}

/// The temporary file `writeFileAtomically(to:permissions:contents:)` fills.
public struct AtomicFileWriter {
    let fd: Int32

    /// Writes all of `bytes`, after short writes and `EINTR` too.
    /// - Throws: `SystemError` from `write` (`ENOSPC`, `EIO`...).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let count = min(bytes.count - offset, 1 << 30)
            let written = try systemCall("write") {
                Glibc.write(fd, bytes.baseAddress! + offset, count)
            }
            // write(2) returns 0 only for a zero count; never loop on it.
            guard written > 0 else { throw SystemError(errno: EIO, call: "write") }
            offset += written
        }
    }
}

/// As `writeFileAtomically(_:to:permissions:)`, with the bytes written by
/// `contents` as it makes them (a picture encoded row by row), so the file
/// never has to be in memory whole. Whatever `contents` throws removes the
/// temporary file and is thrown on.
public func writeFileAtomically(
    to path: String, permissions: mode_t? = nil, contents: (AtomicFileWriter) throws -> Void
) throws {
    // A file replaced keeps its mode; a new one gets 0666 less the umask,
    // as `open(O_CREAT)` would give it.
    var existing = stat()
    let mode: mode_t
    if let permissions {
        mode = permissions
    } else if stat(path, &existing) == 0 && existing.st_mode & S_IFMT == S_IFREG {
        mode = existing.st_mode & 0o7777
    } else {
        let mask = umask(0o022)
        umask(mask)
        mode = 0o666 & ~mask
    }
    let (directory, name) = splitPath(path)
    guard !name.isEmpty else { throw SystemError(errno: EISDIR, call: "open") }
    // A bounded prefix of the name keeps the temporary name under NAME_MAX (255).
    var template = Array(directory.utf8CString.dropLast())
    template += Array("/.".utf8CString.dropLast())
    template += Array(name.utf8.prefix(128)).map { CChar(bitPattern: $0) }
    template += Array(".XXXXXX".utf8CString)

    let fd = try systemCall("mkstemp") { mkstemp(&template) }
    var isOpen = true
    do {
        // Only hygiene: fbanim does not exec, but a library user might.
        _ = try systemCall("fcntl") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = try systemCall("fchmod") { fchmod(fd, mode) }
        try contents(AtomicFileWriter(fd: fd))
        _ = try systemCall("fsync") { fsync(fd) }
        isOpen = false
        _ = try systemCall("close", retryOnInterrupt: false) { close(fd) }
        _ = try systemCall("rename") { rename(template, path) }
    } catch {
        if isOpen { close(fd) }
        unlink(template)
        throw error
    }
    syncDirectory(directory)
}

/// Checks, before any work, that `writeFileAtomically` should be able to replace `path`.
///
/// Catches the common mistakes early (a missing or read-only directory, a
/// destination that is a directory) so a big frame is not drawn for nothing.
/// The write itself still reports anything this check cannot foresee.
/// - Throws: `SystemError` with `ENOENT`, `ENOTDIR`, `EISDIR`, `EACCES` or `EROFS`.
public func checkFileReplaceable(_ path: String) throws(SystemError) {
    let (directory, name) = splitPath(path)
    guard !name.isEmpty else { throw SystemError(errno: EISDIR, call: "stat") }
    var info = stat()
    _ = try systemCall("stat") { stat(directory, &info) }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw SystemError(errno: ENOTDIR, call: "stat") }
    if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
        throw SystemError(errno: EISDIR, call: "stat")
    }
    // AT_EACCESS: judge with the effective ids, as the real open will.
    _ = try systemCall("faccessat") {
        faccessat(AT_FDCWD, directory, W_OK | X_OK, AT_EACCESS)
    }
}

/// Splits a path into its directory (`.` when there is none) and last component.
func splitPath(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let name = String(path[path.index(after: slash)...])
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, name)
}

/// `fsync`s a directory so a rename in it is durable; failures are ignored
/// because the file itself is already complete and in place.
private func syncDirectory(_ directory: String) {
    guard let fd = try? systemCall("open", { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) })
    else { return }
    _ = try? systemCall("fsync") { fsync(fd) }
    close(fd)
}
