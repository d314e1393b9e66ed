import CFBLinux
import FBDisplay
import FBRaster
import FBScheduler
import Glibc

/// A display whose size can change while it is open (a terminal window).
package protocol ResizableDisplay: Display {
    /// Takes a pending size change (or repaint). Returns whether the picture
    /// must be drawn whole again: back buffers taken before are then stale,
    /// and the next one has the new size and age 0.
    func updateSize() throws -> Bool
}

/// The terminal as a display: each character cell shows two pixels, the
/// upper half block `▀` in the top pixel's colour on the bottom pixel's
/// colour, in 24-bit colour. A preview anywhere.
///
/// Opening switches to the alternate screen, hides the cursor and turns off
/// line wrap; `close()` undoes all three, so every way out restores the
/// terminal (the CLI calls `close()` on stop, signals and errors). The
/// picture follows the terminal's size: after SIGWINCH the next back buffer
/// has the new size (and age 0).
///
/// A terminal that stops reading (XOFF, a stalled ssh connection, a pipe
/// nobody drains) must not hold fbanim past SIGTERM: frames are written
/// without blocking, a stop signal abandons the frame being written, and the
/// restore waits at most `restoreTimeout` for the terminal to take it.
package final class TerminalDisplay: ResizableDisplay {
    package private(set) var description: DisplayDescription
    package let clock: FrameClock? = nil
    /// The terminal as given: sizes are asked on it.
    private let fd: FileDescriptor
    /// Where bytes go: the terminal opened again without blocking (an open
    /// file description of our own, so the shell's stays blocking), or `fd`.
    private let out: FileDescriptor
    private let system: SystemCalls
    /// The clock of the restore's timeout and of the grace after a hang-up.
    private let time: FrameClock
    /// A write was cut short (a stop signal): the terminal may be inside an
    /// escape sequence.
    private var cut = false
    /// How long `close()` waits for a terminal that does not read.
    static let restoreTimeout: UInt64 = 1_000_000_000
    private var buffer: PixelBuffer
    private var presented = false
    private var repaintRequested = false
    private var isOpen = true
    private var output: [UInt8] = []

    /// Opens the terminal on `fd` (standard output by default).
    /// - Throws: `SystemError` with `ENOTTY` when `fd` is not a terminal.
    package init(
        fd: Int32 = STDOUT_FILENO, system: SystemCalls = LinuxSystemCalls.shared,
        time: FrameClock = MonotonicClock.shared
    ) throws(SystemError) {
        let fd = FileDescriptor(rawValue: fd)
        guard system.isTerminal(fd) else { throw SystemError(errno: ENOTTY, call: "isatty") }
        self.fd = fd
        self.system = system
        self.time = time
        out =
            (try? system.open(
                "/proc/self/fd/\(fd.rawValue)", flags: O_WRONLY | O_NONBLOCK | O_NOCTTY)) ?? fd
        let (w, h) = TerminalDisplay.pixelSize(fd, system)
        buffer = PixelBuffer(width: w, height: h, format: .xrgb8888)
        description = TerminalDisplay.describe(w, h)
        output.reserveCapacity(w * h * 20)
        // Alternate screen, cursor hidden, no autowrap, cleared.
        try send("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[0m\u{1B}[2J")
        fbl_crash_guard_terminal(fd.rawValue)
    }

    deinit { close() }

    /// Pixels for the terminal's cells: a column a pixel, a row two.
    static func pixelSize(_ fd: FileDescriptor, _ system: SystemCalls) -> (Int, Int) {
        var size = winsize()
        if (try? system.ioctl(fd, fbl_TIOCGWINSZ, "TIOCGWINSZ", &size)) != nil, size.ws_col > 0,
            size.ws_row > 0
        {
            return (Int(size.ws_col), 2 * Int(size.ws_row))
        }
        return (80, 48)  // a terminal that does not say: the classic 80x24
    }

    static func describe(_ w: Int, _ h: Int) -> DisplayDescription {
        DisplayDescription(
            name: "term (\(w)x\(h / 2) cells)", width: w, height: h, format: .xrgb8888,
            refreshHz: nil)
    }

    /// Takes a pending SIGWINCH: when the terminal's size changed, the screen
    /// is cleared and the next back buffer has the new size (and age 0).
    package func updateSize() throws -> Bool {
        let resized = SignalFlags.takeResize()
        guard resized || repaintRequested else { return false }
        let (w, h) = TerminalDisplay.pixelSize(fd, system)
        let changed = w != description.width || h != description.height
        guard changed || repaintRequested else { return false }
        repaintRequested = false
        if changed {
            buffer = PixelBuffer(width: w, height: h, format: .xrgb8888)
            description = TerminalDisplay.describe(w, h)
        }
        presented = false
        try send("\u{1B}[0m\u{1B}[2J")
        return true
    }

    /// Something else wrote to the terminal (the books printed on SIGUSR1):
    /// the next frame clears it and draws the whole picture again, as after
    /// a resize.
    package func repaintEverything() { repaintRequested = true }

    package func backBuffer() throws -> BackBuffer {
        _ = try updateSize()
        return BackBuffer(surface: buffer.surface, age: presented ? 1 : 0)
    }

    package func present(damage: [IntRect]) throws {
        let s = buffer.surface
        let screen = s.bounds
        output.removeAll(keepingCapacity: true)
        for rect in damage {
            let r = rect.intersection(screen)
            if r.isEmpty { continue }
            // Whole cells: rows of pixels come in pairs.
            var cellRow = r.y / 2
            while cellRow * 2 < r.maxY {
                appendMove(row: cellRow, column: r.x)
                // The buffer is xrgb8888: read its rows directly.
                let topRow = UnsafeRawPointer(s.base + cellRow * 2 * s.stride)
                let hasBottom = cellRow * 2 + 1 < s.height
                var last: (UInt32, UInt32)? = nil
                for x in r.x..<r.maxX {
                    let top =
                        topRow.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self) & 0xFF_FFFF
                    let bottom =
                        hasBottom
                        ? topRow.loadUnaligned(fromByteOffset: s.stride + 4 * x, as: UInt32.self)
                            & 0xFF_FFFF : 0
                    if last.map({ $0 != (top, bottom) }) ?? true {
                        appendColor(38, top)
                        appendColor(48, bottom)
                        last = (top, bottom)
                    }
                    // U+2580 UPPER HALF BLOCK
                    output.append(0xE2)
                    output.append(0x96)
                    output.append(0x80)
                }
                cellRow += 1
            }
        }
        if !output.isEmpty {
            output.append(contentsOf: TerminalDisplay.resetColors)
            try write(output, deadline: nil)
        }
        presented = true
    }

    package func close() {
        guard isOpen else { return }
        isOpen = false
        fbl_crash_guard_terminal(-1)
        // Colours off, wrap back on, cursor shown, main screen back; after a
        // cut write, CAN first ends any escape sequence left open.
        let restore = (cut ? "\u{18}" : "") + "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
        let deadline = time.now() + TerminalDisplay.restoreTimeout
        try? write(Array(restore.utf8), deadline: deadline)
        if out != fd { system.close(out) }
    }

    private func send(_ text: String) throws(SystemError) {
        try write(Array(text.utf8), deadline: nil)
    }

    /// Writes `bytes`, waiting for the terminal to take them. Without a
    /// `deadline` a stop signal ends the wait (the rest is dropped); with
    /// one, the deadline does.
    private func write(_ bytes: [UInt8], deadline: UInt64?) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            // One write(2), which may be short: the rest waits for room.
            let written = bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in
                    try system.write(
                        out, UnsafeRawBufferPointer(rebasing: buffer[offset...]), inherited: false)
                }
            }
            let code: Int32
            switch written {
            case .success(let n) where n > 0:
                offset += n
                continue
            case .success: code = EIO
            case .failure(let error): code = error.errno
            }
            guard code == EAGAIN || code == EINTR else {
                // A terminal that hangs up sends SIGHUP, a stop, not an I/O
                // error; the kernel fails writes a moment before it signals.
                if code == EIO {
                    let grace = time.now() + 100_000_000
                    while !SignalFlags.stopRequested && time.now() < grace {
                        time.sleep(until: min(grace, time.now() + 5_000_000))
                    }
                }
                if SignalFlags.stopRequested { return }
                throw SystemError(errno: code, call: "write")
            }
            // The terminal is not taking bytes: wait for room, a little at a
            // time, so that a stop signal is seen even if it came just before.
            var timeout: Int32 = 50
            if let deadline {
                let now = time.now()
                if now >= deadline { return }
                timeout = Int32(min(50, (deadline - now + 999_999) / 1_000_000))
            } else if SignalFlags.stopRequested {
                cut = offset > 0 || cut
                return
            }
            var p = pollfd(fd: out.rawValue, events: Int16(POLLOUT), revents: 0)
            _ = try? withUnsafeMutablePointer(to: &p) { pointer throws(SystemError) in
                try system.poll(
                    UnsafeMutableBufferPointer(start: pointer, count: 1),
                    timeoutMilliseconds: timeout)
            }
        }
    }

    private static let resetColors = Array("\u{1B}[0m".utf8)

    private func appendMove(row: Int, column: Int) {
        output += [0x1B, 0x5B]
        appendNumber(row + 1)
        output.append(0x3B)
        appendNumber(column + 1)
        output.append(0x48)  // H
    }

    private func appendColor(_ layer: Int, _ rgb: UInt32) {
        output += [0x1B, 0x5B]
        appendNumber(layer)
        output += [0x3B, 0x32, 0x3B]  // ;2;
        appendNumber(Int(rgb >> 16 & 0xFF))
        output.append(0x3B)
        appendNumber(Int(rgb >> 8 & 0xFF))
        output.append(0x3B)
        appendNumber(Int(rgb & 0xFF))
        output.append(0x6D)  // m
    }

    private func appendNumber(_ n: Int) {
        if n >= 10 { appendNumber(n / 10) }
        output.append(UInt8(0x30 + n % 10))
    }
}

/// A terminal preview "hands over" by stopping and repainting when it comes back.
extension TerminalDisplay: HandOverDisplay {
    package func deactivate() {}
    package func reactivate() throws { repaintEverything() }
    package func closeRetainingPicture() -> Bool {
        close()
        return false
    }
    package var isShowingPicture: Bool { false }
    package func releaseRetained() {}
    package func invalidateScreen() { repaintEverything() }
}
