// libFuzzer target for fbanim's command line, every command (play, render,
// splash, ctl, devices, testpattern, restore-console), and what play,
// render and splash build from it; for splash with a kernel command line,
// an fbanim.conf and a board profile from the input too (FBAnimCLI's
// FuzzingEntry.commandLine says the layout and the properties).
// Built only by Scripts/fuzz.sh (FBANIM_FUZZ=1).
@_spi(Fuzzing) import FBAnimCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzingEntry.commandLine(bytes)
    return 0
}
