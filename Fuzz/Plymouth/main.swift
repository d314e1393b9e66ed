// libFuzzer target for Plymouth's client protocol (FBBoot.Plymouth): the
// decoder cuts any bytes into requests, the same byte by byte as all at
// once; each request has a meaning (a command, malformed, or refused), and
// the commands fbanim ctl sends for them decode back to themselves.
// Built only by Scripts/fuzz.sh (FBANIM_FUZZ=1).
import FBBoot

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var whole = Plymouth.Decoder()
    let requests = whole.feed(bytes)
    var single = Plymouth.Decoder()
    var again: [Plymouth.Request] = []
    for byte in bytes { again += single.feed([byte]) }
    precondition(again == requests, "byte by byte differs")
    precondition(requests.count <= bytes.count / 2 + 1)
    for request in requests {
        precondition(request.argument?.contains(0) != true)
        switch Plymouth.meaning(of: request) {
        case .command(let command):
            var d = Plymouth.Decoder()
            let back = d.feed(Plymouth.request(for: command).encoded)
            precondition(back.count == 1)
            // Text cut to the protocol's 254 bytes may lose its end.
            if case .command(let decoded) = Plymouth.meaning(of: back[0]) {
                switch (command, decoded) {
                case (.message, .message), (.unitActive, .unitActive), (.newRoot, .newRoot): break
                default: precondition(decoded == command, "\(command) came back as \(decoded)")
                }
            }
        case .malformed(let why):
            precondition(!why.contains("\n"))
        case .refused: break
        }
    }
    return 0
}
