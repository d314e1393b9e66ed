// fbanim-bench: figures, not tests. Prints the cost of drawing each loader's
// frames at the sizes and formats small displays use, and the machine it ran
// on. CI may run it to see that it runs; it never judges the times.
//
//     swift run -c release fbanim-bench [--frames N]
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
    Case(width: 240, height: 240, format: .xrgb8888, scale: 1),
]

var frames = 300
var arguments = CommandLine.arguments.dropFirst()
while let a = arguments.popFirst() {
    if a == "--frames", let v = arguments.popFirst(), let n = Int(v), n > 0 {
        frames = n
    } else {
        print("usage: fbanim-bench [--frames N]")
        exitProcess(64)
    }
}

print("fbanim-bench: full redraws, \(frames) frames a case spread over 30 s of animation")
print("machine: \(machineDescription())")
print("")
print("loader   size      format    scale   ns/frame    us/frame   Mpx/s")
for c in cases {
    let buffer = PixelBuffer(width: c.width, height: c.height, format: c.format)
    for kind in LoaderKind.allCases {
        let renderer = FrameRenderer(
            kind: kind, width: c.width, height: c.height, style: LoaderStyle(scale: c.scale))
        // Warm up: caches, the rasterizer's scratch memory, lazy tables.
        for i in 0..<10 { renderer.render(time: Double(i) * 0.1, into: buffer.surface) }
        let start = processCPUNanoseconds()
        for i in 0..<frames {
            renderer.render(time: 30 * Double(i) / Double(frames), into: buffer.surface)
        }
        let ns = Double(processCPUNanoseconds() - start) / Double(frames)
        let mpx = Double(c.width * c.height) / ns * 1000
        let size = "\(c.width)x\(c.height)"
        print(
            kind.rawValue.padding(8) + " " + size.padding(9) + " " + c.format.name.padding(9)
                + " " + "\(c.scale)".padding(5) + " " + format(ns, 11) + " " + format(ns / 1000, 10)
                + " " + format(mpx, 7))
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
