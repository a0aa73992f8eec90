/// `==` for `T` when `T` turns out to be `Equatable` at run time, else `nil`.
///
/// `PrismPersistMiddleware` is generic over any `Codable` state; when the state is also
/// `Equatable`, its writer skips a save of the state it saved last. (Called once per save, so
/// the dynamic cast costs nothing that matters.)
func equality<T>(of _: T.Type) -> (@Sendable (T, T) -> Bool)? {
    guard T.self is any Equatable.Type else { return nil }
    return { lhs, rhs in
        guard let lhs = lhs as? any Equatable else { return false }
        return lhs.isEqual(to: rhs)
    }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
