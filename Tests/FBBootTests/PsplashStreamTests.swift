import Testing

@testable import FBBoot

@Suite struct PsplashStreamTests {
    func outcomes(_ text: String) -> [PsplashStream.Outcome] {
        var stream = PsplashStream()
        return stream.feed(Array(text.utf8))
    }

    @Test func theThreeCommandsWithEitherTerminator() {
        #expect(outcomes("PROGRESS 40\n") == [.command(.progress(40))])
        #expect(outcomes("MSG Updating\0") == [.command(.message("Updating"))])
        #expect(outcomes("QUIT\0") == [.command(.quit(retain: false))])
        #expect(outcomes("QUIT\n") == [.command(.quit(retain: false))])
    }

    @Test func severalMessagesInOneRead() {
        #expect(
            outcomes("PROGRESS 10\0MSG a b  c\nPROGRESS -25\0QUIT\0")
                == [
                    .command(.progress(10)), .command(.message("a b  c")),
                    .command(.progress(-25)), .command(.quit(retain: false)),
                ])
    }

    @Test func aMessageSplitAtEveryPointGivesTheSameCommands() {
        let bytes = Array("MSG Scanning...\0PROGRESS 77\nQUIT\0".utf8)
        var whole = PsplashStream()
        let expected = whole.feed(bytes)
        #expect(expected.count == 3)
        for cut in 0...bytes.count {
            var stream = PsplashStream()
            var got = stream.feed(bytes[..<cut])
            got += stream.feed(bytes[cut...])
            #expect(got == expected, "cut at \(cut)")
        }
        var stream = PsplashStream()
        var oneByOne: [PsplashStream.Outcome] = []
        for b in bytes { oneByOne += stream.feed([b]) }
        #expect(oneByOne == expected)
    }

    @Test func emptyMessagesComeToNothing() {
        var stream = PsplashStream()
        #expect(stream.feed([UInt8](repeating: 0, count: 100_000)).isEmpty)
        #expect(stream.feed(Array("\n\n \r\n\t\0".utf8)).isEmpty)
        #expect(!stream.hasPartialMessage)
    }

    @Test func progressValues() {
        #expect(outcomes("PROGRESS -0\0") == [.command(.progress(0))])
        #expect(outcomes("PROGRESS   +7  \0") == [.command(.progress(7))])
        #expect(outcomes("PROGRESS 150\0") == [.command(.progress(100))])
        #expect(outcomes("PROGRESS -1000000000000000000000000\0") == [.command(.progress(-100))])
        for bad in [
            "PROGRESS", "PROGRESS abc", "PROGRESS 1e99", "PROGRESS 40%", "PROGRESS 4 0",
            "PROGRESS --4", "PROGRESS 0x10", "PROGRESS 4.5",
        ] {
            let got = outcomes(bad + "\0")
            #expect(got.count == 1)
            guard case .ignored(let why)? = got.first else {
                Issue.record("\(bad) was taken: \(got)")
                continue
            }
            #expect(why.contains("PROGRESS needs a whole number"))
        }
    }

    @Test func crLfLinesAndLeadingBlanks() {
        #expect(outcomes("  PROGRESS 5\r\n") == [.command(.progress(5))])
        #expect(outcomes("MSG hello\r\n") == [.command(.message("hello"))])
        #expect(outcomes("MSG\0") == [.command(.message(""))])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        var stream = PsplashStream()
        let got = stream.feed(Array("MSG a".utf8) + [0xFF, 0xC3] + Array("b\0".utf8))
        #expect(got == [.command(.message("a\u{FFFD}\u{FFFD}b"))])
    }

    @Test func unknownAndOverlongMessagesAreIgnoredWithOneLine() {
        #expect(outcomes("REBOOT now\0") == [.ignored("unknown command 'REBOOT'")])
        // An escape sequence in a bad command is escaped, not echoed.
        #expect(outcomes("\u{1B}[2J\0") == [.ignored("unknown command '\\u{1b}[2J'")])
        var stream = PsplashStream()
        var got = stream.feed(Array("MSG ".utf8) + [UInt8](repeating: 0x41, count: 1_000_000))
        #expect(got.isEmpty)
        got = stream.feed(Array("\0PROGRESS 3\0".utf8))
        #expect(got.count == 2)
        if case .ignored(let why) = got[0] {
            #expect(why == "message of 1000004 bytes is longer than 1024: ignored")
        } else {
            Issue.record("over-long message not reported: \(got)")
        }
        #expect(got[1] == .command(.progress(3)))
        // Exactly 1024 bytes is taken.
        let longest = "MSG " + String(repeating: "x", count: 1020)
        #expect(
            outcomes(longest + "\0") == [.command(.message(String(repeating: "x", count: 1020)))])
    }

    @Test func quitWithAnArgumentIsNotAQuit() {
        let got = outcomes("QUIT now\0")
        #expect(got.count == 1)
        if case .command = got.first { Issue.record("QUIT now was taken as a command") }
    }
}
