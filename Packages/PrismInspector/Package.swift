// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PrismInspector",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismInspector", targets: ["PrismInspector"])
    ],
    dependencies: [
        .package(path: "../PrismStore"),
        // The server: the SwiftNIO modules the rest of Prism already depends on, so that the
        // inspector adds no package to anybody's graph (see the DocC catalog).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "PrismInspector",
            dependencies: [
                .product(name: "PrismStore", package: "PrismStore"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            // The page: plain files, compiled into the module (no bundle to find at run time).
            resources: [
                .embedInCode("Resources/index.html"),
                .embedInCode("Resources/inspector.css"),
                .embedInCode("Resources/inspector.js"),
            ]
        ),
        // A small app with an inspector attached, driven through standard input: the browser
        // test (Tools/scripts/test-inspector-browser.sh) runs it.
        .executableTarget(
            name: "PrismInspectorFixture",
            dependencies: ["PrismInspector", .product(name: "PrismStore", package: "PrismStore")]
        ),
        .testTarget(
            name: "PrismInspectorTests",
            dependencies: [
                "PrismInspector",
                .product(name: "PrismStore", package: "PrismStore"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
