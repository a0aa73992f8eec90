/// A screen your app can navigate to: a value that a ``PrismRouter`` pushes, presents and
/// restores.
///
/// Routes are usually an enum with a case per screen and the screen's input as associated
/// values. Two equal routes are the same screen, so a route needs no identifier of its own:
/// conforming types get an ``id`` that is the route itself, which is what SwiftUI's
/// `.sheet(item:)` and `.fullScreenCover(item:)` need.
///
/// ```swift
/// enum AppRoute: PrismRoutable {
///     case home
///     case detail(id: String)
///     case settings
/// }
/// ```
///
/// A type that declares an `id` of its own keeps it. Add `Codable` to make the navigation state
/// restorable (see ``PrismNavigationState``).
public protocol PrismRoutable: Hashable, Identifiable, Sendable {}

extension PrismRoutable {
    /// The route itself, so that two equal routes have the same identity.
    ///
    /// Used when the conforming type does not declare an `id` of its own.
    public var id: Self { self }
}
