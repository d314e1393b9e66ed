import FBBoot
import FBLinux
import Glibc

/// The splash's control channels (boot.md, Control channels): the psplash
/// FIFO and Plymouth's socket, both turned into `BootCommand`s for the
/// session. Bad input is answered NAK or logged (rate-limited) and the
/// animation goes on; served between frames within a budget, a flood costs
/// no frame. Commands themselves are obeyed, from those allowed to send
/// them (root, the splash's user, `--ctl-group`): a quit quits.
final class SplashChannels {
    unowned let session: SplashSession
    private var fifo: PsplashFIFO?
    private var server: PlymouthServer?
    private var psplash = PsplashStream()
    private var pidFile: String?
    private let allowedGroup: UInt32?

    /// The Plymouth socket's name (`FBANIM_PLYMOUTH_SOCKET` overrides it, for
    /// tests that run several splashes at once; the pid file is then not written).
    static var socketName: String {
        BootEnvironment.environment("FBANIM_PLYMOUTH_SOCKET").flatMap { $0.isEmpty ? nil : $0 }
            ?? Plymouth.socketName
    }

    init(session: SplashSession) {
        self.session = session
        allowedGroup = session.request.controlGroup.flatMap(BootEnvironment.groupID)
        if let group = session.request.controlGroup, allowedGroup == nil {
            session.log("no group '\(group)': commands are taken from root only")
        }
    }

    /// Opens both channels. `false` when another splash (plymouthd, or
    /// fbanim from the initramfs) holds Plymouth's socket: this one stands down.
    func open() -> Bool {
        let log = session.log
        do throws(SystemError) {
            let server = try PlymouthServer(loop: session.loop, name: SplashChannels.socketName) {
                log($0)
            }
            server.admits = { [unowned self] peer in
                guard let peer, isAllowed(peer) else {
                    session.log.once(
                        "peer-\(peer?.uid ?? 0)",
                        "plymouth socket: refused uid \(peer.map { String($0.uid) } ?? "unknown") "
                            + "(root, the splash's user or --ctl-group only)")
                    return false
                }
                return true
            }
            server.onRequest = { [unowned self] request, peer, client in
                answer(request, from: peer, client: client)
            }
            self.server = server
        } catch {
            if error.errno == EADDRINUSE {
                log("another splash is running (\(holder())): this one stands down")
                return false
            }
            log(
                "cannot open Plymouth's socket (\(error)); plymouth and fbanim ctl will not reach the splash"
            )
        }
        // Only while holding the socket (boot.md): the pid file tells
        // systemd's tools a Plymouth answers there.
        if server != nil && SplashChannels.socketName == Plymouth.socketName {
            do throws(SystemError) {
                try BootEnvironment.writePidFile("/run/plymouth/pid")
                pidFile = "/run/plymouth/pid"
            } catch {
                log("cannot write /run/plymouth/pid (\(error))")
            }
        }
        let path = PsplashFIFO.defaultPath(
            environment: BootEnvironment.environment("PSPLASH_FIFO_DIR"))
        do throws(SystemError) {
            fifo = try PsplashFIFO(path: path, loop: session.loop) { [unowned self] bytes in
                for outcome in psplash.feed(bytes) {
                    switch outcome {
                    case .command(let command): _ = session.handle(command, client: nil)
                    case .ignored(let why): session.log("\(path): \(why)")
                    }
                }
            }
        } catch {
            log("no psplash FIFO (\(error)); going on without it")
        }
        return true
    }

    /// Sends the answer owed to each client (quit and deactivate answer once done).
    func answer(_ clients: [PlymouthServer.ClientID], ack: Bool) {
        for client in clients { server?.answer(client, ack ? Plymouth.ack : Plymouth.nak) }
    }

    /// Closes the socket (its clients see the splash gone), removes the FIFO and the pid file.
    func close() {
        server?.close()
        server = nil
        fifo?.close()
        fifo = nil
        if let pidFile { BootEnvironment.removePidFile(pidFile) }
        pidFile = nil
    }

    private func answer(
        _ request: Plymouth.Request, from peer: UnixSocket.Peer?, client: PlymouthServer.ClientID
    ) -> PlymouthServer.Answer {
        switch Plymouth.meaning(of: request) {
        case .command(.newRoot) where peer?.uid != 0:
            // Moving the splash's root is root's alone (not --ctl-group's).
            session.log.once(
                "newroot", "plymouth socket: newroot refused from uid \(peer?.uid ?? 0)")
            return .nak
        case .command(let command): return session.handle(command, client: client)
        case .malformed(let why):
            session.log("plymouth socket: \(why)")
            return .ack
        case .refused:
            let c = request.command
            let name =
                c >= 0x20 && c < 0x7F ? String(UnicodeScalar(c)) : "0x" + String(c, radix: 16)
            session.log("plymouth socket: request '\(name)' is not handled (NAK)")
            return .nak
        }
    }

