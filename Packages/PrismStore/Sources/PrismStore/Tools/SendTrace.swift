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
    /// Where the action under way came from, taken by the reduce that logs it.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var origin = ActionOrigin.unknown

    /// What an instrument runs each send inside (a span), with the action sent: set by
    /// `PrismStoreTools.instrument(aroundSend:aroundEffect:)`, on only while set.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var aroundSend: (@MainActor (_ action: Any, _ send: () -> PrismEffectTask) -> PrismEffectTask)?

    @usableFromInline
    nonisolated init() {}

    /// Notes a `send` made at `site`.
    @inlinable
    func noteSend(at site: PrismCallSite) {
        origin = ActionOrigin(site: site, byEffect: false)
    }

    /// The origin noted for the action under way, once.
    @inlinable
    func take() -> ActionOrigin {
        let taken = origin
        origin = .unknown
        return taken
    }
}

/// Where an action came from, as a tool that traces sees it: the call site, and whether an
/// effect sent it (then the site is where the effect was made, when known).
@usableFromInline
struct ActionOrigin: Sendable {
    @usableFromInline
    var site: PrismCallSite?
    /// Whether an effect sent the action (`.run`'s `send`, or `.send` and friends).
    @usableFromInline
    var byEffect: Bool

    @inlinable
    init(site: PrismCallSite?, byEffect: Bool) {
        self.site = site
        self.byEffect = byEffect
    }

    /// Nothing noted.
    @inlinable
    static var unknown: ActionOrigin { ActionOrigin(site: nil, byEffect: false) }
}
