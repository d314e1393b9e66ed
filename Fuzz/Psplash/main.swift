// libFuzzer target for the psplash FIFO stream (FBBoot.PsplashStream): the
// input is cut into reads at places its first byte chooses, as writers
// coming and going would cut it; fed whole or in pieces, the commands are
// the same, every reason is one line, and messages stay under the limit.
// Built only by Scripts/fuzz.sh (FBANIM_FUZZ=1).
import FBBoot

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var whole = PsplashStream()
    let expected = whole.feed(bytes)
    var pieces = PsplashStream()
    var got: [PsplashStream.Outcome] = []
    var start = 0
    var step = Int(bytes.first ?? 1) % 17 + 1
    while start < bytes.count {
        let end = min(bytes.count, start + step)
        got += pieces.feed(bytes[start..<end])
        start = end
        step = step * 7 % 31 + 1
    }
    precondition(got == expected, "pieces and whole differ")
    for outcome in expected {
        switch outcome {
        case .command(.message(let text)):
            precondition(text.utf8.count <= PsplashStream.maximumLength * 3)
        case .command(.progress(let p)):
            precondition((-100...100).contains(p))
        case .ignored(let why):
            precondition(!why.contains("\n") && !why.contains("\r") && why.utf8.count < 400)
        case .command: break
        }
    }
    return 0
}
