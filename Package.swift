// swift-tools-version: 6.0
// fbanim: smooth, cheap, correct loaders on small Linux screens.
//
// Layers (arrows point to what a layer may import; docs/ARCHITECTURE.md):
//   fbanim (main.swift) -> FBAnimCLI -> FBAnim -> FBLinux, FBDisplay, FBAnimation
//                          FBAnimCLI -> FBLinux -> CFBLinux -> CDRM
//                                    -> FBImage -> CZlib
//                                    -> FBDisplay -> FBScheduler
//                                    -> FBAnimation -> FBRaster
//   FBText -> FBRaster, CFreeType, CZlib, CFBFontData (text as paths)
// FBRaster, FBAnimation, FBScheduler and FBDisplay are pure Swift: no Glibc,
// no Foundation.
import PackageDescription

let package = Package(
    name: "fbanim",
    products: [
        .executable(name: "fbanim", targets: ["fbanim"]),
        .library(name: "FBRaster", targets: ["FBRaster"]),
        .library(name: "FBAnimation", targets: ["FBAnimation"]),
        .library(name: "FBText", targets: ["FBText"]),
        // Your own loader on a screen: the declarative API, the player,
        // the displays (docs/write-your-own-loader.md).
        .library(name: "FBAnim", targets: ["FBAnim"]),
    ],
    targets: [
        // C libraries from Debian packages (libdrm-dev, zlib1g-dev, libfreetype-dev).
        .systemLibrary(
            name: "CDRM", pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        // Names Swift cannot import (function-like macros), nothing else.
        .target(name: "CFBLinux", dependencies: ["CDRM"]),

        // Pure layers.
        .target(
            name: "FBRaster", exclude: ["ROUNDING.md"],
            swiftSettings: uncheckedExclusivity + directMetadata),
        .target(
            name: "FBAnimation", dependencies: ["FBRaster"],
            swiftSettings: uncheckedExclusivity + directMetadata),
        .target(name: "FBScheduler", swiftSettings: uncheckedExclusivity + directMetadata),
        .target(
            name: "FBDisplay", dependencies: ["FBRaster", "FBScheduler"],
            swiftSettings: uncheckedExclusivity + directMetadata),
        .target(name: "FBImage", dependencies: ["CZlib"], swiftSettings: directMetadata),
        // Pure: the boot's control protocols, progress and command line as data.
        .target(name: "FBBoot", swiftSettings: directMetadata),

        // Text as shapes: TrueType/OpenType through FreeType, PSF console
        // fonts, one line laid out into one Path. CFBFontData holds the
        // built-in font (a DejaVu Sans subset, Scripts/gen-default-font.py).
        .target(name: "CFBFontData", exclude: ["LICENSE", "README.md"]),
        .target(
            name: "FBText", dependencies: ["FBRaster", "CFreeType", "CZlib", "CFBFontData"],
            swiftSettings: directMetadata, linkerSettings: freeTypeStaticLibraries),

        // The only Swift code that calls the OS.
        // It implements the display contract (FBDisplay) for real devices.
        .target(
            name: "FBLinux",
            dependencies: ["CFBLinux", "FBBoot", "FBDisplay", "FBRaster", "FBScheduler"],
            swiftSettings: directMetadata),

        // The library users play their loaders with: the player and display
        // choice fbanim uses, behind `FBAnim.play(_:on:)`.
        .target(
            name: "FBAnim",
            dependencies: ["FBAnimation", "FBDisplay", "FBLinux", "FBRaster", "FBScheduler"],
            swiftSettings: directMetadata),

        .target(
            name: "FBAnimCLI",
            dependencies: [
                "FBAnim", "FBAnimation", "FBBoot", "FBRaster", "FBImage", "FBLinux", "FBScheduler",
                "FBDisplay", "FBText",
            ], swiftSettings: directMetadata),
        // A static executable: the Swift runtime, glibc, libstdc++, libdrm
        // and zlib linked in, so it runs from an initramfs with no libraries
        // beside it. It shows one frame and exits in under 5 ms and peaks at
        // 7.2-8.1 MiB resident playing at 800x480 on the simulated display
        // (Scripts/rss.sh; with the libraries shared: 11.3-12.3 MiB; with the
        // Swift runtime shared too, 13.2 MB for one frame). Its code that a
        // play runs comes first (hotCodeFirst), which keeps about 2.5 MiB of
        // never-run code out of memory.
        .executableTarget(
            name: "fbanim", dependencies: ["FBAnimCLI"], exclude: ["hot-symbols.txt"],
            swiftSettings: directMetadata, linkerSettings: staticExecutable + hotCodeFirst),
        .executableTarget(
            name: "fbanim-bench",
            dependencies: [
                "FBAnimation", "FBRaster", "FBLinux", "FBScheduler", "FBDisplay", "FBText",
                "CAllocationCounter",
            ]),
        // Text layout figures; static like fbanim, so its build checks that
        // FBText and FreeType link into a -static-executable.
        .executableTarget(
            name: "fbtext-bench", dependencies: ["FBText", "FBRaster", "FBLinux"],
            linkerSettings: staticExecutable),
        // Counts mallocs for the benchmark's allocations-per-frame figure.
        .target(name: "CAllocationCounter"),

        // Test support: an independent floating-point reference renderer,
        // a PNG reader for golden images. Never reaches the shipped binary.
        .target(
            name: "_FBTestSupport", dependencies: ["FBRaster", "FBImage", "CZlib", "CFreeType"]),

        .testTarget(name: "FBRasterTests", dependencies: ["FBRaster", "_FBTestSupport"]),
        .testTarget(
            name: "FBAnimationTests",
            dependencies: ["FBAnimation", "FBRaster", "_FBTestSupport"],
            resources: [.copy("Goldens")]),
        .testTarget(name: "FBSchedulerTests", dependencies: ["FBScheduler", "_FBTestSupport"]),
        .testTarget(
            name: "FBDisplayTests",
            dependencies: ["FBDisplay", "FBScheduler", "FBRaster", "FBAnimation", "_FBTestSupport"]),
        .testTarget(
            name: "FBTextTests", dependencies: ["FBText", "FBRaster", "CZlib", "_FBTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "FBImageTests", dependencies: ["FBImage", "_FBTestSupport"]),
        .testTarget(name: "FBBootTests", dependencies: ["FBBoot", "_FBTestSupport"]),
        .testTarget(
            name: "FBLinuxTests",
            dependencies: ["FBLinux", "CFBLinux", "FBRaster", "FBScheduler", "_FBTestSupport"]),
        .testTarget(name: "FBAnimTests", dependencies: ["FBAnim"]),
        .testTarget(
            name: "FBAnimCLITests",
            dependencies: ["FBAnimCLI", "FBText", "FBRaster", "_FBTestSupport"]),
    ]
)

/// Release builds reach the metadata of a generic type used at one
/// concrete type (a `Dictionary` of our keys, a loader's content types,
/// the option table's) through its accessor, with the conformances its
/// requirements need passed in, instead of by demangling its name at run
/// time: each such name checked its requirements by scanning every
/// protocol conformance in the binary (about 2,000), 31 scans and 1.4M
/// instructions in an orbit's run (callgrind), paid again by every process
/// at start-up. The accessors add 5 KB of code.
var directMetadata: [SwiftSetting] {
    [
        .unsafeFlags(
            ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
            .when(configuration: .release))
    ]
}

/// Release builds of the layers a frame runs through leave out the
/// run-time exclusivity checks (`swift_beginAccess` on each access to a
/// class's stored property that the compiler cannot prove alone): 99,000 of
/// them in 600 spinner frames, 7-8 % of the orbit's and the ring's
/// instructions and 4 % of the spinner's (callgrind). The compile-time
/// checks stay, and debug builds (every `swift test` run) keep the run-time
/// ones, so an overlapping access still fails a test.
var uncheckedExclusivity: [SwiftSetting] {
    [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
}

/// `-static-executable`, except in Scripts/sanitize.sh's build
/// (FBANIM_SANITIZE=1): AddressSanitizer's runtime does not link statically.
var staticExecutable: [LinkerSetting] {
    Context.environment["FBANIM_SANITIZE"] == "1" ? [] : [.unsafeFlags(["-static-executable"])]
}

/// The functions a play runs, linked first and in the order they first run
/// (Sources/fbanim/hot-symbols.txt, written by `Scripts/rss.sh --order`
/// from traces of the four loaders). The kernel maps a file's pages 64 KiB
/// at a time around each one touched ("fault-around"; MADV_RANDOM does not
/// turn it off), so in the default layout the 1.2-1.7 MiB of code a play
/// runs kept 5.3 MiB of the 7.6 MiB of code resident. Needs lld (the
/// toolchain's; gold orders sections by name only, and libc's are all
/// `.text`). A symbol missing from the file costs only its place in the
/// order, never a failed link.
var hotCodeFirst: [LinkerSetting] {
    // Scripts/sanitize.sh's build (not static) keeps the default layout.
    guard Context.environment["FBANIM_SANITIZE"] != "1" else { return [] }
    let order = Context.packageDirectory + "/Sources/fbanim/hot-symbols.txt"
    return [
        .unsafeFlags([
            "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=" + order,
            "-Xlinker", "--no-warn-symbol-ordering",
        ])
    ]
}

/// What libfreetype.a needs besides itself (`pkg-config --static --libs
/// freetype2`: libpng for PNG glyphs, Brotli for WOFF2, zlib, libm) in a
/// `-static-executable` link. Set on FBText, so every executable that links
/// it (fbanim through its CLI, fbtext-bench) needs nothing more; checked by
/// leaving each out: without png16 28 png_* symbols are missing, without m
/// pow, without brotlidec/brotlicommon BrotliDecoderDecompress and its
/// helpers (z also comes with CZlib). A shared link finds them through
/// libfreetype.so and takes these too, unused.
var freeTypeStaticLibraries: [LinkerSetting] {
    ["png16", "z", "m", "brotlidec", "brotlicommon"].map { .linkedLibrary($0) }
}

// The fuzz targets exist only for Scripts/fuzz.sh (libFuzzer provides
// their main function; a plain build could not link them).
if Context.environment["FBANIM_FUZZ"] == "1" {
    package.targets += [
        .executableTarget(
            name: "psf-fuzz", dependencies: ["FBText", "FBRaster"], path: "Fuzz/PSF",
            exclude: ["seeds.py"]),
        .executableTarget(
            name: "psplash-fuzz", dependencies: ["FBBoot"], path: "Fuzz/Psplash",
            exclude: ["corpus"]),
        .executableTarget(
            name: "plymouth-fuzz", dependencies: ["FBBoot"], path: "Fuzz/Plymouth",
            exclude: ["corpus"]),
        .executableTarget(
            name: "cmdline-fuzz", dependencies: ["FBBoot"], path: "Fuzz/CommandLine",
            exclude: ["corpus"]),
        .executableTarget(
            name: "profile-fuzz", dependencies: ["FBAnimCLI"], path: "Fuzz/Profile",
            exclude: ["corpus"]),
        .executableTarget(
            name: "device-fuzz", dependencies: ["FBDisplay", "FBRaster"], path: "Fuzz/Device",
            exclude: ["corpus"]),
        .executableTarget(
            name: "argv-fuzz", dependencies: ["FBAnimCLI"], path: "Fuzz/Argv",
            exclude: ["corpus"]),
    ]
}
