#include "CAllocationCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

// glibc's allocator under its internal names; the public names below are
// found first by the dynamic linker (the executable precedes libc), so every
// library's allocations pass through here.
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_ulong allocations;

unsigned long fbl_allocation_count(void) { return atomic_load(&allocations); }

void *malloc(size_t n) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return __libc_malloc(n);
}

void *calloc(size_t count, size_t size) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return __libc_calloc(count, size);
}

void *realloc(void *p, size_t n) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return __libc_realloc(p, n);
}

void *aligned_alloc(size_t alignment, size_t n) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return __libc_memalign(alignment, n);
}

void *memalign(size_t alignment, size_t n) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return __libc_memalign(alignment, n);
}

int posix_memalign(void **out, size_t alignment, size_t n) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    void *p = __libc_memalign(alignment, n);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}
