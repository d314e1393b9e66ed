import Foundation
import Glibc
import Testing

/// `fbanim splash` driven as a boot drives it: the psplash FIFO, Plymouth's
/// protocol (raw bytes and the real `plymouth` client), `fbanim ctl`.
@Suite struct SplashTests {
    static let sim = ["--device", "sim:160x120", "--stats", "json"]

    @Test func fifoAndCtlDriveTheSplashToItsEnd() throws {
        let h = try SplashHarness()
        let child = try h.start(Self.sim)
        var info = stat()
        #expect(lstat(h.fifo, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFIFO)
        #expect(info.st_mode & 0o777 == 0o660)
        try h.write("PROGRESS 40\n")
        try h.write("MSG Updating\0")
        #expect(try h.ctl(["ping"]).0.exitedCleanly)
        #expect(try h.ctl(["progress", "70"]).0.exitedCleanly)
        #expect(try h.ctl(["message", "Scanning..."]).0.exitedCleanly)
        #expect(try h.ctl(["hide-message"]).0.exitedCleanly)
        let began = Date()
        let (quit, quitErr) = try h.ctl(["quit"])
        let took = Date().timeIntervalSince(began)
        #expect(quit.exitedCleanly, "\(quit): \(quitErr)")
        // The ring fills for 0.3 s before the splash goes; ctl returns when it has.
        #expect(took >= 0.28, "quit answered after \(took) s")
        let end = child.wait(timeout: 5)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
        #expect(!FileManager.default.fileExists(atPath: h.fifo), "the FIFO was left behind")
        let stats = try PlayStats(stdout: child.stdout)
        // New frames for the progress and the 0.3 s fill to the end, and no
        // slot dropped but those in which nothing changed.
        #expect(try stats.presented >= 5, "\(stats)")
        #expect(try stats.dropped - stats.unchanged <= 2, "\(stats)")
        #expect(child.stderrLines.allSatisfy { $0.hasPrefix("fbanim: ") }, "\(child.stderr)")
        #expect(!child.stderr.contains("ignored"), "\(child.stderr)")
        // The boot's length was kept for the next boot.
        let history = String(decoding: h.dir.read("state/boot-history") ?? [], as: UTF8.self)
        #expect(history.hasPrefix("fbanim-boot-history 1\nunits 0\nseconds "), "\(history)")
    }

    @Test func quitOnTheFifoEndsIt() throws {
        let h = try SplashHarness()
        let child = try h.start(Self.sim + ["spinner"])
        try h.write("QUIT\n")
        let end = child.wait(timeout: 5)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
        #expect(!FileManager.default.fileExists(atPath: h.fifo))
    }

    @Test func sigtermEndsItAndCleansUp() throws {
        let h = try SplashHarness()
        let child = try h.start(Self.sim)
        child.send(SIGTERM)
        let end = child.wait(timeout: 5)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
        #expect(!FileManager.default.fileExists(atPath: h.fifo))
        #expect(try h.ctl(["ping"]).0.status == 69)
    }

    @Test func plymouthRequestsAsRawBytes() throws {
        let h = try SplashHarness()
        let child = try h.start(Self.sim)
        let fd = try h.connect()
        defer { close(fd) }
        // ping, a unit notice as systemd sends it, system-update 30, a
        // message, a password prompt (NAK: the caller falls back to the
        // console), an unknown command (NAK), then hide-message; in one write.
        let unit = Array("systemd-udevd.service".utf8)
        var bytes: [UInt8] = [0x50, 0]
        bytes += [0x55, 2, UInt8(unit.count + 1)] + unit + [0]
        bytes += [0x75, 2, 3] + Array("30".utf8) + [0]
        bytes += [0x4D, 2, 6] + Array("Hello".utf8) + [0]
        bytes += [0x2A, 2, 5] + Array("Pass".utf8) + [0]
        bytes += [0x7A, 0]
        bytes += [0x6D, 2, 1, 0]
        #expect(exchange(fd, bytes, answers: 7) == [6, 6, 6, 6, 0x15, 0x15, 6])
        // quit --retain-splash: answered once the splash is gone.
        #expect(exchange(fd, [0x51, 2, 2, 1, 0], answers: 1) == [6])
        let end = child.wait(timeout: 5)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
    }

