import CFBLinux
import FBLinux
import Glibc
import Testing

/// The splash owning its VT's switches (`VT_PROCESS`), against the mocked
/// kernel: the mode asked for, the answers to a leave and a return, the
/// mode taken again when someone resets it, and `VT_AUTO` on every way out.
@Suite struct ConsoleSwitchingTests {
    /// A console in graphics mode on fd 3 with its switches owned.
    static func owned() throws -> (MockSystemCalls, Console) {
        let mock = MockSystemCalls()
        mock.devices = ["/dev/tty0"]
        let console = try #require(Console.enterGraphics(system: mock))
        #expect(console.ownSwitching(signal: SIGUSR2))
        return (mock, console)
    }

    /// VT_SETMODE with VT_PROCESS, no waiting on writes, one signal for the
    /// release and the acquire, no forced-release signal.
    @Test func asksForProcessModeWithOneSignal() throws {
        let (mock, console) = try Self.owned()
        #expect(console.ownsSwitching)
        #expect(mock.trace.last == "ioctl VT_SETMODE")
        let mode = try #require(mock.ioctlArguments["VT_SETMODE"])
        // struct vt_mode { char mode, waitv; short relsig, acqsig, frsig; }
        #expect(mode.count == 8)
        #expect(mode[0] == UInt8(fbl_VT_PROCESS))
        #expect(mode[1] == 0)
        #expect(Int16(mode[2]) | Int16(mode[3]) << 8 == Int16(SIGUSR2))
        #expect(Int16(mode[4]) | Int16(mode[5]) << 8 == Int16(SIGUSR2))
        #expect(mode[6] == 0 && mode[7] == 0)
        console.restore()
    }

    /// A leave is allowed with VT_RELDISP 1, a return acknowledged with
    /// VT_RELDISP VT_ACKACQ (2).
    @Test func answersLeaveAndReturn() throws {
        let (mock, console) = try Self.owned()
        let mark = mock.trace.count
        #expect(console.allowLeave())
        console.acknowledgeReturn()
        #expect(Array(mock.trace[mark...]) == ["ioctl VT_RELDISP 1", "ioctl VT_RELDISP 2"])
        // No switch waiting (a SIGUSR2 from someone else): the kernel says EINVAL.
        mock.ioctlErrors["VT_RELDISP"] = EINVAL
        #expect(!console.allowLeave())
        console.restore()
    }

    /// Restored: a switch still waiting is let through, then VT_AUTO, then
    /// text mode; twice is once.
    @Test func restoreGivesTheSwitchesBack() throws {
        let (mock, console) = try Self.owned()
        let mark = mock.trace.count
        console.restore()
        console.restore()
        #expect(
            Array(mock.trace[mark...]) == [
                "ioctl VT_RELDISP 1", "ioctl VT_SETMODE", "ioctl KDSETMODE 0", "write \\e[?25h",
                "close 3",
            ])
        #expect(mock.ioctlArguments["VT_SETMODE"]?.first == UInt8(fbl_VT_AUTO))
        #expect(!console.ownsSwitching)
    }

    /// A retained quit leaves the picture and graphics mode, but not VT_PROCESS.
    @Test func leavingAsItIsGivesTheSwitchesBackToo() throws {
        let (mock, console) = try Self.owned()
        let mark = mock.trace.count
        console.leaveAsItIs()
        #expect(
            Array(mock.trace[mark...]) == ["ioctl VT_RELDISP 1", "ioctl VT_SETMODE", "close 3"])
        #expect(mock.ioctlArguments["VT_SETMODE"]?.first == UInt8(fbl_VT_AUTO))
    }

    /// Someone reset the VT to VT_AUTO (a getty's terminal reset): taken
    /// again; left alone while it is still VT_PROCESS.
    @Test func processModeIsTakenAgainAfterAReset() throws {
        let (mock, console) = try Self.owned()
        mock.ioctlAnswers["VT_GETMODE"] = { $0[0] = UInt8(fbl_VT_PROCESS) }
        var mark = mock.trace.count
        #expect(!console.reassertSwitching())
        #expect(Array(mock.trace[mark...]) == ["ioctl VT_GETMODE"])
        mock.ioctlAnswers["VT_GETMODE"] = { $0[0] = UInt8(fbl_VT_AUTO) }
        mark = mock.trace.count
        #expect(console.reassertSwitching())
        #expect(Array(mock.trace[mark...]) == ["ioctl VT_GETMODE", "ioctl VT_SETMODE"])
        #expect(mock.ioctlArguments["VT_SETMODE"]?.first == UInt8(fbl_VT_PROCESS))
        console.restore()
    }

    /// A kernel that refuses VT_PROCESS (not our VT to own): nothing is
    /// answered and nothing given back.
    @Test func refusedProcessModeIsNeverAnswered() throws {
        let mock = MockSystemCalls()
        mock.devices = ["/dev/tty0"]
        mock.ioctlErrors["VT_SETMODE"] = EPERM
        let console = try #require(Console.enterGraphics(system: mock))
        #expect(!console.ownSwitching(signal: SIGUSR2))
        let mark = mock.trace.count
        #expect(!console.allowLeave())
        console.acknowledgeReturn()
        #expect(!console.reassertSwitching())
        console.restore()
        #expect(Array(mock.trace[mark...]) == ["ioctl KDSETMODE 0", "write \\e[?25h", "close 3"])
    }

    /// The VT on screen when the switches are taken is this console's;
    /// later VT_GETSTATE tells whether it is still the one shown.
    @Test func knowsWhetherItsVTIsShown() throws {
        let mock = MockSystemCalls()
        mock.devices = ["/dev/tty0"]
        var active: UInt16 = 3
        mock.ioctlAnswers["VT_GETSTATE"] = { buffer in
            // struct vt_stat { unsigned short v_active, v_signal, v_state; }
            withUnsafeBytes(of: active) { buffer.copyMemory(from: $0) }
        }
        let console = try #require(Console.enterGraphics(system: mock))
        #expect(console.isShown == nil)
        #expect(console.ownSwitching(signal: SIGUSR2))
        #expect(console.number == 3)
        #expect(console.isShown == true)
        active = 2
        #expect(console.isShown == false)
        mock.ioctlErrors["VT_GETSTATE"] = ENOTTY
        #expect(console.isShown == nil)
        console.restore()
        #expect(console.isShown == nil)
    }
}
