import Testing

@testable import FBScheduler

/// Exact books under controlled loads: a manual clock that moves only when
/// the fake presenter stalls, so every count below is known in advance.
@Suite struct SchedulerBooksTests {
    /// The slot each frame was drawn for (from its animation time) and the
    /// slot it landed in (from the clock when it returned).
    func slots(_ p: StallingPresenter, fps: Int, start: UInt64 = 0) -> (drawn: [Int], landed: [Int])
    {
        (
            p.times.map { slotOf(time: $0, fps: fps) },
            p.ended.map { slotContaining($0 - start, fps: fps) }
        )
    }

    @Test(arguments: [1, 24, 30, 50, 60, 144])
    func noStallsPresentsEverySlot(fps: Int) throws {
        let n = 2 * fps + 7
        let clock = ManualClock(start: 5_000_000_123)
        let p = StallingPresenter(clock: clock)
        let books = try FrameScheduler(fps: fps, clock: clock).run(p, slots: n)
        #expect(books.presented == n)
        #expect(books.dropped == 0)
        #expect(books.late == 0)
        #expect(books.slots == n)
        #expect(p.times == (0..<n).map { slotTime($0, fps: fps) })
        #expect(p.began == (0..<n).map { slotStart($0, fps: fps, from: 5_000_000_123) })
        #expect(books.frameTimes.count == n)
    }