    @Test func ctlExitStatuses() throws {
        let h = try SplashHarness()
        #expect(try h.ctl(["ping"]).0.status == 69)
        #expect(try h.ctl(["progress", "5"]).0.status == 69)
        #expect(try h.ctl(["wait"]).0.exitedCleanly)  // nothing runs: it has exited
        for bad in [
            ["progress", "101"], ["progress", "-1"], ["progress", "4.5"], ["progress"],
            ["frob"], ["message"], ["quit", "now"], ["ping", "--retain"], [],
        ] {
            let (end, err) = try h.ctl(bad)
            #expect(end.status == 64, "\(bad): \(end) \(err)")
            #expect(err.split(separator: "\n").count == 1, "\(bad): \(err)")
        }
    }

    @Test func onlyRootOrTheSplashsUserMayControlIt() throws {
        try #require(getuid() == 0, "needs root to run a client as another user")
        let h = try SplashHarness()
        let child = try h.start(Self.sim)
        let (end, err) = try h.ctl(["ping"], asUser: 65534)
        #expect(end.status == 77, "\(end): \(err)")
        #expect(err.contains("only root"), "\(err)")
        #expect(child.isRunning)
        #expect(try h.ctl(["quit"]).0.exitedCleanly)
        #expect(child.wait(timeout: 5).exitedCleanly)
    }

    @Test func aSecondSplashStandsDown() throws {
        let h = try SplashHarness()
        let first = try h.start(Self.sim)
        let second = try ChildProcess(
            Fbanim.binaryPath, ["splash", "--config", "/nonexistent.conf"] + Self.sim,
            environment: h.environment)
        let end = second.wait(timeout: 10)
        #expect(end.exitedCleanly, "\(end): \(second.stderr)")
        #expect(second.stderr.contains("another splash is running"), "\(second.stderr)")
        #expect(first.isRunning)
        #expect(try h.ctl(["quit"]).0.exitedCleanly)
        #expect(first.wait(timeout: 5).exitedCleanly)
    }

