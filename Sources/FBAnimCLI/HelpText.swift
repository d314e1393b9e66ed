/// The help texts and usage lines, generated from the option table in the
/// layout swift-argument-parser uses.

/// Where option and argument explanations start, and the right margin.
private let helpColumn = 26
private let lineWidth = 80

/// `fbanim render <loader> --size <WxH> ... [--format <format>] ...`, or the top level's usage.
func usageLine(for command: Command?) -> String {
    guard let command, command.isAvailable else { return "fbanim <subcommand>" }
    var parts = [command.invocation]
    parts += OptionTable.arguments(for: command).map {
        $0.isOptional ? "[\($0.synopsis)]" : $0.synopsis
    }
    let options = OptionTable.options(for: command).filter { $0.key != .help }
    parts += options.filter(\.isRequired).map(\.synopsis)
    parts += options.filter { !$0.isRequired }.map { "[\($0.synopsis)]" }
    return parts.joined(separator: " ")
}

/// The full help of one command: overview, usage, arguments, options.
func helpText(for command: Command) -> String {
    var text = "OVERVIEW: \(command.abstract)\n\n"
    text += wrapParagraphs(command.discussion, width: lineWidth) + "\n\n"
    text += "USAGE: \(usageLine(for: command))\n\n"
    let arguments = OptionTable.arguments(for: command)
    if !arguments.isEmpty {
        text += "ARGUMENTS:\n"
        for argument in arguments { text += helpEntry(argument.synopsis, argument.help) }
        text += "\n"
    }
    text += "OPTIONS:\n"
    for option in OptionTable.options(for: command) {
        var help = option.help
        if let accepts = option.accepts { help += " " + accepts }
        if let value = option.defaultValue { help += " (default: \(value))" }
        text += helpEntry(option.label, help)
    }
    return text
}

/// The help of `fbanim` itself: playing a loader (the default command),
/// then the other subcommands, as swift-argument-parser shows a command
/// with a default subcommand.
func topLevelHelpText() -> String {
    var text = helpText(for: .play)
    text += "\nSUBCOMMANDS:\n"
    for command in Command.allCases where command.isAvailable && command != .play {
        text += helpEntry(command.rawValue, command.abstract)
    }
    text += helpEntry("help", "Show subcommand help information.")
    text += "\n  See 'fbanim help <subcommand>' for detailed help.\n"
    return text
}

/// One entry of a list: the label indented by 2, the explanation wrapped at column 26.
private func helpEntry(_ label: String, _ help: String) -> String {
    let lines = wrap(help, width: lineWidth - helpColumn)
    let indent = String(repeating: " ", count: helpColumn)
    var text = "  " + label
    if label.count + 2 > helpColumn - 2 {
        // A label too long for its column gets the explanation on the next line.
        text += "\n" + indent
    } else {
        text += String(repeating: " ", count: helpColumn - 2 - label.count)
    }
    text += lines.joined(separator: "\n" + indent) + "\n"
    return text
}

/// Wraps each paragraph (separated by blank lines); lines starting with a
/// space (examples) are kept as they are.
private func wrapParagraphs(_ text: String, width: Int) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        line.hasPrefix(" ")
            ? String(line) : wrap(String(line), width: width).joined(separator: "\n")
    }.joined(separator: "\n")
}

/// Breaks `text` into lines of at most `width` characters at spaces
/// (a word longer than the width gets a line of its own).
func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
        if line.isEmpty {
            line = String(word)
        } else if line.count + 1 + word.count <= width {
            line += " " + word
        } else {
            lines.append(line)
            line = String(word)
        }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
}
