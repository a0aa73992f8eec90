import Foundation

extension PrismNavigationState {
    /// Replaces this state with the one `url` shows, or throws and leaves it unchanged.
    ///
    /// ```swift
    /// try state.navigation.open(url, with: AppDeepLinks.all)
    /// ```
    ///
    /// - Throws: the errors of ``PrismDeepLinks/navigationState(for:)``.
    public mutating func open(_ url: URL, with links: PrismDeepLinks<Route>) throws(PrismRoutingError) {
        self = try links.navigationState(for: url)
    }
}
