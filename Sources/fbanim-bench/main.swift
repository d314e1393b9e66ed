// fbanim-bench: figures, not tests. For each loader at the sizes small
// displays use, prints the CPU time of a full redraw, of a damage-only frame
// averaged over one steady animation cycle at 30 fps (buffers of age 1, a
// shadow buffer, and age 2, double buffering), the pixels those frames
// present, heap allocations per steady frame, the mean of the two cycles
// played before (the first frame, tables and kept coverage being built),
// and the coverage kept for shapes that repeat; then the machine it ran
// on. CI may run it to see that it runs; it never judges the times.
//
// Then the splash's frames (SplashBench.swift): the ring driven by a boot's
// progress, with and without a message line.
//
//     swift run -c release fbanim-bench [--frames N] [--loader NAME] [--size WxH]
//         [--check-allocations]   (exit 1 if a steady frame allocates)
import CAllocationCounter
import FBAnimation
import FBLinux
import FBRaster

struct Case {
    let width: Int
    let height: Int
    let format: PixelFormat
    let scale: Double
}

let cases = [
    Case(width: 320, height: 240, format: .rgb565, scale: 1),
    Case(width: 800, height: 480, format: .xrgb8888, scale: 2),
]

/// One animation cycle of each loader, seconds.
func cycle(_ kind: LoaderKind) -> Double {
    switch kind {
    case .ring: 30.5
    case .radar: 3
    case .spinner: 1.8
    case .orbit: 10
    }
}

var fullFrames = 200
/// The loaders measured: the built-ins, then one written outside FBAnimation.
struct Entry {
    let name: String
    /// One animation cycle, seconds.
    let cycle: Double
    let make: () -> any Loader
}
let entries =
    LoaderKind.allCases.map { kind in
        Entry(name: kind.rawValue, cycle: cycle(kind), make: kind.makeLoader)
    }
    + [Entry(name: "custom", cycle: 2.4, make: { CustomBenchLoader() })]
    + [Entry(name: "gradient", cycle: 2.4, make: { GradientBenchLoader() })]

var only: String?
var size: String?
/// Exit 1 when a steady frame allocates (a check, unlike the times).
var checkAllocations = false
var arguments = CommandLine.arguments.dropFirst()
while let a = arguments.popFirst() {
    if a == "--frames", let v = arguments.popFirst(), let n = Int(v), n > 0 {
        fullFrames = n
    } else if a == "--loader", let v = arguments.popFirst(),
        entries.contains(where: { $0.name == v })
    {
        only = v
    } else if a == "--check-allocations" {
        checkAllocations = true
    } else if a == "--size", let v = arguments.popFirst(),
        cases.contains(where: { "\($0.width)x\($0.height)" == v })
    {
        size = v
    } else {
        StandardStream.error.write(
            "usage: fbanim-bench [--frames N] [--loader NAME|custom|gradient] [--size 320x240|800x480]"
                + " [--check-allocations]\n")
        exitProcess(64)
    }
}

/// CPU nanoseconds per frame of `body(frame)` over `count` frames.
@inline(never)
func measure(_ count: Int, _ body: (Int) -> Void) -> Double {
    let start = processCPUNanoseconds()
    for i in 0..<count { body(i) }
    return Double(processCPUNanoseconds() - start) / Double(count)
}

/// `measure`, for the frames played before: its own function, so a profiler
/// can count `measure` alone (callgrind --toggle-collect).
@inline(never)
func measureWarmUp(_ count: Int, _ body: (Int) -> Void) -> Double {
    let start = processCPUNanoseconds()
    for i in 0..<count { body(i) }
    return Double(processCPUNanoseconds() - start) / Double(count)
}

print(
    "fbanim-bench: CPU time per frame (full: \(fullFrames) frames; damage: one steady cycle at"
        + " 30 fps, after two; first 2 cycles: their mean, age 1)")
print("machine: \(machineDescription())")
print("")
print(
    "loader   size     format    scale  full us  damage us (age 1)  px/frame  damage us (age 2)  px/frame  allocs/frame"
        + "  first 2 cycles  kept KB"
)
var allocatingCases: [String] = []
for c in cases where size == nil || size == "\(c.width)x\(c.height)" {
    for entry in entries where only == nil || only == entry.name {
        let style = LoaderStyle(scale: c.scale)
        let buffer = PixelBuffer(width: c.width, height: c.height, format: c.format)
        let renderer = FrameRenderer(entry.make(), width: c.width, height: c.height, style: style)
        for i in 0..<10 { renderer.render(time: Double(i) * 0.1, into: buffer.surface) }
        let full = measure(fullFrames) { i in
            renderer.render(time: 30 * Double(i) / Double(fullFrames), into: buffer.surface)
        }

        let frames = Int((entry.cycle * 30).rounded())
        var results: [(ns: Double, pixels: Int, allocations: Double)] = []
        var first = (cold: 0.0, kept: 0)
        for age in [1, 2] {
            let damaged = FrameRenderer(
                entry.make(), width: c.width, height: c.height, style: style)
            let buffers = (0..<age).map { _ in
                PixelBuffer(width: c.width, height: c.height, format: c.format)
            }
            // Play two whole cycles first: the first full frame, lazy tables,
            // caches that grow to a loader's extent and the coverage kept of
            // shapes that repeat are behind us (a spinner's first cycle is
            // not its steady one: leaves that have not ticked yet rest),
            // and what follows is the steady state.
            let t0 = 2 * entry.cycle
            var presents = 0
            let cold = measureWarmUp(2 * frames) { i in
                let d = damaged.renderDamage(
                    time: Double(i) / 30, into: buffers[presents % age].surface,
                    age: presents < age ? 0 : age)
                if d != nil { presents += 1 }
            }
            var pixels = 0
            let allocationsBefore = fbl_allocation_count()
            let ns = measure(frames) { i in
                let d = damaged.renderDamage(
                    time: t0 + Double(i) / 30, into: buffers[presents % age].surface, age: age)
                if let d {
                    pixels += d.area
                    presents += 1
                }
            }
            let allocations = Double(fbl_allocation_count() - allocationsBefore) / Double(frames)
            results.append((ns, pixels / frames, allocations))
            if allocations > 0 {
                allocatingCases.append("\(entry.name) \(c.width)x\(c.height) age \(age)")
            }
            if age == 1 { first = (cold, damaged.keptCoverage.bytes) }
        }
        let size = "\(c.width)x\(c.height)"
        print(
            entry.name.padding(8) + " " + size.padding(8) + " " + c.format.name.padding(9) + " "
                + "\(c.scale)".padding(5) + format(full / 1000, 8)
                + format(results[0].ns / 1000, 19)
                + format(Double(results[0].pixels), 10) + format(results[1].ns / 1000, 19)
                + format(Double(results[1].pixels), 10) + format(results[1].allocations, 14)
                + format(first.cold / 1000, 16) + format(Double(first.kept) / 1024, 10))
    }
}

func format(_ v: Double, _ width: Int) -> String {
    let rounded = (v * 10).rounded() / 10
    let s = "\(rounded)"
    return String(repeating: " ", count: max(0, width - s.count)) + s
}

extension String {
    func padding(_ n: Int) -> String { self + String(repeating: " ", count: max(0, n - count)) }
}

if only == nil || only == "ring" {
    print("")
    allocatingCases += splashFrames(size: size)
}

if checkAllocations && !allocatingCases.isEmpty {
    StandardStream.error.write(
        "fbanim-bench: steady frames allocate: \(allocatingCases.joined(separator: ", "))\n")
    exitProcess(1)
}
