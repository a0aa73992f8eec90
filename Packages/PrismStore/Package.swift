// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PrismStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismStore", targets: ["PrismStore"])
    ],
    dependencies: [
        .package(path: "../PrismEffects")
    ],
    targets: [
        .target(name: "PrismStore", dependencies: ["PrismEffects"]),
        .testTarget(name: "PrismStoreTests", dependencies: ["PrismStore"]),
    ],
    swiftLanguageModes: [.v6]
)
