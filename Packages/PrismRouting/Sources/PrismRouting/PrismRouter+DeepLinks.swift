import Foundation

extension PrismRouter {
    /// Shows the navigation state `url` maps to, replacing every layer in one change.
    ///
    /// Observers are notified once per layer that changes, like any other change. When the URL
    /// is not accepted, matches no pattern, or has a missing or malformed parameter, this throws
    /// and nothing changes.
    ///
    /// ```swift
    /// .onOpenURL { url in
    ///     do { try router.open(url, with: links) } catch { logger.notice("\(error)") }
    /// }
    /// ```
    ///
    /// - Throws: the errors of ``PrismDeepLinks/navigationState(for:)``.
    public func open(_ url: URL, with links: PrismDeepLinks<Route>) throws(PrismRoutingError) {
        state = try links.navigationState(for: url)
    }
}
