import FBBoot
import Glibc

/// Plymouth's control socket, served: clients (`plymouth`, systemd, display
/// managers, `fbanim ctl`) connect to the abstract name, send requests and
/// read one byte back for each. Every client is non-blocking and bounded:
/// one that sends garbage gets NAKs, one that does not read its answers is
/// dropped, one that never writes costs a descriptor; none can stall the loop.
package final class PlymouthServer {
    /// A connected client. Never reused for a later client (a descriptor
    /// number is: a deferred answer must not reach whoever got it next).
    package typealias ClientID = Int32

    /// How to answer a request.
    package enum Answer: Sendable {
        case ack, nak
        /// Later, with `answer(_:_:)` (a quit answers once it is done).
        case later
    }

    private struct Client {
        let socket: UnixSocket
        let peer: UnixSocket.Peer?
        var decoder = Plymouth.Decoder()
        var output: [UInt8] = []
        var token: EventLoop.Token?
    }

    /// Clients served at once; more are closed as they come.
    package static let maximumClients = 512
    /// Bytes read from one client per wake-up, so a flood shares the loop.
    static let readLimit = 4096
    /// Answers a client may leave unread before it is dropped.
    static let outputLimit = 65536

    private let loop: EventLoop
    private let listener: UnixSocket
    private var listenToken: EventLoop.Token?
    private var clients: [ClientID: Client] = [:]
    private var lastClientID: ClientID = 0
    private var refusedSinceLog = 0
    private let system: SystemCalls
    /// Kept open to be given up when descriptors run out (see `acceptClients`).
    private var spare: FileDescriptor?
    private let log: (String) -> Void
    /// Whether a client with these credentials (`nil` if the kernel did not
    /// say) may send requests at all. One that may not gets one NAK and is
    /// closed at once: it never holds one of the `maximumClients` places,
    /// so nobody can lock root out by opening connections.
    package var admits: (UnixSocket.Peer?) -> Bool = { _ in true }
    /// Decides the answer to each request of an admitted client: the
    /// command, the client's credentials, and who asked.
    package var onRequest: (Plymouth.Request, UnixSocket.Peer?, ClientID) -> Answer = { _, _, _ in
        .nak
    }

    /// Binds `\0/org/freedesktop/plymouthd` (or `name`) and starts accepting.
    /// - Throws: `SystemError`; `EADDRINUSE` when plymouthd or another splash holds it.
    package init(
        loop: EventLoop, name: String = Plymouth.socketName,
        system: SystemCalls = LinuxSystemCalls.shared, log: @escaping (String) -> Void
    ) throws(SystemError) {
        self.loop = loop
        self.log = log
        self.system = system
        spare = try? system.open("/dev/null", flags: O_RDONLY)
        listener = try UnixSocket.listen(abstract: name, system: system)
        listenToken = loop.watch(listener.fd) { [unowned self] _ in acceptClients() }
    }

    deinit { close() }

    /// How many clients are connected.
    package var clientCount: Int { clients.count }

    /// Sends a deferred answer; nothing if the client has gone.
    package func answer(_ client: ClientID, _ byte: UInt8) {
        guard clients[client] != nil else { return }
        clients[client]?.output.append(byte)
        flush(client)
    }

    /// Closes the socket (the name is free again at once) and every client.
    package func close() {
        if let listenToken {
            loop.remove(listenToken)
            listener.close()
            self.listenToken = nil
        }
        for id in Array(clients.keys) { drop(id) }
        if let spare {
            system.close(spare)
            self.spare = nil
        }
    }

    private func acceptClients() {
        for _ in 0..<64 {
            let socket: UnixSocket
            do throws(SystemError) {
                guard let accepted = try listener.accept() else { break }
                socket = accepted
            } catch {
                // Out of descriptors: the pending connection would keep the
                // listener ready and the loop spinning. The spare descriptor
                // makes room to take it and close it (the classic way out).
                if error.errno == EMFILE || error.errno == ENFILE, let spare {
                    system.close(spare)
                    if let taken = try? listener.accept() { taken.close() }
                    self.spare = try? system.open("/dev/null", flags: O_RDONLY)
                    refusedSinceLog += 1
                    if refusedSinceLog == 1 {
                        log("plymouth socket: out of descriptors (\(error)); refusing")
                    }
                    continue
                }
                log("plymouth socket: \(error)")
                break
            }
            let peer = socket.peer
            guard admits(peer) else {
                _ = try? socket.write([Plymouth.nak][...])
                socket.close()
                continue
            }
            guard clients.count < PlymouthServer.maximumClients else {
                socket.close()
                refusedSinceLog += 1
                if refusedSinceLog == 1 {
                    log(
                        "plymouth socket: \(PlymouthServer.maximumClients) clients connected; refusing more"
                    )
                }
                continue
            }
            refusedSinceLog = 0
            // Wraps after 2^31 connections, long after the first ones are gone.
            lastClientID = lastClientID == .max ? 1 : lastClientID + 1
            let id = lastClientID
            var client = Client(socket: socket, peer: peer)
            client.token = loop.watch(socket.fd) { [unowned self] events in
                serve(id, events)
            }
            clients[id] = client
        }
    }

    private func serve(_ id: ClientID, _ events: Int16) {
        guard let client = clients[id] else { return }
        if events & Int16(POLLOUT) != 0 { flush(id) }
        guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return }
        let bytes: [UInt8]
        do throws(SystemError) {
            guard let read = try client.socket.read(limit: PlymouthServer.readLimit) else { return }
            bytes = read
        } catch {
            drop(id)
            return
        }
        guard !bytes.isEmpty else {
            drop(id)  // the client closed its end
            return
        }
        let requests = clients[id]!.decoder.feed(bytes)
        for request in requests {
            switch onRequest(request, client.peer, id) {
            case .ack: clients[id]?.output.append(Plymouth.ack)
            case .nak: clients[id]?.output.append(Plymouth.nak)
            case .later: break
            }
        }
        flush(id)
    }

    private func flush(_ id: ClientID) {
        guard var client = clients[id], let token = client.token else { return }
        if !client.output.isEmpty {
            do throws(SystemError) {
                let sent = try client.socket.write(client.output[...])
                client.output.removeFirst(sent)
            } catch {
                drop(id)  // EPIPE: gone before reading its answer
                return
            }
        }
        if client.output.count > PlymouthServer.outputLimit {
            log("plymouth socket: a client does not read its answers; dropped")
            drop(id)
            return
        }
        clients[id] = client
        loop.update(token, events: Int16(client.output.isEmpty ? POLLIN : POLLIN | POLLOUT))
    }

    private func drop(_ id: ClientID) {
        guard let client = clients.removeValue(forKey: id) else { return }
        if let token = client.token { loop.remove(token) }
        client.socket.close()
    }
}
