// swift-tools-version: 6.0
// Prism's benchmarks. Run with `make bench` (release build). Every figure is printed next to a
// baseline measured in the same run, as a ratio, so that machines of different speeds agree.
import PackageDescription

let package = Package(
    name: "PrismBenchmarks",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "Prism", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "PrismBenchmarks",
            dependencies: [
                .product(name: "PrismArchitecture", package: "Prism")
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
