import FBAnimation
import FBRaster
import Foundation
import Testing
import _FBTestSupport

// Golden images: each loader at two times (and one styled frame each), drawn
// in all six pixel formats. The four 8-bit formats must give the same RGB,
// and so must rgb565 and bgr565 (same dithering for every channel); each
// family is compared byte for byte with one PNG in Goldens/. Goldens are
// recorded, not derived: the oracle tests are what says they are right.
// Re-record after an intended change:
//   FBANIM_RECORD_GOLDENS=1 swift test --filter GoldenTests

let goldenCases: [FrameCase] =
    [
        FrameCase(loader: .ring, time: 7), FrameCase(loader: .ring, time: 29.9),
        FrameCase(loader: .radar, time: 0.75), FrameCase(loader: .radar, time: 2.2),
        FrameCase(loader: .spinner, time: 1.2), FrameCase(loader: .spinner, time: 3.33),
        FrameCase(loader: .orbit, time: 1.0), FrameCase(loader: .orbit, time: 2.5),
    ]
    + LoaderKind.allCases.map {
        FrameCase(
            loader: $0, time: 1.7, width: 200, height: 160, scale: 0.6, rotation: .degrees270,
            color: Color(rgb: 0x0A84FF), background: Color(rgb: 0x1C1C1E))
    }

@Suite struct GoldenTests {
    @Test(arguments: goldenCases)
    func goldenFrame(_ base: FrameCase) {
        var rgb: [PixelFormat: [UInt8]] = [:]
        for format in PixelFormat.allCases {
            var c = base
            c.format = format
            rgb[format] = c.ours()
        }
        let name = goldenName(base)
        for format in [PixelFormat.xbgr8888, .argb8888, .rgb888] {
            #expect(rgb[format]! == rgb[.xrgb8888]!, "\(format) differs from xrgb8888 (\(name))")
        }
        #expect(rgb[.bgr565]! == rgb[.rgb565]!, "bgr565 differs from rgb565 (\(name))")
        // Every golden is also an oracle case, so no golden records a wrong frame.
        checkAgainstReference(base)
        var base565 = base
        base565.format = .rgb565
        checkAgainstReference(base565)
        assertGolden(
            name: name + "_8888", rgb: rgb[.xrgb8888]!, width: base.width, height: base.height)
        assertGolden(
            name: name + "_565", rgb: rgb[.rgb565]!, width: base.width, height: base.height)
    }

    func goldenName(_ c: FrameCase) -> String {
        var s =
            "\(c.loader)_t" + String(format: "%g", c.time).replacingOccurrences(of: ".", with: "_")
        if c.width != 240 || c.height != 240 || c.scale != 1 || c.rotation != .degrees0
            || c.color != nil
        {
            s += "_styled"
        }
        return s
    }

    /// The golden machinery itself: a picture round-trips through the
    /// record/compare path, and a one-byte change is a mismatch that names
    /// its pictures.
    @Test func goldenCheckDetectsAOneByteChange() throws {
        let dir = (testOutputDirectory() as NSString).appendingPathComponent("golden-selftest")
        try? FileManager.default.removeItem(atPath: dir)
        var rgb = (0..<(7 * 5 * 3)).map { UInt8(truncatingIfNeeded: $0 * 37) }
        let path = (dir as NSString).appendingPathComponent("tiny.png")
        func check() -> GoldenOutcome {
            checkGolden(name: "tiny", rgb: rgb, width: 7, height: 5, directory: dir, record: false)
        }
        #expect(check() == .missing(path: path))
        #expect(
            checkGolden(name: "tiny", rgb: rgb, width: 7, height: 5, directory: dir, record: true)
                == .recorded(path: path))
        #expect(check() == .matched)
        rgb[40] ^= 1
        guard case .mismatch(let message) = check() else {
            Issue.record("a one-byte change was not caught")
            return
        }
        #expect(message.contains("tiny_err.png"))
        #expect(
            FileManager.default.fileExists(
                atPath: (testOutputDirectory() as NSString)
                    .appendingPathComponent("tiny_err.png")))
    }
}
