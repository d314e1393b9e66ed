import CFBLinux
import FBLinux
import Foundation
import Glibc
import Testing

/// A fault after a display opened must leave the console usable: the crash
/// guard writes the terminal's restore sequence (and resets a VT's mode)
/// before the process dies of the signal.
@Suite struct CrashGuardTests {
    /// Files the child process writes and the test reads back. The child
    /// inherits the working directory, so a name derived from it is the same
    /// in both, and differs between checkouts tested at the same time.
    static let path = "/tmp/fbanim-crash-guard-\(checkoutTag).out"
    static let closedPath = "/tmp/fbanim-crash-guard-closed-\(checkoutTag).out"

    /// FNV-1a of the working directory, in hex.
    static var checkoutTag: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in FileManager.default.currentDirectoryPath.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    @Test func aTrapStillRestoresTheTerminal() async throws {
        unlink(CrashGuardTests.path)
        await #expect(processExitsWith: .signal(SIGILL)) {
            let fd = open(CrashGuardTests.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            fbl_crash_guard_install()
            fbl_crash_guard_terminal(fd)
            // What a failed precondition does on x86_64 (ud2).
            raise(SIGILL)
        }
        let written = try String(contentsOfFile: CrashGuardTests.path, encoding: .utf8)
        #expect(written.contains("\u{1B}[?25h"), "cursor shown")
        #expect(written.contains("\u{1B}[?1049l"), "alternate screen left")
        unlink(CrashGuardTests.path)
    }

    @Test func nothingIsWrittenOnceTheDisplayClosed() async throws {
        unlink(CrashGuardTests.closedPath)
        await #expect(processExitsWith: .signal(SIGSEGV)) {
            let fd = open(CrashGuardTests.closedPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            fbl_crash_guard_install()
            fbl_crash_guard_terminal(fd)
            fbl_crash_guard_terminal(-1)
            raise(SIGSEGV)
        }
        let written = try String(contentsOfFile: CrashGuardTests.closedPath, encoding: .utf8)
        #expect(written.isEmpty)
        unlink(CrashGuardTests.closedPath)
    }
}
