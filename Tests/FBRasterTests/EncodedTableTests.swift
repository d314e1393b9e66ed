// The blend tables as pixel words (BlendTables.encoded) and the edge loop
// of kept coverage on 4-byte formats that uses them (KeptPainter): the
// bytes of the table of colours and of a plain blend, for every mask value.

import Testing
import _FBTestSupport

@testable import FBRaster

@Suite struct EncodedTableTests {
    /// Each entry is the stored word of `blendRGB`'s result, for both 4-byte
    /// codecs asked for in turn (a slot's words follow the codec asked for),
    /// also after more colours than there are slots have come and gone.
    @Test func encodedTablesHoldStoredBlendResults() {
        var rng = SeededRandom(seed: 11)
        let keys = (0..<(BlendTables.slots + 9)).map { _ in
            (
                UInt32.random(in: 0...0xFF_FFFF, using: &rng),
                UInt32.random(in: 0...0xFF_FFFF, using: &rng)
            )
        }
        let tables = BlendTables()
        var wrong = 0
        func check<C: PixelCodec>(_ c: C.Type, _ rgb: UInt32, _ dst: UInt32) {
            let words = tables.encoded(C.self, rgb: rgb, over: dst)
            for m in UInt32(0)...255 where words[Int(m)] != C.word(blendRGB(rgb, dst, m)) {
                wrong += 1
            }
        }
        for round in 0..<3 {
            for (i, (rgb, dst)) in (keys.shuffled(using: &rng) + keys.prefix(round * 4))
                .enumerated()
            {
                if (i + round) % 3 == 0 {
                    check(XBGR8888Codec.self, rgb, dst)
                } else {
                    check(XRGB8888Codec.self, rgb, dst)
                }
                // The table of colours of the same slot stays what it was.
                let table = tables.table(rgb: rgb, over: dst)
                for m in UInt32(0)...255 where table[Int(m)] != blendRGB(rgb, dst, m) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    /// The edge loop through pixel words gives the bytes of the one through
    /// the table of colours, every mask value over each kind of pixel: the
    /// backdrop's word, its colour with another fourth byte, the source
    /// colour's word, anything.
    @Test(arguments: [PixelFormat.xrgb8888, .xbgr8888])
    func edgesThroughWordsEqualEdgesThroughColours(format: PixelFormat) {
        func run<C: PixelCodec>(_: C.Type) {
            var rng = SeededRandom(seed: 83)
            let tables = BlendTables()
            var wrong = 0
            for (shift, trial) in (0..<4).flatMap({ s in (0..<16).map { (s, $0) } }) {
                let dst = UInt32.random(in: 0...0xFF_FFFF, using: &rng)
                let rgb = UInt32.random(in: 0...0xFF_FFFF, using: &rng)
                let dstWord = C.word(dst)
                var row = (0..<16).map { i -> UInt32 in
                    switch (i + shift) % 4 {
                    case 0: dstWord
                    case 1: dstWord ^ 0x5A00_0000  // the colour, another fourth byte
                    case 2: C.word(rgb)
                    default: C.word(UInt32.random(in: 0...0xFF_FFFF, using: &rng))
                    }
                }
                let mask = (0..<16).map { UInt8(trial * 16 + $0) }
                var viaColours = row
                let table = tables.table(rgb: rgb, over: dst)
                let words = tables.encoded(C.self, rgb: rgb, over: dst)
                mask.withUnsafeBufferPointer { m in
                    viaColours.withUnsafeMutableBytes {
                        Spans<C>.blendMask(
                            $0.baseAddress!, x: 0, count: 16, y: 0, rgb: rgb,
                            mask: m.baseAddress!, over: dst, table: table)
                    }
                    row.withUnsafeMutableBytes {
                        Spans<C>.blendMask(
                            $0.baseAddress!, x: 0, count: 16, rgb: rgb, mask: m.baseAddress!,
                            overWord: dstWord, encoded: words)
                    }
                }
                if row != viaColours { wrong += 1 }
            }
            #expect(wrong == 0, "\(format)")
        }
        switch format {
        case .xbgr8888: run(XBGR8888Codec.self)
        default: run(XRGB8888Codec.self)
        }
    }
}
