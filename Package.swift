// swift-tools-version: 6.1
// The umbrella manifest. Every module is a target whose sources live in its own package under
// Packages/ (each of which also builds and tests alone); this manifest lets one build run every
// test, and lets users depend on the repository by URL and pick any product.
import PackageDescription

let package = Package(
    name: "Prism",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    // Only the libraries users consume are products. The test server, the sample app and the
    // benchmarks are targets without a product (`swift run prism-sample` works here, at the root),
    // so a package that depends on Prism by URL never fetches what only they use: Hummingbird,
    // Graphiti, GraphQL, ArgumentParser (`make test-consumer` lists a one-product user's checkouts
    // and fails on any of them).
    products: [
        .library(name: "Prism", targets: ["Prism"]),
        .library(name: "PrismArchitecture", targets: ["PrismArchitecture"]),
        .library(name: "PrismEffects", targets: ["PrismEffects"]),
        .library(name: "PrismStore", targets: ["PrismStore"]),
        .library(name: "PrismRouting", targets: ["PrismRouting"]),
        .library(name: "PrismPersistence", targets: ["PrismPersistence"]),
        .library(name: "PrismTesting", targets: ["PrismTesting"]),
        .library(name: "PrismInspector", targets: ["PrismInspector"]),
        .library(name: "PrismNetwork", targets: ["PrismNetwork"]),
        .library(name: "PrismCache", targets: ["PrismCache"]),
        .library(name: "PrismHTTP", targets: ["PrismHTTP"]),
        .library(name: "PrismGraphQL", targets: ["PrismGraphQL"]),
        .library(name: "PrismHTTPTesting", targets: ["PrismHTTPTesting"]),
    ],
    // Both traits are on by default. A package that needs neither (an app that uses only the
    // architecture half, say) depends on Prism with `traits: []`: SwiftPM then fetches none of
    // AsyncHTTPClient, SwiftNIO's SSL, HTTP/2 and extras (README.md says how); without the second,
    // PrismGraphQL links none of SwiftNIO's WebSocket, HTTP and SSL modules.
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description:
                "PrismHTTP's AsyncHTTPClient transport, the default on Linux. Without it PrismHTTP sends with URLSession (FoundationNetworking on Linux)."
        ),
        .trait(
            name: "WebSocketSubscriptions",
            description:
                "PrismGraphQL subscriptions over WebSocket (graphql-transport-ws). Without it a subscription ends at once with the error subscriptionsUnavailable."
        ),
        .default(enabledTraits: ["AsyncHTTPClient", "WebSocketSubscriptions"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay.git", from: "1.13.1"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump.git", from: "1.7.3"),
        .package(url: "https://github.com/pointfreeco/swift-identified-collections.git", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        // Case key paths (`action: \.detail` on a `@CasePathable` enum). CasePathsCore only: the
        // macro, and swift-syntax with it, is built only by users who add CasePaths themselves.
        .package(url: "https://github.com/pointfreeco/swift-case-paths.git", from: "1.10.0"),
        // Dependencies a test overrides per store (clocks, dates, UUIDs, ...). Only its Clocks
        // and Foundation traits: CombineSchedulers (OpenCombine on Linux) stays out of the graph.
        .package(
            url: "https://github.com/pointfreeco/swift-dependencies.git", from: "1.17.1",
            traits: ["Clocks", "Foundation"]),
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // The test server (Tools/PrismTestServer)
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.2"),
        .package(url: "https://github.com/apple/swift-nio-transport-services.git", from: "1.28.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", from: "4.3.0"),
        .package(url: "https://github.com/GraphQLSwift/Graphiti.git", from: "3.1.0"),
        // GraphQL subscriptions over WebSocket: the client (PrismGraphQL) and the test server's endpoint.
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
    ],
    targets: [
        // Architecture
        .target(name: "PrismEffects", path: "Packages/PrismEffects/Sources/PrismEffects"),
        .target(
            name: "PrismStore",
            dependencies: [
                "PrismEffects",
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                // OrderedDictionary, under PrismIdentifiedCollection.
                .product(name: "OrderedCollections", package: "swift-collections"),
                // CaseKeyPath and CasePathable, for `action: \.detail`.
                .product(name: "CasePathsCore", package: "swift-case-paths"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            path: "Packages/PrismStore/Sources/PrismStore"
        ),
        .target(name: "PrismRouting", path: "Packages/PrismRouting/Sources/PrismRouting"),
        .target(
            name: "PrismPersistence",
            dependencies: [
                "PrismStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Packages/PrismPersistence/Sources/PrismPersistence"
        ),
        .executableTarget(
            name: "PrismPersistenceTestHelper",
            dependencies: ["PrismPersistence"],
            path: "Packages/PrismPersistence/Sources/PrismPersistenceTestHelper"
        ),
        .target(
            name: "PrismTesting",
            dependencies: [
                "PrismStore",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Packages/PrismTesting/Sources/PrismTesting"
        ),
        // Opt-in: a local web page that shows and steers a store. Built on the SwiftNIO modules
        // PrismHTTP already uses: no package of its own (Packages/PrismInspector's DocC says why).
        .target(
            name: "PrismInspector",
            dependencies: [
                "PrismStore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Packages/PrismInspector/Sources/PrismInspector",
            resources: [
                .embedInCode("Resources/index.html"),
                .embedInCode("Resources/inspector.css"),
                .embedInCode("Resources/inspector.js"),
            ]
        ),
        .executableTarget(
            name: "PrismInspectorFixture",
            dependencies: ["PrismInspector", "PrismStore"],
            path: "Packages/PrismInspector/Sources/PrismInspectorFixture"
        ),

        // Networking
        .target(name: "PrismCache", path: "Packages/PrismCache/Sources/PrismCache"),
        .executableTarget(
            name: "PrismCacheTestHelper",
            dependencies: ["PrismCache"],
            path: "Packages/PrismCache/Sources/PrismCacheTestHelper"
        ),
        .target(
            name: "PrismHTTP",
            dependencies: [
                "PrismCache",
                .product(name: "Logging", package: "swift-log"),
                // SHA-256 of the credentials a cache key covers (CryptoKit underneath on Apple platforms).
                .product(name: "Crypto", package: "swift-crypto"),
                // AsyncHTTPClient is the default transport on Linux and a dependency there only, with the
                // AsyncHTTPClient trait (on by default).
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOCore", package: "swift-nio",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOHTTP1", package: "swift-nio",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                // A streamed body's chunks become `Data` without a copy.
                .product(
                    name: "NIOFoundationCompat", package: "swift-nio",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                // Their error types, which the transport classifies.
                .product(
                    name: "NIOPosix", package: "swift-nio",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOSSL", package: "swift-nio-ssl",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
            ],
            path: "Packages/PrismHTTP/Sources/PrismHTTP"
        ),
        .target(
            name: "PrismGraphQL",
            dependencies: [
                "PrismCache", "PrismHTTP",
                // SHA-256 for automatic persisted queries (CryptoKit underneath on Apple platforms).
                .product(name: "Crypto", package: "swift-crypto"),
                // Subscriptions: Prism's WebSocket connection on SwiftNIO, TLS by SwiftNIO SSL (with the
                // WebSocketSubscriptions trait, on by default), and the logger it and the adapter take.
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(
                    name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(
                    name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(
                    name: "NIOConcurrencyHelpers", package: "swift-nio",
                    condition: .when(traits: ["WebSocketSubscriptions"])),
                .product(
                    name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["WebSocketSubscriptions"])),
                // On iOS, tvOS, watchOS and visionOS the subscription socket opens through
                // Network.framework, which brings up the cellular radio and honours VPN On Demand.
                .product(
                    name: "NIOTransportServices", package: "swift-nio-transport-services",
                    condition: .when(platforms: [.iOS, .tvOS, .watchOS, .visionOS], traits: ["WebSocketSubscriptions"])),
            ],
            path: "Packages/PrismGraphQL/Sources/PrismGraphQL"
        ),
        // A stub transport for apps' unit tests (no server, no socket).
        .target(
            name: "PrismHTTPTesting",
            dependencies: ["PrismHTTP", .product(name: "IssueReporting", package: "xctest-dynamic-overlay")],
            path: "Packages/PrismHTTPTesting/Sources/PrismHTTPTesting"
        ),

        // The HTTP test server: tests, benchmarks and the sample app's demo
        .target(
            name: "PrismTestServer",
            dependencies: [
                "PrismCache",
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
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "Graphiti", package: "Graphiti"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            path: "Tools/PrismTestServer/Sources/PrismTestServer"
        ),
        .executableTarget(
            name: "prism-test-server",
            dependencies: ["PrismTestServer", .product(name: "UnixSignals", package: "swift-service-lifecycle")],
            path: "Tools/PrismTestServer/Sources/prism-test-server"
        ),

        // Umbrellas: re-exports only
        .target(
            name: "PrismArchitecture",
            dependencies: ["PrismEffects", "PrismStore", "PrismRouting", "PrismPersistence"],
            path: "Sources/PrismArchitecture"
        ),
        .target(
            name: "PrismNetwork", dependencies: ["PrismCache", "PrismHTTP", "PrismGraphQL"],
            path: "Sources/PrismNetwork"),
        .target(name: "Prism", dependencies: ["PrismArchitecture", "PrismNetwork"], path: "Sources/Prism"),

        // The sample app
        .executableTarget(
            name: "prism-sample",
            dependencies: [
                "Prism", "PrismInspector", "PrismTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Apps/PrismSample/Sources/PrismSample"
        ),
        // The HTTP caching conformance suite's way into the client's cache (CONTRIBUTING.md).
        .executableTarget(
            name: "prism-cache-proxy",
            dependencies: [
                "PrismHTTP", .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Tools/CacheConformance/Sources/prism-cache-proxy",
            exclude: ["front.mjs"]
        ),

        // The benchmarks (`make bench`, release): every figure beside a baseline of the same run.
        .executableTarget(
            name: "PrismBenchmarks",
            dependencies: [
                "PrismArchitecture", "PrismNetwork", "PrismInspector", "PrismTestServer",
                // The baselines: the raw transport Prism sends through on Linux, a page's raw
                // WebSocket for the inspector, and the raw WebSocket client PrismGraphQL uses.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/Benchmarks/Sources/PrismBenchmarks"
        ),

        // Tests, and what they share
        .target(
            name: "PrismTestSupport",
            dependencies: [
                .product(name: "Clocks", package: "swift-clocks"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/PrismTestSupport/Sources/PrismTestSupport"
        ),
        .testTarget(
            name: "PrismEffectsTests",
            dependencies: ["PrismEffects", "PrismTestSupport"],
            path: "Packages/PrismEffects/Tests/PrismEffectsTests"
        ),
        .testTarget(
            name: "PrismStoreTests",
            dependencies: [
                "PrismStore", .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
                "PrismTestSupport",
            ],
            path: "Packages/PrismStore/Tests/PrismStoreTests"
        ),
        .testTarget(
            name: "PrismPersistenceTests",
            dependencies: [
                "PrismPersistence", "PrismPersistenceTestHelper", "PrismTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Packages/PrismPersistence/Tests/PrismPersistenceTests"
        ),
        .testTarget(
            name: "PrismRoutingTests",
            dependencies: ["PrismRouting"],
            path: "Packages/PrismRouting/Tests/PrismRoutingTests"
        ),
        .testTarget(
            name: "PrismTestingTests",
            dependencies: ["PrismTesting", "PrismStore", "PrismTestSupport"],
            path: "Packages/PrismTesting/Tests/PrismTestingTests"
        ),
        .testTarget(
            name: "PrismInspectorTests",
            dependencies: [
                "PrismInspector", "PrismStore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Packages/PrismInspector/Tests/PrismInspectorTests"
        ),
        .testTarget(
            name: "PrismCacheTests",
            dependencies: ["PrismCache", "PrismCacheTestHelper"],
            path: "Packages/PrismCache/Tests/PrismCacheTests"
        ),
        .testTarget(
            name: "PrismHTTPTests",
            dependencies: [
                "PrismHTTP", "PrismCache", "PrismTestServer", "PrismTestSupport",
                .product(name: "Logging", package: "swift-log"),
                // A client that trusts the HTTPS test server's certificate, and the TLS error types.
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(platforms: [.linux])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                // The SHA-256 of what an upload sent, to compare with the server's.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Packages/PrismHTTP/Tests/PrismHTTPTests"
        ),
        .testTarget(
            name: "PrismGraphQLTests",
            dependencies: [
                "PrismGraphQL", "PrismHTTP", "PrismCache", "PrismTestServer", "PrismTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Packages/PrismGraphQL/Tests/PrismGraphQLTests"
        ),
        .testTarget(
            name: "PrismHTTPTestingTests",
            dependencies: [
                "PrismHTTPTesting", "PrismHTTP", "PrismGraphQL", "PrismTestSupport",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            path: "Packages/PrismHTTPTesting/Tests/PrismHTTPTestingTests"
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
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tools/PrismTestServer/Tests/PrismTestServerTests"
        ),
        .testTarget(
            name: "PrismSampleTests",
            dependencies: ["Prism", "prism-sample", "PrismHTTPTesting", "PrismTesting", "PrismTestSupport"],
            path: "Apps/PrismSample/Tests/PrismSampleTests"
        ),
        .testTarget(
            name: "PrismIntegrationTests",
            dependencies: ["Prism", "PrismArchitecture", "PrismNetwork", "PrismTestServer"],
            path: "Tests/PrismIntegrationTests"
        ),
        // The documentation's own tests, run: each target's one source is a link to a file under
        // Snippets/ (the Getting started article, the testing article, PrismTesting's and PrismHTTPTesting's pages, README.md's), so the code
        // the pages show is the code that runs. `make test-stress` runs them hundreds of times
        // beside busy cores.
        .testTarget(
            name: "PrismGettingStartedSnippetTests",
            dependencies: ["Prism", "PrismTesting"],
            path: "Tests/PrismDocumentedTests/GettingStarted"
        ),
        .testTarget(
            name: "PrismTestingSnippetTests",
            dependencies: ["Prism", "PrismTesting"],
            path: "Tests/PrismDocumentedTests/TestingFeatures"
        ),
        .testTarget(
            name: "PrismTestingOverviewSnippetTests",
            dependencies: ["Prism", "PrismHTTPTesting", "PrismTesting"],
            path: "Tests/PrismDocumentedTests/TestingOverview"
        ),
        .testTarget(
            name: "PrismStubTransportSnippetTests",
            dependencies: ["PrismHTTP", "PrismHTTPTesting", "PrismTesting"],
            path: "Tests/PrismDocumentedTests/StubTransport"
        ),
        .testTarget(
            name: "PrismReadmeSnippetTests",
            dependencies: ["Prism", "PrismTesting"],
            path: "Tests/PrismDocumentedTests/ReadmeExamples"
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `make` (and so CI) builds Prism's own targets with warnings as errors: the Makefile exports
// PRISM_WARNINGS_AS_ERRORS=1. A package that depends on Prism never sees the flag (and SwiftPM
// would refuse unsafe flags in a dependency), so a new compiler's warning cannot break users.
if Context.environment["PRISM_WARNINGS_AS_ERRORS"] == "1" {
    for target in package.targets {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-warnings-as-errors"])]
    }
}
