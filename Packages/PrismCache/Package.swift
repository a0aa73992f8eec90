// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
import PackageDescription

let package = Package(
    name: "PrismCache",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismCache", targets: ["PrismCache"])
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../PrismSupport"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
    ],
    targets: [
        .target(
            name: "PrismCache",
            dependencies: [
                .product(name: "PrismSupport", package: "PrismSupport")
            ]
        ),
        // A command-line tool the tests run as a child process, to be killed while it writes.
        .executableTarget(
            name: "PrismCacheTestHelper",
            dependencies: ["PrismCache"]
        ),
        .testTarget(
            name: "PrismCacheTests",
            dependencies: [
                "PrismCache",
                "PrismCacheTestHelper",
                // Starts a child process without Foundation's Process, off the cooperative pool.
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
