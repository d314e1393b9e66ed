import CFBLinux
import FBDisplay
import FBRaster
import FBScheduler
import Glibc

/// A Linux framebuffer device (`/dev/fbN`) as a display.
///
/// fbanim draws into a shadow buffer in ordinary cached memory (blending
/// reads pixels back, and framebuffer memory is often uncached or
/// write-combined, where reads are very slow) and copies only the damaged
/// rectangles to the device. So the back buffer always has age 1.
///
/// When the virtual height holds two screens (`yres_virtual >= 2 * yres`)
/// the device is double buffered: a present copies into the hidden page the
/// damage of this frame and of the one before (that page is two frames old),
/// then pans to it with `FBIOPAN_DISPLAY`; the next `backBuffer()` waits for
/// the vertical blank with `FBIO_WAITFORVSYNC` where the driver has it, so
/// the page is not drawn into while it is still scanned out.
///
/// A single page whose rows are laid out as the shadow's gets the damage
/// with `pwrite` rather than through the mapping: one call a rectangle,
/// from its first changed byte to its last (the bytes between are the
/// shadow's, which the screen already shows). DRM drivers' fbdev emulation
/// (bochs, virtio-gpu, SPI panels) keeps fbdev in a shadow of its own that
/// it flushes by deferred I/O: a write through the mapping faults on every
/// page it touches after each flush (5 faults a ring frame, 46 a spinner
/// frame at 480x320, tens of microseconds each under emulation); `pwrite`
/// copies and reports the damage without a fault. A driver that refuses it
/// gets the mapping from then on.
package final class FramebufferDisplay: HandOverDisplay {
    package let description: DisplayDescription
    package let clock: FrameClock? = nil
    package let geometry: FramebufferGeometry
    /// The VT held in graphics mode while this display is open; restored by `close()`.
    package var console: Console?

    private let system: SystemCalls
    private var fd: FileDescriptor?
    private var memory: UnsafeMutableRawPointer?
    private let shadow: PixelBuffer
    /// The screen info as last set, for panning.
    private var variable: fb_var_screeninfo
    /// The page on screen (0 or 1), and whether each page holds a whole picture.
    private var front = 0
    private var pageComplete = [false, false]
    private var pages: Int
    private var panPending = false
    private var waitsForVSync = true
    private var writesWork = true
    private var previousDamage: [IntRect] = []
    /// Scratch lists, kept so a steady present allocates nothing.
    private var rects: [IntRect] = []
    private var copyRects: [IntRect] = []
    private var presented = false

    /// Pixels copied to the device so far (tests: only damage is copied).
    package private(set) var pixelsCopied = 0

    /// Opens `path`, reads its screen info and maps its memory.
    ///
    /// `open(O_RDWR)`, `ioctl(FBIOGET_FSCREENINFO)`, `ioctl(FBIOGET_VSCREENINFO)`, `mmap`.
    /// - Throws: `DeviceError`: `.missing`, `.permissionDenied`, or
    ///   `.unusable` for something that is not a framebuffer (`ENOTTY`,
    ///   `EINVAL`) or whose pixel layout fbanim does not draw.
    package init(path: String, system: SystemCalls = LinuxSystemCalls.shared) throws(DeviceError) {
        self.system = system
        let fd: FileDescriptor
        do throws(SystemError) {
            fd = try system.open(path, flags: O_RDWR)
        } catch {
            throw DeviceError.opening(path, error)
        }
        var fixed = fb_fix_screeninfo()
        var variable = fb_var_screeninfo()
        let geometry: FramebufferGeometry
        do throws(DeviceError) {
            do throws(SystemError) {
                try system.ioctl(fd, fbl_FBIOGET_FSCREENINFO, "FBIOGET_FSCREENINFO", &fixed)
                try system.ioctl(fd, fbl_FBIOGET_VSCREENINFO, "FBIOGET_VSCREENINFO", &variable)
            } catch {
                if [ENOTTY, EINVAL, ENOSYS].contains(error.errno) {
                    throw DeviceError(
                        .unusable, path: path, "not a framebuffer device", underlying: error)
                }
                throw DeviceError.setting(path, "reading the screen info", error)
            }
            geometry = try FramebufferGeometry(path: path, variable: variable, fixed: fixed)
            do throws(SystemError) {
                memory = try system.mmap(fd, length: geometry.memoryLength, offset: 0)
            } catch {
                throw DeviceError.setting(path, "mapping the framebuffer memory", error)
            }
        } catch {
            system.close(fd)
            throw error
        }
        self.fd = fd
        self.geometry = geometry
        self.variable = variable
        pages = geometry.pages
        if pages == 2 {
            // Draw into the page that is not on screen first.
            front = Int(variable.yoffset) >= geometry.height ? 1 : 0
        }
        shadow = PixelBuffer(
            width: geometry.width, height: geometry.height, format: geometry.format)
        let name = geometry.name.isEmpty ? path : "\(path) (\(geometry.name))"
        description = DisplayDescription(
            name: name, width: geometry.width, height: geometry.height, format: geometry.format,
            refreshHz: geometry.refreshHz)
        previousDamage.reserveCapacity(16)
        rects.reserveCapacity(16)
        copyRects.reserveCapacity(32)
    }

    deinit { close() }

    /// The shadow buffer, once the page it will be copied to is free.
    ///
    /// After a pan, waits for the vertical blank that latches it
    /// (`ioctl(FBIO_WAITFORVSYNC)`); drivers without it (`ENOTTY`, `EINVAL`)
    /// pan at once or on their own blank, and are not asked again.
    /// - Throws: `SystemError` when the device fails (gone: `ENODEV`, `EIO`).
    package func backBuffer() throws -> BackBuffer {
        if panPending {
            panPending = false
            if waitsForVSync {
                var screen: UInt32 = 0
                do throws(SystemError) {
                    try system.ioctl(
                        requireOpen(), fbl_FBIO_WAITFORVSYNC, "FBIO_WAITFORVSYNC", &screen)
                } catch {
                    guard [ENOTTY, EINVAL, ENOSYS, EOPNOTSUPP].contains(error.errno) else {
                        throw error
                    }
                    waitsForVSync = false
                }
            }
        }
        return BackBuffer(surface: shadow.surface, age: presented ? 1 : 0)
    }

    /// Copies the damage to the device, and pans to it when double buffered.
    /// - Throws: `SystemError` from `FBIOPAN_DISPLAY` when the device fails.
    package func present(damage: [IntRect]) throws {
        let fd = try requireOpen()
        // A single-page present makes no other call: ask the driver whether
        // the device is still there (ENODEV once it was unplugged or its
        // driver unbound), rather than draw into memory nobody shows.
        var check = fb_var_screeninfo()
        try system.ioctl(fd, fbl_FBIOGET_VSCREENINFO, "FBIOGET_VSCREENINFO", &check)
        let screen = shadow.surface.bounds
        rects.removeAll(keepingCapacity: true)
        if presented {
            for r in damage where !r.intersection(screen).isEmpty {
                rects.append(r.intersection(screen))
            }
        } else {
            rects.append(screen)
        }
        let target = pages == 2 ? 1 - front : front
        // A page two frames old also lacks the previous frame's damage.
        copyRects.removeAll(keepingCapacity: true)
        if pageComplete[target] {
            copyRects.append(contentsOf: rects)
            if pages == 2 { copyRects.append(contentsOf: previousDamage) }
        } else {
            copyRects.append(screen)
        }
        if pages == 1 && writesWork && shadow.surface.stride == geometry.stride {
            pixelsCopied += try write(&copyRects, fd)
        } else {
            pixelsCopied += DamageCopy.copy(copyRects, from: shadow.surface, to: page(target))
        }
        pageComplete[target] = true
        presented = true
        previousDamage.removeAll(keepingCapacity: true)
        previousDamage.append(contentsOf: rects)
        guard pages == 2 else { return }
        var pan = variable
        pan.xoffset = 0
        pan.yoffset = UInt32(target * geometry.height)
        pan.activate = fbl_FB_ACTIVATE_VBL
        do throws(SystemError) {
            try system.ioctl(fd, fbl_FBIOPAN_DISPLAY, "FBIOPAN_DISPLAY", &pan)
        } catch {
            guard error.errno == EINVAL || error.errno == ENOTTY else { throw error }
            // The driver does not pan after all: show everything on the visible page from now on.
            pages = 1
            pageComplete = [false, false]
            pixelsCopied += DamageCopy.copy([screen], from: shadow.surface, to: page(front))
            pageComplete[front] = true
            return
        }
        variable.xoffset = pan.xoffset
        variable.yoffset = pan.yoffset
        front = target
        panPending = true
    }

    /// Restores the console, unmaps the memory and closes the device. Safe to call twice.
    ///
    /// The picture stays in the framebuffer; fbcon repaints over it when the
    /// VT returns to `KD_TEXT`.
    package func close() {
        if let memory {
            system.munmap(memory, length: geometry.memoryLength)
            self.memory = nil
        }
        if let fd {
            system.close(fd)
            self.fd = nil
        }
        console?.restore()
        console = nil
    }

    /// Nothing to give up on fbdev: drawing stops until `reactivate()`.
    package func deactivate() {}

    /// The next present copies the whole picture: another program may
    /// have drawn into the framebuffer meanwhile.
    package func reactivate() throws {
        guard fd != nil else { throw SystemError(errno: EBADF, call: "reactivate after close") }
        pageComplete = [false, false]
    }

    /// The picture stays in the framebuffer memory and the VT in graphics
    /// mode (fbcon does not paint over it): unmaps and closes, restores nothing.
    package func closeRetainingPicture() -> Bool {
        console?.leaveAsItIs()
        console = nil
        close()
        return false
    }

    package var isShowingPicture: Bool { false }
    package func releaseRetained() {}

    /// The next present copies the whole picture (fbcon painted over it).
    package func invalidateScreen() { pageComplete = [false, false] }

    /// Writes the rectangles of the shadow (clipped to it) to the single
    /// page with `pwrite`: one write for each band of rows that rectangles
    /// cover, from its first changed byte to its last. The rows between go
    /// whole (one call; a driver's damage for a write of several rows is
    /// those rows whole anyway), so a row two rectangles share, side by side
    /// or overlapping, is written once. A driver that refuses (`EINVAL`,
    /// `ENOSYS`, `EPERM`, `EFBIG`, `ENOSPC`) gets the rest copied through
    /// the mapping, now and from then on. Sorts `rects` by their top rows.
    /// - Returns: the pixels of the rectangles.
    /// - Throws: `SystemError` when the device fails (gone: `ENODEV`, `EIO`).
    private func write(_ rects: inout [IntRect], _ fd: FileDescriptor) throws(SystemError) -> Int {
        let source = shadow.surface
        let bpp = geometry.format.bytesPerPixel
        let pageStart = Int(variable.yoffset) * geometry.stride + Int(variable.xoffset) * bpp
        // By index: a `for ... in rects` would hold the array while it is
        // written, and copy it (an allocation a present).
        var kept = 0
        for i in rects.indices where !rects[i].intersection(source.bounds).isEmpty {
            rects[kept] = rects[i].intersection(source.bounds)
            kept += 1
        }
        rects.removeLast(rects.count - kept)
        // By top row, in place (a few rectangles).
        for i in rects.indices.dropFirst() {
            var j = i
            while j > 0 && rects[j - 1].y > rects[j].y {
                rects.swapAt(j - 1, j)
                j -= 1
            }
        }
        var pixels = 0
        var i = 0
        while i < rects.count {
            // The band: every rectangle starting before the rows so far end.
            var bottom = rects[i].maxY
            var j = i + 1
            while j < rects.count && rects[j].y <= bottom {
                bottom = max(bottom, rects[j].maxY)
                j += 1
            }
            let top = rects[i].y
            var firstX = Int.max
            var lastX = Int.min
            for r in rects[i..<j] {
                if r.y == top { firstX = min(firstX, r.x) }
                if r.maxY == bottom { lastX = max(lastX, r.maxX) }
            }
            let first = top * source.stride + firstX * bpp
            let end = (bottom - 1) * source.stride + lastX * bpp
            do throws(SystemError) {
                try system.pwrite(
                    fd, source.base + first, count: end - first, offset: Int64(pageStart + first))
            } catch {
                guard [EINVAL, ENOSYS, EPERM, EFBIG, ENOSPC].contains(error.errno) else {
                    throw error
                }
                writesWork = false
                let rest = Array(rects[i...])
                return pixels + DamageCopy.copy(rest, from: source, to: page(front))
            }
            for r in rects[i..<j] { pixels += r.width * r.height }
            i = j
        }
        return pixels
    }

    /// Page `index` of the device memory as a surface: rows `index * height`
    /// on, from the x offset the driver reports.
    private func page(_ index: Int) -> Surface {
        guard let memory else { preconditionFailure("present after close") }
        let bpp = geometry.format.bytesPerPixel
        let firstRow = pages == 2 ? index * geometry.height : Int(variable.yoffset)
        let xOffset = pages == 2 ? 0 : Int(variable.xoffset)
        return Surface(
            base: memory + firstRow * geometry.stride + xOffset * bpp, width: geometry.width,
            height: geometry.height, stride: geometry.stride, format: geometry.format)
    }

    private func requireOpen() throws(SystemError) -> FileDescriptor {
        guard let fd else { throw SystemError(errno: EBADF, call: "present after close") }
        return fd
    }
}
