import CAllocationCounter
import FBAnimation
import FBRaster
import FBText

// A splash's frames: the ring driven by the boot's progress, with a message
// line. What each kind of change costs, against a frame where nothing
// changed: a progress step (the arc's moving end), a new message (laid out
// with FBText, then its box redrawn), a steady message beside a moving
// ring. Damage frames into a shadow buffer (age 1), CPU time per frame.

/// Prints the splash figures; returns the cases whose steady frames allocate.
func splashFrames(size: String?) -> [String] {
    print("splash (ring driven by progress), CPU time per frame and pixels presented:")
    print(
        "size     format    scale  nothing changed us  progress step us  px/frame"
            + "  new message us  px/frame  step beside a message us  allocs/step")
    var allocating: [String] = []
    let font = Font.builtIn()
    let texts = [
        "Starting network services...", "Mounting /data (ext4)...", "Updating firmware 42%",
    ]
    for c in cases where size == nil || size == "\(c.width)x\(c.height)" {
        let buffer = PixelBuffer(width: c.width, height: c.height, format: c.format)
        let renderer = FrameRenderer(
            kind: .ring, width: c.width, height: c.height, style: LoaderStyle(scale: c.scale))
        let em = Fixed(raw: Int64((16 * c.scale * 65536).rounded()))
        let maxWidth = Fixed(max(c.width - 16, 1))
        func message(_ i: Int) -> MessageLine {
            let line = font.layOut(texts[i % texts.count], pixelSize: em, maxWidth: maxWidth)
            return MessageLine(
                path: line.path, width: Double(line.advance.raw) / 65536,
                height: Double(line.height.raw) / 65536)
        }
        var t = 0.0
        func frame() -> Int {
            t += 1.0 / 30
            return renderer.renderDamage(time: t, into: buffer.surface, age: t < 0.04 ? 0 : 1)?
                .area ?? 0
        }
        // Warm up: the first frame, the still layer (the track), and the
        // memory an arc up to the steps' largest needs: twice, so that
        // every slot of the rasterizer's polygon cache (least recently used
        // first) has held the largest arcs once (the steady state a growing
        // ring reaches once it has been full).
        let n = 300
        renderer.progress = 0.2
        for _ in 0..<60 { _ = frame() }
        for _ in 0..<2 {
            for i in 0...n {
                renderer.progress = 0.2 + 0.6 * Double(i) / Double(n)
                _ = frame()
            }
        }
        renderer.progress = 0.2
        _ = frame()
        let idle = measure(n) { _ in _ = frame() }
        var pixels = 0
        var p = 0.2
        let before = fbl_allocation_count()
        let step = measure(n) { _ in
            p += 0.6 / Double(n)
            renderer.progress = p
            pixels += frame()
        }
        let stepAllocations = Double(fbl_allocation_count() - before) / Double(n)
        let stepPixels = pixels / n
        pixels = 0
        let newMessage = measure(n) { i in
            renderer.message = message(i)
            pixels += frame()
        }
        let messagePixels = pixels / n
        renderer.message = message(0)
        _ = frame()
        p = 0.2
        let beside = measure(n) { _ in
            p += 0.6 / Double(n)
            renderer.progress = p
            _ = frame()
        }
        if stepAllocations > 0 { allocating.append("splash progress step \(c.width)x\(c.height)") }
        print(
            "\(c.width)x\(c.height)".padding(8) + " " + c.format.name.padding(9) + " "
                + "\(c.scale)".padding(5) + format(idle / 1000, 20) + format(step / 1000, 18)
                + format(Double(stepPixels), 10) + format(newMessage / 1000, 16)
                + format(Double(messagePixels), 10) + format(beside / 1000, 26)
                + format(stepAllocations, 13))
    }
    return allocating
}
