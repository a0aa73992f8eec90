// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
import PackageDescription

let package = Package(
    name: "PrismTesting",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismTesting", targets: ["PrismTesting"])
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../PrismSupport"),
        .package(path: "../PrismStore"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay.git", from: "1.13.1"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump.git", from: "1.7.3"),
        // Dependencies a test overrides per store (clocks, dates, UUIDs, ...). Only its Clocks and Foundation
        // traits: CombineSchedulers (OpenCombine on Linux) stays out of the graph.
        .package(
            url: "https://github.com/pointfreeco/swift-dependencies.git", from: "1.17.1",
            traits: ["Clocks", "Foundation"]),
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
    ],
    targets: [
        .target(
            name: "PrismTesting",
            dependencies: [
                .product(name: "PrismStore", package: "PrismStore"),
                .product(name: "PrismSupport", package: "PrismSupport"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                // Routes reported issues to Swift Testing and XCTest on every platform (on Linux
                // IssueReporting finds them only through this library).
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
                // TestClock and ImmediateClock, re-exported for features that wait.
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(
            name: "PrismTestingTests",
            dependencies: [
                "PrismTesting",
                .product(name: "PrismStore", package: "PrismStore"),
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
                // The `.dependencies` test trait: each case of a parameterized test gets its own
                // dependencies, shared-value storage included.
                .product(name: "DependenciesTestSupport", package: "swift-dependencies"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
