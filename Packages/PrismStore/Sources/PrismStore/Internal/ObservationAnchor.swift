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

extension ObservationRegistrar {
    /// Records that the caller read the observed value (inside `withObservationTracking`).
    @inlinable
    func accessState() {
        access(ObservationAnchor.shared, keyPath: ObservationAnchor.stateKeyPath)
    }

    @inlinable
    func willSetState() {
        willSet(ObservationAnchor.shared, keyPath: ObservationAnchor.stateKeyPath)
    }

    @inlinable
    func didSetState() {
        didSet(ObservationAnchor.shared, keyPath: ObservationAnchor.stateKeyPath)
    }

    @inlinable
    func withStateMutation<T>(_ mutation: () throws -> T) rethrows -> T {
        try withMutation(of: ObservationAnchor.shared, keyPath: ObservationAnchor.stateKeyPath, mutation)
    }
}
