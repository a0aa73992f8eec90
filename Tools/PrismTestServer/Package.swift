// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
// Prism's local HTTP test server: a real Hummingbird server on 127.0.0.1 used by the tests of PrismHTTP,
// PrismGraphQL and PrismCache, by the benchmarks and by the sample app's demo.
import PackageDescription

let package = Package(
    name: "PrismTestServer",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismTestServer", targets: ["PrismTestServer"]),
        .executable(name: "prism-test-server", targets: ["prism-test-server"]),
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../../Packages/PrismSupport"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // The test server (Tools/PrismTestServer).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // GraphQL's parser, schema builder and validation: the test server's endpoint (POST /graphql), and
        // PrismGraphQL's code generator.
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", from: "4.3.0"),
        .package(url: "https://github.com/GraphQLSwift/Graphiti.git", from: "3.1.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
    ],
    targets: [
        .target(
            name: "PrismTestServer",
            dependencies: [
                // HTTP dates (HTTPDate) and SHA-256, shared with PrismHTTP.
                .product(name: "PrismSupport", package: "PrismSupport"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "GraphQL", package: "GraphQL"),
                // The made-up answers of /graphql/mock, as GraphQLSwift's ordered maps.
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Graphiti", package: "Graphiti"),
                // The GraphQL subscriptions endpoint (graphql-transport-ws over WebSocket).
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ]
        ),
        .executableTarget(
            name: "prism-test-server",
            dependencies: [
                "PrismTestServer",
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "PrismTestServerTests",
            dependencies: [
                "PrismTestServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // SHA-256, to compare what the server received with what was sent.
                .product(name: "PrismSupport", package: "PrismSupport"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
