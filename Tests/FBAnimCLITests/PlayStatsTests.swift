import Foundation
import Testing

/// `--stats` on a simulated display with a virtual clock: the books of a run
/// are exact and the same on every run.
@Suite struct PlayStatsTests {
    static let loaders = ["ring", "radar", "spinner", "orbit"]

    /// Plays on `device` and returns the parsed `--stats json` object.
    func play(
        _ device: String, _ options: [String], loader: String = "radar",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> PlayStats {
        let result = try Fbanim.run(["--device", device] + options + ["--stats", "json", loader])
        #expect(result.status == 0 && !result.crashed, "\(result)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.isEmpty, "nothing on stderr: \(result.stderr)",
            sourceLocation: sourceLocation)
        return try PlayStats(stdout: result.stdout, sourceLocation: sourceLocation)
    }

    @Test(arguments: loaders)
    func ninetyFramesAtThirtyFPSAreAllPresented(_ loader: String) throws {
        let stats = try play("sim:320x240?clock=virtual", ["--frames", "90"], loader: loader)
        #expect(try stats.presented == 90)
        #expect(try stats.dropped == 0)
        #expect(try stats.late == 0)
        #expect(try stats.fpsTarget == 30)
        #expect(try stats.fpsAchieved == 30)
        #expect(try stats.duration == 3)
        let t = try stats.frameMS()
        #expect(t.p50 >= 0 && t.p50 <= t.p99 && t.p99 <= t.max, "\(t)")
        // Drawing takes no virtual time: only presents move the clock.
        #expect(t.max == 0, "\(stats)")
        #expect(stats.object["loader"] as? String == loader)
    }

    @Test func everyFieldTheSpecNamesIsThere() throws {
        let stats = try play("sim:320x240:rgb565?clock=virtual", ["--frames", "3"])
        for key in [
            "frames_presented", "frames_dropped", "frames_late", "fps_target", "fps_achieved",
            "duration_s",
        ] {
            #expect(stats.object[key] is NSNumber, "\(key) in \(stats)")
        }
        let times = try #require(stats.object["frame_ms"] as? [String: Any])
        #expect(Set(times.keys).isSuperset(of: ["p50", "p99", "max"]), "\(times)")
        #expect(try stats.presented == 3)
        #expect((stats.object["device"] as? String)?.contains("320x240") == true, "\(stats)")
    }

    /// Every present takes 50 ms (three blanks of the 60 Hz default), slots
    /// are 33.3 ms: one transfer at a time gives 20 frames a second, two
    /// frames every three slots.
    @Test func slowPresentsShowTwoFramesInThreeSlots() throws {
        let stats = try play("sim:320x240?present_ms=50&clock=virtual", ["--frames", "90"])
        let presented = try stats.presented
        let dropped = try stats.dropped
        #expect(presented + dropped == 90, "\(stats)")
        #expect(abs(presented - 60) <= 1, "two frames in three slots: \(stats)")
        #expect(try stats.duration == 3)
        #expect(abs(try stats.fpsAchieved - 20) <= 0.5, "\(stats)")
        let t = try stats.frameMS()
        // Exactly 50 ms of virtual time each: every figure says so.
        #expect(t.max == 50 && t.p50 == 50 && t.p99 == 50, "\(stats)")
    }

    /// `--duration` counts virtual seconds: 2 s at 30 fps are 60 slots.
    @Test func durationCountsVirtualSeconds() throws {
        let stats = try play("sim:320x240?clock=virtual", ["--duration", "2"])
        #expect(try stats.presented + stats.dropped == 60, "\(stats)")
        #expect(try stats.presented == 60)
        #expect(try stats.duration == 2)
    }

    @Test func sixtyFPS() throws {
        let stats = try play("sim:320x240?clock=virtual", ["--fps", "60", "--duration", "1"])
        #expect(try stats.fpsTarget == 60)
        #expect(try stats.presented == 60, "\(stats)")
        #expect(try stats.dropped == 0)
        #expect(try stats.fpsAchieved == 60)
        #expect(try stats.duration == 1)

        let frames = try play("sim:320x240?clock=virtual", ["--fps", "60", "--frames", "120"])
        #expect(try frames.presented == 120 && frames.dropped == 0, "\(frames)")
        #expect(try frames.duration == 2)
    }

    /// A virtual clock draws the same frames every time: the books match to the byte.
    @Test(arguments: [
        "sim:320x240?clock=virtual", "sim:200x100:rgb565?present_ms=45&refresh=50&clock=virtual",
    ])
    func runsAreDeterministic(_ device: String) throws {
        let arguments = ["--device", device, "--frames", "60", "--stats", "json", "orbit"]
        let first = try Fbanim.run(arguments)
        let second = try Fbanim.run(arguments)
        #expect(first.status == 0 && second.status == 0)
        #expect(!first.stdout.isEmpty)
        #expect(first.stdout == second.stdout)
        _ = try PlayStats(stdout: first.stdout)
    }

    @Test func textStatsGoToStderrOnly() throws {
        let result = try Fbanim.run(
            ["--device", "sim:320x240?clock=virtual", "--frames", "90", "--stats", "text", "radar"])
        #expect(result.status == 0 && !result.crashed)
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        let line = try #require(result.stderrLines.first)
        #expect(line.hasPrefix("fbanim: radar on sim:320x240"), "\(line)")
        #expect(
            line.contains("90 frames presented, 0 dropped, 0 late in 3 s (30 of 30 fps)"), "\(line)"
        )
        #expect(line.contains("p50") && line.contains("p99") && line.contains("max"), "\(line)")
    }

    @Test func withoutStatsNothingIsPrinted() throws {
        let result = try Fbanim.run([
            "--device", "sim:64x64?clock=virtual", "--frames", "10", "ring",
        ])
        #expect(result.status == 0 && !result.crashed)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }
}
