// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PrismEffects",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismEffects", targets: ["PrismEffects"])
    ],
    dependencies: [
        // TestClock, for the tests only: PrismEffects itself depends on nothing.
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1")
    ],
    targets: [
        .target(name: "PrismEffects"),
        .testTarget(
            name: "PrismEffectsTests",
            dependencies: ["PrismEffects", .product(name: "Clocks", package: "swift-clocks")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
