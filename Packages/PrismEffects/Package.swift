// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PrismEffects",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismEffects", targets: ["PrismEffects"])
    ],
    dependencies: [
        // What Prism's tests share (test clocks among it), for the tests only: PrismEffects
        // itself depends on nothing.
        .package(path: "../../Tools/PrismTestSupport")
    ],
    targets: [
        .target(name: "PrismEffects"),
        .testTarget(
            name: "PrismEffectsTests",
            dependencies: ["PrismEffects", .product(name: "PrismTestSupport", package: "PrismTestSupport")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
