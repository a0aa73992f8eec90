// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
import PackageDescription

let package = Package(
    name: "PrismInspector",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismInspector", targets: ["PrismInspector"])
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../PrismSupport"),
        .package(path: "../PrismStore"),
        .package(path: "../PrismPersistence"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // Opt-in: a local web page that shows and steers a store. Built on the SwiftNIO modules PrismHTTP
        // already uses, so that it adds no package to anybody's graph (Packages/PrismInspector's DocC says
        // why). The page is plain files, compiled into the module (no bundle to find at run time).
        .target(
            name: "PrismInspector",
            dependencies: [
                "PrismInspectorModel",
                .product(name: "PrismStore", package: "PrismStore"),
                .product(name: "PrismSupport", package: "PrismSupport"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            resources: [
                .embedInCode("Resources/index.html"),
                .embedInCode("Resources/inspector.css"),
                .embedInCode("Resources/inspector.js"),
            ]
        ),
        // How the inspector sees a value (a tree within a budget, secrets redacted, the diff of two), without
        // SwiftNIO: the fuzz targets that feed it strangers' values build without the server
        // (Tools/scripts/fuzz.sh).
        .target(
            name: "PrismInspectorModel",
            dependencies: [
                .product(name: "PrismStore", package: "PrismStore")
            ]
        ),
        // A small app with an inspector attached, driven through standard input: the browser test
        // (Tools/scripts/test-inspector-browser.sh) runs it.
        .executableTarget(
            name: "PrismInspectorFixture",
            dependencies: [
                "PrismInspector",
                .product(name: "PrismStore", package: "PrismStore"),
            ]
        ),
        .testTarget(
            name: "PrismInspectorTests",
            dependencies: [
                "PrismInspector",
                "PrismInspectorModel",
                .product(name: "PrismStore", package: "PrismStore"),
                .product(name: "PrismPersistence", package: "PrismPersistence"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
