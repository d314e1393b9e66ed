import Foundation
import Glibc
import Testing

@testable import FBLinux

/// A fresh directory under /tmp, removed by `remove()`.
struct ScratchDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/fblinux-tests.XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw SystemError(errno: errno, call: "mkdtemp") }
        path = String(
            decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Names in the directory, hidden ones included.
    var entries: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? []
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

func fileContents(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

func permissions(_ path: String) -> mode_t {
    var info = stat()
    guard stat(path, &info) == 0 else { return 0 }
    return info.st_mode & 0o7777
}

@Suite struct AtomicFileTests {
    /// Written a piece at a time (a picture row by row), the file is the
    /// pieces in order; what `contents` throws leaves nothing behind.
    @Test func streamedContentsAreWrittenOrNotAtAll() throws {
        struct Stop: Error {}
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let path = dir.path + "/frame.ppm"
        let pieces = (0..<50).map { i in [UInt8](repeating: UInt8(i), count: 1000 + i) }
        try writeFileAtomically(to: path) { file in
            for piece in pieces { try piece.withUnsafeBytes { try file.write($0) } }
        }
        #expect(fileContents(path) == pieces.flatMap { $0 })
        #expect(throws: Stop.self) {
            try writeFileAtomically(to: path) { file in
                try pieces[0].withUnsafeBytes { try file.write($0) }
                throw Stop()
            }
        }
        #expect(fileContents(path) == pieces.flatMap { $0 }, "the old file stays whole")
        #expect(dir.entries == ["frame.ppm"], "no temporary file left")
    }

    @Test func createsTheFileWithExactBytesAndTheUmasksMode() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        // A new file gets 0666 less the umask, as open(O_CREAT) would give it
        // (mkstemp's own 0600 is not what the user asked for).
        let oldMask = umask(0o077)
        defer { umask(oldMask) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try writeFileAtomically(bytes, to: dir.path + "/frame.png")
        #expect(fileContents(dir.path + "/frame.png") == bytes)
        #expect(permissions(dir.path + "/frame.png") == 0o600)
        umask(0o022)
        try writeFileAtomically(bytes, to: dir.path + "/other.png")
        #expect(permissions(dir.path + "/other.png") == 0o644)
        #expect(dir.entries == ["frame.png", "other.png"], "no temporary file left")
        // Asked for, a mode is set outright.
        try writeFileAtomically(bytes, to: dir.path + "/pid", permissions: 0o640)
        #expect(permissions(dir.path + "/pid") == 0o640)
    }

    @Test func replacesAnExistingFileKeepingItsMode() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let path = dir.path + "/out.ppm"
        try writeFileAtomically(Array(repeating: 1, count: 5000), to: path)
        chmod(path, 0o600)
        try writeFileAtomically([9, 8, 7], to: path)
        #expect(fileContents(path) == [9, 8, 7])
        #expect(permissions(path) == 0o600, "a private file stays private")
        #expect(dir.entries == ["out.ppm"])
    }

    @Test func writesEmptyAndLargeFiles() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        try writeFileAtomically([], to: dir.path + "/empty")
        #expect(fileContents(dir.path + "/empty") == [])
        let large = [UInt8](repeating: 0xA5, count: 24 << 20)
        try writeFileAtomically(large, to: dir.path + "/large")
        #expect(fileContents(dir.path + "/large") == large)
    }

    @Test func missingDirectoryFailsWithENOENTAndLeavesNothing() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        #expect(throws: SystemError(errno: ENOENT, call: "mkstemp")) {
            try writeFileAtomically([1], to: dir.path + "/missing/frame.png")
        }
        #expect(dir.entries.isEmpty)
    }

    @Test func directoryAsDestinationFailsAndLeavesNoTemporary() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(
            atPath: dir.path + "/frame.png", withIntermediateDirectories: false)
        #expect(throws: SystemError(errno: EISDIR, call: "rename")) {
            try writeFileAtomically([1, 2, 3], to: dir.path + "/frame.png")
        }
        #expect(dir.entries == ["frame.png"], "the temporary file must be removed")
        var isDirectory: ObjCBool = false
        #expect(
            FileManager.default.fileExists(
                atPath: dir.path + "/frame.png", isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
    }

    @Test func parentThatIsAFileFailsWithENOTDIR() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        try writeFileAtomically([0], to: dir.path + "/plain")
        #expect(throws: SystemError(errno: ENOTDIR, call: "mkstemp")) {
            try writeFileAtomically([1], to: dir.path + "/plain/frame.png")
        }
        #expect(dir.entries == ["plain"])
    }

    @Test func pathEndingInSlashIsADirectory() {
        #expect(throws: SystemError(errno: EISDIR, call: "open")) {
            try writeFileAtomically([1], to: "/tmp/")
        }
    }

    @Test func readOnlyDirectoryFailsWhenNotRoot() throws {
        // Root writes into 0555 directories anyway, so only others can check this.
        guard geteuid() != 0 else { return }
        let dir = try ScratchDirectory()
        defer {
            chmod(dir.path, 0o755)
            dir.remove()
        }
        chmod(dir.path, 0o555)
        #expect(throws: SystemError(errno: EACCES, call: "mkstemp")) {
            try writeFileAtomically([1], to: dir.path + "/frame.png")
        }
        #expect(throws: SystemError(errno: EACCES, call: "faccessat")) {
            try checkFileReplaceable(dir.path + "/frame.png")
        }
    }

    @Test func checkFileReplaceableCatchesTheCommonMistakes() throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        try checkFileReplaceable(dir.path + "/new.png")
        try writeFileAtomically([0], to: dir.path + "/old.png")
        try checkFileReplaceable(dir.path + "/old.png")
        try FileManager.default.createDirectory(
            atPath: dir.path + "/sub.png", withIntermediateDirectories: false)
        #expect(throws: SystemError(errno: EISDIR, call: "stat")) {
            try checkFileReplaceable(dir.path + "/sub.png")
        }
        #expect(throws: SystemError(errno: ENOENT, call: "stat")) {
            try checkFileReplaceable(dir.path + "/missing/x.png")
        }
        #expect(throws: SystemError(errno: ENOTDIR, call: "stat")) {
            try checkFileReplaceable(dir.path + "/old.png/x.png")
        }
        #expect(dir.entries == ["old.png", "sub.png"])
    }

    @Test(arguments: [
        ("frame.png", ".", "frame.png"), ("/frame.png", "/", "frame.png"),
        ("a/b/c.ppm", "a/b", "c.ppm"), ("dir/", "dir", ""),
    ])
    func splitPathFindsDirectoryAndName(_ path: String, _ directory: String, _ name: String) {
        let split = splitPath(path)
        #expect(split.directory == directory && split.name == name)
    }
}

