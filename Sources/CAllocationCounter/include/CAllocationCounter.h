// Counts heap allocations of the process, for fbanim-bench only: linking
// this target replaces malloc and friends with counting wrappers around
// glibc's own allocator. Never linked into the fbanim binary.
#ifndef CALLOCATIONCOUNTER_H
#define CALLOCATIONCOUNTER_H

/// Allocations (malloc, calloc, realloc, memalign family) so far.
unsigned long fbl_allocation_count(void);

#endif
