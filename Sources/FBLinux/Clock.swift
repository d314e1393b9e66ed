import Glibc

/// `CLOCK_MONOTONIC` in nanoseconds: never jumps with the wall clock.
package func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    // Cannot fail for CLOCK_MONOTONIC with a valid pointer (EINVAL/EFAULT are bugs).
    let rc = clock_gettime(CLOCK_MONOTONIC, &ts)
    precondition(rc == 0, "clock_gettime(CLOCK_MONOTONIC) failed")
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// This process's CPU time (user + system) in nanoseconds.
package func processCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    let rc = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    precondition(rc == 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed")
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The calling thread's CPU time (user + system) in nanoseconds: the time
/// drawing takes, as the scheduler's books and the virtual clock charge it.
/// The thread's, not the process's: another thread of a program playing a
/// loader (`FBAnim.play`) is no frame's work, and the kernel reads it
/// without summing every thread under the process's lock.
package func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    let rc = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    precondition(rc == 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed")
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
