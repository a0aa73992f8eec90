// swift-tools-version: 6.0
// The umbrella manifest. Every module is a target whose sources live in its own package under
// Packages/ (each of which also builds and tests alone); this manifest lets one build run every
// test, and lets users depend on the repository by URL and pick any product.
import PackageDescription

let package = Package(
    name: "Prism",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "Prism", targets: ["Prism"]),
        .library(name: "PrismArchitecture", targets: ["PrismArchitecture"]),
        .library(name: "PrismEffects", targets: ["PrismEffects"]),
        .library(name: "PrismStore", targets: ["PrismStore"]),
        .library(name: "PrismRouting", targets: ["PrismRouting"]),
        .library(name: "PrismPersistence", targets: ["PrismPersistence"]),
        .library(name: "PrismTesting", targets: ["PrismTesting"]),
        .library(name: "PrismCache", targets: ["PrismCache"]),
        .executable(name: "prism-sample", targets: ["PrismSample"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay.git", from: "1.13.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump.git", from: "1.7.0"),
    ],
    targets: [
        // Architecture
        .target(name: "PrismEffects", path: "Packages/PrismEffects/Sources/PrismEffects"),
        .target(
            name: "PrismStore",
            dependencies: ["PrismEffects"],
            path: "Packages/PrismStore/Sources/PrismStore"
        ),
        .target(name: "PrismRouting", path: "Packages/PrismRouting/Sources/PrismRouting"),
        .systemLibrary(
            name: "CLibSecret",
            path: "Packages/PrismPersistence/Sources/CLibSecret",
            pkgConfig: "glib-2.0",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        .target(
            name: "PrismPersistence",
            dependencies: [
                "PrismStore",
                .product(name: "Logging", package: "swift-log"),
                .target(name: "CLibSecret", condition: .when(platforms: [.linux])),
            ],
            path: "Packages/PrismPersistence/Sources/PrismPersistence"
        ),
        .executableTarget(
            name: "PrismPersistenceTestHelper",
            dependencies: ["PrismPersistence", .target(name: "CLibSecret", condition: .when(platforms: [.linux]))],
            path: "Packages/PrismPersistence/Sources/PrismPersistenceTestHelper"
        ),
        .target(
            name: "PrismTesting",
            dependencies: [
                "PrismStore",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ],
            path: "Packages/PrismTesting/Sources/PrismTesting"
        ),

        // Networking
        .target(name: "PrismCache", path: "Packages/PrismCache/Sources/PrismCache"),

        // Umbrellas: re-exports only
        .target(
            name: "PrismArchitecture",
            dependencies: ["PrismEffects", "PrismStore", "PrismRouting", "PrismPersistence"],
            path: "Sources/PrismArchitecture"
        ),
        .target(name: "Prism", dependencies: ["PrismArchitecture"], path: "Sources/Prism"),

        // The sample app
        .executableTarget(name: "PrismSample", dependencies: ["Prism"], path: "Apps/PrismSample/Sources/PrismSample"),

        // Tests
        .testTarget(
            name: "PrismEffectsTests",
            dependencies: ["PrismEffects"],
            path: "Packages/PrismEffects/Tests/PrismEffectsTests"
        ),
        .testTarget(
            name: "PrismStoreTests",
            dependencies: ["PrismStore"],
            path: "Packages/PrismStore/Tests/PrismStoreTests"
        ),
        .testTarget(
            name: "PrismPersistenceTests",
            dependencies: ["PrismPersistence", "PrismPersistenceTestHelper"],
            path: "Packages/PrismPersistence/Tests/PrismPersistenceTests"
        ),
        .testTarget(
            name: "PrismRoutingTests",
            dependencies: ["PrismRouting"],
            path: "Packages/PrismRouting/Tests/PrismRoutingTests"
        ),
        .testTarget(
            name: "PrismTestingTests",
            dependencies: ["PrismTesting"],
            path: "Packages/PrismTesting/Tests/PrismTestingTests"
        ),
        .testTarget(
            name: "PrismCacheTests",
            dependencies: ["PrismCache"],
            path: "Packages/PrismCache/Tests/PrismCacheTests"
        ),
        .testTarget(
            name: "PrismIntegrationTests",
            dependencies: ["Prism", "PrismArchitecture"],
            path: "Tests/PrismIntegrationTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
