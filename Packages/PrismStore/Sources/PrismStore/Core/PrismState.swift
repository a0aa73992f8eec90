/// A convenience for feature state: `Sendable` and `Equatable`.
///
/// Conforming is optional; a store works with any `Sendable` state. `Equatable` state lets the
/// store notify observers only when an action really changed something.
///
/// ```swift
/// struct AppState: PrismState {
///     var users: [User] = []
///     var selectedFilter: Filter = .all
/// }
/// ```
public protocol PrismState: Sendable, Equatable {}
