// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
// Prism's own plumbing, shared by its packages: one lock, HTTP dates, hexadecimal, SHA-256, duration
// arithmetic. Not a product of the root package and not API: its declarations are public only because a
// nested package cannot see another's `package` ones.
import PackageDescription

let package = Package(
    name: "PrismSupport",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PrismSupport", targets: ["PrismSupport"])
    ],
    targets: [
        .target(name: "CPrismSHA256"),
        .target(
            name: "PrismSupport",
            dependencies: [
                // SHA-256's compression function in C: a debug build of it in Swift hashes 7 MB/s, in C 100
                // MB/s (release: both about 210).
                "CPrismSHA256"
            ]
        ),
        .testTarget(
            name: "PrismSupportTests",
            dependencies: ["PrismSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
