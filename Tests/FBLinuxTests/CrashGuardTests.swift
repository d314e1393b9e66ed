import CFBLinux
import FBLinux
import Foundation
import Glibc
import Testing

/// A fault after a display opened must leave the console usable: the crash
/// guard writes the terminal's restore sequence (and resets a VT's mode)
/// before the process dies of the signal.
@Suite struct CrashGuardTests {
    static let path = "/tmp/fbanim-crash-guard-test.out"
    static let closedPath = "/tmp/fbanim-crash-guard-closed-test.out"

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
