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
package func writeFileAtomically(
    _ bytes: [UInt8], to path: String, permissions: mode_t? = nil,
    system: SystemCalls = LinuxSystemCalls.shared
) throws(SystemError) {
    do {
        try writeFileAtomically(to: path, permissions: permissions, system: system) { file in
            try file.system.write(file.fd, bytes)
        }
    } catch let error as SystemError {
        throw error
    } catch {
        preconditionFailure("only system errors: \(error)")
    }
}

/// The temporary file `writeFileAtomically(to:permissions:contents:)` fills.
package struct AtomicFileWriter {
    let fd: FileDescriptor
    let system: SystemCalls

    /// Writes all of `bytes`, after short writes and `EINTR` too.
    /// - Throws: `SystemError` from `write` (`ENOSPC`, `EIO`...).
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try system.writeAll(fd, bytes, inherited: false)
    }
}

/// As `writeFileAtomically(_:to:permissions:)`, with the bytes written by
/// `contents` as it makes them (a picture encoded row by row), so the file
/// never has to be in memory whole. Whatever `contents` throws removes the
/// temporary file and is thrown on.
package func writeFileAtomically(
    to path: String, permissions: mode_t? = nil, system: SystemCalls = LinuxSystemCalls.shared,
    contents: (AtomicFileWriter) throws -> Void
) throws {
    // A file replaced keeps its mode; a new one gets 0666 less the umask,
    // as `open(O_CREAT)` would give it.
    let mode: mode_t
    if let permissions {
        mode = permissions
    } else if let existing = try? system.stat(path, followLinks: true),
        existing.st_mode & S_IFMT == S_IFREG
    {
        mode = existing.st_mode & 0o7777
    } else {
        // umask(2) cannot fail: read by setting it and setting it back.
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

    let fd = try system.makeTemporaryFile(&template)
    let temporary = String(
        decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var isOpen = true
    do {
        try system.fchmod(fd, mode)
        try contents(AtomicFileWriter(fd: fd, system: system))
        try system.fsync(fd)
        isOpen = false
        try system.closeReportingFailure(fd)
        try system.rename(temporary, to: path)
    } catch {
        if isOpen { system.close(fd) }
        try? system.unlink(temporary)
        throw error
    }
    syncDirectory(directory, system)
}

/// Checks, before any work, that `writeFileAtomically` should be able to replace `path`.
///
/// Catches the common mistakes early (a missing or read-only directory, a
/// destination that is a directory) so a big frame is not drawn for nothing.
/// The write itself still reports anything this check cannot foresee.
/// - Throws: `SystemError` with `ENOENT`, `ENOTDIR`, `EISDIR`, `EACCES` or `EROFS`.
package func checkFileReplaceable(_ path: String, system: SystemCalls = LinuxSystemCalls.shared)
    throws(SystemError)
{
    let (directory, name) = splitPath(path)
    guard !name.isEmpty else { throw SystemError(errno: EISDIR, call: "stat") }
    let info = try system.stat(directory, followLinks: true)
    guard info.st_mode & S_IFMT == S_IFDIR else { throw SystemError(errno: ENOTDIR, call: "stat") }
    if let target = try? system.stat(path, followLinks: true), target.st_mode & S_IFMT == S_IFDIR {
        throw SystemError(errno: EISDIR, call: "stat")
    }
    // Judged with the effective ids, as the real open will.
    try system.access(directory, W_OK | X_OK)
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
private func syncDirectory(_ directory: String, _ system: SystemCalls) {
    guard let fd = try? system.open(directory, flags: O_RDONLY | O_DIRECTORY) else { return }
    try? system.fsync(fd)
    system.close(fd)
}
