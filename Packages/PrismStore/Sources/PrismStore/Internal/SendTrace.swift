/// Where a send's call site waits for the reduce that logs it, while a tool that traces
/// (PrismInspector) is attached to the store tree. One per root store, shared by every store
/// scoped from it.
///
/// Costs a send one load and one branch while nobody traces (`isOn` false).
@MainActor
@usableFromInline
final class SendTrace {
    /// Whether sends note their call site.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var isOn = false
    /// The call site of the send under way, taken by the reduce that logs it.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var site: PrismCallSite?

    @usableFromInline
    nonisolated init() {}

    /// The site noted by the send under way, once.
    @usableFromInline
    func take() -> PrismCallSite? {
        defer { site = nil }
        return site
    }
}
