// div255 and the blend: exhaustive and exact. The reference is exact integer
// arithmetic: round(x / 255) with halves up is floor((2x + 255) / 510)
// (x / 255 is never exactly a half, 255 being odd, so the rule for halves
// does not even arise).

import Testing
import _FBTestSupport

@testable import FBRaster

/// round(x / 255), exactly.
private func exactDiv255(_ x: UInt32) -> UInt32 { (2 * x + 255) / 510 }

/// (s * m + d * (255 - m)) / 255 rounded to nearest, from the exact rational.
private func exactBlend(_ s: UInt32, _ d: UInt32, _ m: UInt32) -> UInt32 {
    exactDiv255(s * m + d * (255 - m))
}

@Suite("div255 and blending")
struct BlendTests {
    @Test("div255 is round(x / 255) for every x in 0...65535")
    func div255All() {
        var wrong: [UInt32] = []
        for x in UInt32(0)...65535 where div255(x) != exactDiv255(x) { wrong.append(x) }
        #expect(wrong.isEmpty, "first wrong inputs: \(wrong.prefix(8))")
        // Hand-worked values.
        #expect(div255(0) == 0)
        #expect(div255(127) == 0)  // 0.498
        #expect(div255(128) == 1)  // 0.502
        #expect(div255(255 * 255) == 255)
        #expect(div255(65535) == 257)
        #expect(div255(382) == 1)  // 1.498
        #expect(div255(383) == 2)  // 1.502
    }

    @Test("div255(a * b) for every byte pair")
    func div255BytePairs() {
        var failures = 0
        for a in UInt32(0)...255 {
            for b in UInt32(0)...255 where div255(a * b) != exactDiv255(a * b) {
                failures += 1
                if failures < 5 {
                    Issue.record(
                        "div255(\(a) * \(b)) = \(div255(a * b)), expected \(exactDiv255(a * b))")
                }
            }
            // Identities that follow from the definition.
            #expect(div255(a * 255) == a)
            #expect(div255(a * 0) == 0)
        }
        #expect(failures == 0)
    }

    @Test(
        "blendChannel is the exact rounded rational for every s, d",
        arguments: [0, 1, 2, 64, 127, 128, 129, 200, 254, 255] as [UInt32])
    func blendAllChannels(m: UInt32) {
        var failures = 0
        for s in UInt32(0)...255 {
            for d in UInt32(0)...255 where blendChannel(s, d, m) != exactBlend(s, d, m) {
                failures += 1
                if failures < 5 {
                    Issue.record(
                        "blendChannel(\(s), \(d), \(m)) = \(blendChannel(s, d, m)), expected \(exactBlend(s, d, m))"
                    )
                }
            }
        }
        #expect(failures == 0)
    }

    @Test("blendChannel and blendRGB over random triples")
    func blendRandom() {
        var rng = SeededRandom(seed: 255)
        for _ in 0..<200_000 {
            let s = UInt32.random(in: 0...255, using: &rng)
            let d = UInt32.random(in: 0...255, using: &rng)
            let m = UInt32.random(in: 0...255, using: &rng)
            if blendChannel(s, d, m) != exactBlend(s, d, m) {
                Issue.record("blendChannel(\(s), \(d), \(m))")
                return
            }
        }
        // blendRGB: the same rule on three packed channels.
        for _ in 0..<50_000 {
            let src = UInt32.random(in: 0...0xFF_FFFF, using: &rng)
            let dst = UInt32.random(in: 0...0xFF_FFFF, using: &rng)
            let m = UInt32.random(in: 0...255, using: &rng)
            var expected: UInt32 = 0
            for shift in [16, 8, 0] as [UInt32] {
                expected |= exactBlend(src >> shift & 0xFF, dst >> shift & 0xFF, m) << shift
            }
            if blendRGB(src, dst, m) != expected {
                Issue.record(
                    "blendRGB(\(src), \(dst), \(m)) = \(blendRGB(src, dst, m)), expected \(expected)"
                )
                return
            }
        }
    }

    /// Every (source, destination, opacity) triple in every channel at once:
    /// the three lanes of `blendRGB` must not leak into each other.
    @Test("blendRGB over every triple, in every channel")
    func blendRGBExhaustive() {
        var failures = 0
        for m in UInt32(0)...255 {
            for s in UInt32(0)...255 {
                for d in UInt32(0)...255 {
                    // Each channel gets a different pair, all pairs over the loops.
                    let (s1, d1) = (255 - s, d ^ 0xA5)
                    let (s2, d2) = (s ^ 0x3C, 255 - d)
                    let src = 0xFF00_0000 | s2 << 16 | s1 << 8 | s
                    let dst = 0x7F00_0000 | d2 << 16 | d1 << 8 | d
                    let expected =
                        exactBlend(s2, d2, m) << 16 | exactBlend(s1, d1, m) << 8
                        | exactBlend(s, d, m)
                    if blendRGB(src, dst, m) != expected {
                        failures += 1
                        if failures < 5 {
                            Issue.record(
                                "blendRGB(\(src), \(dst), \(m)) = \(blendRGB(src, dst, m))")
                        }
                    }
                }
            }
        }
        #expect(failures == 0)
    }

    @Test("blend endpoints: m = 0 keeps the destination, m = 255 gives the source")
    func blendEndpoints() {
        var wrong = 0
        for s in UInt32(0)...255 {
            for d in UInt32(0)...255
            where blendChannel(s, d, 0) != d || blendChannel(s, d, 255) != s {
                wrong += 1
            }
        }
        #expect(wrong == 0)
    }

    /// Kept tables give `blendRGB`'s results for their own colours, also
    /// after more colours than there are slots have come and gone.
    @Test func blendTablesHoldBlendResults() {
        var rng = SeededRandom(seed: 5)
        let keys = (0..<(BlendTables.slots + 9)).map { _ in
            (
                UInt32.random(in: 0...0xFF_FFFF, using: &rng),
                UInt32.random(in: 0...0xFF_FFFF, using: &rng)
            )
        }
        let tables = BlendTables()
        var wrong = 0
        for round in 0..<3 {
            for (rgb, dst) in keys.shuffled(using: &rng) + keys.prefix(round * 4) {
                let table = tables.table(rgb: rgb, over: dst)
                for m in UInt32(0)...255 where table[Int(m)] != blendRGB(rgb, dst, m) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }
}
