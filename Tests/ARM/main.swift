// arm-check: the pure core (FBRaster, FBAnimation, FBScheduler) drawing on
// the CPU it is made for. Built twice by Scripts/arm-check.sh from the same
// sources: as Embedded Swift for aarch64 (run under qemu-aarch64) and as
// ordinary Swift for the machine it builds on, the reference. Neither build
// is part of the package; it imports only the three pure modules.
//
//     arm-check
//         One line per (loader, pixel format): an FNV-1a 64 hash over the
//         bytes of 30 frames at 320x240, scale 1, at times spread evenly over
//         the loader's cycle, each drawn as a damage frame into a buffer that
//         holds the frame before (age 1), as a player draws. Each is checked
//         against a full redraw of the same time; a difference is reported
//         on the line ("damage != full"), so the line cannot match. Then one
//         line per loader from the scheduler: 45 slots at 30 fps played as
//         `play` does (320x240 rgb565), what it drew and the last frame.
//     arm-check play LOADER WxH FORMAT SCALE FRAMES
//         Plays FRAMES frames through the frame scheduler at 30 fps on a
//         virtual clock, damage frames into one buffer (Scripts/arm-insns.sh
//         counts the instructions of two such runs and subtracts). SCALE
//         is a whole number (parsing a Double would need the C library's
//         strtod, which Embedded Swift's standard library leaves out).
//
// Arguments come through `main`'s argc/argv: Embedded Swift has no
// CommandLine. Output is `print` alone, which both builds have.
import FBAnimation
import FBRaster
import FBScheduler

/// FNV-1a, 64 bits, over bytes: small, exact, the same on every CPU.
struct FNV1a64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var h = value
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        value = h
    }
}

/// `v` as 16 lower-case hex digits.
func hex(_ v: UInt64) -> String {
    let digits: [Character] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f",
    ]
    var s = ""
    for shift in stride(from: 60, through: 0, by: -4) {
        s.append(digits[Int((v >> UInt64(shift)) & 15)])
    }
    return s
}

/// One animation cycle of each loader, seconds (spec: loaders.md; the
/// ring's includes its 0.5 s delay).
func cycle(_ kind: LoaderKind) -> Double {
    switch kind {
    case .ring: 30.5
    case .radar: 3
    case .spinner: 1.8
    case .orbit: 10
    }
}

/// The visible bytes of `surface` (rows without stride padding), in order.
func hash(_ surface: Surface, into h: inout FNV1a64) {
    let rowBytes = surface.width * surface.format.bytesPerPixel
    for y in 0..<surface.height {
        h.add(UnsafeRawBufferPointer(start: surface.base + y * surface.stride, count: rowBytes))
    }
}

/// Whether two surfaces of one size and format hold the same visible bytes.
func sameBytes(_ a: Surface, _ b: Surface) -> Bool {
    let rowBytes = a.width * a.format.bytesPerPixel
    for y in 0..<a.height {
        let ra = UnsafeRawBufferPointer(start: a.base + y * a.stride, count: rowBytes)
        let rb = UnsafeRawBufferPointer(start: b.base + y * b.stride, count: rowBytes)
        if !ra.elementsEqual(rb) { return false }
    }
    return true
}

let frameCount = 30
let (checkWidth, checkHeight) = (320, 240)

/// Prints the checksum lines. Returns how many damage frames differed from
/// their full redraw.
func printChecksums() -> Int {
    var differing = 0
    for kind in LoaderKind.allCases {
        for format in PixelFormat.allCases {
            let damaged = FrameRenderer(kind: kind, width: checkWidth, height: checkHeight)
            let full = FrameRenderer(kind: kind, width: checkWidth, height: checkHeight)
            let buffer = PixelBuffer(width: checkWidth, height: checkHeight, format: format)
            let reference = PixelBuffer(width: checkWidth, height: checkHeight, format: format)
            var h = FNV1a64()
            var same = true
            for i in 0..<frameCount {
                let t = cycle(kind) * Double(i) / Double(frameCount)
                _ = damaged.renderDamage(time: t, into: buffer.surface, age: i == 0 ? 0 : 1)
                full.render(time: t, into: reference.surface)
                if !sameBytes(buffer.surface, reference.surface) { same = false }
                hash(buffer.surface, into: &h)
            }
            if !same { differing += 1 }
            print(
                "\(kind.rawValue) \(format.rawValue) \(hex(h.value))\(same ? "" : " damage != full")"
            )
        }
    }
    return differing
}

/// Presents a loader's damage frames into one buffer, as a player does on a
/// display whose buffer always holds the last frame.
final class BufferPresenter: FramePresenter {
    let renderer: FrameRenderer
    let buffer: PixelBuffer
    private var age = 0
    private(set) var presented = 0
    private(set) var pixels = 0

    init(_ renderer: FrameRenderer, _ buffer: PixelBuffer) {
        self.renderer = renderer
        self.buffer = buffer
    }

    func presentFrame(at time: Double) -> FrameOutcome {
        guard let damage = renderer.renderDamage(time: time, into: buffer.surface, age: age) else {
            let until = renderer.stillUntil(time)
            return .unchanged(until: until.isFinite ? until : nil)
        }
        age = 1
        presented += 1
        // The rectangles to present may reach past the screen (a shape's
        // bounds); a display presents only what is on it.
        for r in damage.rects {
            let onScreen = r.intersection(renderer.screen)
            if !onScreen.isEmpty { pixels += onScreen.width * onScreen.height }
        }
        return .presented
    }
}

/// Plays `frames` scheduler slots of `kind`; prints what it did and a hash
/// of the last frame (so no work can be left out unseen).
func play(
    _ kind: LoaderKind, width: Int, height: Int, format: PixelFormat, scale: Int, frames: Int
) -> Int32 {
    let renderer = FrameRenderer(
        kind: kind, width: width, height: height, style: LoaderStyle(scale: Double(scale)))
    let presenter = BufferPresenter(
        renderer, PixelBuffer(width: width, height: height, format: format))
    let scheduler = FrameScheduler(fps: 30, clock: ManualClock())
    do {
        try scheduler.run(presenter, slots: frames)
    } catch {
        print("arm-check: the presenter threw")
        return 1
    }
    var h = FNV1a64()
    hash(presenter.buffer.surface, into: &h)
    print(
        "\(kind.rawValue) \(width)x\(height) \(format.rawValue) scale \(scale): \(frames) slots,"
            + " \(presenter.presented) presented, \(presenter.pixels) px, last frame \(hex(h.value))"
    )
    return 0
}

@_cdecl("main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var args: [String] = []
    for i in 1..<Int(argc) { args.append(String(cString: argv[i]!)) }
    if args.isEmpty {
        let differing = printChecksums()
        // The frame scheduler's part: which slots drew, at what times.
        for kind in LoaderKind.allCases {
            _ = play(kind, width: 320, height: 240, format: .rgb565, scale: 1, frames: 45)
        }
        return differing == 0 ? 0 : 1
    }
    let usage = "usage: arm-check [play LOADER WxH FORMAT SCALE FRAMES]"
    guard args.count == 6, args[0] == "play", let kind = LoaderKind(rawValue: args[1]),
        let format = PixelFormat(rawValue: args[3]), let scale = Int(args[4]),
        scale > 0, scale <= 64, let frames = Int(args[5]), frames > 0
    else {
        print(usage)
        return 64
    }
    let size = args[2].split(separator: "x")
    guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0,
        w <= 4096, h <= 4096
    else {
        print(usage)
        return 64
    }
    return play(kind, width: w, height: h, format: format, scale: scale, frames: frames)
}
