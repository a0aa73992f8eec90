import Observation

/// Something that a root store tells when its state changes, while somebody is looking; the
/// registrar of whoever reads through it.
///
/// A watcher registers with its root when its value is read and is told about the next change,
/// once, the way `withObservationTracking` observes once. It stays in the root's list after
/// being told, unregistered, so that the read that usually follows registers it again without
/// touching the list; a send that finds it still unregistered drops it. While no watcher is
/// listed (and nobody read the root's state), a send pays nothing for observation. The root
/// holds listed watchers strongly and their owners hold them too; the root drops one that it
/// alone still holds.
///
/// Not generic, so that the root's list of watchers and its loop over them compile to
/// concrete code even where the store's own types are not known.
@MainActor
@usableFromInline
class Watcher: StateRegistrar, @unchecked Sendable {  // isolated to the main actor
    /// Whether the root tells this watcher about the next change (somebody read it since the
    /// last change it was told about).
    @usableFromInline
    @exclusivity(unchecked) var isRegistered = false
    /// Whether the root's list holds this watcher (registered, or told and not read since).
    @usableFromInline
    @exclusivity(unchecked) var isListed = false
    /// Whether the value this watcher projects differs in the root's state now, after a
    /// change; when it does, the watcher forgets the value it kept (see `ProjectionWatcher`).
    /// Called with the watcher and its root. A function rather than an overridable method: a
    /// member watcher's is made where its types are known and runs specialized, which an
    /// override in a generic class never does.
    @usableFromInline
    let hasChanged: @MainActor (Watcher, AnyObject) -> Bool

    @usableFromInline
    init(hasChanged: @escaping @MainActor (Watcher, AnyObject) -> Bool) {
        self.hasChanged = hasChanged
    }
}

/// Watches one member of a root store's state, `store.count`: what a view reads most.
///
/// The same rules as `ProjectionWatcher`, made in the member subscript's inlined code and so
/// specialized for the state's and the member's types: a stored member is read at its offset
/// in the state (no key path walk, no copy of the state), compared without a box, and kept in
/// place. It holds no reference to its root: the root passes itself to every call (it owns the
/// watcher through `RootCore.memberWatchers`), which spares a retain of the root per call.
@usableFromInline
final class MemberWatcher<Root: Sendable, RootAction: Sendable, Value>: Watcher, @unchecked Sendable {
    @usableFromInline
    let keyPath: KeyPath<Root, Value>
    /// The member's offset in the state when it is stored (`MemoryLayout.offset(of:)`), else -1.
    @usableFromInline
    let offset: Int
    @usableFromInline
    let isEqual: ((Value, Value) -> Bool)?
    @usableFromInline
    @exclusivity(unchecked) var cached: Value?
    @usableFromInline
    @exclusivity(unchecked) var cachedVersion: UInt64 = 0
    /// Whether the member is read through a shared value (``PrismShared``): it can change
    /// without a send, so `cached` is kept for `changed(root:)` only, never served.
    @usableFromInline
    @exclusivity(unchecked) var readsShared = false

    /// `hasChanged` is this watcher's `changed(root:)`, made by the inlined code that makes the
    /// watcher (a closure made in this initializer would not be specialized).
    @inlinable
    init(
        keyPath: KeyPath<Root, Value>,
        isEqual: ((Value, Value) -> Bool)?,
        hasChanged: @escaping @MainActor (Watcher, AnyObject) -> Bool
    ) {
        self.keyPath = keyPath
        self.offset = MemoryLayout<Root>.offset(of: keyPath) ?? -1
        self.isEqual = isEqual
        super.init(hasChanged: hasChanged)
    }

    /// The member in `root`'s state now.
    @inlinable
    func current(in root: RootCore<Root, RootAction>) -> Value {
        if offset >= 0 {
            return UnsafeRawPointer(root.statePointer).advanced(by: offset)
                .assumingMemoryBound(to: Value.self).pointee
        }
        return root.statePointer.pointee[keyPath: keyPath]
    }

    @inlinable
    func read(root: RootCore<Root, RootAction>) -> Value {
        let value: Value
        if !readsShared, let cached, cachedVersion == root.version {
            // Nothing changed since the value was kept (the version counts every change).
            value = cached
        } else if offset >= 0 {
            value = current(in: root)
            if isEqual != nil {
                cached = value
                cachedVersion = root.version
            }
        } else {
            // A computed member: it may read a shared value.
            let probe = SharedReads.beginProbe()
            value = current(in: root)
            if SharedReads.endProbe(probe) { readsShared = true }
            if isEqual != nil {
                // Only an Equatable value is compared after a change; others are not kept.
                cached = value
                cachedVersion = root.version
            }
        }
        if !isRegistered {
            isRegistered = true
            if !isListed { root.register(self) }
        }
        return value
    }

    @inlinable
    func changed(root: RootCore<Root, RootAction>) -> Bool {
        guard let isEqual, let kept = cached else { return true }
        let value = current(in: root)
        if isEqual(kept, value) {
            cachedVersion = root.version
            return false
        }
        if _isPOD(Value.self) {
            // A plain value (a count, a flag) shares no storage with the state: keeping it
            // spares the observer's next read a projection.
            cached = value
            cachedVersion = root.version
        } else {
            cached = nil
        }
        return true
    }
}

/// Watches `project(rootState)` for one scoped store, derived store or member read, caching
/// the last value it gave out so that reads between changes cost no projection.
///
/// It keeps that value only while registered, unless the value is plain data: a value kept
/// after the root stopped comparing with it would share the storage of the state's
/// collections, and the reducer's next change to one of them would copy it whole. It does not keep its root alive: whoever owns it does
/// (a scoped core, a derived store, or the core whose member reads it serves).
final class ProjectionWatcher<Root: Sendable, RootAction: Sendable, Value>: Watcher, @unchecked Sendable {
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
    /// Whether the projection reads a shared value (``PrismShared``): it can change without a
    /// send, so the kept value is for `projectionChanged()` only, never served.
    @exclusivity(unchecked) private var readsShared = false

    init(
        root: RootCore<Root, RootAction>,
        project: @escaping (Root) -> Value,
        isEqual: ((Value, Value) -> Bool)?
    ) {
        self.unmanagedRoot = Unmanaged.passUnretained(root)
        self.project = project
        self.isEqual = isEqual
        self.cached = .allocate(capacity: 1)
        super.init { watcher, _ in
            unsafeDowncast(watcher, to: ProjectionWatcher<Root, RootAction, Value>.self).projectionChanged()
        }
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
        if hasCached && cachedVersion == version && !readsShared {
            // Nothing changed since the value was kept (the version counts every change).
            value = cached.pointee
        } else {
            let probe = SharedReads.beginProbe()
            value = project(root.state)
            if SharedReads.endProbe(probe) { readsShared = true }
            if isEqual != nil {
                // Only an Equatable value is compared after a change; others are not kept.
                keep(value, version: version)
            }
        }
        if !isRegistered {
            isRegistered = true
            if !isListed { root.register(self) }
        }
        return value
    }

    func projectionChanged() -> Bool {
        unmanagedRoot._withUnsafeGuaranteedRef { projectionChanged(root: $0) }
    }

    private func projectionChanged(root: RootCore<Root, RootAction>) -> Bool {
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