    @Test(arguments: [30, 50])
    func oneStallOfTwoAndAHalfSlots(fps: Int) throws {
        // Frame 5 (drawn for slot 5) takes 2.5 slots: it lands in slot 7, so
        // slots 5 and 6 get no new frame. The next frame is drawn for slot 8,
        // the first one after the late frame's, at its start: one slow frame
        // does not make the next ones start (and show) early.
        let n = 20
        let stall = UInt64(5) * 1_000_000_000 / UInt64(2 * fps)
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock) { $0 == 5 ? stall : 0 }
        let books = try FrameScheduler(fps: fps, clock: clock).run(p, slots: n)
        let (drawn, landed) = slots(p, fps: fps)
        #expect(drawn == Array(0...5) + Array(8..<n))
        #expect(landed == Array(0...4) + [7] + Array(8..<n))
        #expect(p.began == drawn.map { slotStart($0, fps: fps) })
        #expect(Set(0..<n).subtracting(landed) == [5, 6])
        #expect(books.presented == n - 2)
        #expect(books.dropped == 2)
        #expect(books.late == 1)
        #expect(books.frameTimes.maximum == stall)
    }

    @Test(arguments: [30, 50])
    func periodicStalls(fps: Int) throws {
        // Every third frame takes 1.5 slots: a cycle of 3 frames spans 4
        // slots, the stalled frame late by one, its own slot dropped.
        let n = 40
        let stall = UInt64(3) * 1_000_000_000 / UInt64(2 * fps)
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock) { $0 % 3 == 2 ? stall : 0 }
        let books = try FrameScheduler(fps: fps, clock: clock).run(p, slots: n)
        let (drawn, landed) = slots(p, fps: fps)
        #expect(drawn == (0..<n).filter { $0 % 4 != 3 })
        #expect(landed == (0..<n).filter { $0 % 4 != 2 })
        #expect(books.presented == 30)
        #expect(books.dropped == 10)
        #expect(books.late == 10)
    }

    @Test(arguments: [30, 50])
    func presenterOfOneAndAHalfSlotsEveryFrame(fps: Int) throws {
        // The first two frames start on their slot and land late; from then
        // on each starts 1.5 slots ahead and lands on time, back to back:
        // two frames every three slots, the most 1.5-slot frames can give.
        let n = 30
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock) { _ in UInt64(3) * 1_000_000_000 / UInt64(2 * fps) }
        let books = try FrameScheduler(fps: fps, clock: clock).run(p, slots: n)
        let (drawn, landed) = slots(p, fps: fps)
        var steady: [Int] = []
        for j in 1...9 { steady += [3 * j + 2, 3 * j + 3] }
        steady = steady.filter { $0 < n }
        #expect(drawn == [0, 2] + steady)
        #expect(landed == [1, 3] + steady)
        #expect(books.presented == 19)
        #expect(books.dropped == 11)
        #expect(books.late == 2)
        #expect(books.slots == n)
    }

    @Test func presenterOfTwoAndAHalfSlotsEveryFrame() throws {
        // At 50 fps, 50 ms a frame: two frames every five slots once started.
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock) { _ in 50_000_000 }
        let books = try FrameScheduler(fps: 50, clock: clock).run(p, slots: 30)
        let (drawn, landed) = slots(p, fps: 50)
        #expect(drawn == [0, 3, 8, 10, 13, 15, 18, 20, 23, 25, 28])
        #expect(landed == [2, 5, 8, 10, 13, 15, 18, 20, 23, 25, 28])
        // The next frame would land in slot 30, past the run: slot 28's frame
        // stays on screen to the end, slot 29 gets none (dropped).
        #expect(books.presented == 11)
        #expect(books.dropped == 19)
        #expect(books.slots == 30)
        #expect(books.elapsed == 600_000_000)
        #expect(books.late == 2)
    }

    @Test func presenterJustUnderASlotKeepsEverySlot() throws {
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock) { _ in 33_000_000 }  // 0.99 slot at 30 fps
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 30)
        let (drawn, landed) = slots(p, fps: 30)
        #expect(drawn == Array(0..<30))
        #expect(landed == drawn)
        #expect(books.presented == 30)
        #expect(books.dropped == 0)
        #expect(books.late == 0)
    }

    @Test func framesStartTheirOwnDurationAheadAndLandOnTheDeadline() throws {
        // 10 ms frames at 30 fps: once two are known, each starts 10 ms
        // before its slot and lands exactly on its deadline.
        let clock = ManualClock(recordsSleeps: true)
        let p = StallingPresenter(clock: clock) { _ in 10_000_000 }
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 50)
        #expect(
            clock.sleeps == [slotStart(1, fps: 30)]
                + (2..<50).map { slotStart($0, fps: 30) - 10_000_000 })
        #expect(Array(p.ended.dropFirst(2)) == (2..<50).map { slotStart($0, fps: 30) })
        #expect(books.presented == 50)
        #expect(books.late == 0)
    }

    @Test func returnedBooksAreTheScheduler() throws {
        let clock = ManualClock()
        let scheduler = FrameScheduler(fps: 30, clock: clock)
        let p = StallingPresenter(clock: clock) { $0 == 3 ? 50_000_000 : 1_000 }
        let books = try scheduler.run(p, slots: 60)
        #expect(books.elapsed == scheduler.books.elapsed)
        #expect(books.presented == scheduler.books.presented)
        #expect(books.dropped == scheduler.books.dropped)
        #expect(books.elapsed == 2_000_000_000)
    }

    @Test(arguments: [1, 2, 90])
    func elapsedCoversTheSlotsAccounted(n: Int) throws {
        // N slots at 30 fps are N/30 s of the run, whatever the clock reads
        // when the last frame returns: achieved fps never beats the target.
        let clock = ManualClock()
        let books = try FrameScheduler(fps: 30, clock: clock).run(
            StallingPresenter(clock: clock), slots: n)
        #expect(books.elapsed == slotStart(n, fps: 30))
        #expect(abs(books.achievedFPS - 30) < 1e-6)  // 1 slot = 33_333_333 ns
    }

    @Test func achievedFPSIsPresentedOverSlots() throws {
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock) { _ in 50_000_000 }
        let books = try FrameScheduler(fps: 50, clock: clock).run(p, slots: 100)
        #expect(books.elapsed == slotStart(books.slots, fps: 50))
        #expect(abs(books.achievedFPS - Double(books.presented) * 50 / Double(books.slots)) < 1e-9)
        #expect(books.achievedFPS < 21)  // 2 frames in 5 slots of 20 ms
    }

    @Test func aSecondRunStartsNewBooks() throws {
        let clock = ManualClock()
        let scheduler = FrameScheduler(fps: 50, clock: clock)
        try scheduler.run(StallingPresenter(clock: clock) { _ in 30_000_000 }, slots: 10)
        clock.advance(by: 7_777_777)
        let p = StallingPresenter(clock: clock)
        let second = try scheduler.run(p, slots: 10)
        #expect(second.presented == 10)
        #expect(second.dropped == 0)
        #expect(second.late == 0)
        #expect(second.frameTimes.count == 10)
        // The slow frames of the first run do not make the second start early.
        #expect(p.began == (0..<10).map { slotStart($0, fps: 50, from: p.began[0]) })
    }

    @Test func framesLandingOnASlotBoundaryAreLate() throws {
        // A frame that takes exactly one slot (30 fps: slot 1 starts at
        // 33_333_333 ns) is shown from the start of the next slot.
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock) { $0 == 0 ? slotStart(1, fps: 30) : 0 }
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 5)
        #expect(books.late == 1)
        #expect(books.dropped == 1)
        #expect(p.times == [0, 2, 3, 4].map { slotTime($0, fps: 30) })
    }
}
