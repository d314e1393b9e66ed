import Testing
import _FBTestSupport

@testable import FBBoot

@Suite struct PlymouthProtocolTests {
    typealias Request = Plymouth.Request

    /// The bytes `ply-boot-client.c` and systemd write (asprintf "%s\002%c%s" plus its NUL).
    @Test func theClientsOwnBytes() {
        var d = Plymouth.Decoder()
        #expect(d.feed([0x50, 0]) == [Request(command: 0x50)])  // plymouth --ping
        // plymouth quit: an argument of one NUL byte; --retain-splash: 0x01.
        #expect(d.feed([0x51, 2, 1, 0]) == [Request(command: 0x51, argument: [])])
        #expect(d.feed([0x51, 2, 2, 1, 0]) == [Request(command: 0x51, argument: [1])])
        let unit = Array("systemd-udevd.service".utf8)
        let notice = [0x55, 2, UInt8(unit.count + 1)] + unit + [0]
        #expect(d.feed(notice) == [Request(command: 0x55, argument: unit)])
        #expect(!d.isMidRequest)
    }

    @Test func meanings() {
        func meaning(_ c: Character, _ arg: String? = nil) -> Plymouth.Meaning {
            Plymouth.meaning(
                of: Request(command: c.asciiValue!, argument: arg.map { Array($0.utf8) }))
        }
        #expect(meaning("P") == .command(.ping))
        #expect(meaning("U", "a.service") == .command(.unitActive("a.service")))
        #expect(meaning("u", "30") == .command(.progress(30)))
        #expect(meaning("M", "Hello") == .command(.message("Hello")))
        #expect(meaning("m", "Hello") == .command(.hideMessage))
        #expect(meaning("D") == .command(.deactivate))
        #expect(meaning("r") == .command(.reactivate))
        #expect(meaning("$") == .command(.showSplash))
        #expect(meaning("H") == .command(.hideSplash))
        #expect(meaning("S") == .command(.rootWritable))
        #expect(meaning("R", "/root") == .command(.newRoot("/root")))
        #expect(
            Plymouth.meaning(of: Request(command: 0x51, argument: [1]))
                == .command(.quit(retain: true)))
        #expect(
            Plymouth.meaning(of: Request(command: 0x51, argument: []))
                == .command(.quit(retain: false)))
        #expect(Plymouth.meaning(of: Request(command: 0x51)) == .command(.quit(retain: false)))
        for refused in ["*", "c", "W", "K", "L", "C", "A", "a", "V", "!", "z", "\u{7F}"] {
            #expect(meaning(Character(refused)) == .refused, "\(refused)")
        }
        if case .malformed(let why) = meaning("u", "1e99") {
            #expect(why.contains("whole number from 0 to 100"))
        } else {
            Issue.record("u 1e99 was taken")
        }
        #expect(meaning("u", "150") == .command(.progress(100)))
    }

    @Test func everyCtlRequestRoundTrips() {
        let commands: [BootCommand] = [
            .ping, .progress(0), .progress(100), .message("Updating firmware 42%"),
            .message(""), .hideMessage, .quit(retain: false), .quit(retain: true), .deactivate,
            .reactivate, .showSplash, .hideSplash, .rootWritable, .newRoot("/root"),
            .unitActive("x.mount"), .message("é ü 😀"),
        ]
        for command in commands {
            var d = Plymouth.Decoder()
            let requests = d.feed(Plymouth.request(for: command).encoded)
            #expect(requests.count == 1)
            #expect(Plymouth.meaning(of: requests[0]) == .command(command), "\(command)")
        }
    }

    @Test func aLongMessageIsCutToTheProtocolsLimit() {
        let long = String(repeating: "a", count: 1000)
        let bytes = Plymouth.request(for: .message(long)).encoded
        #expect(bytes.count == 3 + 254 + 1)
        var d = Plymouth.Decoder()
        #expect(d.feed(bytes).first?.argument?.count == 254)
    }

    @Test func argumentsAreCutAtACharactersBoundary() {
        // 127 two-byte letters fill 254 bytes exactly; one more does not fit whole.
        let fits = String(repeating: "é", count: 127)
        #expect(Plymouth.request(for: .message(fits)).argument?.count == 254)
        let bytes = Plymouth.request(for: .message(fits + "é")).argument ?? []
        #expect(bytes.count == 254)
        // "a" and 127 é are 255 bytes: the last é goes whole, not half.
        #expect(Plymouth.request(for: .message("a" + fits)).argument?.count == 253)
        var d = Plymouth.Decoder()
        let back = d.feed(Plymouth.request(for: .message("a" + fits)).encoded)
        #expect(back.first?.text == "a" + String(repeating: "é", count: 126))
        #expect(!(back.first?.text.contains("\u{FFFD}") ?? true))
        #expect(Plymouth.request(for: .message("a\u{0}b")).argument == Array("ab".utf8))
    }

    @Test func byteByByteEqualsAllAtOnce() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<200 {
            let bytes = (0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next())
            }
            var whole = Plymouth.Decoder()
            var single = Plymouth.Decoder()
            let a = whole.feed(bytes)
            var b: [Request] = []
            for byte in bytes { b += single.feed([byte]) }
            #expect(a == b)
            // Every request's argument stops at its first NUL.
            for r in a { #expect(r.argument?.contains(0) != true) }
        }
    }
}
