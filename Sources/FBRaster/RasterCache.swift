/// What a frame renderer keeps from fill to fill and frame to frame, so
/// that what repeats costs less: the rasterizer itself keeps nothing.
///
/// - Flattened polygons of the last shapes (`PolygonCache`): a frame asks
///   for a shape's bounds, then fills it, and most shapes stay put.
/// - Kept coverage (`CoverageCache`) of shapes filled with `keepCoverage`.
/// - Blend tables (`BlendTables`) of opaque colours over the backdrop.
/// - The backdrop: the colour of the last clear through this cache (of any
///   surface: in a frame, the one drawn next), where most edges of the
///   next fills land, so the one their blend tables are made over.
/// - A sweep gradient's pixel directions (`DirectionCache`, kept while its
///   centre stays) and opacity table (`SweepTable`, remade when it turns).
/// - A linear ramp's colour table (`LinearRampTable`, remade when its stops
///   or opacity change).
///
/// Only the frame renderer uses it, through the `package` calls of
/// `Rasterizer+Cache.swift`; a fill through a cache gives the bytes of one
/// without. Not thread-safe; one per renderer.
package final class RasterCache {
    var polygons = PolygonCache()
    var kept: CoverageCache
    /// Made on first use: only loaders with kept shapes or sweeps blend through tables.
    private(set) lazy var tables = BlendTables()
    var backdrop: UInt32?
    /// Set when the kept coverage filled its block: no shape is kept after that.
    var keptFull = false
    /// Bytes kept for shapes kept only for having stayed put
    /// (`fill(stayedPut:)`): they never come back once the still layer
    /// takes them, and entries are never dropped, so they may hold at most
    /// `stayedPutBudget` of the block; the rest is for shapes that repeat.
    var stayedPutBytes = 0
    /// A track or two (an orbit's at scale 2 takes 7 KB); a custom loader's
    /// in-place shape that changes every few frames wastes at most this.
    static let stayedPutBudget = 64 << 10

    /// After a shape could not be kept: no shape of its kind is kept any
    /// more (`keptFull`, or the share of shapes that stayed put spent).
    func closeToKeeping(stayedPut: Bool) {
        if stayedPut { stayedPutBytes = RasterCache.stayedPutBudget } else { keptFull = true }
    }
    let directions = DirectionCache()
    /// A sweep gradient's opacity per direction, made per gradient.
    private(set) lazy var sweepTable = SweepTable()
    /// A linear ramp's colours, made per ramp (allocated on first use).
    let ramps = LinearRampTable()

    /// A cache that keeps up to `CoverageCache.defaultBudget` bytes of coverage.
    package convenience init() { self.init(keptBytes: CoverageCache.defaultBudget) }

    /// A cache that keeps up to `keptBytes` of coverage (tests: a budget of their own).
    package init(keptBytes: Int) { kept = CoverageCache(budget: keptBytes) }

    deinit { kept.release() }

    /// Bytes of coverage kept for shapes filled with `keepCoverage`, and how many shapes.
    package var keptCoverage: (bytes: Int, shapes: Int) { (kept.bytesUsed, kept.count) }

    /// Forgets what the scratch holds (directions, opacity, blend and ramp
    /// tables), keeping the memory: a fill without a cache borrows them
    /// and leaves nothing behind for the next.
    func forget() {
        directions.forget()
        sweepTable.forget()
        tables.forget()
        ramps.forget()
        backdrop = nil
    }
}
