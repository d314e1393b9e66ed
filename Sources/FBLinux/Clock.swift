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
