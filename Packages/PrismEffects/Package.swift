// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
import PackageDescription

let package = Package(
    name: "PrismEffects",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismEffects", targets: ["PrismEffects"])
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../PrismSupport"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
    ],
    targets: [
        .target(
            name: "PrismEffects",
            dependencies: [
                .product(name: "PrismSupport", package: "PrismSupport")
            ]
        ),
        .testTarget(
            name: "PrismEffectsTests",
            dependencies: [
                "PrismEffects",
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
