import FBScheduler

/// The books of a run as `--stats` prints them.
struct Statistics {
    let books: Books
    let loader: String
    let device: String
    /// Nanoseconds the books cover.
    let elapsed: UInt64

    /// The books of a finished run.
    init(books: Books, loader: String, device: String) {
        self.init(books: books, loader: loader, device: device, elapsed: books.elapsed)
    }

    private init(books: Books, loader: String, device: String, elapsed: UInt64) {
        self.books = books
        self.loader = loader
        self.device = device
        self.elapsed = elapsed
    }

    /// The books of a run still going (SIGUSR1). The scheduler sets
    /// `books.elapsed` only when the run ends, so the time is that of the
    /// slots accounted so far (as the scheduler counts it at the end).
    static func running(books: Books, loader: String, device: String) -> Statistics {
        Statistics(
            books: books, loader: loader, device: device,
            elapsed: UInt64(books.slots) * 1_000_000_000 / UInt64(books.fps))
    }

    /// New frames presented: one display present each. A slot in which
    /// nothing changed got no new frame: spec/cli.md counts it dropped
    /// (`frames_unchanged` says how many of the dropped ones those are), so
    /// presents never add up to more than the display could do.
    private var presented: Int { books.framesDrawn }
    private var dropped: Int { books.dropped + books.unchanged }

    /// Frames presented per second of `elapsed` (0 for an empty run).
    private var achievedFPS: Double {
        elapsed == 0 ? 0 : Double(presented) / (Double(elapsed) / 1e9)
    }

    private func ms(_ ns: UInt64) -> String { decimal(Double(ns) / 1e6, places: 3) }

    /// One JSON object, one line, with the fields `shared/spec/cli.md` names
    /// ("at least" those) and these: `frames_unchanged` (of the dropped
    /// slots, those that kept a picture nothing had changed), `draw_cpu_ms`
    /// (the CPU time drawing and presenting each new frame took: p50, p99,
    /// max) and `draw_cpu_s` (all frames' CPU time), `loader`, `device`.
    var json: String {
        let t = books.frameTimes
        let c = books.drawCPUTimes
        return "{\"frames_presented\":\(presented),\"frames_dropped\":\(dropped),"
            + "\"frames_late\":\(books.late),\"fps_target\":\(books.fps),"
            + "\"fps_achieved\":\(decimal(achievedFPS, places: 3)),"
            + "\"duration_s\":\(decimal(Double(elapsed) / 1e9, places: 3)),"
            + "\"frame_ms\":{\"p50\":\(ms(t.percentile(0.5))),\"p99\":\(ms(t.percentile(0.99))),"
            + "\"max\":\(ms(t.maximum))},\"frames_unchanged\":\(books.unchanged),"
            + "\"draw_cpu_ms\":{\"p50\":\(ms(c.percentile(0.5))),\"p99\":\(ms(c.percentile(0.99))),"
            + "\"max\":\(ms(c.maximum))},"
            + "\"draw_cpu_s\":\(decimal(Double(books.drawCPUTotal) / 1e9, places: 6)),"
            + "\"loader\":\(quoted(loader)),\"device\":\(quoted(device))}\n"
    }

    /// The same for a person.
    var text: String {
        let t = books.frameTimes
        let c = books.drawCPUTimes
        let still = books.unchanged > 0 ? " (\(books.unchanged) unchanged)" : ""
        return """
            fbanim: \(loader) on \(device): \(presented) frames presented, \
            \(dropped) dropped\(still), \(books.late) late in \
            \(decimal(Double(elapsed) / 1e9, places: 2)) s \
            (\(decimal(achievedFPS, places: 1)) of \(books.fps) fps); \
            frame time p50 \(ms(t.percentile(0.5))) ms, p99 \(ms(t.percentile(0.99))) ms, \
            max \(ms(t.maximum)) ms; drawing CPU p50 \(ms(c.percentile(0.5))) ms, \
            max \(ms(c.maximum)) ms, \(decimal(Double(books.drawCPUTotal) / 1e9, places: 3)) s

            """
    }
}

/// `v` with at most `places` decimals, no exponent (JSON and people read it).
func decimal(_ v: Double, places: Int) -> String {
    guard v.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let n = Int64((abs(v) * scale).rounded())
    let whole = n / Int64(scale)
    var fraction = String(n % Int64(scale))
    while fraction.count < places { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let sign = v < 0 && n != 0 ? "-" : ""
    return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
}

/// A JSON string literal.
func quoted(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default:
            if u.value < 0x20 {
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}
