import FBAnim
import FBAnimation
import FBDisplay
import FBLinux
import FBRaster
import FBScheduler

/// Plays `request` until it ends (the test pattern instead of its loader
/// when `testPattern`), then restores the display and prints the books.
func play(_ request: PlayRequest, testPattern: Bool = false) throws(CLIError) {
    do {
        try SignalFlags.install()
    } catch {
        throw .ioError("cannot catch signals: \(error)")
    }
    // The font first: a bad one is reported before the screen changes. No
    // message and no --font: no font (FreeType and the built-in face stay
    // out of memory).
    let typesetter =
        request.text.message == nil && request.text.fontPath == nil
        ? nil : try MessageTypesetter(request.text, scale: request.style.scale)
    let (display, fits) = try openDisplay(request)
    if let warning = boardMismatch(request, display.description) {
        StandardStream.error.write(warning)
    }
    let player = LoaderPlayer(
        display: display, loader: request.loader.makeLoader(), style: request.style,
        fitsDisplay: fits && !request.scaleGiven)
    if testPattern {
        player.makePicture = testPatternMaker(
            TestPatternText.playing(display.description, fps: request.fps, style: player.style))
    } else {
        // Cut to the width of the picture as drawn, the panel's turn included.
        player.inputs = request.text.message.flatMap {
            typesetter?.line($0, on: display.description, rotation: player.style.rotation)
        }.map { FixedMessage($0) }
    }
    let loaderName = testPattern ? "testpattern" : request.loader.rawValue
    let name = display.description.name
    let books: Books
    do throws(PlayFailure) {
        let timing = FBAnim.Timing(
            fps: request.fps, frames: request.frames, duration: request.duration)
        books = try run(player, on: display, timing: timing) { scheduler in
            if SignalFlags.takeStatsRequest() {
                let s = Statistics.running(books: scheduler.books, loader: loaderName, device: name)
                // A reader that stopped reading costs these books, never a frame.
                StandardStream.error.writeWithoutBlocking(s.text)
                // On a terminal preview the text landed on the picture.
                (display as? TerminalDisplay)?.repaintEverything()
            }
            return false
        }
    } catch {
        throw .ioError(error.description)
    }
    let statistics = Statistics(books: books, loader: loaderName, device: name)
    switch request.stats {
    case .json?: try writeOutput(statistics.json)
    case .text?: StandardStream.error.write(statistics.text)
    case nil: break
    }
}
