// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PrismGraphQL",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismGraphQL", targets: ["PrismGraphQL"])
    ],
    dependencies: [
        .package(path: "../PrismCache"),
        .package(path: "../PrismHTTP"),
        .package(path: "../../Tools/PrismTestServer"),
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
    ],
    targets: [
        .target(
            name: "PrismGraphQL",
            dependencies: [
                .product(name: "PrismCache", package: "PrismCache"),
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                // SHA-256 for automatic persisted queries (CryptoKit underneath on Apple platforms).
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "PrismGraphQLTests",
            dependencies: [
                "PrismGraphQL",
                .product(name: "PrismTestServer", package: "PrismTestServer"),
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
