// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
import PackageDescription

let package = Package(
    name: "PrismHTTP",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismHTTP", targets: ["PrismHTTP"])
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description:
                "PrismHTTP's AsyncHTTPClient transport, the default on Linux. Without it PrismHTTP sends with URLSession (FoundationNetworking on Linux)."
        ),
        .default(enabledTraits: ["AsyncHTTPClient"]),
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../PrismSupport"),
        .package(path: "../PrismCache"),
        // Prism's local HTTP test server.
        .package(path: "../../Tools/PrismTestServer"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    ],
    targets: [
        .target(name: "CPrismZlib"),
        .target(
            name: "PrismHTTP",
            dependencies: [
                .product(name: "PrismCache", package: "PrismCache"),
                .product(name: "PrismSupport", package: "PrismSupport"),
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
            ]
        ),
        .testTarget(
            name: "PrismHTTPTests",
            dependencies: [
                "PrismHTTP",
                .product(name: "PrismCache", package: "PrismCache"),
                .product(name: "PrismSupport", package: "PrismSupport"),
                .product(name: "PrismTestServer", package: "PrismTestServer"),
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
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
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
