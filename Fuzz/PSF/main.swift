// libFuzzer target for the PSF console font parser and what a parsed font
// goes through: glyphs as rectangles, a line laid out, its path filled.
// Built only by Scripts/fuzz.sh (FBANIM_FUZZ=1 adds this target to the
// package; -sanitize=fuzzer brings libFuzzer's main, so this file defines
// none and top-level code would clash with it).
import FBRaster
import FBText

// libFuzzer calls in from one thread.
nonisolated(unsafe) private let rasterizer = Rasterizer()
private let canvas = PixelBuffer(width: 96, height: 48, format: .xrgb8888)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let psf: PSFFont
    do {
        psf = try PSFFont(bytes: bytes)
    } catch {
        // Every failure is one of the typed errors, with a one-line description.
        precondition(!error.description.contains("\n"))
        return 0
    }
    precondition(psf.bitmaps.count == psf.glyphCount * psf.height * psf.bytesPerRow)
    precondition(psf.unicodeMap.values.allSatisfy { $0 >= 0 && $0 < psf.glyphCount })
    // The same bytes as a Font: a console font, laid out and drawn. Large
    // glyphs make large paths: keep an input's time small.
    let font: Font
    do { font = try Font(bytes: bytes) } catch {
        preconditionFailure("PSFFont read it, Font did not: \(error)")
    }
    guard psf.width * psf.height <= 64 * 64 else { return 0 }
    for (size, limit) in [(psf.height, 90), (psf.height * 3 / 2, 40), (7, 1_000)] {
        let line = font.layOut("Aé…\u{FFFD}\t?x", pixelSize: Fixed(size), maxWidth: Fixed(limit))
        precondition(line.advance <= Fixed(limit) && line.height == Fixed(size))
        rasterizer.fill(
            .path(line.path), transform: .translation(Fixed(2), Fixed(1)), paint: .solid(.white),
            on: canvas.surface)
    }
    return 0
}
