// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "PrismGraphQL",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismGraphQL", targets: ["PrismGraphQL"])
    ],
    // As in the root manifest: on by default; without it a subscription ends at once with the
    // error subscriptionsUnavailable, and swift-websocket is not fetched.
    traits: [
        .trait(
            name: "WebSocketSubscriptions",
            description:
                "PrismGraphQL subscriptions over WebSocket (graphql-transport-ws). Without it a subscription ends at once with the error subscriptionsUnavailable."
        ),
        .default(enabledTraits: ["WebSocketSubscriptions"]),
    ],
    dependencies: [
        .package(path: "../PrismCache"),
        .package(path: "../PrismHTTP"),
        .package(path: "../../Tools/PrismTestServer"),
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "PrismGraphQL",
            dependencies: [
                .product(name: "PrismCache", package: "PrismCache"),
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                // SHA-256 for automatic persisted queries (CryptoKit underneath on Apple platforms).
                .product(name: "Crypto", package: "swift-crypto"),
                // Subscriptions: the WebSocket client (with the WebSocketSubscriptions trait, on by
                // default), and the logger it and the adapter take.
                .product(
                    name: "WSClient", package: "swift-websocket", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(name: "Logging", package: "swift-log"),
                .product(
                    name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["WebSocketSubscriptions"])
                ),
                .product(
                    name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
            ]
        ),
        .testTarget(
            name: "PrismGraphQLTests",
            dependencies: [
                "PrismGraphQL",
                .product(name: "PrismTestServer", package: "PrismTestServer"),
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