@Suite struct SystemErrorTests {
    @Test func reasonAndDescriptionComeFromStrerror() {
        let error = SystemError(errno: ENOENT, call: "mkstemp")
        #expect(error.reason == "No such file or directory")
        #expect(error.description == "mkstemp: No such file or directory")
        #expect(SystemError(errno: EISDIR, call: "rename").reason == "Is a directory")
    }

    /// One table says what an errno means; opening and setting up a
    /// device both read it, so a permission problem is exit 77 from either.
    @Test func oneTableClassifiesErrnos() {
        let table: [(Int32, SystemError.Category)] = [
            (ENOENT, .missing), (ENOTDIR, .missing), (EACCES, .permissionDenied),
            (EPERM, .permissionDenied), (EROFS, .permissionDenied), (ENXIO, .noDevice),
            (ENODEV, .noDevice), (EIO, .other), (EBUSY, .other), (EINVAL, .other),
        ]
        for (code, category) in table {
            #expect(SystemError(errno: code, call: "open").category == category, "errno \(code)")
        }
        let denied = SystemError(errno: EPERM, call: "KDSETMODE")
        #expect(DeviceError.setting("/dev/fb0", "switching", denied).kind == .permissionDenied)
        #expect(
            DeviceError.setting("/dev/fb0", "switching", denied).description
                == "/dev/fb0: switching: KDSETMODE: Operation not permitted")
        let gone = SystemError(errno: ENODEV, call: "open")
        #expect(DeviceError.opening("/dev/fb0", gone).kind == .unusable)
        #expect(
            DeviceError.opening("/dev/fb0", gone).description
                == "/dev/fb0: no driver behind this device node (No such device)")
        #expect(
            DeviceError.setting("/dev/fb0", "mapping", SystemError(errno: EIO, call: "mmap")).kind
                == .unusable)
    }

    @Test func theFunnelTurnsMinusOneIntoTheCallersErrno() {
        #expect(throws: SystemError(errno: ENOENT, call: "open")) {
            try systemCall("open") { open("/nonexistent-fbanim/x", O_RDONLY) }
        }
        #expect((try? systemCall("getpid") { getpid() }) == getpid())
    }

    @Test func aBadDescriptorIsABugNotAnError() async {
        await #expect(processExitsWith: .failure) {
            _ = try? systemCall("close", retryOnInterrupt: false) { close(-1) }
        }
    }

    @Test func theFunnelRetriesEINTR() throws {
        var calls = 0
        let result = try systemCall("fake") { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        calls = 0
        #expect(throws: SystemError(errno: EINTR, call: "fake")) {
            try systemCall("fake", retryOnInterrupt: false) { () -> Int32 in
                calls += 1
                errno = EINTR
                return -1
            }
        }
        #expect(calls == 1)
    }
}
