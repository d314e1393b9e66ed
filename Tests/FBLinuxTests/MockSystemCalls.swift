import CFBLinux
import FBLinux
import Glibc

/// A kernel in memory for the backends' unit tests: answers the device
/// calls of `SystemCalls` from tables and records each as one line of
/// `trace`, as in `"ioctl FBIOGET_VSCREENINFO"` (swift-system tests its calls
/// this way). The calls it does not fake are the real ones.
final class MockSystemCalls: SystemCalls {
    /// Every call so far, in order.
    var trace: [String] = []
    /// Paths that open, and the errno of those that fail; anything else is ENOENT.
    var devices: Set<String> = []
    var openErrors: [String: Int32] = [:]
    /// Requests (by name) that fail with this errno.
    var ioctlErrors: [String: Int32] = [:]
    /// What a request writes into its argument, by name.
    var ioctlAnswers: [String: (UnsafeMutableRawBufferPointer) -> Void] = [:]
    /// What a request was given, by name (the last call's bytes).
    var ioctlArguments: [String: [UInt8]] = [:]
    /// Whether `pollInput` reports input (and how often it was asked).
    var pollReady = true
    /// Runs at each `pollInput` with its timeout in milliseconds: a test
    /// clock moves on by what the wait would have taken.
    var onPoll: ((Int32) -> Void)?
    /// Live mappings: address -> length. Each is zeroed memory that tests can read.
    private(set) var mappings: [UnsafeMutableRawPointer: Int] = [:]
    /// Each descriptor's last mapping: `pwrite` writes into it. `pwriteError` fails it.
    private var mapped: [Int32: (UnsafeMutableRawPointer, Int)] = [:]
    var pwriteError: Int32?
    private var nextFD: Int32 = 3

    deinit { for (address, _) in mappings { address.deallocate() } }

    func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> FileDescriptor {
        trace.append("open \(path)")
        if let code = openErrors[path] { throw SystemError(errno: code, call: "open") }
        guard devices.contains(path) else { throw SystemError(errno: ENOENT, call: "open") }
        defer { nextFD += 1 }
        return FileDescriptor(rawValue: nextFD)
    }

    func close(_ fd: FileDescriptor) { trace.append("close \(fd.rawValue)") }

    func ioctl<T>(_ fd: FileDescriptor, _ request: UInt, _ name: String, _ argument: inout T)
        throws(SystemError)
    {
        trace.append("ioctl \(name)")
        ioctlArguments[name] = withUnsafeBytes(of: &argument) { Array($0) }
        if let code = ioctlErrors[name] { throw SystemError(errno: code, call: name) }
        if let answer = ioctlAnswers[name] { withUnsafeMutableBytes(of: &argument) { answer($0) } }
    }

    func ioctl(_ fd: FileDescriptor, _ request: UInt, _ name: String, value: Int32)
        throws(SystemError)
    {
        trace.append("ioctl \(name) \(value)")
        if let code = ioctlErrors[name] { throw SystemError(errno: code, call: name) }
    }

    func mmap(_ fd: FileDescriptor, length: Int, offset: Int64) throws(SystemError)
        -> UnsafeMutableRawPointer
    {
        trace.append("mmap \(length) at \(offset)")
        let address = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 16)
        address.initializeMemory(as: UInt8.self, repeating: 0, count: length)
        mappings[address] = length
        mapped[fd.rawValue] = (address, length)
        return address
    }

    func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        trace.append("munmap \(length)")
        precondition(mappings[address] == length, "munmap of something not mapped")
        mappings[address] = nil
        mapped = mapped.filter { $0.value.0 != address }
        address.deallocate()
    }

    func pollInput(_ fd: FileDescriptor, timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        trace.append("poll")
        if !pollReady { onPoll?(timeoutMilliseconds) }
        return pollReady
    }

    func write(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, inherited: Bool)
        throws(SystemError) -> Int
    {
        let text = String(decoding: bytes, as: UTF8.self).replacingEscape()
        trace.append("write \(text)")
        return bytes.count
    }

    func pwrite(_ fd: FileDescriptor, _ bytes: UnsafeRawPointer, count: Int, offset: Int64)
        throws(SystemError)
    {
        trace.append("pwrite \(count) at \(offset)")
        if let pwriteError { throw SystemError(errno: pwriteError, call: "pwrite") }
        guard let (address, length) = mapped[fd.rawValue], offset >= 0,
            Int(offset) + count <= length
        else { throw SystemError(errno: EFBIG, call: "pwrite") }
        (address + Int(offset)).copyMemory(from: bytes, byteCount: count)
    }

    func listDirectory(_ path: String) throws(SystemError) -> [String] {
        let prefix = path + "/"
        return devices.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// The trace since `mark`, and a new mark.
    func calls(since mark: Int) -> [String] { Array(trace[mark...]) }
}

extension String {
    /// ESC spelled `\e`, so traces read like shell.
    fileprivate func replacingEscape() -> String {
        var out = ""
        for c in self { out += c == "\u{1B}" ? "\\e" : String(c) }
        return out
    }
}

/// fbdev screen info as a driver would report it.
enum FakeFramebuffer {
    /// A `fb_var_screeninfo` of `width x height` (virtual height `virtualHeight`) with these channels.
    static func variable(
        width: Int, height: Int, virtualHeight: Int? = nil, bpp: Int,
        red: (Int, Int), green: (Int, Int), blue: (Int, Int), alpha: (Int, Int) = (0, 0)
    ) -> fb_var_screeninfo {
        var v = fb_var_screeninfo()
        v.xres = UInt32(width)
        v.yres = UInt32(height)
        v.xres_virtual = UInt32(width)
        v.yres_virtual = UInt32(virtualHeight ?? height)
        v.bits_per_pixel = UInt32(bpp)
        v.red = fb_bitfield(offset: UInt32(red.0), length: UInt32(red.1), msb_right: 0)
        v.green = fb_bitfield(offset: UInt32(green.0), length: UInt32(green.1), msb_right: 0)
        v.blue = fb_bitfield(offset: UInt32(blue.0), length: UInt32(blue.1), msb_right: 0)
        v.transp = fb_bitfield(offset: UInt32(alpha.0), length: UInt32(alpha.1), msb_right: 0)
        return v
    }

    /// A packed true-colour `fb_fix_screeninfo` named `id`.
    static func fixed(id: String, lineLength: Int, memory: Int) -> fb_fix_screeninfo {
        var f = fb_fix_screeninfo()
        withUnsafeMutableBytes(of: &f.id) { raw in
            for (i, byte) in id.utf8.prefix(15).enumerated() { raw[i] = byte }
        }
        f.type = fbl_FB_TYPE_PACKED_PIXELS
        f.visual = fbl_FB_VISUAL_TRUECOLOR
        f.line_length = UInt32(lineLength)
        f.smem_len = UInt32(memory)
        return f
    }

    /// A mock with `/dev/fb0` answering both screen-info requests.
    static func mock(_ v: fb_var_screeninfo, _ f: fb_fix_screeninfo) -> MockSystemCalls {
        let mock = MockSystemCalls()
        mock.devices = ["/dev/fb0"]
        mock.ioctlAnswers["FBIOGET_VSCREENINFO"] = {
            $0.storeBytes(of: v, as: fb_var_screeninfo.self)
        }
        mock.ioctlAnswers["FBIOGET_FSCREENINFO"] = {
            $0.storeBytes(of: f, as: fb_fix_screeninfo.self)
        }
        return mock
    }
}
