/// Ordered dithering for the 16-bit formats: a 4x4 Bayer matrix.
///
/// An 8-bit channel `v` is quantised to `n` bits (5 or 6) against the levels
/// the display (and fbanim's own reader) expands them to by bit replication,
/// `q << (8 - n) | q >> (2n - 8)`. Between the two levels around `v`, the
/// upper one is chosen where `v`'s position between them exceeds the
/// threshold `(rank + 1/2) / 16` of the pixel's cell in the matrix, so a flat
/// area averages back to `v` within 1/16 of a step and the radar's gradient
/// does not band. Same thresholds for all three channels.
enum Dither {
    /// Threshold ranks of the 4x4 Bayer matrix, row-major, indexed `(y & 3) * 4 + (x & 3)`.
    static let bayer4: [UInt8] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// The 8-bit value that display hardware shows for an `n`-bit level `q`.
    @inline(__always)
    static func expand(_ q: UInt32, bits n: UInt32) -> UInt32 {
        q << (8 - n) | q >> (2 * n - 8)
    }

    /// `table[cell * 256 + v]`: the `n`-bit level for 8-bit `v` at matrix cell `cell`.
    static func makeTable(bits n: UInt32) -> UnsafeMutablePointer<UInt8> {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 16 * 256)
        let top = (UInt32(1) << n) - 1
        for v in UInt32(0)...255 {
            var lo = UInt32(0)
            while lo < top && expand(lo + 1, bits: n) <= v { lo += 1 }
            let eLo = expand(lo, bits: n)
            for cell in 0..<16 {
                var q = lo
                if eLo != v && lo < top {
                    let eHi = expand(lo + 1, bits: n)
                    let rank = UInt32(bayer4[cell])
                    if (v - eLo) * 32 > (2 * rank + 1) * (eHi - eLo) { q = lo + 1 }
                }
                table[cell * 256 + Int(v)] = UInt8(q)
            }
        }
        return table
    }

    /// 5-bit levels, built once; never freed.
    nonisolated(unsafe) static let to5: UnsafePointer<UInt8> = UnsafePointer(makeTable(bits: 5))
    /// 6-bit levels, built once; never freed.
    nonisolated(unsafe) static let to6: UnsafePointer<UInt8> = UnsafePointer(makeTable(bits: 6))

    /// `fields565[cell * 768 + field * 256 + v]`: the level of 8-bit `v` at
    /// matrix cell `cell`, already in its place in a 16-bit pixel: field 0
    /// the top 5 bits (`to5 << 11`), field 1 the middle 6 (`to6 << 5`),
    /// field 2 the low 5 (`to5`). A pixel is three look-ups ORed together.
    /// Built once, on first use (24 KB); never freed.
    nonisolated(unsafe) static let fields565: UnsafePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 16 * 768)
        for cell in 0..<16 {
            for v in 0..<256 {
                let i = cell * 256 + v
                table[cell * 768 + v] = UInt16(to5[i]) << 11
                table[cell * 768 + 256 + v] = UInt16(to6[i]) << 5
                table[cell * 768 + 512 + v] = UInt16(to5[i])
            }
        }
        return UnsafePointer(table)
    }()
}
