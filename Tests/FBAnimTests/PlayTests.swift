import FBAnim
import Testing

/// A loader as a user writes one, played through the library's entry point.
struct Blink: Loader {
    var mainColor = Color(rgb: 0xFF9500)
    func body(in context: LoaderContext) -> some LoaderContent {
        let blink = Animation.linear(duration: 0.5).repeatForever()
        Circle(radius: 20).fill(mainColor).opacity(blink.value(from: 0.2, to: 1, at: context.time))
    }
}

@Suite struct PlayTests {
    var simulated: SimulatedDisplay.Options {
        var options = SimulatedDisplay.Options(width: 96, height: 64)
        options.virtualClock = true
        return options
    }

    @Test func playsAUserLoaderOnTheSimulatedDisplay() throws {
        let books = try FBAnim.play(Blink(), on: .simulated(simulated), timing: .init(frames: 12))
        #expect(books.presented == 12)
        #expect(books.dropped == 0)
    }

    /// A display handed in is drawn on: the last frame shows the loader.
    @Test func drawsOnADisplayHandedIn() throws {
        let display = SimulatedDisplay(simulated, systemClock: SystemClock())
        try FBAnim.play(Blink(), on: .display(display), timing: .init(frames: 3))
        let frame = display.screen.rgbBytes()
        let centre = (32 * 96 + 48) * 3
        #expect(frame[centre] > 0x30, "the disc's red at the centre")
        #expect(frame[0] == 0, "the background in a corner")
    }

    @Test func badScreensAndTimingsAreOneLineErrors() {
        #expect {
            try FBAnim.play(Blink(), on: .device("/dev/fbanim-no-such"), timing: .init(frames: 1))
        } throws: { error in
            guard case FBAnim.Error.open(let e) = error else { return false }
            return e.kind == .missing && e.description.contains("/dev/fbanim-no-such")
        }
        #expect {
            try FBAnim.play(Blink(), on: .device("sim:0x0"), timing: .init(frames: 1))
        } throws: { error in
            if case FBAnim.Error.badDeviceName = error { return true }
            return false
        }
        #expect {
            try FBAnim.play(Blink(), on: .simulated(simulated), timing: .init(fps: 0))
        } throws: { error in
            if case FBAnim.Error.badTiming = error { return true }
            return false
        }
    }
}

/// A bar as long as the progress it is given: nothing without it.
struct Bar: Loader {
    var mainColor = Color.white
    func body(in context: LoaderContext) -> some LoaderContent {
        if let p = context.progress {
            Rectangle(width: 80 * max(p, 0.01), height: 8).fill(mainColor)
        }
    }
}

@Suite struct PlayProgressTests {
    /// `progress:` is read every slot and reaches the loader: the bar grows
    /// with it, and the last frame shows the last value.
    @Test func progressFromTheCallerReachesTheLoader() throws {
        var options = SimulatedDisplay.Options(width: 96, height: 64)
        options.virtualClock = true
        let display = SimulatedDisplay(options, systemClock: SystemClock())
        var asked = 0
        let books = try FBAnim.play(
            Bar(), on: .display(display), timing: .init(frames: 30),
            progress: {
                asked += 1
                return min(Double(asked) / 20, 1)
            })
        #expect(asked >= 30, "asked \(asked) times for 30 slots")
        // Full at the end: the bar spans 80 of the 96 pixels on the middle row.
        let row = display.screen.rgbBytes()[(32 * 96 * 3)..<(33 * 96 * 3)]
        let lit = stride(from: 0, to: 96, by: 1).filter { row[row.startIndex + $0 * 3] > 0x80 }
        #expect(lit.count >= 78 && lit.count <= 82, "\(lit.count) pixels lit")
        #expect(books.presented - books.unchanged > 15, "a new frame as the bar grew")
    }
}
