// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
// What Prism's own tests share: locks, gates, waiting for a condition or for a test clock's sleepers, a log
// handler that keeps its lines. Not a product of Prism: the tests of each package depend on it by path.
import PackageDescription

let package = Package(
    name: "PrismTestSupport",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismTestSupport", targets: ["PrismTestSupport"])
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../../Packages/PrismSupport"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
    ],
    targets: [
        .target(
            name: "PrismTestSupport",
            dependencies: [
                .product(name: "PrismSupport", package: "PrismSupport"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
