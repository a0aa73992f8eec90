/// The store whose reducer is running, as the reducer (or middleware) that asks sees it: how to
/// read that store's state later, and how to hear that it was replaced without an action.
///
/// A middleware that keeps the state somewhere (`PrismPersistMiddleware` in PrismPersistence)
/// asks for its store in `run`, once:
///
/// ```swift
/// @MainActor
/// final class Backup {
///     var store: PrismStoreContext<AppState>?
///     var written: [AppState] = []
///
///     func write(_ state: AppState) { written.append(state) }
/// }
///
/// struct BackupMiddleware: PrismMiddleware {
///     let backup: Backup
///
///     func run(state: AppState, action: AppAction) -> PrismEffect<AppAction> {
///         if backup.store == nil, let store = PrismStoreContext.current(for: state) {
///             backup.store = store  // store.read() gives the latest state, whenever asked
///             store.onStateReplaced { backup.write($0) }  // an undo, a redo, replaceState(with:)
///         }
///         backup.write(state)
///         return .none
///     }
/// }
/// ```
///
/// Nothing passes through the reducers between the store and the middleware: however the
/// reducer was built (a ``PrismCombineReducers`` block, ``PrismReducer/handling(with:)``,
/// ``PrismReducer/eraseToReduce()``, a ``PrismFeature``'s `body`, a closure of the app's), the
/// middleware finds its store. Under a ``PrismScope`` it sees the child's part of the state.
/// A reducer that runs the middleware on a state of another type (`ifLet`, `forEach`, a
/// combinator of the app's) gets nil: the middleware then keeps what `run` gives it.
@MainActor
public struct PrismStoreContext<State: Sendable> {
    let link: StoreLink<State>

    /// The store reducing the action that ran the caller, when the caller was given `state` by
    /// it; nil outside a reduce, and when the store cannot vouch for `state` (a reducer that ran
    /// the caller on a state of its own making, or a copy).
    ///
    /// A store publishes itself on its first action and, once a caller found none, on the next
    /// action of any store: a middleware that asks in every `run` until it gets an answer finds
    /// its store on its first action, or (first run later, or in a branch) on its second.
    ///
    /// - Parameter state: The state the caller was given (a middleware's `run(state:action:)`).
    public static func current(for state: State) -> PrismStoreContext<State>? {
        let marker = ReduceMarker.shared
        guard let published = marker.link else {
            marker.linkWanted = true
            return nil
        }
        // Another type: a reducer between this one and the store changed the state's type.
        guard let link = published as? StoreLink<State>, let current = link.read() else { return nil }
        // The same type, but is it the same value? A combinator of the app's could have run the
        // caller on another value of the state's own type: the store's state then differs.
        guard sameRepresentation(current, state) else { return nil }
        return PrismStoreContext(link: link)
    }

    /// The store's state as the app's own actions left it (never one a tool shows, such as a
    /// jump in the inspector's history); nil once the store is gone, or while the state is in
    /// another case than the caller's (under an enum-case ``PrismScope``).
    public func read() -> State? {
        link.read()
    }

    /// Calls `body` with the new state, on the main actor, each time the app replaces the store's
    /// state without an action (``PrismStore/replaceState(with:)``: an undo, a redo, a scoped
    /// store writing through), for as long as the store lives. A tool's replacement (a jump in
    /// time travel, a loaded recording) is not the app's, and is not heard.
    public func onStateReplaced(_ body: @escaping @MainActor (State) -> Void) {
        link.listen(body)
    }
}

/// A store as a reducer at some depth sees it: how to read its part of the state, and how to
/// hear replacements of it. The root makes one; a ``PrismScope`` projects it for its child.
@MainActor
@usableFromInline
final class StoreLink<State: Sendable> {
    @usableFromInline
    let read: @MainActor () -> State?
    @usableFromInline
    let listen: @MainActor (@escaping @MainActor (State) -> Void) -> Void

    init(
        read: @escaping @MainActor () -> State?,
        listen: @escaping @MainActor (@escaping @MainActor (State) -> Void) -> Void
    ) {
        self.read = read
        self.listen = listen
    }

    /// This link as a reducer sees it that runs on the part `project` gives (nil: absent now).
    @usableFromInline
    func projected<Child>(_ project: @escaping (State) -> Child?) -> StoreLink<Child> {
        let read = self.read
        let listen = self.listen
        return StoreLink<Child>(
            read: { read().flatMap(project) },
            listen: { body in listen { if let child = project($0) { body(child) } } }
        )
    }
}

/// Runs `body` with the published link projected by `project`, or plainly when no link is
/// published: what a ``PrismScope`` does around its child.
@MainActor
func withProjectedLink<Parent: Sendable, Child: Sendable, Result>(
    _ parent: Parent.Type,
    _ project: @escaping (Parent) -> Child?,
    _ body: () -> Result
) -> Result {
    let marker = ReduceMarker.shared
    guard let outer = marker.link else { return body() }
    marker.link = (outer as? StoreLink<Parent>)?.projected(project)
    defer { marker.link = outer }
    return body()
}

/// Whether `a` and `b` have the same bits: the same value, sharing its storage. A false answer
/// may also mean equal values in different storage, or padding that differs.
func sameRepresentation<T>(_ a: T, _ b: T) -> Bool {
    withUnsafeBytes(of: a) { left in
        withUnsafeBytes(of: b) { right in left.elementsEqual(right) }
    }
}
