/// Entry points for the libFuzzer targets in `Fuzz/` (`Scripts/fuzz.sh`):
/// not part of the API (`@_spi(Fuzzing)`).
@_spi(Fuzzing) public enum FuzzingEntry {
    /// Parses `bytes` as a board profile and as `fbanim.conf`, strictly and
    /// leniently, and checks what every parse must keep to.
    public static func boardProfile(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = BoardProfile.lines(text).count
        for kind in [BoardProfile.Kind.board, .configuration] {
            do {
                let profile = try BoardProfile.parse(text, path: "fuzz.conf", kind: kind)
                check(profile, kind)
            } catch {
                let message = error.message
                precondition(message.hasPrefix("Error: fuzz.conf:"), message)
                precondition(message.dropLast().allSatisfy { !$0.isNewline }, message)
            }
            let (profile, problems) = BoardProfile.parseLeniently(
                text, path: "fuzz.conf", kind: kind)
            check(profile, kind)
            // One a line at most, plus the file's own: a missing device, two contradictions.
            precondition(problems.count <= lines + 3)
            for problem in problems {
                precondition(
                    problem.hasPrefix("fuzz.conf:") && !problem.contains(where: \.isNewline))
            }
        }
    }

    /// Every value a profile holds passes its option's own parser again.
    private static func check(_ profile: BoardProfile, _ kind: BoardProfile.Kind) {
        for (key, value) in profile.values {
            precondition(kind.keys.contains(key), "\(key) is not a \(kind) key")
            precondition(!value.contains(where: \.isNewline))
        }
        precondition(profile.version == nil || profile.version == BoardProfile.formatVersion)
        if let loader = profile.loader { precondition((try? parseLoader(loader)) != nil) }
    }
}
