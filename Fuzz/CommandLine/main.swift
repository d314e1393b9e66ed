// libFuzzer target for the kernel command line (FBBoot.KernelCommandLine,
// SplashKernelOptions): any text splits into parameters whose keys hold no
// '=' and no quote, a board name taken from it is always a plain name (no
// '/', no '..'), every problem is one line, and a video= rotation is a
// quarter turn that turns a picture into a quarter turn.
// Built only by Scripts/fuzz.sh (FBANIM_FUZZ=1).
import FBBoot

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let line = KernelCommandLine(String(decoding: bytes, as: UTF8.self))
    for (key, _) in line.parameters {
        precondition(!key.contains("=") && !key.contains("\""))
    }
    let options = SplashKernelOptions(line)
    if let board = options.board {
        precondition(isPlainName(board) && !board.contains("/") && !board.hasPrefix("."))
    }
    for problem in options.problems {
        precondition(!problem.contains("\n") && !problem.contains("\r") && problem.utf8.count < 400)
    }
    for name in ["DSI-1", "HDMI-A-1", ""] {
        guard let degrees = line.videoRotation(for: name) else { continue }
        precondition([0, 90, 180, 270].contains(degrees))
        for orientation in PanelOrientation.allCases {
            let turn = pictureRotation(orientation: orientation, commandLineDegrees: degrees)
            precondition([0, 90, 180, 270].contains(turn))
        }
    }
    return 0
}
