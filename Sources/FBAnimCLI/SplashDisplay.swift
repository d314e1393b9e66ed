import FBAnim
import FBAnimation
import FBBoot
import FBDisplay
import FBLinux

/// Finding displays by name without opening them for good.
enum DeviceLookup {
    /// Whether the display `name` names is there now (a DRM card with the
    /// driver, and the connector connected; an fbdev with the id; a path).
    static func isAvailable(_ name: DeviceName) -> Bool {
        switch name {
        case .fbdev(let path), .drm(let path): return pathExists(path)
        case .drmDriver(let driver, let connector):
            return DeviceDiscovery.drmCard(driver: driver, connector: connector) != nil
        case .fbID(let id): return DeviceDiscovery.framebuffer(id: id) != nil
        case .simulated, .terminal: return true
        }
    }
}

extension SplashSession {
    /// Opens the named display, or while it is missing the first one there
    /// is. `nil` to go on (with or without a display); an exit status to stop.
    func openDisplay() -> Int32? {
        var opened: Display?
        if let named = request.play.device {
            do throws(CLIError) {
                opened = try openNamedDisplay(
                    named, format: request.play.format, holdsConsole: false
                ).0
                onFallback = false
                log.reset("wait")
            } catch {
                if case .noPermission = error { return fail(error) }
                log.once(
                    "wait",
                    "waiting for \(shown(describe(named))): \(error.message.dropLast().replacingErrorPrefix)"
                )
                // Show on whatever display there is meanwhile (HDMI before the panel's driver).
                if case .simulated = named {
                } else if case .terminal = named {
                } else {
                    opened = openFirstDisplay()
                    onFallback = opened != nil
                    // A move to it that failed: give it time before the next try.
                    nextLookForNamed = monotonicNanoseconds() + 10_000_000_000
                }
            }
        } else {
            opened = openFirstDisplay()
            // fbdev while a DRM card is listed (its outputs not probed yet
            // when its driver was just bound): move to the card once it
            // has a screen connected (looked for every 2 s, tick), not at
            // once again after a move that came back here.
            onFramebufferFallback =
                opened is FramebufferDisplay && !DeviceDiscovery.drmCards().isEmpty
            if onFramebufferFallback {
                nextLookForNamed = max(nextLookForNamed, monotonicNanoseconds() + 2_000_000_000)
            }
        }
        guard let opened else { return waitedTooLong() }
        guard let handOver = opened as? HandOverDisplay else {
            opened.close()
            return fail(.unavailable("\(opened.description.name) cannot be a splash display"))
        }
        if console == nil, !(opened is SimulatedDisplay), !(opened is TerminalDisplay) {
            console = Console.enterGraphics()
            // Switches away are asked first, so the display is let go for
            // the other VT and taken back on return (not where the splash
            // cannot catch the signal: the switches then go on as before).
            if SignalFlags.catchesVTSwitches {
                console?.ownSwitching(signal: SignalFlags.vtSwitchSignal)
            }
        }
        display = handOver
        redrawWhole = true
        let player = LoaderPlayer(
            display: opened, loader: request.play.loader.makeLoader(), style: request.play.style,
            fitsDisplay: opened is TerminalDisplay && !request.play.scaleGiven, inputs: self)
        player.timeOffset = animationTime
        player.onFirstFrame = { [unowned self] in firstFrameShown() }
        self.player = player
        messageChanged = true
        log(
            "showing on \(opened.description.name)\(onFallback ? " until the named display comes" : "")"
        )
        return nil
    }

    /// The first DRM device with a connected output nobody else drives,
    /// else `/dev/fb0`; `nil` when there is none yet (said once).
    private func openFirstDisplay() -> Display? {
        var reasons: [String] = []
        for path in DeviceDiscovery.drmCards() {
            do throws(CLIError) {
                return try openDRM(path, format: request.play.format, holdsConsole: false)
            } catch {
                reasons.append(error.message.dropLast().replacingErrorPrefix)
            }
        }
        if pathExists("/dev/fb0") {
            do throws(CLIError) {
                return try openFramebuffer("/dev/fb0", holdsConsole: false)
            } catch {
                reasons.append(error.message.dropLast().replacingErrorPrefix)
            }
        }
        let why = reasons.isEmpty ? "no display device yet" : reasons.joined(separator: "; ")
        log.once("first", "waiting for a display (\(why))")
        return nil
    }

