/// A child feature's place in its parent: the key path and, for an element of a collection or
/// an `Identifiable` optional child, its id.
///
/// - It is the cancellation id of every effect the child started: child effects run inside it,
///   and their own ids are scoped by it (see `PrismEffect.map(_:cancellationScope:)`), so copies
///   of one feature never cancel each other.
/// - It is the key of the store given out for the child (`store.scope(...)` on an element or an
///   optional child), so that asking again gives the same store.
@usableFromInline
struct PrismChildPlace: Hashable, @unchecked Sendable {
    // Key paths are immutable and the ids come from `Hashable & Sendable` values.
    @usableFromInline let path: AnyKeyPath
    @usableFromInline let id: AnyHashable?

    @usableFromInline
    init(path: AnyKeyPath, id: AnyHashable?) {
        self.path = path
        self.id = id
    }
}
