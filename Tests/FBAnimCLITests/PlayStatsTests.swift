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
        // Slots whose picture did not change get no new frame (spec/cli.md
        // counts them dropped) and are said unchanged: the ring is still
        // for its first 0.5 s (slots 1...14, and 15 where p is still 0).
        let unchanged = try stats.int("frames_unchanged")
        if loader == "ring" { #expect((14...15).contains(unchanged), "\(stats)") }
        #expect(unchanged < 20, "\(stats)")
        #expect(try stats.presented == 90 - unchanged)
        #expect(try stats.dropped == unchanged)
        #expect(try stats.late == 0)
        #expect(try stats.fpsTarget == 30)
        #expect(abs(try stats.fpsAchieved - Double(90 - unchanged) / 3) < 0.001, "\(stats)")
        #expect(try stats.duration == 3)
        let t = try stats.frameMS()
        #expect(t.p50 >= 0 && t.p50 <= t.p99 && t.p99 <= t.max, "\(t)")
        // Drawing costs its CPU time on the virtual clock too.
        #expect(t.max > 0, "\(stats)")
        let cpu = try stats.drawCPU()
        #expect(cpu.p50 > 0 && cpu.p50 <= cpu.p99 && cpu.p99 <= cpu.max, "\(stats)")
        #expect(try stats.double("draw_cpu_s") >= cpu.max / 1000, "\(stats)")
        #expect(stats.object["loader"] as? String == loader)
    }

    /// The CPU time drawing took is in the books of the virtual clock: a
    /// 2048x2048 radar at scale 8 takes milliseconds a frame, and those
    /// count in `frame_ms` as on a real clock.
    @Test func drawingCostShowsOnTheVirtualClock() throws {
        let stats = try play("sim:2048x2048?clock=virtual", ["--frames", "4", "--scale", "8"])
        let t = try stats.frameMS()
        let cpu = try stats.drawCPU()
        #expect(cpu.max > 0.5, "\(stats)")
        #expect(t.max >= cpu.max * 0.9, "\(stats)")
    }

    /// The run (99 ms presents asked for at 60 fps over 5 s: at most
    /// 51 fit) and shorter ones: one present at a time, whatever the clock,
    /// and the ring's still start is not counted as presents. (The real
    /// clock's runs take 9 s.)
    @Test(arguments: ["ring", "spinner"])
    func presentsNeverOutrunTheDisplay(_ loader: String) throws {
        for (present, frames) in [(99.0, 300), (50, 120), (16, 120)] {
            for clock in ["&clock=virtual", ""] {
                let stats = try play(
                    "sim:320x240?present_ms=\(present)\(clock)",
                    ["--fps", "60", "--frames", "\(frames)"], loader: loader)
                let presented = try stats.presented
                let duration = try stats.duration
                #expect(
                    Double(presented) * present <= duration * 1000 + present, "\(clock): \(stats)")
                // Every slot booked, up to the end of a present in flight.
                #expect(
                    try abs(Double(presented + stats.dropped) - duration * 60) <= 1, "\(stats)")
            }
        }
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
    /// are 33.3 ms: the transfer, after the drawing, ends past the third
    /// blank, so the flip waits for the fourth: a frame every two slots (as
    /// on a real clock; with drawing free, two frames in three slots).
    @Test func slowPresentsShowAFrameEveryTwoSlots() throws {
        let stats = try play("sim:320x240?present_ms=50&clock=virtual", ["--frames", "90"])
        let presented = try stats.presented
        let dropped = try stats.dropped
        #expect(presented + dropped == 90, "\(stats)")
        #expect(abs(presented - 45) <= 1, "a frame every two slots: \(stats)")
        #expect(try stats.duration == 3)
        #expect(abs(try stats.fpsAchieved - 15) <= 0.5, "\(stats)")
        let t = try stats.frameMS()
        let cpu = try stats.drawCPU()
        // 50 ms of present and the drawing's CPU time, each frame: the
        // longest frame is the present and at most the longest drawing (a
        // loaded machine can make one drawing 10 ms; the clock counts it).
        #expect(t.p50 >= 50 * 0.97 && t.max >= 50, "\(stats)")
        #expect(t.max <= 50 + cpu.max + 2, "\(stats)")
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

    /// A virtual clock draws the same frames every time while drawing is
    /// well within a slot: the same counts (the times differ with the CPU).
    @Test(arguments: [
        "sim:320x240?clock=virtual", "sim:200x100:rgb565?present_ms=45&refresh=50&clock=virtual",
    ])
    func runsAreDeterministic(_ device: String) throws {
        let first = try play(device, ["--frames", "60"], loader: "orbit")
        let second = try play(device, ["--frames", "60"], loader: "orbit")
        for key in ["frames_presented", "frames_dropped", "frames_late", "frames_unchanged"] {
            #expect(try first.int(key) == second.int(key), "\(key): \(first) \(second)")
        }
        #expect(try first.duration == second.duration)
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
        #expect(line.contains("drawing CPU p50"), "\(line)")
    }

    @Test func withoutStatsNothingIsPrinted() throws {
        let result = try Fbanim.run([
            "--device", "sim:64x64?clock=virtual", "--frames", "10", "ring",
        ])
        #expect(result.status == 0 && !result.crashed)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }
}
