// swift-tools-version: 6.0
// An example of fbanim as a library: a loader of your own (a pulsing logo
// drawn from Bézier paths, and an arc turning around it), played by a
// small executable. Build it with `swift build --package-path Examples`.
import PackageDescription

let package = Package(
    name: "fbanim-examples",
    dependencies: [
        // In your own package: .package(url: "https://.../fbanim.git", from: "...").
        .package(name: "fbanim", path: "..")
    ],
    targets: [
        .target(name: "PulseLoader", dependencies: [.product(name: "FBAnim", package: "fbanim")]),
        .executableTarget(
            name: "pulse",
            dependencies: ["PulseLoader", .product(name: "FBAnim", package: "fbanim")]),
    ]
)
