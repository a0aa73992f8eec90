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
        var flush: (@Sendable () async throws -> Void)?
        /// Whether the value came from a decoded state before any holder made with the key:
        /// the key's first holder gives it its backing (``box(for:default:)``).
        var awaitsKey = false
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
        let (box, lateBacking) = entries.withLock {
            entries -> (SharedBox<Key.Value>, (any PrismSharedBacking<Key.Value>)?) in
            if let entry = entries[id] {
                guard let box = entry.box as? SharedBox<Key.Value> else {
                    preconditionFailure(
                        """
                        PrismShared: the key '\(id)' holds a \(entry.valueType), not a \(Key.Value.self). \
                        Give each shared value's key a name of its own.
                        """
                    )
                }
                guard entry.awaitsKey else { return (box, nil) }
                // The value came from a decoded state: the key's backing joins it now.
                entries[id]?.awaitsKey = false
                let backing = key.makeBacking(in: self)
                if let backing { entries[id]?.flush = { try await backing.flush() } }
                return (box, backing)
            }
            let backing = key.makeBacking(in: self)
            let box = SharedBox(value: backing?.load() ?? defaultValue(), id: id)
            if let backing { Self.connect(box, to: backing) }
            var flush: (@Sendable () async throws -> Void)?
            if let backing {
                flush = { try await backing.flush() }
            }
            entries[id] = Entry(box: box, valueType: Key.Value.self, flush: flush)
            return (box, nil)
        }
        if let lateBacking {
            // Its saved value, when it has one, replaces the decoded one (the key's own place is
            // the one source of its value); a change saves as for any key. On the main actor,
            // where values change.
            let saved = lateBacking.load()
            let attach: @Sendable () -> Void = {
                Self.connect(box, to: lateBacking)
                if let saved { box.replaceFromOutside(saved) }
            }
            if PrismMainExecutor.isCurrent { attach() } else { Task { @MainActor in attach() } }
        }
        return box
    }

    /// Makes `backing` the one `box` tells of its changes and hears outside changes from.
    private static func connect<Value>(_ box: SharedBox<Value>, to backing: any PrismSharedBacking<Value>) {
        box.backing = backing
        backing.attach { [weak box] in box?.value }
        backing.observeOutsideChanges { [weak box] value in box?.replaceFromOutside(value) }
    }

    /// The value of the key whose id is `id`, for a decoded ``PrismShared``: the storage's value
    /// when it has one (nil when that is not a `Value`), else `written`, which the key's first
    /// holder made later keeps (see ``PrismShared/init(from:)``).
    func box<Value: Sendable>(joining id: String, written: Value) -> SharedBox<Value>? {
        entries.withLock { entries in
            if let entry = entries[id] { return entry.box as? SharedBox<Value> }
            let box = SharedBox(value: written, id: id)
            entries[id] = Entry(box: box, valueType: Value.self, flush: nil, awaitsKey: true)
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
