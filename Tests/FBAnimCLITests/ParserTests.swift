import Testing

@testable import FBAnimCLI

/// In-process checks of the option table, the parser and the value parsers.
@Suite struct ParserTests {
    @Test func everyRenderOptionIsInTheHelpAndTheUsage() {
        let help = helpText(for: .render)
        for spec in OptionTable.options(for: .render) {
            #expect(help.contains("  " + spec.label + " "), "\(spec.longName)")
            if spec.key != .help { #expect(usageLine(for: .render).contains(spec.synopsis)) }
        }
        for spec in OptionTable.options where !spec.commands.contains(.render) {
            #expect(!help.contains(spec.longName))
        }
    }

    @Test func optionsAndArgumentsInAnyOrder() throws {
        let parsed = try parseCommandLine(
            ["--time", "1", "ring", "--size=2x3", "--output", "a.png"], for: .render)
        #expect(parsed.arguments == ["ring"])
        #expect(parsed[.time] == "1" && parsed[.size] == "2x3" && parsed[.output] == "a.png")
        #expect(!parsed.wantsHelp)
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try parseCommandLine(["--time", "1", "--", "--help"], for: .render)
        #expect(parsed.arguments == ["--help"] && !parsed.wantsHelp)
    }

    @Test func playOptionsAreInTheTableForLater() throws {
        let parsed = try parseCommandLine(
            ["--device", "sim:240x240", "--fps", "60", "--scale", "2", "ring"], for: .play)
        #expect(parsed[.device] == "sim:240x240" && parsed[.fps] == "60" && parsed[.scale] == "2")
        #expect(throws: CLIError.self) { try parseCommandLine(["--size", "1x1"], for: .play) }
    }

    @Test func sizes() throws {
        #expect(try parseSize("240x320") == (240, 320))
        #expect(try parseSize("8192X1") == (8192, 1))
        #expect(try parseSize("007x7") == (7, 7))
        for bad in ["0x1", "8193x1", "1x", "x", "", "1x1x1", "-1x1", "1.5x2", " 1x1"] {
            #expect(throws: InvalidValue.self) { try parseSize(bad) }
        }
    }

    @Test func decimalsRefuseWhatAPersonNeverMeans() {
        #expect(parseDecimal("1.25") == 1.25)
        #expect(parseDecimal(".5") == 0.5)
        #expect(parseDecimal("2e3") == 2000)
        #expect(parseDecimal("+3") == 3)
        for bad in ["nan", "inf", "infinity", "0x1p3", "1e400", "", ".", "e5", "1_000", "١"] {
            #expect(parseDecimal(bad) == nil, "\(bad)")
        }
    }

    @Test func timesAndScales() throws {
        #expect(try parseTime("0") == 0)
        #expect(try parseTime("-0").sign == .plus)
        #expect(try parseTime("1e9") == 1e9)
        #expect(throws: InvalidValue.self) { try parseTime("1.0000001e9") }
        #expect(try parseScale("64") == 64)
        #expect(throws: InvalidValue.self) { try parseScale("0") }
        #expect(throws: InvalidValue.self) { try parseScale("64.0001") }
    }

    @Test func colorsRotationsFormats() throws {
        #expect(try parseColor("#00a0FF").rgb == 0x00A0FF)
        #expect(try parseRotation("270") == .degrees270)
        #expect(try parsePixelFormat("rgb888") == .rgb888)
        #expect(throws: InvalidValue.self) { try parseRotation("+90") }
    }

    @Test func wrapKeepsLinesWithinTheWidth() {
        let lines = wrap("aaa bbb ccc dddddddddd e", width: 8)
        #expect(lines == ["aaa bbb", "ccc", "dddddddddd", "e"])
    }

    @Test func listingJoinsWithOr() {
        #expect(listing(["a", "b", "c"]) == "'a', 'b' or 'c'")
        #expect(listing(["a"]) == "'a'")
    }
}
