// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
import PackageDescription

let package = Package(
    name: "PrismRouting",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismRouting", targets: ["PrismRouting"])
    ],
    targets: [
        .target(name: "PrismRouting"),
        .testTarget(
            name: "PrismRoutingTests",
            dependencies: ["PrismRouting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
