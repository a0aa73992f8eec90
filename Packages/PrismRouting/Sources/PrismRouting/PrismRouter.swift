import Observation

/// An observable router for one navigation hierarchy: a push stack, a sheet and a full-screen
/// cover.
///
/// ```swift
/// let router = PrismRouter<AppRoute>()
/// router.push(.detail(id: "42"))  // stack: [.detail(id: "42")]
/// router.present(.settings)       // sheet: .settings
/// router.dismiss()                // the sheet goes; the stack stays
/// router.root()                   // back to the root screen
/// ```
///
/// The router keeps a ``PrismNavigationState`` and every operation is that state's operation
/// of the same name, so a router and a state held by a reducer behave the same. Read or replace
/// the whole value with ``state``.
///
/// ## Observation
/// The router is `Observable`, with one observable property per layer: a change notifies the
/// observers of what changed, once per change, and nobody else. Pushing notifies observers of
/// ``stack`` once and not observers of ``sheet``; ``setPath(_:)`` replaces many screens with one
/// notification; an operation that changes nothing (``dismiss()`` at the root) or that throws
/// notifies nobody. Reading ``state`` or ``topRoute`` observes the whole value: one notification
/// per change, however many layers it touches (a deep link that sets the stack and a sheet).
///
/// ## SwiftUI
/// The layers are settable, so SwiftUI can write back when the user swipes a screen away.
/// `PrismNavigationStack` binds them to `NavigationStack(path:)`, `.sheet(item:)` and
/// `.fullScreenCover(item:)`.
@MainActor
public final class PrismRouter<Route: PrismRoutable>: Observable {
    private(set) var current: PrismNavigationState<Route>
    private let registrar = ObservationRegistrar()
    /// What SwiftUI is asked to present, once a view presents this router's modals
    /// (`prismPresentations(of:content:)`); nil before.
    private var staging: ModalStaging<Route>?

    /// Creates a router showing `state`; by default the root screen with nothing presented.
    public init(state: PrismNavigationState<Route> = .init()) {
        self.current = state
    }

    /// The whole navigation state. Setting it replaces every layer in one change.
    public var state: PrismNavigationState<Route> {
        get {
            registrar.access(self, keyPath: \.state)
            return current
        }
        set { commit(newValue) }
    }

    /// The screens pushed on top of the root screen; the last is on top.
    ///
    /// Setting it is ``setPath(_:)``.
    public var stack: [Route] {
        get {
            registrar.access(self, keyPath: \.stack)
            return current.stack
        }
        set { update { $0.setPath(newValue) } }
    }

    /// The route presented as a sheet, or `nil`.
    public var sheet: Route? {
        get {
            registrar.access(self, keyPath: \.sheet)
            return current.sheet
        }
        set { update { $0.sheet = newValue } }
    }

    /// The route presented as a full-screen cover, or `nil`.
    public var fullScreenCover: Route? {
        get {
            registrar.access(self, keyPath: \.fullScreenCover)
            return current.fullScreenCover
        }
        set { update { $0.fullScreenCover = newValue } }
    }

    /// The route on top, checking the stack first, then the full-screen cover, then the sheet.
    ///
    /// This is the order the Prism documentation gives: the top of a non-empty stack wins even
    /// when a sheet or cover is presented over it, and `nil` means the root with nothing
    /// presented. For the route in front of the user (the one ``dismiss()`` removes), use
    /// ``frontmostRoute``.
    public var topRoute: Route? { state.topRoute }

    /// The route in front of the user: the full-screen cover, else the sheet, else the top of
    /// the stack; `nil` at the root with nothing presented.
    public var frontmostRoute: Route? { state.frontmostRoute }

    // MARK: Operations

    /// Pushes `route` on top of the stack.
    public func push(_ route: Route) {
        update { $0.push(route) }
    }

    /// Presents `route` as a sheet, replacing the sheet that was up, if any.
    public func present(_ route: Route) {
        update { $0.present(route) }
    }

    /// Presents `route` as a full-screen cover, replacing the cover that was up, if any.
    public func fullScreen(_ route: Route) {
        update { $0.fullScreen(route) }
    }

    /// Removes the topmost layer: the full-screen cover if one is up, else the sheet if one is
    /// up, else the top screen of the stack. At the root with nothing presented, does nothing.
    public func dismiss() {
        update { $0.dismiss() }
    }

