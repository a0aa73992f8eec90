import Foundation

/// A new empty folder (0700: the cache refuses one that others may use) in the temporary
/// directory, removed by `cleanUp`.
func makeFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("prism-cache-disk-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return folder
}

func cleanUp(_ folder: URL) {
    try? FileManager.default.removeItem(at: folder)
}

/// Runs `body` with a new empty folder (see ``makeFolder()``), and removes the folder afterwards.
func withFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
    let folder = try makeFolder()
    defer { cleanUp(folder) }
    return try await body(folder)
}

/// Runs `body` with two new empty folders (see ``makeFolder()``), and removes them afterwards.
func withFolders<T>(_ body: (URL, URL) async throws -> T) async throws -> T {
    try await withFolder { first in try await withFolder { second in try await body(first, second) } }
}
