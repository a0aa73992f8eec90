// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
import PackageDescription

let package = Package(
    name: "PrismHTTPTesting",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismHTTPTesting", targets: ["PrismHTTPTesting"])
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../PrismSupport"),
        .package(path: "../PrismHTTP"),
        .package(path: "../PrismGraphQL"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay.git", from: "1.13.1"),
    ],
    targets: [
        // A stub transport for apps' unit tests (no server, no socket).
        .target(
            name: "PrismHTTPTesting",
            dependencies: [
                .product(name: "PrismSupport", package: "PrismSupport"),
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ]
        ),
        .testTarget(
            name: "PrismHTTPTestingTests",
            dependencies: [
                "PrismHTTPTesting",
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                .product(name: "PrismGraphQL", package: "PrismGraphQL"),
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
