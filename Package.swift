// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
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
        .library(name: "PrismNetwork", targets: ["PrismNetwork"]),
        .library(name: "PrismEffects", targets: ["PrismEffects"]),
        .library(name: "PrismStore", targets: ["PrismStore"]),
        .library(name: "PrismPersistence", targets: ["PrismPersistence"]),
        .library(name: "PrismRouting", targets: ["PrismRouting"]),
        .library(name: "PrismTesting", targets: ["PrismTesting"]),
        .library(name: "PrismInspector", targets: ["PrismInspector"]),
        .library(name: "PrismCache", targets: ["PrismCache"]),
        .library(name: "PrismHTTP", targets: ["PrismHTTP"]),
        .library(name: "PrismWebSocket", targets: ["PrismWebSocket"]),
        .library(name: "PrismGraphQL", targets: ["PrismGraphQL"]),
        .library(name: "PrismHTTPTesting", targets: ["PrismHTTPTesting"]),
        .library(name: "PrismTelemetry", targets: ["PrismTelemetry"]),
        .library(name: "PrismOpenAPI", targets: ["PrismOpenAPI"]),
        .plugin(name: "PrismGraphQLCodegenPlugin", targets: ["PrismGraphQLCodegenPlugin"]),
        .plugin(name: "PrismGraphQLGenerate", targets: ["PrismGraphQLGenerate"]),
    ],
    // Every trait but OpenAPI is on by default. A package that needs none (an app that uses only
    // the architecture half, say) depends on Prism with `traits: []`: SwiftPM then fetches none of
    // AsyncHTTPClient, SwiftNIO's SSL, HTTP/2 and extras (README.md says how); without
    // WebSocketSubscriptions, PrismGraphQL links none of SwiftNIO's WebSocket, HTTP and SSL modules.
    // OpenAPI is on only where a package asks for it (`traits: [.defaults, "OpenAPI"]`), with the
    // PrismOpenAPI product: only then is swift-openapi-runtime fetched.
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description:
                "PrismHTTP's AsyncHTTPClient transport, the default on Linux. Without it PrismHTTP sends with URLSession (FoundationNetworking on Linux)."
        ),
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
        .trait(
            name: "Telemetry",
            description:
                "PrismTelemetry's instruments: swift-metrics counters and timers, swift-distributed-tracing spans. Off by default: only a package that turns it on fetches swift-metrics, and swift-distributed-tracing unless AsyncHTTPClient (the AsyncHTTPClient trait) brings it."
        ),
        .trait(
            name: "OpenAPI",
            description:
                "PrismOpenAPI's transport for clients that swift-openapi-generator makes. Off by default: only a package that turns it on fetches swift-openapi-runtime."
        ),
        .default(enabledTraits: ["AsyncHTTPClient", "WebSocketSubscriptions", "SQLite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay.git", from: "1.13.1"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump.git", from: "1.7.3"),
        .package(url: "https://github.com/pointfreeco/swift-identified-collections.git", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        // Case key paths (`action: \.detail` on a `@CasePathable` enum). CasePathsCore only: the macro, and
        // swift-syntax with it, is built only by users who add CasePaths themselves.
        .package(url: "https://github.com/pointfreeco/swift-case-paths.git", from: "1.10.0"),
        // Dependencies a test overrides per store (clocks, dates, UUIDs, ...). Only its Clocks and Foundation
        // traits: CombineSchedulers (OpenCombine on Linux) stays out of the graph.
        .package(
            url: "https://github.com/pointfreeco/swift-dependencies.git", from: "1.17.1",
            traits: ["Clocks", "Foundation"]),
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // The test server (Tools/PrismTestServer).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.2"),
        .package(url: "https://github.com/apple/swift-nio-transport-services.git", from: "1.28.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // GraphQL's parser, schema builder and validation: the test server's endpoint (POST /graphql), and
        // PrismGraphQL's code generator.
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", from: "4.3.0"),
        .package(url: "https://github.com/GraphQLSwift/Graphiti.git", from: "3.1.0"),
        // GraphQL subscriptions over WebSocket: the benchmarks' raw client, and the test server's endpoint.
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        // SQLite for the normalized GraphQL cache on disk: Vapor's package compiles SQLite's own amalgamation
        // (no system libsqlite3 to install, the same SQLite on every platform), and runs its calls on a
        // thread pool.
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
    ],
    targets: [

        // Support: shared by the packages, not a product
        .target(
            name: "CPrismSHA256",
            path: "Packages/PrismSupport/Sources/CPrismSHA256"
        ),
        .target(
            name: "PrismSupport",
            dependencies: [
                // SHA-256's compression function in C: a debug build of it in Swift hashes 7 MB/s, in C 100
                // MB/s (release: both about 210).
                "CPrismSHA256"
            ],
            path: "Packages/PrismSupport/Sources/PrismSupport"
        ),
        .testTarget(
            name: "PrismSupportTests",
            dependencies: ["PrismSupport"],
            path: "Packages/PrismSupport/Tests/PrismSupportTests"
        ),

        // Architecture
        .target(
            name: "PrismEffects",
            dependencies: ["PrismSupport"],
            path: "Packages/PrismEffects/Sources/PrismEffects"
        ),
        .testTarget(
            name: "PrismEffectsTests",
            dependencies: ["PrismEffects", "PrismTestSupport"],
            path: "Packages/PrismEffects/Tests/PrismEffectsTests"
        ),
        .target(
            name: "PrismStore",
            dependencies: [
                "PrismEffects",
                "PrismSupport",
                // IdentifiedArray: the collection `forEach` runs a child feature for each element of.
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                // OrderedDictionary, under PrismIdentifiedCollection.
                .product(name: "OrderedCollections", package: "swift-collections"),
                // TreeDictionary: PrismRows finds a row's place by its id in a persistent hash trie that
                // history snapshots share.
                .product(name: "HashTreeCollections", package: "swift-collections"),
                // CaseKeyPath and CasePathable, for `action: \.detail`.
                .product(name: "CasePathsCore", package: "swift-case-paths"),
                // Runtime warnings, e.g. for an action sent to a child feature that is not there.
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                // The dependencies a store gives its reducer and effects.
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            path: "Packages/PrismStore/Sources/PrismStore"
        ),
        .testTarget(
            name: "PrismStoreTests",
            dependencies: [
                "PrismStore",
                // Lets IssueReporting's warnings reach Swift Testing on Linux (withKnownIssue).
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
                "PrismTestSupport",
            ],
            path: "Packages/PrismStore/Tests/PrismStoreTests"
        ),
        .target(
            name: "PrismPersistence",
            dependencies: [
                "PrismSupport",
                "PrismStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Packages/PrismPersistence/Sources/PrismPersistence"
        ),
        // A command-line tool the tests run as a child process: saving in a loop to be killed, writing under
        // a file-size limit, using the keychain from another environment.
        .executableTarget(
            name: "PrismPersistenceTestHelper",
            dependencies: ["PrismSupport", "PrismPersistence"],
            path: "Packages/PrismPersistence/Sources/PrismPersistenceTestHelper"
        ),
        .testTarget(
            name: "PrismPersistenceTests",
            dependencies: [
                "PrismPersistence",
                "PrismPersistenceTestHelper",
                "PrismTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Packages/PrismPersistence/Tests/PrismPersistenceTests"
        ),
        .target(
            name: "PrismRouting",
            path: "Packages/PrismRouting/Sources/PrismRouting"
        ),
        .testTarget(
            name: "PrismRoutingTests",
            dependencies: ["PrismRouting"],
            path: "Packages/PrismRouting/Tests/PrismRoutingTests"
        ),
        .target(
            name: "PrismTesting",
            dependencies: [
                "PrismStore",
                "PrismSupport",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                // Routes reported issues to Swift Testing and XCTest on every platform (on Linux
                // IssueReporting finds them only through this library).
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
                // TestClock and ImmediateClock, re-exported for features that wait.
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Packages/PrismTesting/Sources/PrismTesting"
        ),
        .testTarget(
            name: "PrismTestingTests",
            dependencies: [
                "PrismTesting",
                "PrismStore",
                "PrismTestSupport",
                // The `.dependencies` test trait: each case of a parameterized test gets its own
                // dependencies, shared-value storage included.
                .product(name: "DependenciesTestSupport", package: "swift-dependencies"),
            ],
            path: "Packages/PrismTesting/Tests/PrismTestingTests"
        ),
        // Opt-in: a local web page that shows and steers a store. Built on the SwiftNIO modules PrismHTTP
        // already uses, so that it adds no package to anybody's graph (Packages/PrismInspector's DocC says
        // why). The page is plain files, compiled into the module (no bundle to find at run time).
        .target(
            name: "PrismInspector",
            dependencies: [
                "PrismInspectorModel",
                "PrismStore",
                "PrismSupport",
                .product(name: "NIOCore", package: "swift-nio"),
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
        // How the inspector sees a value (a tree within a budget, secrets redacted, the diff of two), without
        // SwiftNIO: the fuzz targets that feed it strangers' values build without the server
        // (Tools/scripts/fuzz.sh).
        .target(
            name: "PrismInspectorModel",
            dependencies: ["PrismStore"],
            path: "Packages/PrismInspector/Sources/PrismInspectorModel"
        ),
        // A small app with an inspector attached, driven through standard input: the browser test
        // (Tools/scripts/test-inspector-browser.sh) runs it.
        .executableTarget(
            name: "PrismInspectorFixture",
            dependencies: ["PrismInspector", "PrismStore"],
            path: "Packages/PrismInspector/Sources/PrismInspectorFixture"
        ),
        .testTarget(
            name: "PrismInspectorTests",
            dependencies: [
                "PrismInspector",
                "PrismInspectorModel",
                "PrismStore",
                "PrismPersistence",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Packages/PrismInspector/Tests/PrismInspectorTests"
        ),

        // Networking
        .target(
            name: "PrismCache",
            dependencies: ["PrismSupport"],
            path: "Packages/PrismCache/Sources/PrismCache"
        ),
        // A command-line tool the tests run as a child process, to be killed while it writes.
        .executableTarget(
            name: "PrismCacheTestHelper",
            dependencies: ["PrismCache"],
            path: "Packages/PrismCache/Sources/PrismCacheTestHelper"
        ),
        .testTarget(
            name: "PrismCacheTests",
            dependencies: [
                "PrismCache",
                "PrismCacheTestHelper",
                // Starts a child process without Foundation's Process, off the cooperative pool.
                "PrismTestSupport",
            ],
            path: "Packages/PrismCache/Tests/PrismCacheTests"
        ),
        .target(
            name: "CPrismZlib",
            path: "Packages/PrismHTTP/Sources/CPrismZlib"
        ),
        .target(
            name: "PrismHTTP",
            dependencies: [
                "PrismCache",
                "PrismSupport",
                .product(name: "Logging", package: "swift-log"),
                // Request bodies compressed with the system's zlib (libz, on every platform Prism runs on):
                // no package to fetch.
                "CPrismZlib",
                // AsyncHTTPClient is the default transport on Linux and a dependency there only, with the
                // AsyncHTTPClient trait (on by default); NIOFoundationCompat turns a streamed body's chunks
                // into `Data` without a copy; the others' error types are what the transport classifies
                // (NIOHTTPCompression's: a response body that does not decode, AsyncHTTPClient's own package
                // needs it already); Tracing (which AsyncHTTPClient depends on already) tells the no-op
                // tracer, which the transport's clients are not given.
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOCore", package: "swift-nio",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOHTTP1", package: "swift-nio",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOHTTPCompression", package: "swift-nio-extras",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOFoundationCompat", package: "swift-nio",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOPosix", package: "swift-nio",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOSSL", package: "swift-nio-ssl",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
                .product(
                    name: "Tracing", package: "swift-distributed-tracing",
                    condition: .when(platforms: [.linux], traits: ["AsyncHTTPClient"])),
            ],
            path: "Packages/PrismHTTP/Sources/PrismHTTP"
        ),
        .testTarget(
            name: "PrismHTTPTests",
            dependencies: [
                "PrismHTTP",
                "PrismCache",
                "PrismSupport",
                "PrismTestServer",
                "PrismTestSupport",
                .product(name: "Logging", package: "swift-log"),
                // A client that trusts the HTTPS test server's certificate, and the TLS error types; a tracer
                // that keeps the transport's spans.
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(platforms: [.linux])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(platforms: [.linux])),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(platforms: [.linux])
                ),
            ],
            path: "Packages/PrismHTTP/Tests/PrismHTTPTests"
        ),
        .target(
            name: "PrismWebSocket",
            dependencies: [
                "PrismSupport",
                "PrismHTTP",
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
            ],
            path: "Packages/PrismWebSocket/Sources/PrismWebSocket"
        ),
        // The client against Python's websockets server and hostile peers, run as child processes.
        .testTarget(
            name: "PrismWebSocketTests",
            dependencies: ["PrismWebSocket", "PrismHTTP", "PrismTestSupport"],
            path: "Packages/PrismWebSocket/Tests/PrismWebSocketTests",
            exclude: ["peers.py"]
        ),
        .target(
            name: "PrismGraphQL",
            dependencies: [
                "PrismSupport",
                "PrismCache",
                "PrismHTTP",
                // The logger the subscription connection and the adapter take.
                .product(name: "Logging", package: "swift-log"),
                // The subscriptions' socket: PrismWebSocket's connection (with the WebSocketSubscriptions
                // trait, on by default).
                .target(name: "PrismWebSocket", condition: .when(traits: ["WebSocketSubscriptions"])),
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
            ],
            path: "Packages/PrismGraphQL/Sources/PrismGraphQL"
        ),
        // A command-line tool the tests run as a child process, to be killed while it writes the normalized
        // cache's store.
        .executableTarget(
            name: "PrismGraphQLTestHelper",
            dependencies: ["PrismGraphQL"],
            path: "Packages/PrismGraphQL/Sources/PrismGraphQLTestHelper"
        ),
        .testTarget(
            name: "PrismGraphQLTests",
            dependencies: [
                "PrismGraphQL",
                "PrismGraphQLTestHelper",
                "PrismHTTP",
                "PrismCache",
                "PrismTestServer",
                "PrismTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Packages/PrismGraphQL/Tests/PrismGraphQLTests"
        ),
        // A stub transport for apps' unit tests (no server, no socket).
        .target(
            name: "PrismHTTPTesting",
            dependencies: [
                "PrismSupport",
                "PrismHTTP",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ],
            path: "Packages/PrismHTTPTesting/Sources/PrismHTTPTesting"
        ),
        .testTarget(
            name: "PrismHTTPTestingTests",
            dependencies: [
                "PrismHTTPTesting",
                "PrismHTTP",
                "PrismGraphQL",
                "PrismTestSupport",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            path: "Packages/PrismHTTPTesting/Tests/PrismHTTPTestingTests"
        ),
        .target(
            name: "PrismTelemetry",
            dependencies: [
                "PrismHTTP",
                "PrismStore",
                "PrismEffects",
                // The two APIs a backend (Prometheus, OpenTelemetry, ...) is bootstrapped behind, with the
                // Telemetry trait only.
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Telemetry"])),
                .product(
                    name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Telemetry"])),
            ],
            path: "Packages/PrismTelemetry/Sources/PrismTelemetry"
        ),
        // The instruments against the test server, measured by the packages' own in-memory backends.
        .testTarget(
            name: "PrismTelemetryTests",
            dependencies: [
                "PrismTelemetry",
                "PrismHTTP",
                "PrismGraphQL",
                "PrismStore",
                "PrismEffects",
                "PrismTestServer",
                "PrismTestSupport",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Packages/PrismTelemetry/Tests/PrismTelemetryTests"
        ),
        .target(
            name: "PrismOpenAPI",
            dependencies: [
                "PrismHTTP",
                // The generator's runtime, with the OpenAPI trait only: an app that does not turn it on
                // fetches neither package.
                .product(
                    name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
            ],
            path: "Packages/PrismOpenAPI/Sources/PrismOpenAPI"
        ),
        // A client swift-openapi-generator made from openapi.yaml (part of the test server's own API;
        // committed in OpenAPIGenerated, `make openapi-generate` writes it anew), run against the test server
        // and the stub transport.
        .testTarget(
            name: "PrismOpenAPITests",
            dependencies: [
                "PrismOpenAPI",
                "PrismHTTP",
                "PrismHTTPTesting",
                "PrismTestServer",
                "PrismTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Packages/PrismOpenAPI/Tests/PrismOpenAPITests",
            exclude: ["openapi.yaml", "openapi-generator-config.yaml", "OpenAPIGenerated/openapi.sha256"]
        ),
        .target(
            name: "PrismGraphQLCodegen",
            dependencies: [
                // The GraphQL parser, the schema builder and the specification's validation rules.
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            path: "Packages/PrismGraphQLCodegen/Sources/PrismGraphQLCodegen"
        ),
        .executableTarget(
            name: "prism-graphql-codegen",
            dependencies: ["PrismGraphQLCodegen"],
            path: "Packages/PrismGraphQLCodegen/Sources/prism-graphql-codegen"
        ),
        .plugin(
            name: "PrismGraphQLCodegenPlugin",
            capability: .buildTool(),
            dependencies: ["prism-graphql-codegen"],
            path: "Packages/PrismGraphQLCodegen/Plugins/PrismGraphQLCodegenPlugin"
        ),
        .plugin(
            name: "PrismGraphQLGenerate",
            capability: .command(
                intent: .custom(
                    verb: "generate-graphql",
                    description:
                        "Generate Swift from the schema and .graphql files of targets, into each target (for code that is committed)."
                ),
                permissions: [
                    .writeToPackageDirectory(reason: "Writes the generated Swift and operations.json into each target.")
                ]),
            dependencies: ["prism-graphql-codegen"],
            path: "Packages/PrismGraphQLCodegen/Plugins/PrismGraphQLGenerate"
        ),
        .testTarget(
            name: "PrismGraphQLCodegenTests",
            dependencies: [
                "PrismGraphQLCodegen",
                // Runs the tool as a child process, without Foundation's Process, off the cooperative pool.
                "PrismTestSupport",
            ],
            path: "Packages/PrismGraphQLCodegen/Tests/PrismGraphQLCodegenTests",
            exclude: ["Expected"]
        ),
        // Code the generator writes from a 1 MB schema and 21 operations (committed in GraphQLGenerated:
        // `make graphql-generate`), decoding what the test server's /graphql/mock executes.
        .testTarget(
            name: "PrismGraphQLLargeSchemaTests",
            dependencies: ["PrismGraphQL", "PrismHTTP", "PrismTestServer"],
            path: "Packages/PrismGraphQLCodegen/Tests/PrismGraphQLLargeSchemaTests",
            exclude: [
                "schema.graphqls", "Catalog.graphql", "Customers.graphql", "Fragments.graphql", "Nodes.graphql",
                "Orders.graphql", "Search.graphql", "GraphQLGenerated/operations.json",
            ]
        ),
        // Code the generator writes from the .graphql files here (committed in GraphQLGenerated: `make
        // graphql-generate`), run against the test server.
        .testTarget(
            name: "PrismGraphQLGeneratedTests",
            dependencies: ["PrismGraphQL", "PrismHTTP", "PrismTestServer", "PrismTestSupport"],
            path: "Packages/PrismGraphQLCodegen/Tests/PrismGraphQLGeneratedTests",
            exclude: [
                "schema.graphqls", "prism-graphql.json", "Counter.graphql", "Issues.graphql", "Names.graphql",
                "Shapes.graphql", "Tasks.graphql", "Uploads.graphql", "Users.graphql",
                "GraphQLGenerated/operations.json",
            ]
        ),

        // The HTTP test server: tests, benchmarks and the sample app's demo
        .target(
            name: "PrismTestServer",
            dependencies: [
                // HTTP dates (HTTPDate) and SHA-256, shared with PrismHTTP.
                "PrismSupport",
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
            ],
            path: "Tools/PrismTestServer/Sources/PrismTestServer"
        ),
        .executableTarget(
            name: "prism-test-server",
            dependencies: [
                "PrismTestServer",
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Tools/PrismTestServer/Sources/prism-test-server"
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
                "PrismSupport",
            ],
            path: "Tools/PrismTestServer/Tests/PrismTestServerTests"
        ),

        // What the tests share
        .target(
            name: "PrismTestSupport",
            dependencies: [
                "PrismSupport",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/PrismTestSupport/Sources/PrismTestSupport"
        ),

        // Umbrellas: re-exports only
        .target(
            name: "PrismArchitecture",
            dependencies: ["PrismEffects", "PrismStore", "PrismRouting", "PrismPersistence"],
            path: "Sources/PrismArchitecture"
        ),
        .target(
            name: "PrismNetwork",
            dependencies: ["PrismCache", "PrismHTTP", "PrismGraphQL", "PrismWebSocket"],
            path: "Sources/PrismNetwork"
        ),
        .target(
            name: "Prism",
            dependencies: ["PrismArchitecture", "PrismNetwork"],
            path: "Sources/Prism"
        ),

        // The sample app
        .executableTarget(
            name: "prism-sample",
            dependencies: [
                "Prism",
                "PrismInspector",
                "PrismNotesFeatures",
                "PrismTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Apps/PrismSample/Sources/PrismSample",
            exclude: ["GraphQL", "GraphQLGenerated/operations.json"]
        ),

        // The sample app
        .target(
            name: "PrismNotesFeatures",
            dependencies: ["PrismArchitecture"],
            path: "Apps/PrismNotes/Sources/PrismNotesFeatures"
        ),

        // The sample app
        .executableTarget(
            name: "prism-notes",
            dependencies: ["PrismArchitecture", "PrismNotesFeatures"],
            path: "Apps/PrismNotes/Sources/PrismNotes"
        ),

        // The HTTP caching conformance suite's way into the client's cache (CONTRIBUTING.md)
        .executableTarget(
            name: "prism-cache-proxy",
            dependencies: [
                "PrismHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Tools/CacheConformance/Sources/prism-cache-proxy",
            exclude: ["front.mjs"]
        ),

        // The fuzz targets (`make fuzz`, libFuzzer; CONTRIBUTING.md): one program, a target per parser, built
        // with -DPRISM_FUZZING and the fuzzer and address sanitizers, or as a replayer of saved inputs
        .executableTarget(
            name: "prism-fuzz",
            dependencies: [
                "PrismSupport",
                "PrismCache",
                "PrismHTTP",
                "PrismGraphQL",
                "PrismRouting",
                "PrismStore",
                "PrismPersistence",
                "PrismInspectorModel",
                "PrismGraphQLCodegen",
                // The reference parser the operation scanner is compared with.
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            path: "Tools/Fuzz/Sources/prism-fuzz"
        ),

        // The benchmarks (`make bench`, release): every figure beside a baseline of the same run
        .executableTarget(
            name: "PrismBenchmarks",
            dependencies: [
                "PrismArchitecture",
                "PrismNetwork",
                "PrismInspector",
                "PrismTestServer",
                // The code generator's speed on the large schema of its tests.
                "PrismGraphQLCodegen",
                // What the instruments cost a request with no backend (built with the Telemetry trait: make
                // bench turns it on).
                "PrismTelemetry",
                // The baselines: the raw transport Prism sends through on Linux, a page's raw WebSocket for
                // the inspector, and the raw WebSocket client PrismGraphQL uses.
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

        // Tests that span packages
        .testTarget(
            name: "PrismSampleTests",
            dependencies: [
                "Prism",
                "prism-sample",
                "PrismHTTPTesting",
                "PrismInspector",
                "PrismTesting",
                "PrismTestServer",
                "PrismTestSupport",
            ],
            path: "Apps/PrismSample/Tests/PrismSampleTests"
        ),

        // Tests that span packages
        .testTarget(
            name: "PrismNotesFeaturesTests",
            dependencies: ["PrismArchitecture", "PrismNotesFeatures", "PrismTesting"],
            path: "Apps/PrismNotes/Tests/PrismNotesFeaturesTests"
        ),
        .testTarget(
            name: "PrismSampleRecordedTests",
            dependencies: ["Prism", "prism-sample", "PrismTesting"],
            path: "Apps/PrismSample/Tests/PrismSampleRecordedTests"
        ),
        .testTarget(
            name: "PrismIntegrationTests",
            dependencies: [
                "Prism",
                "PrismArchitecture",
                "PrismNetwork",
                "PrismTesting",
                "PrismTestServer",
                "PrismTestSupport",
            ],
            path: "Tests/PrismIntegrationTests"
        ),

        // The documentation's own tests, run: each target's one source is a link to a file under Snippets/
        // (the Getting started article, the testing article, PrismTesting's and PrismHTTPTesting's pages,
        // README.md's), so the code the pages show is the code that runs. `make test-stress` runs them
        // hundreds of times beside busy cores.
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
            dependencies: ["PrismHTTP", "PrismHTTPTesting", "PrismStore", "PrismTesting"],
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
// Under make, executables and the test bundle also link with the toolchain's lld rather than
// gold: the test bundle (250 MB) in 1.4 s rather than 4.4 s, each snippet in 1 s rather than 1.9.
if Context.environment["PRISM_WARNINGS_AS_ERRORS"] == "1" {
    for target in package.targets where target.type != .plugin {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-warnings-as-errors"])]
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
    }
}
