import FBAnimation

/// The words of one command's command line, sorted by the option table.
///
/// Values are still text here: each is checked and converted by the
/// command that uses it, through its option's parser (`Parsers`).
struct ParsedCommandLine: Equatable, Sendable {
    /// Positional arguments, in order.
    var arguments: [String] = []
    /// The value of each option given (`""` for a flag).
    var values: [OptionKey: String] = [:]
    /// `-h` or `--help` was given: show help and ignore everything else.
    var wantsHelp = false

    /// The value of `key`, or `nil` when the option was not given.
    subscript(_ key: OptionKey) -> String? { values[key] }

    /// The loader named by the first argument, or `nil` when there is none.
    /// - Throws: `CLIError.usage` naming the bad word.
    func loader(for command: Command) throws(CLIError) -> LoaderKind? {
        guard let word = arguments.first else { return nil }
        do {
            return try parseLoader(word)
        } catch {
            throw invalid(
                word, OptionTable.arguments(for: command)[0].synopsis, error, for: command)
        }
    }
}

/// Splits `words` (the arguments after the command's name) by the option table.
///
/// Accepts `--name value` and `--name=value`, options and arguments in any
/// order, and `--` to end options. `-h`/`--help` anywhere before `--` wins
/// over every other problem, as in swift-argument-parser.
/// - Throws: `CLIError.usage` for an unknown option, a missing value, an
///   option given twice, a value given to a flag, or too many arguments.
func parseCommandLine(_ words: ArraySlice<String>, for command: Command) throws(CLIError)
    -> ParsedCommandLine
{
    var parsed = ParsedCommandLine()
    let optionWords = words.prefix { $0 != "--" }
    if optionWords.contains(where: { isHelpFlag($0) }) {
        parsed.wantsHelp = true
        return parsed
    }
    let argumentSpecs = OptionTable.arguments(for: command)
    var index = words.startIndex
    var optionsEnded = false
    while index < words.endIndex {
        let word = words[index]
        index += 1
        if !optionsEnded && word == "--" {
            optionsEnded = true
            continue
        }
        // "-" alone is a word, not an option; "-1" and the like are unknown options.
        guard !optionsEnded, word.hasPrefix("-"), word.count > 1 else {
            guard parsed.arguments.count < argumentSpecs.count else {
                throw .usage("Unexpected argument '\(word)'", command)
            }
            parsed.arguments.append(word)
            continue
        }
        let equals = word.hasPrefix("--") ? word.firstIndex(of: "=") : nil
        let name = equals.map { word[..<$0] } ?? word[...]
        guard let spec = OptionTable.option(named: name, for: command) else {
            throw .usage("Unknown option '\(name)'", command)
        }
        guard parsed.values[spec.key] == nil else {
            throw .usage("Option '\(spec.longName)' given more than once", command)
        }
        guard spec.valueName != nil else {
            if equals != nil {
                throw .usage("Option '\(spec.longName)' takes no value", command)
            }
            parsed.values[spec.key] = ""
            continue
        }
        let value: String
        if let equals {
            value = String(word[word.index(after: equals)...])
        } else if index < words.endIndex, !looksLikeOption(words[index]) {
            value = words[index]
            index += 1
        } else {
            value = ""
        }
        guard !value.isEmpty else {
            throw .usage("Missing value for '\(spec.synopsis)'", command)
        }
        parsed.values[spec.key] = value
    }
    return parsed
}

/// Checks that every required argument and option of `command` was given.
/// - Throws: `CLIError.usage` naming the first one missing, arguments first.
func checkRequired(_ parsed: ParsedCommandLine, for command: Command) throws(CLIError) {
    let argumentSpecs = OptionTable.arguments(for: command)
    if parsed.arguments.count < argumentSpecs.count,
        !argumentSpecs[parsed.arguments.count].isOptional
    {
        let missing = argumentSpecs[parsed.arguments.count]
        throw .usage("Missing expected argument '\(missing.synopsis)'", command)
    }
    for spec in OptionTable.options(for: command) where spec.isRequired {
        if parsed.values[spec.key] == nil {
            throw .usage("Missing expected argument '\(spec.synopsis)'", command)
        }
    }
}

/// `-h` or `--help`.
func isHelpFlag(_ word: String) -> Bool { word == "-h" || word == "--help" }

/// Whether a word after a valued option is another option rather than its value.
///
/// Only `--...` words and `-h` are: so `--time -1` or `--scale -inf` report
/// the bad value itself instead of a missing one.
private func looksLikeOption(_ word: String) -> Bool {
    word.hasPrefix("--") || isHelpFlag(word)
}
