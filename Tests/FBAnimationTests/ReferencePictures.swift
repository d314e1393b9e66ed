import FBRaster
import Foundation
import Testing
import _FBTestSupport

/// Writes the reference renderer's frames as PNGs, to look at them by eye:
/// `FBANIM_WRITE_REFERENCE=/tmp/ref swift test --filter ReferencePictures`.
/// Does nothing when the variable is unset.
@Test func writeReferencePictures() throws {
    guard let dir = ProcessInfo.processInfo.environment["FBANIM_WRITE_REFERENCE"] else { return }
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let frames: [(String, Double, Int, Int, Double, Int)] = [
        ("ring", 0.2, 240, 240, 1, 0), ("ring", 0.501, 240, 240, 1, 0),
        ("ring", 7, 240, 240, 1, 0), ("ring", 15.5, 240, 240, 1, 0),
        ("ring", 29.9, 240, 240, 1, 0), ("ring", 7, 320, 240, 1, 90),
        ("radar", 0, 240, 240, 1, 0), ("radar", 0.75, 240, 240, 1, 0),
        ("radar", 1.6, 240, 240, 1, 0), ("radar", 0.75, 320, 240, 1, 90),
        ("spinner", 0, 240, 240, 1, 0), ("spinner", 0.95, 240, 240, 1, 0),
        ("spinner", 3.33, 240, 240, 1, 0), ("spinner", 0.95, 480, 480, 2, 0),
        ("orbit", 0, 240, 240, 1, 0), ("orbit", 1.0, 240, 240, 1, 0),
        ("orbit", 2.5, 240, 240, 1, 0), ("orbit", 1.0, 120, 120, 0.5, 270),
    ]
    for (loader, t, w, h, s, rot) in frames {
        let clock = ContinuousClock()
        var image: RefImage?
        let elapsed = clock.measure {
            image = ReferenceRenderer.render(
                RefParams(loader: loader, width: w, height: h, time: t, scale: s, rotation: rot))
        }
        let name = "\(loader)_t\(t)_\(w)x\(h)_s\(s)_r\(rot).png"
        try writePNG(
            RGBImage(width: w, height: h, rgb: image!.rgb8()),
            to: (dir as NSString).appendingPathComponent(name))
        print("reference \(name): \(elapsed)")
    }
}
