import Foundation
import Glibc
import Testing

/// A bad `render` command line and the word its error must name.
///
/// `OUT` stands for a path in the test's own directory, without extension.
struct BadCommandLine: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    let badWord: String
    var testDescription: String { arguments.joined(separator: " ") }

    /// A valid command line with `change` applied to its words.
    init(_ badWord: String, _ change: ([String]) -> [String]) {
        self.arguments = change(validRender)
        self.badWord = badWord
    }

    /// A valid command line with `option`'s value replaced.
    init(_ option: String, value: String) {
        self.init(value) { words in
            var words = words
            if let i = words.firstIndex(of: option) {
                words[i + 1] = value
            } else {
                words += [option, value]
            }
            return words
        }
    }
}

/// The words after `fbanim`, valid except for the file name.
let validRender = ["render", "ring", "--size", "64x48", "--time", "0.5", "--output", "OUT.png"]

func removing(_ option: String) -> ([String]) -> [String] {
    { words in
        guard let i = words.firstIndex(of: option) else { return words }
        return Array(words[..<i] + words[(i + 2)...])
    }
}

let badCommandLines: [BadCommandLine] =
    [
        BadCommandLine("rinng") { ["render", "rinng"] + $0.dropFirst(2) },
        BadCommandLine("RING") { ["render", "RING"] + $0.dropFirst(2) },
        BadCommandLine("<loader>") { ["render"] + $0.dropFirst(2) },
        BadCommandLine("radar") { $0 + ["radar"] },
        BadCommandLine("--colour") { $0 + ["--colour", "ff0000"] },
        BadCommandLine("-x") { $0 + ["-x"] },
        BadCommandLine("--device") { $0 + ["--device", "/dev/fb0"] },
        BadCommandLine("--help") { $0 + ["--help=yes"] },
        BadCommandLine("--size", removing("--size")),
        BadCommandLine("--time", removing("--time")),
        BadCommandLine("--output", removing("--output")),
        BadCommandLine("--size") { removing("--size")($0) + ["--size"] },
        BadCommandLine("--size") { _ in
            ["render", "ring", "--size", "--time", "1", "--output", "OUT.png"]
        },
        BadCommandLine("--scale") { $0 + ["--scale="] },
        BadCommandLine("--size") { $0 + ["--size", "10x10"] },
        BadCommandLine("--color") { $0 + ["--color", "ff0000", "--color=00ff00"] },
    ]
    + [
        "0x10", "10x0", "8193x10", "10x8193", "10", "10x", "x10", "10x10x10", "-5x5", "ax5",
        "10 x 10", "99999999999999999999999x1", "+10x10", "١٠x١٠",
    ].map { BadCommandLine("--size", value: $0) }
    + ["0", "-1", "64.5", "65", "abc", "nan", "NaN", "inf", "-inf", "1e400", "0x1p3", "1,5", "."]
    .map { BadCommandLine("--scale", value: $0) }
    + ["12345", "1234567", "GGGGGG", "#12345", "##123456", "0x1234", "red", "+12345", "ff00 0"]
    .map { BadCommandLine("--color", value: $0) }
    + ["red", "#1234567"].map { BadCommandLine("--background", value: $0) }
    + ["45", "-90", "360", "90.0", "abc", "1"].map { BadCommandLine("--rotate", value: $0) }
    + ["-1", "-0.5", "abc", "nan", "inf", "1e10", "1000000001", "1e400", "0x10", "1s"]
    .map { BadCommandLine("--time", value: $0) }
    + ["rgb666", "XRGB8888", "rgba8888", "565"].map { BadCommandLine("--format", value: $0) }
    + ["OUT.gif", "OUT", "OUT.png.bak", "OUT.png/"].map { BadCommandLine("--output", value: $0) }

