// libFuzzer target for board profiles and fbanim.conf (FBAnimCLI's
// BoardProfile, through its fuzzing entry point): strict parsing fails
// with one line naming the file and the line, lenient parsing keeps only
// checked values and reports each bad line once, in one line.
// Built only by Scripts/fuzz.sh (FBANIM_FUZZ=1).
@_spi(Fuzzing) import FBAnimCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzingEntry.boardProfile(bytes)
    return 0
}
