// swift-tools-version: 6.0
// Prism's benchmarks. Run with `make bench` (release build). Every figure is printed next to a
// baseline measured in the same run, as a ratio, so that machines of different speeds agree.
import PackageDescription

let package = Package(
    name: "PrismBenchmarks",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "Prism", path: "../.."),
        // The baselines of the network benchmarks: the raw transport Prism sends through on Linux.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // The baseline of the subscription benchmark: the raw WebSocket client PrismGraphQL uses.
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "PrismBenchmarks",
            dependencies: [
                .product(name: "PrismArchitecture", package: "Prism"),
                .product(name: "PrismNetwork", package: "Prism"),
                .product(name: "PrismInspector", package: "Prism"),
                .product(name: "PrismTestServer", package: "Prism"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                // A page's WebSocket, for the inspector's streaming benchmark.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