    /// Root, the user the splash runs as, or a member of `--ctl-group`.
    private func isAllowed(_ peer: UnixSocket.Peer) -> Bool {
        if peer.uid == 0 || peer.uid == BootEnvironment.userID { return true }
        guard let group = allowedGroup else { return false }
        return peer.gid == group || BootEnvironment.process(peer.pid, isInGroup: group)
    }

    /// Who holds the socket, from Plymouth's pid file.
    private func holder() -> String {
        guard let pid = BootEnvironment.process(inPidFile: "/run/plymouth/pid") else {
            return "it holds Plymouth's socket"
        }
        return "\(BootEnvironment.commandName(of: pid) ?? "process") \(pid) holds Plymouth's socket"
    }
}

extension SplashSession {
    /// Does what a channel asks; returns how to answer a Plymouth client.
    func handle(_ command: BootCommand, client: PlymouthServer.ClientID?) -> PlymouthServer.Answer {
        switch command {
        case .ping, .rootWritable:
            return .ack
        case .progress(let percent):
            progress.explicit(percent: percent)
            loop.interrupt()
        case .unitActive:
            progress.unitActive()
            if showsProgress { loop.interrupt() }
        case .message(let text):
            message = text.isEmpty ? nil : text
            messageChanged = true
            loop.interrupt()
        case .hideMessage:
            message = nil
            messageChanged = true
            loop.interrupt()
        case .quit(let retain):
            if quit == nil {
                quit = Quit(
                    retain: retain, clients: [], deadline: monotonicNanoseconds() + 1_000_000_000)
                progress.finish()
            } else if retain {
                quit?.retain = true
            }
            if let client { quit?.clients.append(client) }
            loop.interrupt()
            return client == nil ? .ack : .later
        case .deactivate:
            guard !deactivated else { return .ack }
            // Still waiting for a display: do not take one now, the next
            // program is about to.
            guard display != nil else {
                deactivated = true
                return .ack
            }
            wantDeactivate = true
            if let client { deactivateClients.append(client) }
            loop.interrupt()
            return client == nil ? .ack : .later
        case .reactivate:
            wantReactivate = true
            loop.interrupt()
        case .hideSplash:
            if !hidden { wantHide = true }
            loop.interrupt()
        case .showSplash:
            wantShow = true
            loop.interrupt()
        case .newRoot(let path):
            changeRoot(to: path)
        }
        return .ack
    }

    /// Follows the boot into its real root, as plymouthd does at `update-root-fs`.
    private func changeRoot(to path: String) {
        // Once, to an absolute path: the boot's move from the initramfs.
        guard path.hasPrefix("/"), path != "/", !changedRoot else {
            log("newroot '\(shown(path))' ignored (once, to an absolute path)")
            return
        }
        changedRoot = true
        do throws(SystemError) {
            try BootEnvironment.changeRoot(to: path)
            log("now in the real root (\(shown(path)))")
            if request.mode == .boot && progress.history == nil { progress.history = readHistory() }
        } catch {
            log("cannot follow the root to \(shown(path)) (\(error))")
        }
    }

    /// Where the boot's history is kept (`FBANIM_STATE_DIR`, for tests).
    var historyPath: String {
        let dir = BootEnvironment.environment("FBANIM_STATE_DIR").flatMap { $0.isEmpty ? nil : $0 }
        return (dir ?? "/var/lib/fbanim") + "/boot-history"
    }

    func readHistory() -> BootHistory? {
        guard let bytes = try? BootEnvironment.readSmallFile(historyPath, limit: 4096) else {
            return nil
        }
        let history = BootHistory(text: String(decoding: bytes, as: UTF8.self))
        if history == nil { log("\(historyPath) is not a boot history; ignored") }
        return history
    }

    /// Keeps this boot's units and length for the next boot's progress.
    func writeHistory() {
        let record = progress.record(at: progressSeconds)
        let path = historyPath
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        do throws(SystemError) {
            try BootEnvironment.makeDirectory(directory)
            try writeFileAtomically(Array(record.text.utf8), to: path)
        } catch {
            log("cannot keep the boot's length in \(path) (\(error)); the next boot guesses again")
        }
    }
}
