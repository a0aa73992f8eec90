// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
import PackageDescription

let package = Package(
    name: "PrismStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismStore", targets: ["PrismStore"])
    ],
    dependencies: [
        // Prism's own plumbing, shared by its packages.
        .package(path: "../PrismSupport"),
        .package(path: "../PrismEffects"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay.git", from: "1.13.1"),
        .package(url: "https://github.com/pointfreeco/swift-identified-collections.git", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        // Case key paths (`action: \.detail` on a `@CasePathable` enum). CasePathsCore only: the macro, and
        // swift-syntax with it, is built only by users who add CasePaths themselves.
        .package(url: "https://github.com/pointfreeco/swift-case-paths.git", from: "1.10.0"),
        // Dependencies a test overrides per store (clocks, dates, UUIDs, ...). Only its Clocks and Foundation
        // traits: CombineSchedulers (OpenCombine on Linux) stays out of the graph.
        .package(
            url: "https://github.com/pointfreeco/swift-dependencies.git", from: "1.17.1",
            traits: ["Clocks", "Foundation"]),
    ],
    targets: [
        .target(
            name: "PrismStore",
            dependencies: [
                .product(name: "PrismEffects", package: "PrismEffects"),
                .product(name: "PrismSupport", package: "PrismSupport"),
                // IdentifiedArray: the collection `forEach` runs a child feature for each element of.
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                // OrderedDictionary, under PrismIdentifiedCollection.
                .product(name: "OrderedCollections", package: "swift-collections"),
                // TreeDictionary: PrismRows finds a row's place by its id in a persistent hash trie that
                // history snapshots share.
                .product(name: "HashTreeCollections", package: "swift-collections"),
                // CaseKeyPath and CasePathable, for `action: \.detail`.
                .product(name: "CasePathsCore", package: "swift-case-paths"),
                // Runtime warnings, e.g. for an action sent to a child feature that is not there.
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                // The dependencies a store gives its reducer and effects.
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
        .testTarget(
            name: "PrismStoreTests",
            dependencies: [
                "PrismStore",
                // Lets IssueReporting's warnings reach Swift Testing on Linux (withKnownIssue).
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
