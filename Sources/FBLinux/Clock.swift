import Glibc

/// `CLOCK_MONOTONIC` in nanoseconds: never jumps with the wall clock.
public func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    // Cannot fail for CLOCK_MONOTONIC with a valid pointer (EINVAL/EFAULT are bugs).
    let rc = clock_gettime(CLOCK_MONOTONIC, &ts)
    precondition(rc == 0, "clock_gettime(CLOCK_MONOTONIC) failed")
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// This process's CPU time (user + system) in nanoseconds.
public func processCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    let rc = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    precondition(rc == 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed")
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// One line naming the machine: kernel, architecture, CPU model and count.
public func machineDescription() -> String {
    var names = utsname()
    _ = uname(&names)
    var model = "unknown CPU"
    if let file = fopen("/proc/cpuinfo", "r") {
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(
                decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) },
                as: UTF8.self)
            if text.hasPrefix("model name") || text.hasPrefix("Model"),
                let colon = text.firstIndex(of: ":")
            {
                model = text[text.index(after: colon)...].trimmedSpaces
                break
            }
        }
    }
    let cpus = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    return
        "\(cString(names.sysname)) \(cString(names.release)) \(cString(names.machine)), \(model), \(cpus) CPUs"
}

/// Whether something exists at `path` (`stat` succeeds; a dangling link does not).
public func pathExists(_ path: String, system: SystemCalls = LinuxSystemCalls.shared) -> Bool {
    system.exists(path)
}