    /// Returns to the root screen: empties the stack and dismisses the sheet and the cover, in
    /// one change.
    public func root() {
        update { $0.root() }
    }

    /// Pops the top screen of the stack and returns it, or returns `nil` when the stack is empty.
    ///
    /// Only the stack changes: a sheet or cover that is up stays up.
    @discardableResult
    public func pop() -> Route? {
        update { $0.pop() }
    }

    /// Pops up to `count` screens from the top of the stack in one change and returns them,
    /// topmost first.
    ///
    /// Popping more screens than the stack holds stops at the root.
    ///
    /// - Precondition: `count` is not negative.
    @discardableResult
    public func pop(count: Int) -> [Route] {
        update { $0.pop(count: count) }
    }

    /// Pops the screens above the topmost occurrence of `route` in one change, leaving `route` on
    /// top of the stack.
    ///
    /// ```swift
    /// try router.pop(to: .home)
    /// ```
    ///
    /// - Throws: ``PrismRoutingError`` with code ``PrismRoutingError/Code/routeNotInStack`` when
    ///   `route` is not in the stack; nothing changes then.
    public func pop(to route: Route) throws(PrismRoutingError) {
        try update { state throws(PrismRoutingError) in try state.pop(to: route) }
    }

    /// Replaces the whole stack with `routes` in one change: observers of the stack are
    /// notified once, however many screens change.
    ///
    /// ```swift
    /// router.setPath([.home, .detail(id: "42"), .settings])
    /// ```
    public func setPath(_ routes: [Route]) {
        update { $0.setPath(routes) }
    }

    /// Performs `action` as one change, like ``PrismNavigationState/apply(_:)``.
    ///
    /// - Throws: ``PrismRoutingError`` when the action cannot be performed; nothing changes then.
    public func apply(_ action: PrismNavigationAction<Route>) throws(PrismRoutingError) {
        try update { state throws(PrismRoutingError) in try state.apply(action) }
    }

    // MARK: Plumbing

    /// What the root view and the root's modal present now: the state's presentation, except
    /// while a change of the root modal's style waits for SwiftUI to dismiss the old one
    /// (`ModalStaging`).
    var modalsShown: PrismModalPresentation<Route> {
        registrar.access(self, keyPath: \.modalsShown)
        return staging?.shown ?? current.modalPresentation
    }

    /// A view presents this router's modals from now on: changes of the root modal's style are
    /// staged. Notifies nobody (it is called while SwiftUI evaluates a body).
    func presenterAttached() {
        if staging == nil { staging = ModalStaging(current.modalPresentation) }
    }

    /// SwiftUI finished dismissing the root's modal: a staged presentation goes up now.
    func rootModalDismissed() {
        guard var next = staging, next.awaitsDismissal else { return }
        next.rootDismissed()
        registrar.withMutation(of: self, keyPath: \.modalsShown) { staging = next }
    }

    /// Runs `body` on a copy of the state, then publishes the copy as one change. When `body`
    /// throws, nothing is published.
    func update<Result, Failure: Error>(
        _ body: (inout PrismNavigationState<Route>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var next = current
        let result = try body(&next)
        commit(next)
        return result
    }

    /// Stores `next`, notifying the observers of each layer that changed and of the whole state,
    /// once each. Storing an equal state notifies nobody.
    private func commit(_ next: PrismNavigationState<Route>) {
        let stackChanged = next.stack != current.stack
        let sheetChanged = next.sheet != current.sheet
        let coverChanged = next.fullScreenCover != current.fullScreenCover
        guard stackChanged || sheetChanged || coverChanged else { return }

        registrar.willSet(self, keyPath: \.state)
        if stackChanged { registrar.willSet(self, keyPath: \.stack) }
        if sheetChanged { registrar.willSet(self, keyPath: \.sheet) }
        if coverChanged { registrar.willSet(self, keyPath: \.fullScreenCover) }
        let modalsChanged = sheetChanged || coverChanged
        if modalsChanged { registrar.willSet(self, keyPath: \.modalsShown) }
        current = next
        staging?.request(next.modalPresentation)
        if modalsChanged { registrar.didSet(self, keyPath: \.modalsShown) }
        if coverChanged { registrar.didSet(self, keyPath: \.fullScreenCover) }
        if sheetChanged { registrar.didSet(self, keyPath: \.sheet) }
        if stackChanged { registrar.didSet(self, keyPath: \.stack) }
        registrar.didSet(self, keyPath: \.state)
    }
}
