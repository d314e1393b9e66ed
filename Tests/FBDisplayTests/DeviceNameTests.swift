import FBRaster
import Testing

@testable import FBDisplay

@Suite struct DeviceNameTests {
    func sim(_ text: String) throws -> SimulatedDisplay.Options {
        guard case let .simulated(options) = try DeviceName.parse(text) else {
            Issue.record("\(text) is not a simulated display")
            return SimulatedDisplay.Options(width: 0, height: 0)
        }
        return options
    }

    @Test func sizeAloneTakesTheDefaults() throws {
        let o = try sim("sim:320x240")
        #expect(o.width == 320)
        #expect(o.height == 240)
        #expect(o.format == .xrgb8888)
        #expect(o.refreshHz == 60)
        #expect(o.presentNanoseconds == 0)
        #expect(o.virtualClock == false)
        #expect(try SimulatedDisplay.Options.parse("sim:320x240") == o)
    }

    @Test func formatAndKeys() throws {
        #expect(try sim("sim:320x240:rgb565").format == .rgb565)
        let o = try sim("sim:800x480:xrgb8888?refresh=30&present_ms=12.5&clock=virtual")
        #expect(o.width == 800 && o.height == 480)
        #expect(o.format == .xrgb8888)
        #expect(o.refreshHz == 30)
        #expect(o.presentNanoseconds == 12_500_000)
        #expect(o.virtualClock)
        // Keys in any order, without a format.
        let p = try sim("sim:10x20?clock=virtual&present_ms=0.001&refresh=1000")
        #expect(
            p.format == .xrgb8888 && p.presentNanoseconds == 1_000 && p.refreshHz == 1000
                && p.virtualClock)
    }

    @Test(arguments: PixelFormat.allCases)
    func everyFormatByName(format: PixelFormat) throws {
        #expect(try sim("sim:64x48:\(format.name)").format == format)
    }

    @Test func sizesAtTheLimits() throws {
        #expect(try sim("sim:1x1").width == 1)
        let big = try sim("sim:8192x8192")
        #expect(big.width == 8192 && big.height == 8192)
    }

    /// Each bad name, and a part of it the error must quote.
    static let badNames: [(String, String)] = [
        ("sim:320", "'320'"), ("sim:axb", "'axb'"), ("sim:320x", "'320x'"), ("sim:x240", "'x240'"),
        ("sim:320x240x3", "'320x240x3'"), ("sim:-1x5", "'-1x5'"), ("sim:+320x240", "'+320x240'"),
        ("sim: 320x240", "' 320x240'"), ("sim:", "size"),
        ("sim:0x0", "'0x0'"), ("sim:9000x10", "'9000x10'"), ("sim:10x8193", "'10x8193'"),
        ("sim:320x240:rgb555", "'rgb555'"), ("sim:320x240:RGB565", "'RGB565'"),
        ("sim:320x240:", "''"),
        ("sim:320x240:rgb565:extra", "extra"),
        ("sim:320x240?speed=2", "'speed'"), ("sim:320x240?Refresh=60", "'Refresh'"),
        ("sim:320x240?refresh=0", "refresh '0'"), ("sim:320x240?refresh=abc", "refresh 'abc'"),
        ("sim:320x240?refresh=30.5", "refresh '30.5'"),
        ("sim:320x240?refresh=1001", "refresh '1001'"),
        ("sim:320x240?refresh=", "refresh ''"),
        ("sim:320x240?present_ms=-1", "present_ms '-1'"),
        ("sim:320x240?present_ms=nan", "present_ms 'nan'"),
        ("sim:320x240?present_ms=inf", "present_ms 'inf'"),
        ("sim:320x240?present_ms=fast", "present_ms 'fast'"),
        ("sim:320x240?present_ms=10001", "present_ms '10001'"),
        ("sim:320x240?clock=other", "clock 'other'"), ("sim:320x240?clock", "clock ''"),
        ("sim:320x240?clock=VIRTUAL", "clock 'VIRTUAL'"),
    ]

    @Test(arguments: badNames)
    func errorsNameTheBadPart(name: String, quoted: String) {
        #expect {
            _ = try DeviceName.parse(name)
        } throws: { error in
            guard let e = error as? DeviceName.ParseError else { return false }
            return e.description.contains(quoted) && !e.description.contains("\n")
        }
    }

    @Test func otherDevices() throws {
        #expect(try DeviceName.parse("term") == .terminal)
        #expect(try DeviceName.parse("/dev/fb0") == .fbdev("/dev/fb0"))
        #expect(try DeviceName.parse("/dev/fb1") == .fbdev("/dev/fb1"))
        #expect(try DeviceName.parse("/dev/dri/card0") == .drm("/dev/dri/card0"))
        #expect(try DeviceName.parse("/dev/dri/card1") == .drm("/dev/dri/card1"))
    }

    @Test(arguments: [
        "", "junk", "fb0", "dev/fb0", "Term", "terminal", "sim", "simulated:320x240", "SIM:320x240",
    ])
    func junkIsRefusedByName(name: String) {
        #expect {
            _ = try DeviceName.parse(name)
        } throws: { error in
            guard let e = error as? DeviceName.ParseError else { return false }
            return e.description.contains("'\(name)'")
        }
    }
}

@Suite struct StableDeviceNameTests {
    @Test func stableNames() throws {
        #expect(try DeviceName.parse("drm:vc4") == .drmDriver("vc4", connector: nil))
        #expect(try DeviceName.parse("drm:vc4:DSI-1") == .drmDriver("vc4", connector: "DSI-1"))
        #expect(
            try DeviceName.parse("drm:panel-mipi-dbi")
                == .drmDriver("panel-mipi-dbi", connector: nil))
        #expect(try DeviceName.parse("fb:fb_ili9340") == .fbID("fb_ili9340"))
        #expect(try DeviceName.parse("fb:BCM2708 FB") == .fbID("BCM2708 FB"))
        #expect(
            try DeviceName.parse("/dev/dri/by-path/platform-gpu-card")
                == .drm("/dev/dri/by-path/platform-gpu-card"))
    }

    @Test func badNames() {
        for bad in [
            "drm:", "drm::DSI-1", "drm:vc4:", "drm:vc4:DSI-1:x", "drm:vc/4", "fb:",
            "fb:" + String(repeating: "x", count: 16), "/dev/fb0\u{0}junk", "/dev/fb\n0",
            "/dev/fb0\r", "/dev/\u{1B}[2J", "/dev/fb0\u{2028}",
            "/" + String(repeating: "a", count: 2000),
        ] {
            #expect(throws: DeviceName.ParseError.self, "\(bad.debugDescription)") {
                try DeviceName.parse(bad)
            }
        }
    }
}

extension DeviceNameTests {
    /// Found by Scripts/fuzz.sh device: a C1 control (U+009B is a terminal's
    /// CSI) or a byte order mark was taken into a name and echoed raw in the
    /// error of an unknown one.
    @Test(arguments: ["\u{80}", "\u{85}", "\u{9B}", "\u{9D}", "\u{FEFF}"])
    func controlCharactersBeyondASCII(character: String) throws {
        for text in ["/dev/fb0" + character, "Aim:800x4" + character, "sim:32x24?" + character] {
            #expect(throws: DeviceName.ParseError.self, "\(text.debugDescription)") {
                try DeviceName.parse(text)
            }
            do {
                _ = try DeviceName.parse(text)
            } catch {
                #expect(
                    !error.description.unicodeScalars.contains {
                        $0.value >= 0x80 && $0.value < 0xA0
                    })
                #expect(!error.description.contains("\u{FEFF}"))
            }
        }
    }
}
