// pulse: plays PulseLoader on a screen, or writes one frame as a PPM.
//
//     pulse                       the screen fbanim would pick
//     pulse /dev/fb0              a device, as `fbanim --device` names it
//     pulse sim:320x240 --frames 90
//     pulse --ppm frame.ppm [--time 0.4] [--size 320x240]
import FBAnim
import PulseLoader

#if canImport(Glibc)
    import Glibc
#endif

func fail(_ message: String) -> Never {
    let line = Array("pulse: \(message)\n".utf8)
    _ = write(2, line, line.count)
    exit(1)
}

/// The value after `name` on the command line, taken out of `arguments`.
func option(_ name: String, _ arguments: inout [String]) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(i...(i + 1)) }
    return arguments[i + 1]
}

var arguments = Array(CommandLine.arguments.dropFirst())
let ppm = option("--ppm", &arguments)
var time = 0.4
if let word = option("--time", &arguments) {
    guard let t = Double(word), t >= 0, t.isFinite else { fail("--time takes seconds") }
    time = t
}
var frames: Int?
if let word = option("--frames", &arguments) {
    guard let n = Int(word), n > 0 else { fail("--frames takes a count") }
    frames = n
}
let size = (option("--size", &arguments) ?? "320x240").split(separator: "x").compactMap { Int($0) }
guard size.count == 2, size.allSatisfy({ $0 > 0 && $0 <= 8192 }) else { fail("--size takes WxH") }

if let ppm {
    // One frame into memory, then out as a binary PPM (P6).
    let frame = renderFrame(
        PulseLoader(), width: size[0], height: size[1], format: .xrgb8888, time: time)
    let header = Array("P6\n\(size[0]) \(size[1])\n255\n".utf8)
    let bytes = header + frame.surface.rgbBytes()
    guard let file = fopen(ppm, "wb"), fwrite(bytes, 1, bytes.count, file) == bytes.count,
        fclose(file) == 0
    else { fail("cannot write \(ppm)") }
} else {
    do throws(FBAnim.Error) {
        let screen: FBAnim.Screen = arguments.first.map { .device($0) } ?? .automatic
        let books = try FBAnim.play(PulseLoader(), on: screen, timing: .init(frames: frames))
        print("pulse: \(books.presented) frames presented")
    } catch {
        fail(error.description)
    }
}
