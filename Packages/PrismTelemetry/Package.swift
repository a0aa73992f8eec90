// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
// Metrics (swift-metrics) and traces (swift-distributed-tracing) of what Prism's clients do. Behind the
// Telemetry trait, off by default: an app that does not turn it on fetches neither package.
import PackageDescription

let package = Package(
    name: "PrismTelemetry",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismTelemetry", targets: ["PrismTelemetry"])
    ],
    traits: [
        .trait(
            name: "Telemetry",
            description:
                "PrismTelemetry's instruments: swift-metrics counters and timers, swift-distributed-tracing spans. Off by default: only a package that turns it on fetches swift-metrics, and swift-distributed-tracing unless AsyncHTTPClient (the AsyncHTTPClient trait) brings it."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(path: "../PrismEffects"),
        .package(path: "../PrismStore"),
        .package(path: "../PrismHTTP"),
        .package(path: "../PrismGraphQL"),
        // Prism's local HTTP test server.
        .package(path: "../../Tools/PrismTestServer"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    ],
    targets: [
        .target(
            name: "PrismTelemetry",
            dependencies: [
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                .product(name: "PrismStore", package: "PrismStore"),
                .product(name: "PrismEffects", package: "PrismEffects"),
                // The two APIs a backend (Prometheus, OpenTelemetry, ...) is bootstrapped behind, with the
                // Telemetry trait only.
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Telemetry"])),
                .product(
                    name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Telemetry"])),
            ]
        ),
        // The instruments against the test server, measured by the packages' own in-memory backends.
        .testTarget(
            name: "PrismTelemetryTests",
            dependencies: [
                "PrismTelemetry",
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                .product(name: "PrismGraphQL", package: "PrismGraphQL"),
                .product(name: "PrismStore", package: "PrismStore"),
                .product(name: "PrismEffects", package: "PrismEffects"),
                .product(name: "PrismTestServer", package: "PrismTestServer"),
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
