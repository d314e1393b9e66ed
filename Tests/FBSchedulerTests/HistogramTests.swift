import Testing
import _FBTestSupport

@testable import FBScheduler

@Suite struct HistogramTests {
    /// Nearest rank: the smallest value with at least `fraction` of them at or below it.
    func nearestRank(_ sorted: [UInt64], _ fraction: Double) -> UInt64 {
        let rank = max(1, Int((fraction * Double(sorted.count)).rounded(.up)))
        return sorted[min(rank, sorted.count) - 1]
    }

    @Test func empty() {
        let h = DurationHistogram()
        #expect(h.count == 0)
        #expect(h.maximum == 0)
        #expect(h.percentile(0.5) == 0)
        #expect(h.percentile(0.99) == 0)
        #expect(h.percentile(1) == 0)
    }

    @Test func smallValuesAreExact() {
        var h = DurationHistogram()
        for v in (0..<32).reversed() { h.record(UInt64(v)) }
        #expect(h.count == 32)
        #expect(h.maximum == 31)
        for rank in 1...32 {
            #expect(h.percentile(Double(rank) / 32) == UInt64(rank - 1), "rank \(rank)")
        }
        #expect(h.percentile(0) == 0)
    }

    /// Every frame taking the same time (a slow panel's fixed transfer) reads
    /// back as that time, not as the middle of its bucket.
    @Test(arguments: [UInt64(50_000_000), 502_937_123, 1_234])
    func equalDurationsGiveThatDuration(_ v: UInt64) {
        var h = DurationHistogram()
        for _ in 0..<7 { h.record(v) }
        #expect(h.percentile(0.5) == v)
        #expect(h.percentile(0.99) == v)
        #expect(h.percentile(1) == v)
        h.record(v + v / 100)
        #expect((v...(v + v / 100)).contains(h.percentile(0.5)), "within the recorded range")
    }

    @Test func percentilesWithinThreePercentOfSorted() {
        var rng = SeededRandom(seed: 2024)
        for trial in 0..<20 {
            let n = trial < 10 ? Int.random(in: 1...50, using: &rng) : 20_000
            // Log-uniform from 1 ns to about 1000 s, plus a few at the extremes.
            var values = (0..<n).map { _ -> UInt64 in
                let bits = UInt64.random(in: 0...40, using: &rng)
                return UInt64.random(in: 0...(UInt64(1) << bits), using: &rng)
            }
            if trial == 19 { values += [0, 1, .max, .max - 1] }
            var h = DurationHistogram()
            for v in values { h.record(v) }
            let sorted = values.sorted()
            #expect(h.count == n + (trial == 19 ? 4 : 0))
            #expect(h.maximum == sorted.last!)
            #expect(h.percentile(1) == sorted.last!)
            for f in [0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999] {
                let truth = Double(nearestRank(sorted, f))
                let got = Double(h.percentile(f))
                #expect(abs(got - truth) <= 0.03 * truth, "n \(n), p\(f * 100): \(got) vs \(truth)")
            }
        }
    }

    @Test func bucketsAreOrderedAndTheirValuesClose() {
        var rng = SeededRandom(seed: 3)
        var samples: [UInt64] = (0..<5_000).map { _ in
            UInt64.random(in: 0...(.max >> UInt64.random(in: 0...63, using: &rng)), using: &rng)
        }
        samples += [0, 31, 32, 63, 64, 65, .max]
        samples.sort()
        var last = -1
        for v in samples {
            let b = DurationHistogram.bucket(of: v)
            #expect(b >= last)
            #expect(b < 64 * 32)
            last = b
            let mid = Double(DurationHistogram.value(of: b))
            #expect(abs(mid - Double(v)) <= Double(v) / 64 + 0.5, "\(v)")
        }
    }

    @Test func booksRecordFrameTimesOfDrawnFramesOnly() throws {
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock) { UInt64($0 + 1) * 1_000_000 }
        p.outcome = { call, _ in call % 2 == 0 ? .presented : .unchanged(until: 0) }
        let books = try FrameScheduler(fps: 10, clock: clock).run(p, slots: 20)
        #expect(books.frameTimes.count == 10)
        #expect(books.frameTimes.maximum == 19_000_000)  // the last drawn frame, call 18
        let p50 = Double(books.frameTimes.percentile(0.5))
        #expect(abs(p50 - 9_000_000) <= 0.03 * 9_000_000)  // drawn: 1, 3, ..., 19 ms
    }
}

@Suite struct BooksAppendTests {
    /// Two stretches of one run (a splash's play before and after a
    /// hand-over) add up to the books one run of both would have kept.
    @Test func twoStretchesAddUpToOneRun() throws {
        let clock = ManualClock()
        let first = try FrameScheduler(fps: 30, clock: clock)
            .run(StallingPresenter(clock: clock) { _ in 5_000_000 }, slots: 45)
        let second = try FrameScheduler(fps: 30, clock: clock)
            .run(StallingPresenter(clock: clock) { $0 == 3 ? 90_000_000 : 9_000_000 }, slots: 15)
        var both = first
        both.append(second)
        #expect(both.slots == 60 && first.slots == 45 && second.slots == 15)
        #expect(both.presented == first.presented + second.presented)
        #expect(both.elapsed == first.elapsed + second.elapsed && both.elapsed == 2_000_000_000)
        #expect(both.frameTimes.count == first.frameTimes.count + second.frameTimes.count)
        #expect(both.frameTimes.maximum == 90_000_000 && first.frameTimes.maximum == 5_000_000)
        #expect(both.dropped == first.dropped + second.dropped && second.dropped > 0)
        #expect(both.late == first.late + second.late)
    }

    /// Merged histograms answer percentiles as one histogram of every value.
    @Test func mergedHistogramIsTheHistogramOfBoth() {
        var a = DurationHistogram()
        var b = DurationHistogram()
        var all = DurationHistogram()
        for v in stride(from: UInt64(1_000), to: 2_000_000, by: 7_919) {
            if v % 3 == 0 { a.record(v) } else { b.record(v) }
            all.record(v)
        }
        a.merge(b)
        #expect(a.count == all.count && a.maximum == all.maximum && a.minimum == all.minimum)
        for f in [0.1, 0.5, 0.9, 0.99, 1] { #expect(a.percentile(f) == all.percentile(f), "\(f)") }
    }
}