@Suite struct CommandLineErrorTests {
    @Test(arguments: badCommandLines)
    func badWordsExit64WithOneErrorLineNamingThem(_ bad: BadCommandLine) throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let out = dir.file("frame")
        let arguments = bad.arguments.map { $0.replacingOccurrences(of: "OUT", with: out) }
        let result = try Fbanim.run(arguments)
        let badWord = bad.badWord.replacingOccurrences(of: "OUT", with: out)

        #expect(result.status == 64 && !result.crashed, "\(result)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderrLines
        #expect(lines.count == 1, "\(result.stderr)")
        guard lines.count == 1 else { return }
        #expect(lines[0].hasPrefix("Error: "))
        #expect(lines[0].contains("'\(badWord)"), "\(lines[0]) does not name \(badWord)")
        #expect(lines[0].hasSuffix(" (see 'fbanim render --help')"))
        #expect(dir.entries.isEmpty, "nothing may be written: \(dir.entries)")
    }

    @Test func unknownLoaderListsTheValidOnes() throws {
        let result = try Fbanim.run(["render", "rng"] + validRender.dropFirst(2))
        #expect(result.status == 64)
        #expect(result.stderr.contains("'ring', 'radar', 'spinner' or 'orbit'"))
    }

    @Test func unknownSubcommandOfHelp() throws {
        let result = try Fbanim.run(["help", "bogus"])
        #expect(result.status == 64)
        #expect(result.stderrLines == ["Error: Unknown subcommand 'bogus' (see 'fbanim --help')"])
    }

    /// The play command line is already checked against the option table.
    @Test(arguments: [
        (["--version"], "--version"), (["rnig"], "rnig"), (["ring", "radar"], "radar"),
        (["ring", "--fps"], "--fps"), (["ring", "--size", "9x9"], "--size"),
    ])
    func wrongPlayCommandLinesExit64(_ arguments: [String], _ badWord: String) throws {
        let result = try Fbanim.run(arguments)
        #expect(result.status == 64 && !result.crashed)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrLines.first?.hasPrefix("Error: ") == true)
        #expect(result.stderrLines.first?.contains("'\(badWord)") == true, "\(result.stderr)")
        #expect(result.stderrLines.first?.hasSuffix(" (see 'fbanim --help')") == true)
    }
}

@Suite struct OutputErrorTests {
    func render(to path: String) throws -> RunResult {
        try Fbanim.run(["render", "radar", "--size", "32x32", "--time", "1", "--output", path])
    }

    @Test func missingDirectoryExits73() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let path = dir.file("missing/frame.png")
        let result = try render(to: path)
        #expect(result.status == 73 && !result.crashed)
        #expect(result.stderr == "Error: cannot write '\(path)': No such file or directory\n")
        #expect(dir.entries.isEmpty)
    }

    @Test func directoryAsOutputExits73AndLeavesItAlone() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let path = dir.file("frame.png")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let result = try render(to: path)
        #expect(result.status == 73 && !result.crashed)
        #expect(result.stderr == "Error: cannot write '\(path)': Is a directory\n")
        #expect(dir.entries == ["frame.png"])
    }

    @Test func parentThatIsAFileExits73() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        #expect(FileManager.default.createFile(atPath: dir.file("plain"), contents: Data([1])))
        let path = dir.file("plain/frame.ppm")
        let result = try render(to: path)
        #expect(result.status == 73)
        #expect(result.stderr == "Error: cannot write '\(path)': Not a directory\n")
        #expect(dir.entries == ["plain"])
    }

    @Test func readOnlyDirectoryExits73WhenNotRoot() throws {
        // Root may write into a 0555 directory, so this runs only for other users.
        guard geteuid() != 0 else { return }
        let dir = try OutputDirectory()
        defer {
            chmod(dir.path, 0o755)
            dir.remove()
        }
        chmod(dir.path, 0o555)
        let path = dir.file("frame.png")
        let result = try render(to: path)
        #expect(result.status == 73)
        #expect(result.stderr == "Error: cannot write '\(path)': Permission denied\n")
        #expect(dir.entries.isEmpty)
    }
}
