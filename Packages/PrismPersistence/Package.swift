// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
import PackageDescription

let package = Package(
    name: "PrismPersistence",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismPersistence", targets: ["PrismPersistence"])
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../PrismSupport"),
        .package(path: "../PrismStore"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "PrismPersistence",
            dependencies: [
                .product(name: "PrismSupport", package: "PrismSupport"),
                .product(name: "PrismStore", package: "PrismStore"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A command-line tool the tests run as a child process: saving in a loop to be killed, writing under
        // a file-size limit, using the keychain from another environment.
        .executableTarget(
            name: "PrismPersistenceTestHelper",
            dependencies: [
                .product(name: "PrismSupport", package: "PrismSupport"),
                "PrismPersistence",
            ]
        ),
        .testTarget(
            name: "PrismPersistenceTests",
            dependencies: [
                "PrismPersistence",
                "PrismPersistenceTestHelper",
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
