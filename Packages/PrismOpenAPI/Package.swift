// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
// Clients that swift-openapi-generator makes, sent through Prism's client. A package of its own, so that only
// an app that adds it fetches swift-openapi-runtime.
import PackageDescription

let package = Package(
    name: "PrismOpenAPI",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismOpenAPI", targets: ["PrismOpenAPI"])
    ],
    traits: [
        .trait(
            name: "OpenAPI",
            description:
                "PrismOpenAPI's transport for clients that swift-openapi-generator makes. Off by default: only a package that turns it on fetches swift-openapi-runtime."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(path: "../PrismHTTP"),
        .package(path: "../PrismHTTPTesting"),
        // Prism's local HTTP test server.
        .package(path: "../../Tools/PrismTestServer"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "PrismOpenAPI",
            dependencies: [
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                // The generator's runtime, with the OpenAPI trait only: an app that does not turn it on
                // fetches neither package.
                .product(
                    name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
            ]
        ),
        // A client swift-openapi-generator made from openapi.yaml (part of the test server's own API;
        // committed in OpenAPIGenerated, `make openapi-generate` writes it anew), run against the test server
        // and the stub transport.
        .testTarget(
            name: "PrismOpenAPITests",
            dependencies: [
                "PrismOpenAPI",
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                .product(name: "PrismHTTPTesting", package: "PrismHTTPTesting"),
                .product(name: "PrismTestServer", package: "PrismTestServer"),
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml", "OpenAPIGenerated/openapi.sha256"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
