import FBRaster

/// What changed on the screen from frame to frame, for the frame renderer:
/// the shapes last shown and their bounds, what the new frame changed, and
/// what a buffer presented `age` frames ago must redraw.
///
/// A shape equal to the one in its place last frame changes nothing; an
/// arc that only grew or shrank changes the pixels between its ends;
/// any other change, the old bounds and the new.
struct FrameDamage {
    /// The frame last compared, placed on the screen, and its shapes' bounds.
    private(set) var shown: [DrawOp] = []
    private(set) var shownBounds: [IntRect] = []
    /// The coverage the raster cache kept for each shape when its bounds
    /// were found (`Rasterizer.keptBounds`), for its fill.
    private(set) var shownKept: [KeptCoverage?] = []
    private var current: [DrawOp] = []
    private var currentBounds: [IntRect] = []
    private var currentKept: [KeptCoverage?] = []
    /// For each shape of the frame compared last, whether it equals the
    /// one in its place in the frame before (the still layer counts on it,
    /// instead of comparing every shape again).
    private(set) var unchanged: [Bool] = []
    /// What the frame compared last changed (clipped to the screen).
    private(set) var changed = DamageList()
    /// The rectangles `changed` was made of, each changed shape's own (its
    /// old and new places, as one when their box adds little), not merged
    /// with other shapes'; and, when the frame compared last is
    /// presented to a buffer that holds the frame before it (age 1), those
    /// of them on the screen: the pixels that differ, without the space
    /// between shapes a merge takes in (a spinner's middle and corners:
    /// half its merged box). `nil` for any other age or past `presentLimit`.
    private var parts: [IntRect] = []
    private var presentList = DamageList(limit: FrameDamage.presentLimit)
    private(set) var presented: DamageList?
    /// Parts a frame's `presented` is made of at most: a spinner's twelve
    /// leaves' old and new places.
    static let presentLimit = 32
    /// What each of the last frames changed (for buffers of age > 1): a ring
    /// of `maxAge` lists, the newest at `newest`, `historyCount` of them valid.
    private var history: [DamageList]
    private var newest = 0
    private(set) var historyCount = 0
    private var region = DamageList()
    private var hasShown = false
    let maxAge: Int

    init(maxAge: Int) {
        self.maxAge = maxAge
        history = [DamageList](repeating: DamageList(), count: maxAge)
    }

    /// Starts a new frame: its shapes follow with `add`, in drawing order.
    /// `keepingParts`: the frame goes to a buffer of age 1, which may be
    /// given `presented`.
    mutating func begin(keepingParts: Bool = false) {
        current.removeAll(keepingCapacity: true)
        currentBounds.removeAll(keepingCapacity: true)
        currentKept.removeAll(keepingCapacity: true)
        unchanged.removeAll(keepingCapacity: true)
        changed.removeAll()
        parts.removeAll(keepingCapacity: true)
        keepsParts = keepingParts
    }

    private var keepsParts = false

    /// Adds `r` to what changed, and to its parts.
    private mutating func change(_ r: IntRect) {
        changed.add(r)
        if keepsParts && !r.isEmpty { parts.append(r) }
    }

    /// The new frame's next shape, `op` (placed on the screen). `bounds`
    /// gives a shape's pixels (and its kept coverage, if any) when it is
    /// not the one shown in its place; `arcChange` the pixels between the
    /// ends of an arc that only grew or shrank (`nil` for any other change).
    mutating func add(
        _ op: DrawOp, bounds: (DrawOp) -> (IntRect, KeptCoverage?),
        arcChange: (DrawOp, DrawOp) -> IntRect?
    ) {
        let i = current.count
        current.append(op)
        let same = i < shown.count && shown[i] == op
        unchanged.append(same)
        guard i < shown.count else {
            let (b, kept) = bounds(op)
            currentBounds.append(b)
            currentKept.append(kept)
            change(b)
            return
        }
        if same {
            currentBounds.append(shownBounds[i])
            currentKept.append(shownKept[i])
            return
        }
        let (b, kept) = bounds(op)
        currentBounds.append(b)
        currentKept.append(kept)
        if let delta = arcChange(shown[i], op) {
            change(delta)
        } else {
            changed.add(shownBounds[i])
            changed.add(b)
            // Its old and new places as one part where their box adds
            // little (a shape that moved a little), else two.
            if keepsParts {
                let was = shownBounds[i]
                if 4 &* DamageList.waste(was, b)
                    <= min(was.width &* was.height, b.width &* b.height)
                {
                    parts.append(was.union(b))
                } else {
                    if !was.isEmpty { parts.append(was) }
                    if !b.isEmpty { parts.append(b) }
                }
            }
        }
    }

    /// Ends the frame begun last, which becomes the one shown. Returns what
    /// a buffer holding the frame presented `age` frames ago must redraw
    /// (the whole `screen` for an unknown one, `age` 0 or older than the
    /// history), or `nil` when nothing changed and the buffer holds a known
    /// frame (`age > 0`).
    mutating func end(screen: IntRect, age: Int) -> DamageList? {
        for i in current.count..<max(current.count, shown.count) { change(shownBounds[i]) }
        if !hasShown { change(screen) }
        // Shapes may reach past the screen (a large scale, a small panel):
        // a frame whose changes are all off the screen presents nothing.
        changed.clip(to: screen)
        swap(&shown, &current)
        swap(&shownBounds, &currentBounds)
        swap(&shownKept, &currentKept)
        hasShown = true
        // A buffer of unknown contents (age 0) is drawn whole even when
        // nothing moved: it may not hold this picture at all.
        presented = nil
        if changed.isEmpty && age > 0 { return nil }

        newest = (newest + 1) % maxAge
        history[newest].removeAll()
        history[newest].add(changed)
        historyCount = min(historyCount + 1, maxAge)
        region.removeAll()
        if age <= 0 || age > historyCount {
            region.add(screen)
        } else {
            for k in 0..<age { region.add(history[(newest - k + maxAge) % maxAge]) }
            if age == 1 && keepsParts && parts.count <= FrameDamage.presentLimit {
                presentList.set(parts, clippedTo: screen)
                presented = presentList
            }
        }
        return region
    }
}
