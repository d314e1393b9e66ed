// Start-up before the kernel's random pool is ready.
//
// The Swift runtime seeds Hasher in a global constructor, before main: it
// calls getrandom(NULL, 0, 0) and then getrandom(buf, 8, 0) twice, which
// block until the kernel's pool is initialised. Early in a boot, where a
// splash runs, that can be seconds away on a board without a hardware
// generator (in the VM of Tests/VM, 1.0 s at 2.4 s of uptime): no frame
// would show until then. The runtime reads SWIFT_DETERMINISTIC_HASHING
// (seed 0, no getrandom) when it seeds; so when a non-blocking read says
// the pool is not ready, this constructor sets it.
//
// Only a static executable (fbanim: Package.swift links it with
// -static-executable, against glibc) can do this: there, priority 101 runs
// the constructor before every constructor of default priority, the
// runtime's among them (linkers order .init_array entries by priority
// before those without one). A dynamically linked program (the ASan build,
// a program built on the library) runs libswiftCore.so's constructors
// before its own, so its seed is made, and waited for, before this could
// act: the constructor leaves such a program alone.
//
// Setting a variable moves `environ` off the process's first stack, where
// the runtime's own constructor looks for argv (it walks back from
// `environ`): CommandLine.arguments would come out empty. So the
// constructor hands the runtime argv itself, on every run (one path for
// the command line whether the pool is ready or not), through the override
// the runtime keeps for that (`_swift_stdlib_overrideUnsafeArgvArgc`, which
// CommandLine.arguments reads before anything else). glibc calls
// .init_array functions with main's argc, argv and envp; other C libraries
// need not, so elsewhere the constructor does nothing.
//
// fbanim's hashed keys are its own shapes and settings, so a fixed seed
// costs nothing but the defence against crafted collisions, and only on
// runs that start before the pool is ready.
#define _GNU_SOURCE
#include "CFBLinux.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/random.h>

__attribute__((swiftcall)) extern void _swift_stdlib_overrideUnsafeArgvArgc(
    char **argv, int argc);

static int fbl_hashing_was_fixed;

__attribute__((constructor(101))) static void fbl_entropy_check(
    int argc, char **argv, char **envp) {
    (void)envp;
#if defined(__GLIBC__)
    // A dynamic loader ran (AT_BASE is where it sits): the runtime has
    // seeded already (see above).
    if (getauxval(AT_BASE) != 0 || argv == NULL) return;
    _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
    unsigned char byte;
    if (getrandom(&byte, 1, GRND_NONBLOCK) != -1 || errno != EAGAIN) return;
    if (getenv("SWIFT_DETERMINISTIC_HASHING") != NULL) return;
    if (setenv("SWIFT_DETERMINISTIC_HASHING", "1", 0) == 0) fbl_hashing_was_fixed = 1;
#else
    (void)argc, (void)argv;
#endif
}

int fbl_hashing_fixed_for_start(void) {
    // The runtime has read its environment by now (before main): what it
    // was told is not passed on to children.
    if (fbl_hashing_was_fixed) unsetenv("SWIFT_DETERMINISTIC_HASHING");
    return fbl_hashing_was_fixed;
}
