// fbtext-bench: figures, not tests. Prints the built-in font's size and
// what laying out a message line costs: a 40-character message at 16 and
// 32 px the first time (a new font: every glyph decomposed), again with
// every glyph kept (the same message, and a new message of known glyphs),
// and a 10,000-character message cut to 464 px; then the machine it ran on.
// CI may run it to see that it runs; it never judges the times.
//
// Linked like fbanim (-static-executable), so building it also shows that
// FBText, with FreeType and the libraries libfreetype.a needs, links into
// a static executable.
//
//     swift run -c release fbtext-bench [--runs N] [--font FILE]
import FBLinux
import FBRaster
import FBText

var runs = 2000
var fontPath: String?
var arguments = CommandLine.arguments.dropFirst()
while let a = arguments.popFirst() {
    if a == "--runs", let v = arguments.popFirst(), let n = Int(v), n > 0 {
        runs = n
    } else if a == "--font", let v = arguments.popFirst() {
        fontPath = v
    } else {
        StandardStream.error.write("usage: fbtext-bench [--runs N] [--font FILE]\n")
        exitProcess(64)
    }
}

/// Opens the font under test: `--font FILE`, else the built-in one.
@MainActor func openFont() -> Font {
    guard let path = fontPath else { return Font.builtIn() }
    do {
        return try Font(bytes: readFile(path, limit: 64 << 20))
    } catch {
        StandardStream.error.write("fbtext-bench: \(path): \(error)\n")
        exitProcess(66)
    }
}

/// Mean CPU time of `body` over `count` calls, microseconds.
func measure(_ count: Int, _ body: () -> Void) -> Double {
    let start = processCPUNanoseconds()
    for _ in 0..<count { body() }
    return Double(processCPUNanoseconds() - start) / Double(count) / 1000
}

func format(_ v: Double) -> String {
    let hundredths = Int((v * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}

let message = "Starting Network Manager... eth0: 1 Gb/s"
let other = "Mounting /boot/firmware: 42 % done (ok)."
precondition(message.count == 40 && other.count == 40)
let long = String(repeating: "Loading kernel modules, please wait. ", count: 271)
let wide = Fixed(464)
let unlimited = Fixed(1 << 20)

print("built-in font: DejaVu Sans subset, \(Font.builtInBytes.count) bytes")
let probe = openFont()
print("font under test: \(probe.name) (\(probe.kind))")
print("")
let opened = measure(max(1, runs / 20)) { _ = openFont().lineMetrics(pixelSize: Fixed(16)) }
print("opening the font (and setting a size): \(format(opened)) us")
print("")
print("size   first layout   same message   new message   10,000 chars   path elements")
for size in [16, 32] {
    let px = Fixed(size)
    // First time: a font opened anew, so every glyph of the message is made.
    var firstTotal = 0.0
    let firstRuns = max(1, runs / 20)
    var elements = 0
    for _ in 0..<firstRuns {
        let font = openFont()
        _ = font.lineMetrics(pixelSize: px)
        firstTotal += measure(1) {
            elements = font.layOut(message, pixelSize: px, maxWidth: unlimited).path.elements.count
        }
    }
    let font = openFont()
    _ = font.layOut(message, pixelSize: px, maxWidth: unlimited)
    _ = font.layOut(other, pixelSize: px, maxWidth: unlimited)
    let same = measure(runs) { _ = font.layOut(message, pixelSize: px, maxWidth: unlimited) }
    let fresh = measure(runs) { _ = font.layOut(other, pixelSize: px, maxWidth: unlimited) }
    _ = font.layOut(long, pixelSize: px, maxWidth: wide)
    let cut = measure(runs) { _ = font.layOut(long, pixelSize: px, maxWidth: wide) }
    print(
        "\(size) px".padding(7) + "\(format(firstTotal / Double(firstRuns))) us".padding(15)
            + "\(format(same)) us".padding(15) + "\(format(fresh)) us".padding(14)
            + "\(format(cut)) us".padding(15) + "\(elements)")
}
print("")
print("CPU time per layout, mean of \(runs) runs (first layout: \(max(1, runs / 20)) fonts opened)")
print("machine: \(machineDescription())")

extension String {
    func padding(_ n: Int) -> String { self + String(repeating: " ", count: max(0, n - count)) }
}
