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

    init() { keys.initialize(repeating: BlendTables.empty, count: BlendTables.slots) }

    deinit {
        values.deallocate()
        keys.deallocate()
    }

    /// Forgets every table (the memory stays).
    func forget() {
        keys.update(repeating: BlendTables.empty, count: BlendTables.slots)
        next = 0
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
        let table = values + slot &* 256
        for m in 0..<256 { table[m] = blendRGB(rgb, dst, UInt32(m)) }
        return UnsafePointer(table)
    }
}
