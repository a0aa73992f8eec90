import Observation

/// Something that a root store tells when its state changes, while somebody is looking.
///
/// A watcher registers with its root when its value is read and unregisters when the root
/// tells it about a change, the way `withObservationTracking` observes once. While no watcher
/// is registered (and nobody read the root's state), a send pays nothing for observation.
/// The root holds registered watchers strongly and their owners hold them too; the root
/// drops one that it alone still holds.
///
/// Not generic, so that the root's list of watchers and its loop over them compile to
/// concrete code even where the store's own types are not known.
@MainActor
class Watcher {
    let registrar: ObservationRegistrar
    @exclusivity(unchecked) var isRegistered = false

    init(registrar: ObservationRegistrar) {
        self.registrar = registrar
    }

    /// Whether the value this watcher projects differs in the root's state now, after a
    /// change. When it does, the watcher forgets the value it kept (see `ProjectionWatcher`).
    func hasChanged() -> Bool { true }
}

/// Watches `project(rootState)` for one scoped store, derived store or member read, caching
/// the last value it gave out so that reads between changes cost no projection.
///
/// It keeps that value only while registered, unless the value is plain data: a value kept
/// after the root stopped comparing with it would share the storage of the state's
/// collections, and the reducer's next change to one of them would copy it whole. It does not keep its root alive: whoever owns it does
/// (a scoped core, a derived store, or the core whose member reads it serves).
final class ProjectionWatcher<Root: Sendable, RootAction: Sendable, Value>: Watcher {
    /// Not retained: every owner of a watcher keeps the root alive (see above), and a
    /// retain on each read and check would cost more than the check (the root is weakly
    /// referenced by its effects, so its retains take the runtime's slow path).
    private let unmanagedRoot: Unmanaged<RootCore<Root, RootAction>>
    private let project: (Root) -> Value
    private let isEqual: ((Value, Value) -> Bool)?
    /// The value last given out while registered, when `hasCached`. A pointer rather than an
    /// optional: this code runs unspecialized, and `Optional<Value>` would cost a metadata
    /// lookup on every access.
    private nonisolated(unsafe) let cached: UnsafeMutablePointer<Value>
    @exclusivity(unchecked) private nonisolated(unsafe) var hasCached = false
    @exclusivity(unchecked) private var cachedVersion: UInt64 = 0
    /// Whether the value is plain data (no references): then it is kept after a change too.
    private let keepsWhenUnregistered = _isPOD(Value.self)

    init(
        root: RootCore<Root, RootAction>,
        project: @escaping (Root) -> Value,
        isEqual: ((Value, Value) -> Bool)?,
        registrar: ObservationRegistrar
    ) {
        self.unmanagedRoot = Unmanaged.passUnretained(root)
        self.project = project
        self.isEqual = isEqual
        self.cached = .allocate(capacity: 1)
        super.init(registrar: registrar)
    }

    deinit {
        if hasCached { cached.deinitialize(count: 1) }
        cached.deallocate()
    }

    func read() -> Value {
        unmanagedRoot._withUnsafeGuaranteedRef { read(root: $0) }
    }

    private func read(root: RootCore<Root, RootAction>) -> Value {
        let version = root.version
        let value: Value
        if hasCached && cachedVersion == version {
            // Nothing changed since the value was kept (the version counts every change).
            value = cached.pointee
        } else {
            value = project(root.state)
            if isEqual != nil {
                // Only an Equatable value is compared after a change; others are not kept.
                keep(value, version: version)
            }
        }
        if !isRegistered {
            isRegistered = true
            root.register(self)
        }
        return value
    }

    override func hasChanged() -> Bool {
        unmanagedRoot._withUnsafeGuaranteedRef { hasChanged(root: $0) }
    }

    private func hasChanged(root: RootCore<Root, RootAction>) -> Bool {
        guard hasCached, let isEqual else { return true }
        let value = project(root.state)
        if isEqual(cached.pointee, value) {
            cached.pointee = value
            cachedVersion = root.version
            return false
        }
        if keepsWhenUnregistered {
            // A plain value (a count, a flag) shares no storage with the state: keeping it
            // spares the observer's next read a projection.
            cached.pointee = value
            cachedVersion = root.version
        } else {
            cached.deinitialize(count: 1)
            hasCached = false
        }
        return true
    }

    private func keep(_ value: Value, version: UInt64) {
        if hasCached {
            cached.pointee = value
        } else {
            cached.initialize(to: value)
            hasCached = true
        }
        cachedVersion = version
    }
}
