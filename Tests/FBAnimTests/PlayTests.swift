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
