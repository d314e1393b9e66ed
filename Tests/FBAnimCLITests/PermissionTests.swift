import FBBoot
import Foundation
import Glibc
import Testing

@testable import FBAnimCLI

/// Who may talk to a splash and what it reads (issue 13, "Permissions"):
/// the psplash FIFO is 0660 root:video, Plymouth's socket and `fbanim ctl`
/// answer root (and the splash's own user) only, and a board named on the
/// kernel command line is a plain name looked up in the boards folders only.
/// (`SplashTests.onlyRootOrTheSplashsUserMayControlIt`: ctl as nobody is 77.)
@Suite struct PermissionTests {
    @Test func theFIFOIsRootsAndTheVideoGroups() throws {
        try #require(getuid() == 0, "needs root: the FIFO is given to root:video")
        let video = try #require(getgrnam("video"), "no 'video' group on this machine")
        let h = try SplashHarness()
        let child = try h.start(SplashTests.sim)
        var info = stat()
        #expect(lstat(h.fifo, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFIFO)
        #expect(info.st_mode & 0o7777 == 0o660)
        #expect(info.st_uid == 0)
        #expect(info.st_gid == video.pointee.gr_gid)
        try h.write("QUIT\n")
        #expect(child.wait(timeout: 5).exitedCleanly, "\(child.stderr)")
    }

    /// A Plymouth request from another user gets a NAK, and the splash
    /// does not act on it (it is still running after a quit from nobody).
    @Test func plymouthRequestsFromOtherUsersAreRefused() throws {
        try #require(getuid() == 0, "needs root to connect as another user")
        let h = try SplashHarness()
        let child = try h.start(SplashTests.sim)
        // Q (quit) with no argument, as `plymouth quit` sends it; the answer
        // may come before it is sent (the peer is judged on connecting).
        let client = try ChildProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                """
                import socket, sys
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(b"\\0" + sys.argv[1].encode())
                try:
                    s.sendall(b"Q\\x00")
                except OSError:
                    pass  # refused peers get their NAK and are closed at once
                s.settimeout(5)
                print(s.recv(16).hex(), flush=True)
                """, h.socket,
            ])
        let end = client.wait(timeout: 10)
        #expect(end.exitedCleanly, "\(end): \(client.stderr)")
        // NAK is 0x15.
        #expect(client.stdout.hasPrefix("15"), "\(client.stdout)")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(child.isRunning, "a quit from nobody ended the splash")
        #expect(try h.ctl(["quit"]).0.exitedCleanly)
        #expect(child.wait(timeout: 5).exitedCleanly)
    }

    /// Whatever `fbanim.board=` says, the splash reads only NAME.conf in the
    /// boards folders: never a path, never a file in the current folder.
    @Test(arguments: [
        "mine", "mine.conf", "../mine", "/etc/mine.conf", "sub/mine", "./mine.conf", "..",
        "mine.conf.conf", ".mine",
    ])
    func aKernelBoardIsAPlainNameInTheBoardsFolders(_ value: String) throws {
        var read: [String] = []
        let parsed = try parseCommandLine([][...], for: .splash)
        let request = try SplashRequest(
            parsed, kernel: SplashKernelOptions(KernelCommandLine("fbanim.board=\(value)")),
            readFile: { path in
                read.append(path)
                return .failure(.noInput("no such file '\(path)'"))
            })
        let boards = read.filter { $0 != "/etc/fbanim/fbanim.conf" && !$0.hasSuffix("none.conf") }
        let folders = BoardProfile.searchPaths(for: "x").map { String($0.dropLast("x.conf".count)) }
        for path in boards {
            let folder = String(path[...path.lastIndex(of: "/")!])
            let name = String(path[path.index(after: path.lastIndex(of: "/")!)...])
            #expect(folders.contains(folder), "\(value): read \(path)")
            #expect(
                isPlainName(String(name.dropLast(5))) && name.hasSuffix(".conf"),
                "\(value): \(path)")
        }
        // A plain name (with or without .conf) is looked up; anything else only logged.
        let plain = ["mine", "mine.conf"].contains(value)
        #expect(boards.isEmpty != plain, "\(value): \(boards) \(request.problems)")
        if !plain {
            #expect(
                request.problems.contains { $0.contains("is not a board name") },
                "\(request.problems)")
        }
    }
}
