// swift-tools-version: 6.0
// fbanim: smooth, cheap, correct loaders on small Linux screens.
//
// Layers (arrows point to what a layer may import; docs/ARCHITECTURE.md):
//   fbanim (main.swift) -> FBAnimCLI -> FBLinux -> CFBLinux -> CDRM
//                                    -> FBImage -> CZlib
//                                    -> FBDisplay -> FBScheduler
//                                    -> FBAnimation -> FBRaster
// FBRaster, FBAnimation, FBScheduler and FBDisplay are pure Swift: no Glibc,
// no Foundation.
import PackageDescription

let package = Package(
    name: "fbanim",
    products: [
        .executable(name: "fbanim", targets: ["fbanim"]),
        .library(name: "FBRaster", targets: ["FBRaster"]),
        .library(name: "FBAnimation", targets: ["FBAnimation"]),
    ],
    targets: [
        // C libraries from Debian packages (libdrm-dev, zlib1g-dev).
        .systemLibrary(
            name: "CDRM", pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // Names Swift cannot import (function-like macros), nothing else.
        .target(name: "CFBLinux", dependencies: ["CDRM"]),

        // Pure layers.
        .target(name: "FBRaster", exclude: ["ROUNDING.md"]),
        .target(name: "FBAnimation", dependencies: ["FBRaster"]),
        .target(name: "FBScheduler"),
        .target(name: "FBDisplay", dependencies: ["FBRaster", "FBScheduler"]),
        .target(name: "FBImage", dependencies: ["CZlib"]),
        // Pure: the boot's control protocols, progress and command line as data.
        .target(name: "FBBoot"),

        // The only Swift code that calls the OS.
        // It implements the display contract (FBDisplay) for real devices.
        .target(
            name: "FBLinux",
            dependencies: ["CFBLinux", "FBBoot", "FBDisplay", "FBRaster", "FBScheduler"]),

        .target(
            name: "FBAnimCLI",
            dependencies: [
                "FBAnimation", "FBBoot", "FBRaster", "FBImage", "FBLinux", "FBScheduler",
                "FBDisplay",
            ]),
        // A static executable: the Swift runtime, glibc, libstdc++, libdrm
        // and zlib linked in, so it runs from an initramfs with no libraries
        // beside it. It shows one frame and exits in under 5 ms and peaks at
        // 9.3-9.7 MiB resident playing at 800x480 on the simulated display
        // (with the libraries shared: 11.3-12.3 MiB; with the Swift runtime
        // shared too, 13.2 MB for one frame).
        .executableTarget(
            name: "fbanim", dependencies: ["FBAnimCLI"],
            linkerSettings: [.unsafeFlags(["-static-executable"])]),
        .executableTarget(
            name: "fbanim-bench",
            dependencies: [
                "FBAnimation", "FBRaster", "FBLinux", "FBScheduler", "FBDisplay",
                "CAllocationCounter",
            ]),
        // Counts mallocs for the benchmark's allocations-per-frame figure.
        .target(name: "CAllocationCounter"),

        // Test support: an independent floating-point reference renderer,
        // a PNG reader for golden images. Never reaches the shipped binary.
        .target(name: "_FBTestSupport", dependencies: ["FBRaster", "FBImage", "CZlib"]),

        .testTarget(name: "FBRasterTests", dependencies: ["FBRaster", "_FBTestSupport"]),
        .testTarget(
            name: "FBAnimationTests",
            dependencies: ["FBAnimation", "FBRaster", "_FBTestSupport"],
            resources: [.copy("Goldens")]),
        .testTarget(name: "FBSchedulerTests", dependencies: ["FBScheduler", "_FBTestSupport"]),
        .testTarget(
            name: "FBDisplayTests",
            dependencies: ["FBDisplay", "FBScheduler", "FBRaster", "FBAnimation", "_FBTestSupport"]),
        .testTarget(name: "FBImageTests", dependencies: ["FBImage", "_FBTestSupport"]),
        .testTarget(name: "FBBootTests", dependencies: ["FBBoot", "_FBTestSupport"]),
        .testTarget(
            name: "FBLinuxTests",
            dependencies: ["FBLinux", "CFBLinux", "FBRaster", "_FBTestSupport"]),
        .testTarget(
            name: "FBAnimCLITests", dependencies: ["FBAnimCLI", "_FBTestSupport"]),
    ]
)
