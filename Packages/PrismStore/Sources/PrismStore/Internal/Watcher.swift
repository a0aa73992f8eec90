import Observation

/// Something that a root store tells when its state changes, while somebody is looking.
///
/// A watcher registers with its root when its value is read and unregisters when the root
/// tells it about a change, the way `withObservationTracking` observes once. While no watcher
/// is registered (and nobody read the root's state), a send pays nothing for observation.
@MainActor
class Watcher<Root> {
    let registrar: ObservationRegistrar
    var isRegistered = false

    init(registrar: ObservationRegistrar) {
        self.registrar = registrar
    }

    /// Whether the value this watcher projects differs in `next`, the state about to become
    /// `version`.
    func hasChanged(in next: Root, version: UInt64) -> Bool { true }

    /// Makes `state` (at `version`) the value the next change is compared with.
    func rebase(on state: Root, version: UInt64) {}
}

struct WeakWatcher<Root> {
    weak var watcher: Watcher<Root>?
}

/// Watches `project(rootState)` for one scoped or derived store, caching the last value it
/// gave out so that reads between changes cost no projection.
final class ProjectionWatcher<Root: Sendable, RootAction: Sendable, Value>: Watcher<Root> {
    private let root: RootCore<Root, RootAction>
    private let project: (Root) -> Value
    private let isEqual: ((Value, Value) -> Bool)?
    private var cached: Value?
    private var cachedVersion: UInt64 = 0

    init(
        root: RootCore<Root, RootAction>,
        project: @escaping (Root) -> Value,
        isEqual: ((Value, Value) -> Bool)?,
        registrar: ObservationRegistrar
    ) {
        self.root = root
        self.project = project
        self.isEqual = isEqual
        super.init(registrar: registrar)
    }

    func read() -> Value {
        let version = root.version
        let value: Value
        if let cached, cachedVersion == version {
            value = cached
        } else {
            value = project(root.state)
            cached = value
            cachedVersion = version
        }
        if !isRegistered {
            isRegistered = true
            root.register(self)
        }
        return value
    }

    override func rebase(on state: Root, version: UInt64) {
        cached = project(state)
        cachedVersion = version
    }

    override func hasChanged(in next: Root, version: UInt64) -> Bool {
        guard let isEqual, let previous = cached else {
            cached = nil
            return true
        }
        let value = project(next)
        cached = value
        cachedVersion = version
        return !isEqual(previous, value)
    }
}
