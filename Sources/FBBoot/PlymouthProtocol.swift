/// Plymouth's client protocol (`src/ply-boot-protocol.h`,
/// `src/ply-boot-server.c`): what `plymouth`, systemd and display
/// managers send to `plymouthd`, so they can drive fbanim in its place.
///
/// A request is a command byte then `0x00`, or a command byte, `0x02`, a
/// length byte (the argument's length + 1) and the argument with its NUL.
/// Each request gets one byte back: ACK (`0x06`) or NAK (`0x15`).
package enum Plymouth {
    /// The abstract socket's name, without its leading NUL (the address
    /// length covers the name only, not a whole `sun_path`).
    package static let socketName = "/org/freedesktop/plymouthd"
    package static let ack: UInt8 = 0x06
    package static let nak: UInt8 = 0x15

    /// One request as it came: its command byte and its argument's bytes
    /// up to the first NUL (`nil` when it had none).
    package struct Request: Equatable, Sendable {
        package var command: UInt8
        package var argument: [UInt8]?

        package init(command: UInt8, argument: [UInt8]? = nil) {
            self.command = command
            self.argument = argument
        }

        /// The bytes a client sends for it (as `ply-boot-client.c` writes them).
        /// - Precondition: the argument is at most 254 bytes and holds no NUL.
        package var encoded: [UInt8] {
            guard let argument else { return [command, 0] }
            precondition(argument.count <= 254 && !argument.contains(0), "argument too long")
            return [command, 2, UInt8(argument.count + 1)] + argument + [0]
        }

        /// The argument as text (invalid UTF-8 becomes U+FFFD), `""` for none.
        package var text: String { decodeClientText(argument ?? []) }
    }

    /// What a request comes to.
    package enum Meaning: Equatable, Sendable {
        /// Do this, then answer ACK (`quit` and `deactivate` once done).
        case command(BootCommand)
        /// Answer ACK (as plymouthd does) and log why nothing else happens.
        case malformed(String)
        /// Answer NAK: password prompts and questions (so the caller falls
        /// back to the console), mode changes, keystrokes, anything unknown.
        case refused
    }

    /// What `request` asks of fbanim.
    package static func meaning(of request: Request) -> Meaning {
        switch request.command {
        case UInt8(ascii: "P"): return .command(.ping)
        case UInt8(ascii: "U"): return .command(.unitActive(request.text))
        case UInt8(ascii: "u"):
            // plymouthd reads it with strtol; fbanim takes whole numbers only.
            guard let percent = parsePercent(request.text, range: 0...100) else {
                return .malformed(
                    "system-update progress needs a whole number from 0 to 100, not "
                        + "'\(loggable(request.text))'")
            }
            return .command(.progress(percent))
        case UInt8(ascii: "M"): return .command(.message(request.text))
        case UInt8(ascii: "m"): return .command(.hideMessage)
        case UInt8(ascii: "Q"): return .command(.quit(retain: request.argument?.first == 1))
        case UInt8(ascii: "D"): return .command(.deactivate)
        case UInt8(ascii: "r"): return .command(.reactivate)
        case UInt8(ascii: "$"): return .command(.showSplash)
        case UInt8(ascii: "H"): return .command(.hideSplash)
        case UInt8(ascii: "S"): return .command(.rootWritable)
        case UInt8(ascii: "R"): return .command(.newRoot(request.text))
        default: return .refused
        }
    }

    /// The request `fbanim ctl` sends for `command`.
    package static func request(for command: BootCommand) -> Request {
        func r(_ c: Character, _ text: String? = nil) -> Request {
            Request(command: c.asciiValue!, argument: text.map(argumentBytes))
        }
        switch command {
        case .ping: return r("P")
        case .unitActive(let name): return r("U", name)
        case .progress(let percent): return r("u", String(percent))
        case .message(let text): return r("M", text)
        case .hideMessage: return r("m", "")
        case .quit(let retain):
            return Request(command: UInt8(ascii: "Q"), argument: retain ? [1] : [])
        case .deactivate: return r("D")
        case .reactivate: return r("r")
        case .showSplash: return r("$")
        case .hideSplash: return r("H")
        case .rootWritable: return r("S")
        case .newRoot(let path): return r("R", path)
        }
    }

    /// `text` as an argument: at most 254 bytes (the length byte counts the
    /// NUL too), cut at a character's boundary, without NULs.
    static func argumentBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars where scalar.value != 0 {
            let utf8 = Array(String(scalar).utf8)
            guard bytes.count + utf8.count <= 254 else { break }
            bytes += utf8
        }
        return bytes
    }

    /// Cuts a connection's byte stream into requests, however the bytes
    /// arrive (a byte a second, many requests in one read). Never fails:
    /// any bytes make some requests, and unknown ones are answered NAK.
    package struct Decoder: Sendable {
        private enum State: Sendable {
            case command
            case marker(UInt8)
            case length(UInt8)
            case argument(UInt8, remaining: Int)
        }
        private var state = State.command
        private var argument: [UInt8] = []

        package init() {}

        /// Whether a request is half received.
        package var isMidRequest: Bool {
            if case .command = state { return false }
            return true
        }

        /// The requests completed by `bytes`, in order.
        package mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Request]
        where Bytes.Element == UInt8 {
            var requests: [Request] = []
            for byte in bytes {
                switch state {
                case .command:
                    state = .marker(byte)
                case .marker(let command):
                    // plymouthd reads any second byte other than 0x02 as "no argument".
                    if byte == 2 {
                        state = .length(command)
                    } else {
                        requests.append(Request(command: command))
                        state = .command
                    }
                case .length(let command):
                    argument.removeAll(keepingCapacity: true)
                    if byte == 0 {
                        requests.append(Request(command: command, argument: []))
                        state = .command
                    } else {
                        state = .argument(command, remaining: Int(byte))
                    }
                case .argument(let command, let remaining):
                    argument.append(byte)
                    if remaining == 1 {
                        let text = argument.prefix { $0 != 0 }
                        requests.append(Request(command: command, argument: Array(text)))
                        state = .command
                    } else {
                        state = .argument(command, remaining: remaining - 1)
                    }
                }
            }
            return requests
        }
    }
}
