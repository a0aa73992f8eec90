// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PrismCache",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismCache", targets: ["PrismCache"])
    ],
    targets: [
        .target(name: "PrismCache"),
        .testTarget(name: "PrismCacheTests", dependencies: ["PrismCache"]),
    ],
    swiftLanguageModes: [.v6]
)
