/// The cancellation id of every effect one child feature started: the child's place in its
/// parent (the key path) and, for an element of a collection or an `Identifiable` optional
/// child, its id. Child effects run inside it, and their own ids are scoped by it (see
/// `PrismEffect.map(_:cancellationScope:)`), so copies of one feature never cancel each other.
@usableFromInline
struct PrismChildEffectID: Hashable, @unchecked Sendable {
    // Key paths are immutable and the ids come from `Hashable & Sendable` values.
    @usableFromInline let path: AnyKeyPath
    @usableFromInline let id: AnyHashable?

    @usableFromInline
    init(path: AnyKeyPath, id: AnyHashable?) {
        self.path = path
        self.id = id
    }
}
