import Dependencies
import Foundation
import PrismSupport

/// Where shared values live: the one value of each key, and where persisted keys save.
///
/// A ``PrismShared`` finds its value in the storage of the dependencies in effect where it is
/// made (`@Dependency(\.prismSharedStorage)`):
///
/// - In an app, one storage for the process: every state that holds `.inMemory("cart")` holds
///   the same cart, and persisted keys save where they say.
/// - In tests (Swift Testing or XCTest), a new storage for each test: two tests, even running
///   in parallel, never see each other's shared values, and persisted keys save in a temporary
///   folder of the test's own (``isolatedDirectory``) instead of the app's files, defaults or
///   keychain.
///
/// To give a part of an app (a second window's store tree, a preview) storage of its own, make
/// its state with another storage in effect:
///
/// ```swift
/// let state = withDependencies {
///     $0.prismSharedStorage = PrismSharedStorage()
/// } operation: {
///     AppState()
/// }
/// ```
///
/// A storage keeps each value, and what persists it, for as long as it lives.
public final class PrismSharedStorage: Sendable {
    /// Where persisted keys save instead of their own place, or nil to save where they say.
    ///
    /// Set for the storage of each test: a fresh temporary folder, made on first use.
    public let isolatedDirectory: URL?

    private struct Entry {
        let box: AnyObject
        let valueType: Any.Type
        let flush: (@Sendable () async throws -> Void)?
    }

    private let entries = PrismLocked<[String: Entry]>([:])
    /// Whether the storage removes `isolatedDirectory` when it ends (``temporary()``'s do).
    private let removesIsolatedDirectory: Bool

    /// A storage of its own; persisted keys save where they say, or, with `isolatedDirectory`,
    /// in that folder (which stays: it is yours).
    public init(isolatedDirectory: URL? = nil) {
        self.isolatedDirectory = isolatedDirectory
        removesIsolatedDirectory = false
    }

    private init(temporaryDirectory: URL) {
        isolatedDirectory = temporaryDirectory
        removesIsolatedDirectory = true
    }

    /// A storage whose persisted keys save in a new temporary folder: what each test gets.
    ///
    /// Nothing of it is left behind: the folder is removed when the storage ends (once the saves
    /// it started have ended), and at the latest when the process exits; the folders of a
    /// process that crashed are removed by the next process that makes one.
    public static func temporary() -> PrismSharedStorage {
        PrismSharedStorage(temporaryDirectory: TemporarySharedFolders.newFolder())
    }

    deinit {
        guard removesIsolatedDirectory, let folder = isolatedDirectory else { return }
        let flushes = entries.withLock { $0.values.compactMap(\.flush) }
        guard !flushes.isEmpty else {
            TemporarySharedFolders.remove(folder)
            return
        }
        // A save still under way would make the folder again after it was removed.
        Task.detached {
            for flush in flushes { try? await flush() }
            TemporarySharedFolders.remove(folder)
        }
    }

    /// The value of `key`, made from its backing's load or `defaultValue` if this storage has
    /// none yet.
    func box<Key: PrismSharedKey>(for key: Key, default defaultValue: () -> Key.Value) -> SharedBox<Key.Value> {
        let id = key.id
        return entries.withLock { entries in
            if let entry = entries[id] {
                guard let box = entry.box as? SharedBox<Key.Value> else {
                    preconditionFailure(
                        """
                        PrismShared: the key '\(id)' holds a \(entry.valueType), not a \(Key.Value.self). \
                        Give each shared value's key a name of its own.
                        """
                    )
                }
                return box
            }
            let backing = key.makeBacking(in: self)
            let box = SharedBox(value: backing?.load() ?? defaultValue(), id: id)
            if let backing {
                box.backing = backing
                backing.attach { [weak box] in box?.value }
                backing.observeOutsideChanges { [weak box] value in box?.replaceFromOutside(value) }
            }
            var flush: (@Sendable () async throws -> Void)?
            if let backing {
                flush = { try await backing.flush() }
            }
            entries[id] = Entry(box: box, valueType: Key.Value.self, flush: flush)
            return box
        }
    }

    /// Saves the latest value of every persisted key now and returns when they are saved; throws
    /// the first error (each is also reported by its key).
    ///
    /// Persisted values save on their own, coalesced, and on exit; flush when the app must know
    /// they are written (it moves to the background, a test reads the file).
    public func flush() async throws {
        let flushes = entries.withLock { $0.values.compactMap(\.flush) }
        var firstError: (any Error)?
        for flush in flushes {
            do { try await flush() } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }

    /// The ids of the values this storage holds.
    public var keys: [String] {
        entries.withLock { $0.keys.sorted() }
    }
}

private enum PrismSharedStorageKey: DependencyKey {
    static var liveValue: PrismSharedStorage { PrismSharedStorage() }
    static var testValue: PrismSharedStorage { PrismSharedStorage.temporary() }
}

extension DependencyValues {
    /// The storage that shared values made here find their value in (see
    /// ``PrismSharedStorage``): one per process in an app, one per test in tests.
    public var prismSharedStorage: PrismSharedStorage {
        get { self[PrismSharedStorageKey.self] }
        set { self[PrismSharedStorageKey.self] = newValue }
    }
}
