// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
// A WebSocket client on the network client's pipeline (interceptors, authenticator, TLS settings, logging);
// PrismGraphQL's subscriptions open their socket through it.
import PackageDescription

let package = Package(
    name: "PrismWebSocket",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismWebSocket", targets: ["PrismWebSocket"])
    ],
    traits: [
        .trait(
            name: "WebSocketSubscriptions",
            description:
                "WebSockets: PrismWebSocket's connection, and PrismGraphQL subscriptions over it (graphql-transport-ws). Without it a PrismWebSocket ends at once with the error unavailable, and a subscription with subscriptionsUnavailable."
        ),
        .default(enabledTraits: ["WebSocketSubscriptions"]),
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../PrismSupport"),
        .package(path: "../PrismHTTP"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.2"),
        .package(url: "https://github.com/apple/swift-nio-transport-services.git", from: "1.28.0"),
    ],
    targets: [
        .target(
            name: "PrismWebSocket",
            dependencies: [
                .product(name: "PrismSupport", package: "PrismSupport"),
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                .product(name: "Logging", package: "swift-log"),
                // The connection: SwiftNIO's WebSocket upgrade and frames, TLS by SwiftNIO SSL (with the
                // WebSocketSubscriptions trait, on by default: a consumer with Prism's traits off fetches
                // none of them).
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(
                    name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(
                    name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["WebSocketSubscriptions"])),
                // On iOS, tvOS and visionOS the socket opens through Network.framework, which brings up the
                // cellular radio and honours VPN On Demand. Mac Catalyst is named apart: `os(iOS)` is true
                // there, and the `.iOS` condition may not cover it. watchOS has no WebSocket for ordinary
                // apps (Apple's TN3135).
                .product(
                    name: "NIOTransportServices", package: "swift-nio-transport-services",
                    condition: .when(
                        platforms: [.iOS, .macCatalyst, .tvOS, .visionOS], traits: ["WebSocketSubscriptions"])),
            ]
        ),
        // The client against Python's websockets server and hostile peers, run as child processes.
        .testTarget(
            name: "PrismWebSocketTests",
            dependencies: [
                "PrismWebSocket",
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
            ],
            exclude: ["peers.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
