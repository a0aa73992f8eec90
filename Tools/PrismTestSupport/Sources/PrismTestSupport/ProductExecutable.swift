import Foundation

/// An executable product built with the tests (a dependency of the test target), found in the
/// products folder next to the test bundle; the environment variable `override` names another.
///
/// ```swift
/// let helper = productExecutable(named: "PrismGraphQLTestHelper", override: "PRISM_GRAPHQL_TEST_HELPER")
/// ```
public func productExecutable(named name: String, override: String) -> URL {
    var folders: [URL] = []
    if let path = ProcessInfo.processInfo.environment[override] {
        let url = URL(fileURLWithPath: path)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    #if os(Linux)
    // Linux: the test bundle is an executable in the products folder.
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        folders.append(URL(fileURLWithPath: path).deletingLastPathComponent())
    }
    #endif
    // Apple platforms: <products>/<name>.xctest, which `Bundle.allBundles` may not list when Swift
    // Testing runs the tests; `Bundle(for:)` finds the bundle this code was linked into.
    let bundle = Bundle(for: ProductExecutableMarker.self).bundleURL.resolvingSymlinksInPath()
    folders += [bundle.deletingLastPathComponent(), bundle]
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        folders.append(bundle.bundleURL.deletingLastPathComponent())
    }
    folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    let candidates = folders.map { $0.appendingPathComponent(name) }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        fatalError(
            "\(name) was not found next to the test bundle (looked in \(candidates.map(\.path))). "
                + "Build it with `swift build --build-tests`, or set \(override) to its path.")
    }
    return found
}

private final class ProductExecutableMarker {}
