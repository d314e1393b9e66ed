import Glibc

/// A Unix stream or datagram socket descriptor, closed by its owner.
///
/// Addresses are abstract (`@name`: no file, gone with the last holder, as
/// Plymouth's `\0/org/freedesktop/plymouthd`) or paths. An abstract
/// address's length covers the name only, not the whole `sun_path`
/// (Plymouth's "trimmed" abstract socket).
package struct UnixSocket: @unchecked Sendable {
    package let fd: Int32
    /// Where its calls go.
    let system: SystemCalls

    private var descriptor: FileDescriptor { FileDescriptor(rawValue: fd) }

    /// Who is at the other end of a connection (`SO_PEERCRED`).
    package struct Peer: Equatable, Sendable {
        package var pid: Int32
        package var uid: UInt32
        package var gid: UInt32
    }

    /// A listening stream socket on the abstract name `name` (without its NUL).
    /// - Throws: `SystemError`; `EADDRINUSE` when another process holds the name.
    package static func listen(
        abstract name: String, backlog: Int32 = SOMAXCONN,
        system: SystemCalls = LinuxSystemCalls.shared
    ) throws(SystemError) -> UnixSocket {
        let socket = try make(type: Int32(SOCK_STREAM.rawValue), system: system)
        do throws(SystemError) {
            try withAddress(abstract: name) { address, length throws(SystemError) in
                try system.bind(socket.descriptor, address, length)
            }
            try system.listen(socket.descriptor, backlog: backlog)
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// A stream connection to the abstract name `name`.
    /// - Throws: `SystemError`; `ECONNREFUSED` when nobody listens there.
    package static func connect(
        abstract name: String, nonBlocking: Bool = false,
        system: SystemCalls = LinuxSystemCalls.shared
    ) throws(SystemError) -> UnixSocket {
        let socket = try make(
            type: Int32(SOCK_STREAM.rawValue), nonBlocking: nonBlocking, system: system)
        do throws(SystemError) {
            try withAddress(abstract: name) { address, length throws(SystemError) in
                try system.connect(socket.descriptor, address, length)
            }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Sends one datagram to `address` (`@name` for an abstract one, else a
    /// path): how a service tells systemd `READY=1` on `$NOTIFY_SOCKET`.
    package static func sendDatagram(
        _ bytes: [UInt8], to address: String, system: SystemCalls = LinuxSystemCalls.shared
    ) throws(SystemError) {
        let socket = try make(type: Int32(SOCK_DGRAM.rawValue), system: system)
        defer { socket.close() }
        let send = { (address: UnsafePointer<sockaddr>, length: socklen_t) throws(SystemError) in
            let sent = bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in
                    try system.send(socket.descriptor, buffer, flags: 0, to: address, length)
                }
            }
            _ = try sent.get()
        }
        if address.hasPrefix("@") {
            try withAddress(abstract: String(address.dropFirst()), send)
        } else {
            try withAddress(path: address, send)
        }
    }

    /// Takes the next pending connection, non-blocking; `nil` when none waits.
    package func accept() throws(SystemError) -> UnixSocket? {
        do throws(SystemError) {
            // accept4 is a GNU extension Swift does not import: set the flags after.
            let accepted = try system.accept(descriptor)
            _ = try? system.fcntl(accepted, F_SETFD, FD_CLOEXEC)
            if let flags = try? system.fcntl(accepted, F_GETFL, 0) {
                _ = try? system.fcntl(accepted, F_SETFL, flags | O_NONBLOCK)
            }
            return UnixSocket(fd: accepted.rawValue, system: system)
        } catch {
            if error.errno == EAGAIN || error.errno == ECONNABORTED { return nil }
            throw error
        }
    }

    /// The connected peer's process, user and group, or `nil` if the kernel does not say.
    package var peer: Peer? {
        guard let credentials = try? system.peerCredentials(descriptor) else { return nil }
        return Peer(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }

    /// Reads what is there, at most `limit` bytes, without waiting.
    /// - Returns: the bytes, empty at end of stream, `nil` when nothing is there yet.
    package func read(limit: Int) throws(SystemError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: limit)
        do throws(SystemError) {
            let n = try system.read(descriptor, into: &buffer)
            buffer.removeLast(limit - n)
            return buffer
        } catch {
            if error.errno == EAGAIN { return nil }
            throw error
        }
    }

    /// Writes as much of `bytes` as fits without waiting (`MSG_NOSIGNAL`: a
    /// reader that went away is `EPIPE`, not a signal).
    /// - Returns: how many bytes went.
    package func write(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> Int {
        do throws(SystemError) {
            let sent = bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in
                    try system.send(
                        descriptor, buffer, flags: Int32(MSG_NOSIGNAL), to: nil, 0)
                }
            }
            return try sent.get()
        } catch {
            if error.errno == EAGAIN { return 0 }
            throw error
        }
    }

    package func close() { system.close(descriptor) }

    private static func make(type: Int32, nonBlocking: Bool = true, system: SystemCalls)
        throws(SystemError) -> UnixSocket
    {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let fd = try system.socket(AF_UNIX, type | flags)
        return UnixSocket(fd: fd.rawValue, system: system)
    }

    /// Calls `body` with the address of an abstract socket named `name`.
    private static func withAddress<R>(
        abstract name: String,
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> R
    ) throws(SystemError) -> R {
        try withAddress(bytes: [0] + Array(name.utf8), body)
    }

    private static func withAddress<R>(
        path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> R
    ) throws(SystemError) -> R {
        try withAddress(bytes: Array(path.utf8), body)
    }

    private static func withAddress<R>(
        bytes: [UInt8], _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> R
    ) throws(SystemError) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw SystemError(errno: ENAMETOOLONG, call: "bind") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(
            MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count)
        return try withUnsafePointer(to: &address) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { p throws(SystemError) in
                try body(p, length)
            }
        }
    }
}
