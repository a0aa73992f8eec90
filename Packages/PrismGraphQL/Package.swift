// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
import PackageDescription

let package = Package(
    name: "PrismGraphQL",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismGraphQL", targets: ["PrismGraphQL"])
    ],
    traits: [
        .trait(
            name: "WebSocketSubscriptions",
            description:
                "WebSockets: PrismWebSocket's connection, and PrismGraphQL subscriptions over it (graphql-transport-ws). Without it a PrismWebSocket ends at once with the error unavailable, and a subscription with subscriptionsUnavailable."
        ),
        .trait(
            name: "SQLite",
            description:
                "PrismGraphQL's normalized cache on disk, in SQLite (vapor/sqlite-nio, which builds SQLite from its own copy: no system package to install). Without it PrismGraphQLNormalizedCache.open(at:) throws cacheStoreUnavailable; the cache in memory is not affected."
        ),
        .default(enabledTraits: ["WebSocketSubscriptions", "SQLite"]),
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../PrismSupport"),
        .package(path: "../PrismCache"),
        .package(path: "../PrismHTTP"),
        // A WebSocket client on the network client's pipeline (interceptors, authenticator, TLS settings,
        // logging); PrismGraphQL's subscriptions open their socket through it..
        .package(path: "../PrismWebSocket"),
        // Prism's local HTTP test server.
        .package(path: "../../Tools/PrismTestServer"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.2"),
        .package(url: "https://github.com/apple/swift-nio-transport-services.git", from: "1.28.0"),
        // SQLite for the normalized GraphQL cache on disk: Vapor's package compiles SQLite's own amalgamation
        // (no system libsqlite3 to install, the same SQLite on every platform), and runs its calls on a
        // thread pool.
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
    ],
    targets: [
        .target(
            name: "PrismGraphQL",
            dependencies: [
                .product(name: "PrismSupport", package: "PrismSupport"),
                .product(name: "PrismCache", package: "PrismCache"),
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                // The logger the subscription connection and the adapter take.
                .product(name: "Logging", package: "swift-log"),
                // The subscriptions' socket: PrismWebSocket's connection (with the WebSocketSubscriptions
                // trait, on by default).
                .product(
                    name: "PrismWebSocket", package: "PrismWebSocket",
                    condition: .when(traits: ["WebSocketSubscriptions"])),
                // Subscriptions: Prism's WebSocket connection on SwiftNIO, TLS by SwiftNIO SSL (with the
                // WebSocketSubscriptions trait, on by default).
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(
                    name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(
                    name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["WebSocketSubscriptions"])),
                // On iOS, tvOS and visionOS the subscription socket opens through Network.framework, which
                // brings up the cellular radio and honours VPN On Demand. Mac Catalyst is named apart:
                // `os(iOS)` is true there, and the `.iOS` condition may not cover it. watchOS has no
                // subscription socket (Apple's TN3135).
                .product(
                    name: "NIOTransportServices", package: "swift-nio-transport-services",
                    condition: .when(
                        platforms: [.iOS, .macCatalyst, .tvOS, .visionOS], traits: ["WebSocketSubscriptions"])),
                // The normalized cache on disk (with the SQLite trait, on by default).
                .product(name: "SQLiteNIO", package: "sqlite-nio", condition: .when(traits: ["SQLite"])),
            ]
        ),
        // A command-line tool the tests run as a child process, to be killed while it writes the normalized
        // cache's store.
        .executableTarget(
            name: "PrismGraphQLTestHelper",
            dependencies: ["PrismGraphQL"]
        ),
        .testTarget(
            name: "PrismGraphQLTests",
            dependencies: [
                "PrismGraphQL",
                "PrismGraphQLTestHelper",
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                .product(name: "PrismCache", package: "PrismCache"),
                .product(name: "PrismTestServer", package: "PrismTestServer"),
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
