/// Source-over of one opaque colour onto one destination colour, at every
/// opacity: `table[m] == blendRGB(rgb, dst, m)` for `m` in `0...255`.
///
/// Most edge pixels of a shape drawn over a cleared background blend onto
/// the same destination (the background), so a lookup gives their bytes for
/// a quarter of a blend's instructions, and the very bytes `blendRGB` would
/// (the table is made by it). A spinner's leaves come back in about 34
/// colours, so the tables are kept: `slots` of them, replaced in turn (a
/// loader cycling through more colours than that would make a table, 256
/// blends, for every shape it paints).
final class BlendTables {
    static let slots = 64
    /// `slots` tables of 256 results.
    private let values = UnsafeMutablePointer<UInt32>.allocate(capacity: slots * 256)
    /// Slot `i` holds `rgb << 32 | dst`; `empty` when unused (no colour has
    /// bits above 24, so no key is `empty`).
    private let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: slots)
    private static let empty = UInt64.max
    /// The slot the next new table replaces.
    private var next = 0
    /// Slot `i`'s table as pixels of a 4-byte format (`encoded`), and which
    /// format: its word for `probe` (a 4-byte format here puts the three
    /// channel bytes in some order beside a fixed fourth, so that word tells
    /// the formats apart); 0, no format's word, until asked for and again
    /// once the slot is reused.
    private let encodedValues = UnsafeMutablePointer<UInt32>.allocate(capacity: slots * 256)
    private let encodedFormats = UnsafeMutablePointer<UInt32>.allocate(capacity: slots)
    private static let probe: UInt32 = 0x01_0203

    init() {
        keys.initialize(repeating: BlendTables.empty, count: BlendTables.slots)
        encodedFormats.initialize(repeating: 0, count: BlendTables.slots)
    }

    deinit {
        values.deallocate()
        keys.deallocate()
        encodedValues.deallocate()
        encodedFormats.deallocate()
    }

    /// Forgets every table (the memory stays).
    func forget() {
        keys.update(repeating: BlendTables.empty, count: BlendTables.slots)
        encodedFormats.update(repeating: 0, count: BlendTables.slots)
        next = 0
    }

    /// `table(rgb:over:)` with each result as the 32-bit word a 4-byte
    /// format `C` stores for it (those formats do not dither): an edge pixel
    /// over `dst` is then a load from the table and a store, no conversion.
    /// Entry 0 is `dst`'s own word, entry 255 `rgb`'s (`blendRGB` is exact there).
    func encoded<C: PixelCodec>(
        _: C.Type, rgb: UInt32, over dst: UInt32
    ) -> UnsafePointer<UInt32> {
        precondition(C.bytesPerPixel == 4, "encoded tables are for 4-byte formats")
        let table = self.table(rgb: rgb, over: dst)
        let slot = (table - UnsafePointer(values)) / 256
        let words = encodedValues + slot &* 256
        let format = C.word(BlendTables.probe)
        if encodedFormats[slot] != format {
            encodedFormats[slot] = format
            for m in 0..<256 { C.store(words + m, table[m], dither: 0) }
        }
        return UnsafePointer(words)
    }

    /// The table of `rgb` over `dst` (both `0x00RRGGBB`), made if it is not kept.
    func table(rgb: UInt32, over dst: UInt32) -> UnsafePointer<UInt32> {
        let key = UInt64(rgb) << 32 | UInt64(dst)
        for slot in 0..<BlendTables.slots where keys[slot] == key {
            return UnsafePointer(values + slot &* 256)
        }
        let slot = next
        next = (next &+ 1) % BlendTables.slots
        keys[slot] = key
        encodedFormats[slot] = 0
        let table = values + slot &* 256
        for m in 0..<256 { table[m] = blendRGB(rgb, dst, UInt32(m)) }
        return UnsafePointer(table)
    }
}
