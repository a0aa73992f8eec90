// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PrismHTTP",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismHTTP", targets: ["PrismHTTP"])
    ],
    dependencies: [
        .package(path: "../PrismCache"),
        .package(path: "../../Tools/PrismTestServer"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        .target(
            name: "PrismHTTP",
            dependencies: [
                .product(name: "PrismCache", package: "PrismCache"),
                .product(name: "Logging", package: "swift-log"),
                // AsyncHTTPClient is the default transport on Linux and a dependency there only.
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(
            name: "PrismHTTPTests",
            dependencies: [
                "PrismHTTP",
                .product(name: "PrismTestServer", package: "PrismTestServer"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