    /// Whether a DRM card has a screen connected (probed without master).
    static func drmCardIsConnected() -> Bool {
        DeviceDiscovery.drmCards().contains { path in
            guard case .success(let report) = DeviceDiscovery.probeCard(path) else { return false }
            return report.connectors.contains { $0.status == .connected && !$0.modes.isEmpty }
        }
    }

    /// 66 once `--wait` has passed without a display, else `nil`.
    private func waitedTooLong() -> Int32? {
        guard let wait = request.wait else { return nil }
        guard Double(monotonicNanoseconds() - started) / 1e9 >= wait else { return nil }
        log("no display appeared within \(wait) s; giving up")
        return ExitStatus.noInput
    }

    private func fail(_ error: CLIError) -> Int32 {
        StandardStream.error.write(error.message)
        return error.exitStatus
    }

    private func describe(_ name: DeviceName) -> String {
        switch name {
        case .fbdev(let path), .drm(let path): return path
        case .drmDriver(let driver, let connector):
            return "drm:\(driver)" + (connector.map { ":\($0)" } ?? "")
        case .fbID(let id): return "fb:\(id)"
        case .simulated: return "the simulated display"
        case .terminal: return "the terminal"
        }
    }

    /// The first frame is on screen: tell systemd the splash is ready.
    private func firstFrameShown() {
        guard !readySent else { return }
        readySent = true
        BootEnvironment.notifySystemd(
            "READY=1\nSTATUS=Showing the splash on \(display?.description.name ?? "a display")")
    }

    /// Closes the display; the console goes back to text only when asked
    /// (a display that went away keeps it in graphics for the next one).
    func closeDisplay(restoringConsole: Bool) {
        claim.displayClosed()
        display?.close()
        display = nil
        player = nil
        if restoringConsole {
            console?.restore()
            console = nil
            // The VT's switches are no longer the splash's: no return will be signalled.
            claim = ScreenClaim()
        }
    }

    /// Ends the session: the display (restored, or left on screen), the
    /// history, the answers owed, the channels.
    func finish() {
        // A retained quit, and a shutdown screen told to stop, leave the
        // frame and the console as they are.
        let retain =
            quit?.retain == true || (request.mode.staysToTheEnd && SignalFlags.stopRequested)
        var lingering = false
        if let display {
            if retain {
                lingering = display.closeRetainingPicture()
            } else if deactivated {
                // Handed over, then told to quit (the next program failed,
                // as plymouthd reads it): let go without touching its mode.
                if display.closeRetainingPicture() { display.releaseRetained() }
            } else {
                display.close()
            }
        }
        if retain { console?.leaveAsItIs() } else { console?.restore() }
        console = nil
        if request.mode == .boot && quit != nil { writeHistory() }
        channels.answer(quit?.clients ?? [], ack: true)
        channels.answer(deactivateClients, ack: true)
        deactivateClients = []
        channels.close()
        if lingering, let display {
            // The kernel has no CLOSEFB: keep the device open (master
            // dropped) until the next program shows its own picture.
            log("keeping the last frame on screen until another program takes the display")
            while display.isShowingPicture && !SignalFlags.stopRequested {
                loop.wait(until: monotonicNanoseconds() + 250_000_000)
            }
            display.releaseRetained()
        }
        self.display = nil
    }
}

extension SplashSession: FrameInputs {
    func prepare(_ renderer: FrameRenderer, at time: Double) -> Bool {
        lastFrameTime = time
        if showsProgress {
            eased.move(to: progress.value(at: progressSeconds), at: time)
            renderer.progress = eased.value(at: time)
            if progress.isFinished { fillStarted = true }
        }
        if messageChanged, let display {
            messageChanged = false
            renderer.message = message.flatMap {
                // The player's rotation includes the panel's own (Display.panelRotation).
                typesetter.line(
                    $0, on: display.description,
                    rotation: player?.style.rotation ?? request.play.style.rotation)
            }
        }
        defer { redrawWhole = false }
        return redrawWhole
    }

    func stillUntil(_ time: Double) -> Double {
        guard showsProgress else { return .infinity }
        if time < eased.settlesAt || progress.changesWithTime(at: progressSeconds) {
            return time
        }
        return .infinity
    }
}
