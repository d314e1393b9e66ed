#!/usr/bin/env bash
# Runs tests under AddressSanitizer with LeakSanitizer, and the C code under
# UndefinedBehaviorSanitizer too, in a build folder of its own (.build/asan).
# Swift 6.3 on Linux refuses -sanitize=undefined ("unsupported option
# '-sanitize=undefined' for target 'x86_64-unknown-linux-gnu'"): Swift code
# has its own checks (bounds, overflow and unwraps trap in these debug
# builds); the C targets (CFBLinux, CAllocationCounter, CFBFontData) get
# -fsanitize=undefined through -Xcc, its reports fatal (halt_on_error).
#
#     Scripts/sanitize.sh          the suites CI runs (below)
#     Scripts/sanitize.sh --all    every suite
#     Scripts/sanitize.sh --filter REGEX
#
# fbanim is built with AddressSanitizer too (not static then:
# FBANIM_SANITIZE=1; ASan's runtime does not link into a static
# executable), so the CLI tests run it sanitized: a report there fails the
# test that ran it (its exit status and its stderr).
#
# CI's selection: the parsers of outside input and their command-line
# tests, the boot protocols, the Linux layer, displays, images, fonts, the
# scheduler, and the rasterizer's own memory (kept coverage, polygons).
# Left to --all: the oracle and golden-image suites (the same code paths
# for minutes under ASan) and the tests that time the splash or the
# terminal (ASan makes frames 3-10 times slower: their bounds on dropped
# frames fail). The whole suite took 27.6 minutes on 2 busy cores
# (load 15-20); the selection, a few.
set -euo pipefail
cd "$(dirname "$0")/.."

ci='^(FBBootTests|FBDisplayTests|FBImageTests|FBTextTests|FBSchedulerTests|FBLinuxTests)\.'
ci+='|^FBRasterTests\.(KeptCoverageTests|KeptPathBudgetTests|PolygonCacheTests)'
ci+='|^FBAnimCLITests\.(ParserTests|CommandLineErrorTests|OutputErrorTests|PlayErrorTests'
ci+='|BoardTests|BoardFileKindTests|BoardProfileErrorTests|SplashRequestTests|RenderTests'
ci+='|FontFileTests|HelpTests|ClosedOutputTests|DevicesListingTests)'
case ${1:-} in
"") filter=(--filter "$ci") ;;
--all) filter=() ;;
--filter) [ -n "${2:-}" ] || set -- usage; filter=(--filter "${2:-}") ;;
*) set -- usage ;;
esac
if [ "${1:-}" = usage ]; then
    echo "usage: Scripts/sanitize.sh [--all | --filter REGEX]" >&2
    exit 64
fi

flags=(--build-path .build/asan --sanitize address -Xcc -fsanitize=undefined)
export FBANIM_SANITIZE=1
# Leaks are looked for at exit. Suppressed, by what allocated them: the
# toolchain's libraries (XCTest's runner keeps its suites, Foundation's
# file reading and Process, weak reference side tables) and the splash's
# session, whose objects hold each other (SplashSession, SplashChannels,
# the event loop's callbacks: a cycle freed only by the process's end,
# 0.2-1.3 MB a run; reported to the splash's owners, issue 13).
mkdir -p .build/asan
cat >.build/asan/lsan-suppressions.txt <<'END'
leak:libXCTest.so
leak:libFoundation.so
leak:libFoundationEssentials.so
leak:formWeakReference
leak:SplashSessionC3run
END
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/.build/asan/lsan-suppressions.txt:print_suppressions=0}
# handle_segv=0: the crash guard's own SIGSEGV handler is under test (CrashGuardTests).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:handle_segv=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
start=$SECONDS
status=0
swift build --build-tests "${flags[@]}" >.build/asan/build.log 2>&1 || status=$?
if [ "$status" != 0 ]; then
    grep -v "Cannot export local symbol" .build/asan/build.log >&2
    echo "sanitize: the build failed" >&2
    exit 1
fi
built=$SECONDS
swift test --skip-build "${flags[@]}" --parallel --num-workers 2 "${filter[@]}"
echo "sanitize: built in $((built - start)) s, tested in $((SECONDS - built)) s" >&2
