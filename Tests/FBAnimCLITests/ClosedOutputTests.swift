import Testing

/// Standard streams a service manager closed or pointed at a full device:
/// fbanim says so and exits 74 (or quietly, when there is nowhere to say
/// it), and never dies of a trap.
@Suite struct ClosedOutputTests {
    @Test(arguments: [
        ["--help"], ["devices"],
        ["--device", "sim:32x32", "--frames", "3", "--stats", "json", "ring"],
    ])
    func closedStandardOutputIsAnIOError(_ arguments: [String]) throws {
        let result = try Fbanim.run(arguments, redirect: ">&-")
        #expect(!result.crashed, "\(result)")
        #expect(result.status == 74, "\(result)")
        #expect(
            result.stderrLines == ["Error: cannot write to standard output: Bad file descriptor"],
            "\(result.stderr)")
    }

    @Test func fullStandardOutputIsAnIOError() throws {
        let result = try Fbanim.run(
            ["--device", "sim:32x32", "--frames", "3", "--stats", "json", "ring"],
            redirect: ">/dev/full")
        #expect(!result.crashed && result.status == 74, "\(result)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
    }

    /// Nowhere to report the books or an error: the run itself still succeeds.
    @Test(arguments: [
        ["--device", "sim:32x32", "--frames", "3", "--stats", "text", "ring"], ["rnig"],
    ])
    func closedStandardErrorIsNoCrash(_ arguments: [String]) throws {
        let result = try Fbanim.run(arguments, redirect: "2>&-")
        #expect(!result.crashed, "\(result)")
        #expect(result.status == (arguments == ["rnig"] ? 64 : 0), "\(result)")
    }
}
