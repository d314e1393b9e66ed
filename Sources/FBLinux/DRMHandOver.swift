import FBDisplay
import Glibc

extension DRMDisplay: HandOverDisplay {
    /// Waits for a flip in flight, then drops DRM master (`drmDropMaster`):
    /// the buffers, the mode and the picture stay; the next program becomes
    /// master and sets its own mode over the picture.
    package func deactivate() {
        guard !isClosed else { return }
        try? waitForFlips(timeoutNanoseconds: 200_000_000)
        if card.isMaster {
            card.kms.dropMaster(card.fd)
            card.isMaster = false
        }
    }

    /// `drmSetMaster`; the next present sets each CRTC again (another
    /// program may have changed the mode or shown its own framebuffer).
    /// - Throws: `SystemError` (`EBUSY`, `EACCES`) while another program is master.
    package func reactivate() throws {
        guard !isClosed else { throw SystemError(errno: EBADF, call: "reactivate after close") }
        if !card.isMaster {
            try card.kms.becomeMaster(card.fd)
            card.isMaster = true
        }
        for output in card.outputs { output.needsModeset = true }
    }

    /// Leaves the frame on screen: with `DRM_IOCTL_MODE_CLOSEFB` (Linux 6.8)
    /// the framebuffers shown are closed without turning their planes off
    /// and the device is released; older kernels turn a plane off when its
    /// framebuffer goes (at the latest when the device is closed), so the
    /// device is kept open, master dropped, until another program shows
    /// its own picture. The console stays in graphics mode either way.
    package func closeRetainingPicture() -> Bool {
        guard !isClosed else { return false }
        isClosed = true
        try? waitForFlips(timeoutNanoseconds: 200_000_000)
        console?.leaveAsItIs()
        console = nil
        var shown: [FramebufferID] = []
        // The last frame presented, even when the next present was to set the
        // CRTC again (after reactivate() or invalidateScreen()): it may still
        // be on screen, and removing a framebuffer on screen turns it off.
        for output in card.outputs where output.crtcSet {
            if let fb = output.buffers[presentation == .pageFlip ? front : 0].framebuffer {
                shown.append(fb)
            }
        }
        // Nothing of ours reaches the screen any more: restore nothing.
        for output in card.outputs { output.crtcSet = false }
        var closed = !shown.isEmpty
        for fb in shown where closed {
            do throws(SystemError) {
                try card.kms.closeFramebuffer(card.fd, fb)
            } catch {
                closed = false
            }
        }
        if card.isMaster {
            card.kms.dropMaster(card.fd)
            card.isMaster = false
        }
        guard closed || shown.isEmpty else {
            retained = shown
            return true
        }
        // Closed framebuffers are gone from the file: releasing them again fails harmlessly.
        card.teardown()
        return false
    }

    /// Whether a CRTC still scans out one of the framebuffers kept by
    /// `closeRetainingPicture()` (`drmModeGetCrtc` needs no master).
    package var isShowingPicture: Bool {
        guard !retained.isEmpty else { return false }
        return card.outputs.contains { output in
            guard let state = try? card.kms.crtc(card.fd, output.crtc), let fb = state.framebuffer
            else { return false }
            return retained.contains(fb)
        }
    }

    /// Frees the buffers kept for the retained picture and closes the device.
    package func releaseRetained() {
        retained = []
        card.teardown()
    }

    /// Whether a CRTC this display has set scans out a framebuffer that is
    /// not one of its own (or none) while no new mode set is due:
    /// `drmModeGetCrtc`, which needs no master. Only a master can change a
    /// CRTC, so this display has lost master (taken behind its back; the
    /// kernel restores its console's framebuffer when the last master goes).
    package var screenTaken: Bool {
        guard !isClosed else { return false }
        return card.outputs.contains { output in
            guard output.crtcSet, !output.needsModeset,
                let state = try? card.kms.crtc(card.fd, output.crtc)
            else { return false }
            guard let shown = state.framebuffer else { return true }
            return !output.buffers.contains { $0.framebuffer == shown }
        }
    }

    /// Whether the device answers `ENODEV` (`drmModeGetCrtc`): its driver
    /// was unbound or the device unplugged; the descriptor stays valid but
    /// nothing will show through it again.
    package var isGone: Bool {
        guard !isClosed, let output = card.outputs.first else { return false }
        do throws(SystemError) {
            _ = try card.kms.crtc(card.fd, output.crtc)
            return false
        } catch {
            return error.errno == ENODEV
        }
    }

    /// Sets each CRTC again with the next frame (whatever changed the
    /// screen, the picture comes back whole).
    package func invalidateScreen() {
        for output in card.outputs { output.needsModeset = true }
    }
}
