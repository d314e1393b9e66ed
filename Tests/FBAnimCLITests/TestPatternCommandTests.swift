import Foundation
import Testing
import _FBTestSupport

/// `fbanim render testpattern` and `fbanim testpattern`, on the built
/// binary: the labelled picture in four rotations and two formats, played
/// like a loader on a simulated display.
@Suite struct TestPatternCommandTests {
    /// The picture at `rotation` in `format`, decoded from the PNG fbanim wrote.
    func render(_ size: String, rotation: Int, format: String, time: String = "0.25") throws
        -> RGBImage
    {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let result = try Fbanim.run([
            "render", "testpattern", "--size", size, "--time", time, "--rotate", "\(rotation)",
            "--format", format, "--output", dir.file("tp.png"),
        ])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return try decodePNG(try #require(dir.read("tp.png")))
    }

    func pixel(_ image: RGBImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 3
        return Array(image.rgb[i..<i + 3])
    }

    /// R G B W from the picture's left (drawn in BGR formats too), and every
    /// white pixel outside the bars (arrow, TOP, the text) at the edge the
    /// picture's top went to: `--rotate 90` puts it at the right edge.
    @Test(arguments: [0, 90, 180, 270], ["xrgb8888", "bgr565"])
    func topGoesWhereTheRotationSays(rotation: Int, format: String) throws {
        let (w, h) = (320, 240)
        let image = try render("\(w)x\(h)", rotation: rotation, format: format)
        #expect(image.width == w && image.height == h)
        let turned = rotation == 90 || rotation == 270
        var white: [(Int, Int)] = []
        for y in 0..<h {
            for x in 0..<w {
                let inBars = turned ? (x >= w / 3 && x < 2 * w / 3) : (y >= h / 3 && y < 2 * h / 3)
                if !inBars && pixel(image, x, y) == [255, 255, 255] { white.append((x, y)) }
            }
        }
        #expect(white.count > 300, "arrow, TOP and the text are drawn")
        let atTheEdge: Bool
        switch rotation {
        case 0: atTheEdge = white.allSatisfy { $0.1 < h / 3 }
        case 90: atTheEdge = white.allSatisfy { $0.0 >= 2 * w / 3 }
        case 180: atTheEdge = white.allSatisfy { $0.1 >= 2 * h / 3 }
        default: atTheEdge = white.allSatisfy { $0.0 < w / 3 }
        }
        #expect(atTheEdge, "rotate \(rotation): white outside its third")
        // The bars, at a fifth of the way into the middle third (clear of the labels).
        let colours: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]
        for (i, colour) in colours.enumerated() {
            let along = (Double(i) + 0.5) / 4
            let (x, y): (Double, Double)
            switch rotation {
            case 0: (x, y) = (along, 0.4)
            case 90: (x, y) = (0.6, along)
            case 180: (x, y) = (1 - along, 0.6)
            default: (x, y) = (0.4, 1 - along)
            }
            #expect(pixel(image, Int(x * Double(w)), Int(y * Double(h))) == colour, "bar \(i)")
        }
    }

    /// The labels are black glyphs on their bars; the bar at t = 0.25 is yellow at x = W/4.
    @Test func labelsAndTheMovingBar() throws {
        let image = try render("480x320", rotation: 0, format: "rgb565", time: "0.25")
        for bar in 0..<4 {
            var black = 0
            for y in 160..<213 {
                for x in (bar * 120)..<(bar * 120 + 120) where pixel(image, x, y) == [0, 0, 0] {
                    black += 1
                }
            }
            #expect(black > 40, "bar \(bar)'s label")
        }
        #expect(
            pixel(image, 120, 300) == [255, 255, 0] && pixel(image, 149, 300) == [255, 255, 0])
        #expect(pixel(image, 119, 300) == [0, 0, 0] && pixel(image, 150, 300) == [0, 0, 0])
    }

    @Test func playsLikeALoader() throws {
        let result = try Fbanim.run([
            "testpattern", "--device", "sim:240x240:bgr565?clock=virtual", "--frames", "30",
            "--rotate", "90", "--stats", "json",
        ])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let stats = try PlayStats(stdout: result.stdout)
        #expect(try stats.presented == 30, "the bar moves every frame: \(stats)")
        #expect(stats.object["loader"] as? String == "testpattern")
        // A board gives the device and rate, not its look.
        let board = try Fbanim.run(
            [
                "testpattern", "--board", repositoryRoot + "/boards/pi-spi-ili9341.conf",
                "--device",
                "sim:320x240:rgb565?clock=virtual", "--duration", "1", "--stats", "json",
            ])
        #expect(board.status == 0 && board.stderr.isEmpty, "\(board)")
        #expect(try PlayStats(stdout: board.stdout).fpsTarget == 20)
        let bad = try Fbanim.run(["testpattern", "ring"])
        #expect(bad.status == 64 && bad.stderr.contains("Unexpected argument 'ring'"), "\(bad)")
    }
}
