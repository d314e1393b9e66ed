import Testing

@testable import FBBoot

@Suite struct BootProgressTests {
    @Test func withoutHistoryTimeAgainstTwentySecondsCappedAtNinety() {
        var p = BootProgress(history: nil)
        #expect(p.value(at: 0) == 0)
        #expect(p.value(at: 5) == 0.25)
        #expect(p.value(at: 17) == 0.85)
        #expect(p.value(at: 19) == 0.9)
        #expect(p.value(at: 500) == 0.9)
        p.finish()
        #expect(p.value(at: 501) == 1)
    }

    @Test func withHistoryUnitsOrTimeWhicheverIsFurtherCappedAt99() {
        var p = BootProgress(history: BootHistory(units: 40, seconds: 10))
        #expect(p.value(at: 1) == 0.1)
        for _ in 0..<20 { p.unitActive() }
        #expect(p.units == 20)
        #expect(p.value(at: 2) == 0.5)  // units: 20/40 beats time: 2/10
        #expect(p.value(at: 8) == 0.8)  // time: 8/10 beats units
        for _ in 0..<100 { p.unitActive() }
        #expect(p.value(at: 9) == 0.99)
        #expect(p.record(at: 12.25) == BootHistory(units: 120, seconds: 12.25))
    }

    @Test func historyWithoutUnitsGoesByTimeAlone() {
        var p = BootProgress(history: BootHistory(units: 0, seconds: 4))
        p.unitActive()
        #expect(p.value(at: 1) == 0.25)
    }

    @Test func explicitValuesWinAndNothingGoesBackwards() {
        var p = BootProgress(history: nil)
        #expect(p.value(at: 10) == 0.5)
        p.explicit(percent: 30)  // below what is shown: the ring holds
        #expect(p.value(at: 11) == 0.5)
        p.explicit(percent: 70)
        #expect(p.value(at: 11) == 0.7)
        #expect(p.value(at: 19) == 0.7)  // time no longer counts
        p.explicit(percent: 20)
        #expect(p.value(at: 20) == 0.7)
        p.explicit(percent: 100)
        #expect(p.value(at: 20) == 1)
    }

    @Test func anUpdatesProgressIsTheUpdatersAlone() {
        var p = BootProgress(history: nil)
        p.followsTime = false
        #expect(p.value(at: 60) == 0)  // no 90 % from the time since boot
        #expect(!p.changesWithTime(at: 60))
        p.explicit(percent: 12)
        #expect(p.value(at: 61) == 0.12)
    }

    @Test func negativeValuesTurnTheDirection() {
        var p = BootProgress(history: nil)
        p.explicit(percent: -40)
        #expect(p.value(at: 0) == -0.4)
        p.explicit(percent: 10)  // smaller: the magnitude holds, the direction turns
        #expect(p.value(at: 0) == 0.4)
        p.explicit(percent: -0)
        #expect(p.value(at: 0) == 0.4)
        p.explicit(percent: -60)
        p.finish()
        #expect(p.value(at: 1) == -1)
    }

    @Test func historyFileRoundTripsAndRejectsGarbage() {
        let h = BootHistory(units: 87, seconds: 23.4)
        #expect(BootHistory(text: h.text) == h)
        #expect(h.text == "fbanim-boot-history 1\nunits 87\nseconds 23.4\n")
        for bad in [
            "", "garbage", "fbanim-boot-history 2\nunits 1\nseconds 3\n",
            "fbanim-boot-history 1\nunits -1\nseconds 3\n",
            "fbanim-boot-history 1\nunits 1\nseconds nan\n",
            "fbanim-boot-history 1\nunits 1\nseconds 0.1\n",
            "fbanim-boot-history 1\nunits 1\n", "fbanim-boot-history 1\nunits 1 2\nseconds 3\n",
            "fbanim-boot-history 1\nunits 1\nseconds 3\nextra 1\n",
        ] {
            #expect(BootHistory(text: bad) == nil, "\(bad)")
        }
        #expect(BootHistory(units: 5, seconds: .infinity).seconds == 3600)
        #expect(BootHistory(units: -5, seconds: 0).units == 0)
    }
}

@Suite struct KernelCommandLineTests {
    @Test func splitsAsTheKernelDoes() {
        let c = KernelCommandLine(
            "console=ttyS0 quiet splash fbanim.message=\"Hello there\" root=/dev/vda1 splash=silent\n"
        )
        #expect(c.contains("splash"))
        #expect(c.value(of: "splash") == "silent")
        #expect(c.value(of: "fbanim.message") == "Hello there")
        #expect(c.value(of: "root") == "/dev/vda1")
        #expect(c.value(of: "nope") == nil)
        #expect(KernelCommandLine("a=1 a=2").value(of: "a") == "2")
        #expect(KernelCommandLine("").parameters.isEmpty)
    }

    @Test func fbanimKeys() {
        let o = SplashKernelOptions(
            KernelCommandLine("splash fbanim.board=pi-hdmi fbanim.loader=radar fbanim.enable=1"))
        #expect(o.splash && o.enabled && o.board == "pi-hdmi" && o.loader == "radar")
        #expect(o.problems.isEmpty)
        #expect(!SplashKernelOptions(KernelCommandLine("fbanim.enable=0")).enabled)
        #expect(!SplashKernelOptions(KernelCommandLine("fbanim.enable=off")).enabled)
    }

    @Test func badKeysAreLoggedAndIgnored() {
        let o = SplashKernelOptions(
            KernelCommandLine(
                "fbanim.board=../../etc/passwd fbanim.board=/abs fbanim.colour=red fbanim.enable=maybe "
                    + "fbanim.loader= fbanim.board=.hidden"))
        #expect(o.board == nil)
        #expect(o.enabled)
        #expect(o.loader == nil)
        #expect(o.problems.count == 6)
        #expect(o.problems.allSatisfy { $0.hasPrefix("kernel command line: ") })
        #expect(o.problems.contains { $0.contains("unknown key 'fbanim.colour'") })
    }

    @Test func plainNames() {
        for good in ["pi-hdmi", "a", "st7789_240x240", "waveshare35a.v2"] {
            #expect(isPlainName(good))
        }
        for bad in [
            "", ".", "..", "a/b", "../x", ".x", "x y", "é", String(repeating: "a", count: 65),
        ] {
            #expect(!isPlainName(bad), "\(bad)")
        }
    }

    @Test func loggableEscapesControlCharacters() {
        #expect(
            loggable("a\nb\r\u{1B}[1m\u{0}\u{FEFF}\u{85}")
                == "a\\u{a}b\\u{d}\\u{1b}[1m\\u{0}\\u{feff}\\u{85}")
        #expect(loggable(String(repeating: "x", count: 100), limit: 5) == "xxxxx...")
    }
}
