/// The psplash FIFO's byte stream, cut into messages and parsed, as
/// psplash and the tools that write to it (psplash-write, Yocto's `rc`,
/// SWUpdate, bmaptool, Mender) expect: `PROGRESS n`, `MSG text`, `QUIT`.
///
/// A message ends at a NUL or a newline; several may come in one read and
/// one may be split over reads (writers come and go: the stream keeps a
/// partial message until its end arrives). Nothing here can fail: bytes
/// are answered with commands or with a one-line reason they were ignored.
package struct PsplashStream: Sendable {
    /// The longest message taken, in bytes (its terminator not counted).
    package static let maximumLength = 1024

    /// What one message came to.
    package enum Outcome: Equatable, Sendable {
        case command(BootCommand)
        /// Not understood: why, for one line of log.
        case ignored(String)
    }

    private var pending: [UInt8] = []
    /// Bytes dropped from the message being received, which is over-long.
    private var dropping = 0

    package init() { pending.reserveCapacity(PsplashStream.maximumLength) }

    /// Whether part of a message is waiting for its end.
    package var hasPartialMessage: Bool { !pending.isEmpty || dropping > 0 }

    /// Takes bytes as read from the FIFO; returns what each message that
    /// ended in them came to, in order. Empty messages (a NUL storm, blank
    /// lines) come to nothing.
    package mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Outcome]
    where Bytes.Element == UInt8 {
        var outcomes: [Outcome] = []
        for byte in bytes {
            if byte == 0 || byte == 0x0A {
                if dropping > 0 {
                    outcomes.append(
                        .ignored(
                            "message of \(dropping + pending.count) bytes is longer than "
                                + "\(PsplashStream.maximumLength): ignored"))
                    dropping = 0
                } else if let outcome = PsplashStream.parse(pending) {
                    outcomes.append(outcome)
                }
                pending.removeAll(keepingCapacity: true)
            } else if dropping > 0 {
                dropping += 1
            } else if pending.count == PsplashStream.maximumLength {
                dropping = pending.count + 1
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
            }
        }
        return outcomes
    }

    /// One message without its terminator; `nil` for an empty one.
    static func parse(_ message: [UInt8]) -> Outcome? {
        var bytes = message[...]
        // `echo` from a DOS-edited script ends lines with CR LF.
        while bytes.last == 0x0D { bytes.removeLast() }
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        if bytes.isEmpty { return nil }
        let space = bytes.firstIndex { $0 == 0x20 || $0 == 0x09 }
        let word = bytes[..<(space ?? bytes.endIndex)]
        let rest = space.map { bytes[bytes.index(after: $0)...] } ?? bytes[bytes.endIndex...]
        switch decodeClientText(word) {
        case "QUIT":
            guard rest.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else {
                return .ignored("QUIT takes no argument: '\(loggable(decodeClientText(rest)))'")
            }
            return .command(.quit(retain: false))
        case "PROGRESS":
            let text = decodeClientText(rest)
            guard let value = parsePercent(text, range: -100...100) else {
                return .ignored(
                    "PROGRESS needs a whole number from -100 to 100, not '\(loggable(text))'")
            }
            return .command(.progress(value))
        case "MSG":
            return .command(.message(decodeClientText(rest)))
        case let other:
            return .ignored("unknown command '\(loggable(other, limit: 24))'")
        }
    }
}

/// A whole number of percent as a person or a script writes it: optional
/// blanks around, an optional sign, decimal digits (`-0` is 0). Values past
/// `range` are clamped into it (psplash clamps too); anything else, `1e99`
/// or `40%` or `12abc`, is `nil`.
package func parsePercent(_ text: String, range: ClosedRange<Int>) -> Int? {
    var s = Substring(text)
    while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
    while let c = s.last, c == " " || c == "\t" { s.removeLast() }
    var negative = false
    if let sign = s.first, sign == "-" || sign == "+" {
        negative = sign == "-"
        s.removeFirst()
    }
    guard !s.isEmpty, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    var magnitude = 0
    for digit in s.utf8 {
        // Saturate: a hundred digits is just a large number.
        magnitude = min(magnitude * 10 + Int(digit - 0x30), 1_000_000)
    }
    let value = negative ? -magnitude : magnitude
    return min(max(value, range.lowerBound), range.upperBound)
}
