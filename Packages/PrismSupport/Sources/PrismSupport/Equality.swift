/// `==` for `T` when `T` turns out to be `Equatable` at run time, else `nil`.
///
/// The store is generic over any `Sendable` state; when the state is also `Equatable` it can
/// skip notifying observers of actions that changed nothing, and PrismPersistence can skip saving
/// a state equal to the one it saved last.
///
/// Inlinable so that, specialized for a concrete `T`, the cast folds away and the closure is a
/// direct call to `T.==`.
@inlinable
public func equality<T>(of _: T.Type) -> (@Sendable (T, T) -> Bool)? {
    guard let equatable = T.self as? any Equatable.Type else { return nil }
    return equatable.prismEquality(as: T.self)
}

extension Equatable {
    @inlinable
    static func prismEquality<T>(as _: T.Type) -> @Sendable (T, T) -> Bool {
        precondition(T.self == Self.self, "prismEquality(as:) must be asked for its own type")
        return { lhs, rhs in
            withUnsafePointer(to: lhs) { lhs in
                withUnsafePointer(to: rhs) { rhs in
                    lhs.withMemoryRebound(to: Self.self, capacity: 1) { lhs in
                        rhs.withMemoryRebound(to: Self.self, capacity: 1) { rhs in lhs.pointee == rhs.pointee }
                    }
                }
            }
        }
    }
}
