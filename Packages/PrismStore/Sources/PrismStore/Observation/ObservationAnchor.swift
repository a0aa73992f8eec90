import Observation

/// The subject every store names when it talks to its `ObservationRegistrar`.
///
/// A key path into a generic class (`\PrismStore<S, A>.state`) is built at run time on every
/// registrar call, which costs microseconds. A key path into this non-generic class is a
/// constant. The registrar keys observations by its own identity and the key path, never by
/// the subject, so one shared anchor serves every store.
@usableFromInline
final class ObservationAnchor: Observable, Sendable {
    @usableFromInline
    static let shared = ObservationAnchor()

    @usableFromInline
    var state: Int { 0 }

    /// `\.state`, made once: a key path literal costs a runtime call on every use.
    @usableFromInline
    nonisolated(unsafe) static let stateKeyPath: KeyPath<ObservationAnchor, Int> = \.state
}

/// An `ObservationRegistrar` with the anchor and its key path at hand.
///
/// `ObservationAnchor.shared` and its key path are lazy globals: each use is a call to
/// `swift_once`, which on Linux costs more than the rest of an unobserved registrar call. The
/// stores keep both next to their registrar instead, read as plain fields. A class: the
/// registrar's layout is resilient, and a struct holding it would be copied through its value
/// witnesses on every call. Not final: a `Watcher` is the registrar of what it watches.
@usableFromInline
class StateRegistrar: @unchecked Sendable {  // a registrar, a Sendable class and an immutable key path
    @usableFromInline
    final let registrar = ObservationRegistrar()
    @usableFromInline
    final let anchor = ObservationAnchor.shared
    @usableFromInline
    final let anchorKeyPath = ObservationAnchor.stateKeyPath

    @inlinable
    init() {}

    /// Records that the caller read the observed value (inside `withObservationTracking`).
    @inlinable
    final func accessState() {
        registrar.access(anchor, keyPath: anchorKeyPath)
    }

    @inlinable
    final func willSetState() {
        registrar.willSet(anchor, keyPath: anchorKeyPath)
    }

    @inlinable
    final func didSetState() {
        registrar.didSet(anchor, keyPath: anchorKeyPath)
    }

    @inlinable
    final func withStateMutation<T>(_ mutation: () throws -> T) rethrows -> T {
        try registrar.withMutation(of: anchor, keyPath: anchorKeyPath, mutation)
    }
}