    @Test func waitsForItsDisplayAndTakesCommandsMeanwhile() throws {
        let h = try SplashHarness()
        // A display that never comes: --wait gives up with 66.
        let gives = try ChildProcess(
            Fbanim.binaryPath,
            [
                "splash", "--config", h.dir.file("none.conf"), "--device", "/dev/fb77", "--wait",
                "1",
            ],
            environment: h.environment)
        let end = gives.wait(timeout: 10)
        #expect(end.status == 66, "\(end): \(gives.stderr)")
        #expect(gives.age >= 1)
        #expect(
            gives.stderr.components(separatedBy: "waiting for /dev/fb77").count == 2,
            "\(gives.stderr)")
        // Without --wait it waits, answers, and quits when told.
        let waiting = try h.start(["--device", "fb:no-such-panel"])
        #expect(try h.ctl(["ping"]).0.exitedCleanly)
        #expect(try h.ctl(["progress", "50"]).0.exitedCleanly)
        #expect(try h.ctl(["quit"]).0.exitedCleanly)
        #expect(waiting.wait(timeout: 5).exitedCleanly, "\(waiting.stderr)")
    }

    /// `--duration` and the books at exit cover the whole run, across a
    /// hand-over (deactivate, reactivate), not only the stretch after it.
    @Test func booksCoverTheWholeRunAcrossAHandOver() throws {
        let h = try SplashHarness()
        let child = try h.start([
            "--device", "sim:160x120", "--stats", "json", "--duration", "3", "spinner",
        ])
        usleep(1_200_000)
        #expect(try h.ctl(["deactivate"]).0.exitedCleanly)
        usleep(300_000)
        #expect(try h.ctl(["reactivate"]).0.exitedCleanly)
        let end = child.wait(timeout: 20)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
        let stats = try PlayStats(stdout: child.stdout)
        // Three seconds of play in two stretches (the hand-over's time is not play).
        #expect(try abs(stats.duration - 3) < 0.1, "\(stats)")
        #expect(try abs(stats.presented + stats.dropped - 90) <= 1, "\(stats)")
    }

    /// Debian's `plymouth` client (package plymouth) talks to fbanim unchanged.
    @Test func theRealPlymouthClient() throws {
        let plymouth = "/usr/bin/plymouth"
        try #require(
            FileManager.default.isExecutableFile(atPath: plymouth),
            "the plymouth client is missing: Scripts/setup.sh installs the plymouth package")
        let h = try SplashHarness(realSocket: true)
        let child = try h.start(Self.sim)
        func run(_ arguments: [String]) throws -> Termination {
            try ChildProcess(plymouth, arguments, environment: h.environment).wait(timeout: 10)
        }
        #expect(try run(["--ping"]).exitedCleanly)
        #expect(try run(["message", "--text=Hello there"]).exitedCleanly)
        #expect(try run(["system-update", "--progress=30"]).exitedCleanly)
        #expect(try run(["deactivate"]).exitedCleanly)
        #expect(try run(["reactivate"]).exitedCleanly)
        // A password prompt is refused: the caller falls back to the console.
        #expect(try run(["ask-for-password", "--prompt=x"]).status != 0)
        #expect(try run(["quit", "--retain-splash"]).exitedCleanly)
        let end = child.wait(timeout: 5)
        #expect(end.exitedCleanly, "\(end): \(child.stderr)")
        #expect(try run(["--ping"]).status != 0)
    }

    /// Garbage on every channel at once: the splash answers or ignores it,
    /// logs a bounded number of lines, and keeps its frame rate: it drops
    /// no more frames than a twin splash started beside it and left alone
    /// (so the machine's own load does not count).
    @Test func garbageOnEveryChannelNeverSlowsTheSplash() throws {
        var rng = SystemRandomNumberGenerator()
        let random = (0..<1_000_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        // Garbage from root that happens to spell quit, deactivate or hide is
        // obeyed, as plymouthd would: those bytes are left out.
        let junk = (0..<300).map { _ in
            (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }
                .filter { !"QDHRr$".utf8.contains($0) }
        }
        let h = try SplashHarness()
        let twin = try SplashHarness()
        let arguments = Self.sim + ["--fps", "30", "spinner"]
        let child = try h.start(arguments)
        let quiet = try twin.start(arguments)
        try h.write(random)
        try h.write([UInt8](repeating: 0, count: 1_000_000))
        try h.write(
            "PROGRESS 1e99\0PROGRESS -0\0MSG \u{202E}abc\u{0301}\0"
                + String(repeating: "x", count: 10_000) + "\n")
        try h.write([0x4D, 0x53, 0x47, 0x20, 0xFF, 0xFE, 0xC0, 0x00])
        // Clients: one that never writes, one that writes a byte at a time,
        // and 300 that send garbage and leave.
        let silent = try h.connect()
        defer { close(silent) }
        let slow = try h.connect()
        defer { close(slow) }
        for bytes in junk {
            let fd = try h.connect()
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(fd)
        }
        for byte in [UInt8]([0x50, 0, 0x4D, 2, 3, 0x68, 0x69, 0]) {
            _ = [byte].withUnsafeBytes { send(slow, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
            usleep(100_000)
        }
        #expect(exchange(slow, [], answers: 2) == [6, 6], "the slow client got no answers")
        #expect(try h.ctl(["quit"]).0.exitedCleanly)
        #expect(try twin.ctl(["quit"]).0.exitedCleanly)
        let end = child.wait(timeout: 10)
        #expect(end.exitedCleanly, "\(end): \(child.stderr.suffix(500))")
        #expect(quiet.wait(timeout: 10).exitedCleanly)
        let stats = try PlayStats(stdout: child.stdout)
        let calm = try PlayStats(stdout: quiet.stdout)
        let slots = try stats.presented + stats.dropped
        #expect(slots > 30, "\(stats)")
        #expect(
            try stats.dropped <= calm.dropped + 3 + slots / 50,
            "fed garbage: \(stats); left alone: \(calm)")
        #expect(child.stderrLines.count <= 60, "\(child.stderrLines.count) log lines")
        #expect(child.stderrLines.allSatisfy { $0.hasPrefix("fbanim: ") && $0.utf8.count < 400 })
    }
}

/// Cases the review found: frames that never wait, connections that try to
/// lock root out, what a killed splash leaves behind, the boot's clock.
@Suite struct SplashRobustnessTests {
    /// Flips that set the pace (refresh = fps) or slow transfers: the
    /// scheduler never sleeps on the event loop, the channels are served anyway.
    @Test(arguments: ["sim:160x120?refresh=30", "sim:160x120?present_ms=40"])
    func channelsAreServedWhenFramesNeverWait(_ device: String) throws {
        let h = try SplashHarness()
        let child = try h.start(["--device", device, "--fps", "30", "spinner"])
        let began = Date()
        #expect(try h.ctl(["ping"]).0.exitedCleanly)
        #expect(Date().timeIntervalSince(began) < 2)
        try h.write("QUIT\n")
        #expect(child.wait(timeout: 5).exitedCleanly, "\(child.stderr)")
    }

    @Test func connectionsFromOtherUsersCannotLockRootOut() throws {
        try #require(getuid() == 0, "needs root to connect as another user")
        let h = try SplashHarness()
        let child = try h.start(SplashTests.sim)
        // 600 connections held open by nobody (more than the 512 places).
        let holder = try ChildProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "python3", "-c",
                """
                import socket, sys, time
                held = []
                for i in range(600):
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    s.connect(b"\\0" + sys.argv[1].encode())
                    held.append(s)
                print("holding", flush=True)
                time.sleep(30)
                """, h.socket,
            ])
        #expect(
            holder.waitUntil(timeout: 20) { holder.stdout.contains("holding") || !holder.isRunning }
        )
        #expect(try h.ctl(["ping"]).0.exitedCleanly, "root was locked out")
        #expect(child.isRunning)
        #expect(try h.ctl(["quit"]).0.exitedCleanly)
        #expect(child.wait(timeout: 5).exitedCleanly)
        holder.send(SIGKILL)
    }

    @Test func restoreConsoleRemovesAFifoNobodyReads() throws {
        let dir = try OutputDirectory()
        defer { dir.remove() }
        let fifo = dir.file("psplash_fifo")
        #expect(mkfifo(fifo, 0o660) == 0)
        let environment = ["PSPLASH_FIFO_DIR": dir.path]
        // While someone reads it (a splash runs), it stays.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        var run = try ChildProcess(Fbanim.binaryPath, ["restore-console"], environment: environment)
        #expect(run.wait(timeout: 10).exitedCleanly)
        #expect(FileManager.default.fileExists(atPath: fifo))
        close(reader)
        run = try ChildProcess(Fbanim.binaryPath, ["restore-console"], environment: environment)
        #expect(run.wait(timeout: 10).exitedCleanly)
        #expect(
            !FileManager.default.fileExists(atPath: fifo), "an echo into it would block forever")
    }

    /// The history keeps the time since the kernel started, not the time
    /// the splash spent drawing (a splash that waited for its display).
    @Test func theHistoryKeepsTheBootsLength() throws {
        let h = try SplashHarness()
        let child = try h.start(["--device", "fb:no-such-panel"])  // waits, draws nothing
        usleep(1_200_000)
        #expect(try h.ctl(["quit"]).0.exitedCleanly)
        #expect(child.wait(timeout: 5).exitedCleanly)
        let uptime = Double(
            (try String(contentsOfFile: "/proc/uptime", encoding: .utf8)).split(separator: " ")[0])!
        let history = String(decoding: h.dir.read("state/boot-history") ?? [], as: UTF8.self)
        let seconds = history.split(separator: "\n").first { $0.hasPrefix("seconds ") }
            .flatMap { Double($0.dropFirst(8)) }
        let kept = try #require(seconds, "no history: \(history)")
        #expect(abs(kept - min(uptime, 3600)) < 5, "kept \(kept) s, the machine is up \(uptime) s")
    }
}
