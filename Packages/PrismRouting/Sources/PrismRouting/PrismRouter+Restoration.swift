import Foundation

extension PrismRouter where Route: Codable {
    /// The whole navigation state as JSON, in the versioned envelope of
    /// ``PrismNavigationState/encoded()``, to save for the next launch.
    ///
    /// ```swift
    /// let data = try router.encodedState()
    /// try data.write(to: navigationFile)
    /// ```
    ///
    /// - Throws: ``PrismRoutingError`` with code ``PrismRoutingError/Code/encodingFailed`` when a
    ///   route's `encode(to:)` throws.
    public func encodedState() throws(PrismRoutingError) -> Data {
        try current.encoded()
    }

    /// Shows the navigation state saved in `data`, in one change, or throws and changes nothing.
    ///
    /// A saved path that this build cannot read (a route from an older version of the app, an
    /// envelope from a newer one, damaged data) is reported, never half-restored: catch the
    /// error and start at the root.
    ///
    /// ```swift
    /// if let data = try? Data(contentsOf: navigationFile) {
    ///     do { try router.restore(from: data) } catch { logger.notice("Not restoring: \(error)") }
    /// }
    /// ```
    ///
    /// - Throws: the errors of ``PrismNavigationState/init(restoringFrom:)``.
    public func restore(from data: Data) throws(PrismRoutingError) {
        state = try PrismNavigationState(restoringFrom: data)
    }
}
