/// A feature a store presents (a sheet, a cover, a popover, an alert, a dialog), as a view
/// binds to it: whether it is there, its store, its actions, and its dismissal.
///
/// ```swift
/// let editor = store.presentation(state: \.editor, action: AppAction.editor)
/// editor.isPresented          // true while state.editor is not nil
/// editor.store                // the editor's store while it is presented
/// editor.dismiss()            // what swiping the sheet away sends: .editor(.dismiss)
/// ```
///
/// SwiftUI's modifiers take it as it is: `.sheet(store.presentation(state: \.editor, action:
/// AppAction.editor)) { editor in EditorView(store: editor) }`, and likewise `.fullScreenCover`,
/// `.popover`, `.alert` and `.confirmationDialog` (<doc:PresentingFeatures>).
///
/// ``dismiss()`` sends `.dismiss` only while the feature is there: SwiftUI also reports a
/// dismissal after the store took the feature away (a sheet the parent closed), and that report
/// is not an action. An alert's button is ``buttonTapped(_:)`` then ``dismiss()`` (SwiftUI
/// dismisses an alert after its button's action): the button's action took the alert away, and
/// the dismissal after it is not sent, so that an alert the parent shows in answer stays.
@MainActor
public struct PrismPresentation<ChildState: Sendable, ChildAction: Sendable>: Sendable {
    private let presence: @MainActor @Sendable () -> Bool
    private let childStore: @MainActor @Sendable () -> PrismStore<ChildState, ChildAction>?
    private let current: @MainActor @Sendable () -> ChildState?
    private let sendPresentation: @MainActor @Sendable (PrismPresentationAction<ChildAction>) -> Void
    private let echo = DismissalEcho()

    init(
        presence: @escaping @MainActor @Sendable () -> Bool,
        store: @escaping @MainActor @Sendable () -> PrismStore<ChildState, ChildAction>?,
        state: @escaping @MainActor @Sendable () -> ChildState?,
        send: @escaping @MainActor @Sendable (PrismPresentationAction<ChildAction>) -> Void
    ) {
        self.presence = presence
        self.childStore = store
        self.current = state
        self.sendPresentation = send
    }

    /// Whether the feature is presented. Observed: a view that reads it is drawn again when the
    /// feature comes or goes (or another takes its place), not when its state changes.
    public var isPresented: Bool { presence() }

    /// The presented feature's store, nil while it is not presented: the same store while the
    /// same feature stays (``PrismStore/scope(state:action:)-(KeyPath<State,ChildState?>,_)``).
    public var store: PrismStore<ChildState, ChildAction>? { childStore() }

    /// The presented feature's state (for an alert: its title, message and buttons), nil while
    /// it is not presented. Observed as a whole.
    public var state: ChildState? { current() }

    /// Sends `action` to the presented feature (for an alert: the action of a tapped button), as
    /// `.presented(action)`.
    public func send(_ action: ChildAction) {
        sendPresentation(.presented(action))
    }

    /// What a tapped button of an alert or a dialog does: sends its action (if it has one) as
    /// `.presented(action)`, which takes the alert away
    /// (``PrismReducer/presents(_:action:toPresentationAction:fileID:filePath:line:column:)``);
    /// the ``dismiss()`` that SwiftUI makes right after it on this presentation sends nothing.
    public func buttonTapped(_ action: ChildAction?) {
        guard let action else { return }
        echo.expected = true
        send(action)
    }

    /// Dismisses the feature, as the user does (a sheet swiped away, an alert's button that
    /// sends nothing): sends `.dismiss` if the feature is there; nothing otherwise, and nothing
    /// right after ``buttonTapped(_:)`` sent an action.
    public func dismiss() {
        if echo.expected {
            echo.expected = false
            return
        }
        if presence() { sendPresentation(.dismiss) }
    }
}

/// Whether the next dismissal is SwiftUI's echo of a button's action.
@MainActor
private final class DismissalEcho {
    var expected = false
}

extension PrismStore {
    /// The feature presented at `state`, whose actions reach this store as `action(...)`: what
    /// SwiftUI's `.sheet`, `.fullScreenCover`, `.popover`, `.alert` and `.confirmationDialog`
    /// take (``PrismPresentation``).
    ///
    /// ```swift
    /// Text("Tasks")
    ///     .sheet(store.presentation(state: \.editor, action: AppAction.editor)) { editor in
    ///         EditorView(store: editor)
    ///     }
    ///     .alert(store.presentation(state: \.alert, action: AppAction.alert))
    /// ```
    ///
    /// The parent's reducer presents it with
    /// ``PrismReducer/presents(_:action:toPresentationAction:then:fileID:filePath:line:column:)``.
    public func presentation<ChildState: Sendable, ChildAction: Sendable>(
        state toChildState: KeyPath<State, ChildState?> & Sendable,
        action fromPresentationAction: @escaping @Sendable (PrismPresentationAction<ChildAction>) -> Action
    ) -> PrismPresentation<ChildState, ChildAction> {
        PrismPresentation(
            presence: { [self] in observedPresence(toChildState) != nil },
            store: { [self] in scope(state: toChildState, action: { fromPresentationAction(.presented($0)) }) },
            state: { [self] in self[dynamicMember: toChildState] },
            send: { [self] in send(fromPresentationAction($0)) }
        )
    }
}
