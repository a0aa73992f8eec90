#if canImport(SwiftUI)
import SwiftUI

// SwiftUI's side of presentation as state. Each piece is a thin wrapper over a type Linux
// builds and tests (PrismPresentation, PrismStackPath, PrismStore.set(_:to:)): what the
// binding reads and what its write sends are decided there, never here. The bindings' closures
// say `@MainActor in`: SwiftUI's `Binding(get:set:)` takes `@isolated(any) @Sendable` closures,
// and what they read lives on the main actor.

// MARK: - Bindings

extension PrismStore where Action: PrismBindableAction, Action.State == State {
    /// A binding of the field at `keyPath`, for a text field, a toggle or a picker: it reads the
    /// store and writes by sending `.set(keyPath, value)` (``set(_:to:)``).
    ///
    /// ```swift
    /// TextField("Nickname", text: store.binding(\.nickname))
    /// ```
    ///
    /// With `@Bindable var store`, `$store.nickname` is the same binding.
    public func binding<Value: Equatable & Sendable>(_ keyPath: WritableKeyPath<State, Value> & Sendable)
        -> Binding<Value>
    {
        Binding(get: { @MainActor in self[dynamicMember: keyPath] }, set: { @MainActor in self.set(keyPath, to: $0) })
    }
}

extension PrismStore {
    /// A binding of the value at `keyPath` whose writes send `action(newValue)`, for a feature
    /// whose actions are not ``PrismBindableAction``.
    ///
    /// ```swift
    /// Toggle("Done", isOn: store.binding(\.isDone, send: TaskAction.setDone))
    /// ```
    public func binding<Value>(
        _ keyPath: KeyPath<State, Value> & Sendable,
        send action: @escaping @Sendable (Value) -> Action
    ) -> Binding<Value> {
        Binding(get: { @MainActor in self[dynamicMember: keyPath] }, set: { @MainActor in self.send(action($0)) })
    }
}

extension Bindable {
    /// `$store.field`: the binding of a field of a store's state, for a store whose actions are
    /// ``PrismBindableAction`` (``PrismStore/binding(_:)``).
    ///
    /// ```swift
    /// @Bindable var store: PrismStore<SettingsState, SettingsAction>
    /// TextField("Nickname", text: $store.nickname)
    /// ```
    @MainActor
    public subscript<State: Sendable, Action: PrismBindableAction, Member: Equatable & Sendable>(
        dynamicMember keyPath: WritableKeyPath<State, Member> & Sendable
    ) -> Binding<Member> where Value == PrismStore<State, Action>, Action.State == State {
        wrappedValue.binding(keyPath)
    }
}

// MARK: - Alerts and dialogs

extension PrismButtonRole {
    /// SwiftUI's role of the same name.
    var swiftUI: ButtonRole {
        switch self {
        case .cancel: .cancel
        case .destructive: .destructive
        }
    }
}

extension PrismTitleVisibility {
    /// SwiftUI's visibility of the same name.
    var swiftUI: Visibility {
        switch self {
        case .automatic: .automatic
        case .visible: .visible
        case .hidden: .hidden
        }
    }
}

/// The buttons of an alert or a dialog: each sends its action, if it has one
/// (``PrismPresentation/buttonTapped(_:)``).
@MainActor
struct PrismDialogButtons<Action: Sendable>: View {
    let buttons: [PrismButtonState<Action>]
    let tapped: @MainActor @Sendable (Action?) -> Void

    var body: some View {
        ForEach(buttons.indices, id: \.self) { index in
            let button = buttons[index]
            Button(button.label, role: button.role?.swiftUI) { tapped(button.action) }
        }
    }
}

extension PrismPresentation {
    /// Whether it is presented, as a binding whose `false` dismisses it.
    var isPresentedBinding: Binding<Bool> {
        Binding(get: { @MainActor in self.isPresented }, set: { @MainActor in if !$0 { self.dismiss() } })
    }

    /// The presented store, as a binding whose nil dismisses it.
    var itemBinding: Binding<PrismPresentedItem<ChildState, ChildAction>?> {
        Binding(
            get: { @MainActor in self.store.map { PrismPresentedItem(store: $0) } },
            set: { @MainActor in if $0 == nil { self.dismiss() } }
        )
    }
}

/// A presented store as SwiftUI's `item:`: identified by the store, which stays the same while
/// the same feature is presented.
struct PrismPresentedItem<State: Sendable, Action: Sendable>: Identifiable {
    let store: PrismStore<State, Action>

    var id: ObjectIdentifier { ObjectIdentifier(store) }
}

extension View {
    /// Shows the alert a store presents (``PrismAlertState``): its title, message and buttons; a
    /// button sends its action as `.presented(action)`, a dismissal without one sends `.dismiss`.
    ///
    /// ```swift
    /// TaskList(store: store)
    ///     .alert(store.presentation(state: \.alert, action: AppAction.alert))
    /// ```
    @MainActor
    public func alert<Action: Sendable>(_ presentation: PrismPresentation<PrismAlertState<Action>, Action>)
        -> some View
    {
        let alert = presentation.state
        return self.alert(
            Text(alert?.title ?? ""),
            isPresented: presentation.isPresentedBinding,
            presenting: alert,
            actions: { alert in PrismDialogButtons(buttons: alert.buttons, tapped: { presentation.buttonTapped($0) }) },
            message: { alert in
                if let message = alert.message { Text(message) }
            }
        )
    }

    /// Shows the confirmation dialog a store presents (``PrismConfirmationDialogState``), as
    /// ``alert(_:)`` does an alert.
    ///
    /// ```swift
    /// TaskRow(store: row)
    ///     .confirmationDialog(store.presentation(state: \.dialog, action: AppAction.dialog))
    /// ```
    @MainActor
    public func confirmationDialog<Action: Sendable>(
        _ presentation: PrismPresentation<PrismConfirmationDialogState<Action>, Action>
    ) -> some View {
        let dialog = presentation.state
        return self.confirmationDialog(
            Text(dialog?.title ?? ""),
            isPresented: presentation.isPresentedBinding,
            titleVisibility: dialog?.titleVisibility.swiftUI ?? .automatic,
            presenting: dialog,
            actions: { dialog in PrismDialogButtons(buttons: dialog.buttons, tapped: { presentation.buttonTapped($0) })
            },
            message: { dialog in
                if let message = dialog.message { Text(message) }
            }
        )
    }

    // MARK: - Sheets, covers and popovers

    /// Presents the feature a store presents in a sheet while its state is there, with the
    /// feature's store; the user's swipe sends `.dismiss`.
    ///
    /// ```swift
    /// TaskList(store: store)
    ///     .sheet(store.presentation(state: \.editor, action: AppAction.editor)) { editor in
    ///         EditorView(store: editor)
    ///     }
    /// ```
    @MainActor
    public func sheet<ChildState: Sendable, ChildAction: Sendable, Content: View>(
        _ presentation: PrismPresentation<ChildState, ChildAction>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping (PrismStore<ChildState, ChildAction>) -> Content
    ) -> some View {
        sheet(item: presentation.itemBinding, onDismiss: onDismiss) { item in content(item.store) }
    }

    /// Presents the feature a store presents full screen while its state is there, as
    /// ``sheet(_:onDismiss:content:)`` does in a sheet. macOS has no full-screen cover: there it
    /// is a sheet (as PrismRouting's `PrismNavigationStack` does).
    @MainActor
    public func fullScreenCover<ChildState: Sendable, ChildAction: Sendable, Content: View>(
        _ presentation: PrismPresentation<ChildState, ChildAction>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping (PrismStore<ChildState, ChildAction>) -> Content
    ) -> some View {
        #if os(macOS)
        return sheet(item: presentation.itemBinding, onDismiss: onDismiss) { item in content(item.store) }
        #else
        return fullScreenCover(item: presentation.itemBinding, onDismiss: onDismiss) { item in content(item.store) }
        #endif
    }

    #if os(iOS) || os(macOS) || os(visionOS)
    /// Presents the feature a store presents in a popover while its state is there, as
    /// ``sheet(_:onDismiss:content:)`` does in a sheet. (tvOS and watchOS have no popovers.)
    @MainActor
    public func popover<ChildState: Sendable, ChildAction: Sendable, Content: View>(
        _ presentation: PrismPresentation<ChildState, ChildAction>,
        attachmentAnchor: PopoverAttachmentAnchor = .rect(.bounds),
        arrowEdge: Edge = .top,
        @ViewBuilder content: @escaping (PrismStore<ChildState, ChildAction>) -> Content
    ) -> some View {
        popover(item: presentation.itemBinding, attachmentAnchor: attachmentAnchor, arrowEdge: arrowEdge) { item in
            content(item.store)
        }
    }
    #endif
}

// MARK: - Navigation stacks

/// The destinations of a stack's screens: each entry of the path shows `destination` with the
/// screen's store.
@MainActor
public struct PrismStackDestinations<ElementState: Sendable, ElementAction: Sendable, Destination: View>:
    ViewModifier
{
    let path: PrismStackPath<ElementState, ElementAction>
    let destination: (PrismStore<ElementState, ElementAction>) -> Destination

    /// The content, with a destination for the stack's entries.
    public func body(content: Content) -> some View {
        content.navigationDestination(for: PrismStackPathItem<ElementState>.self) { item in
            if let store = path.store(for: item) {
                destination(store)
            }
        }
    }
}

extension NavigationStack {
    /// A navigation stack of a store's ``PrismStackState``: its screens are the stack's elements,
    /// each shown by `destination` with its store; the back button and swipes send
    /// `.popFrom(id:)`, and `NavigationLink(state:)` sends `.push(id:state:)`
    /// (``PrismStackPath``).
    ///
    /// ```swift
    /// NavigationStack(path: store.stackPath(state: \.path, action: AppAction.path)) {
    ///     TaskList(store: store)
    /// } destination: { screen in
    ///     TaskDetail(store: screen)
    /// }
    /// ```
    @MainActor
    public init<ElementState: Sendable, ElementAction: Sendable, RootView: View, Destination: View>(
        path: PrismStackPath<ElementState, ElementAction>,
        @ViewBuilder root: () -> RootView,
        @ViewBuilder destination: @escaping (PrismStore<ElementState, ElementAction>) -> Destination
    )
    where
        Data == [PrismStackPathItem<ElementState>],
        Root == ModifiedContent<RootView, PrismStackDestinations<ElementState, ElementAction, Destination>>
    {
        self.init(path: Binding(get: { @MainActor in path.items }, set: { @MainActor in path.setItems($0) })) {
            root().modifier(PrismStackDestinations(path: path, destination: destination))
        }
    }
}

extension NavigationLink where Destination == Never {
    /// A link that pushes a screen with `state` on the ``PrismStackState`` of the enclosing
    /// `NavigationStack(path:root:destination:)`: the store is sent `.push(id:state:)`.
    ///
    /// ```swift
    /// NavigationLink(state: Screen.detail(DetailState(id: task.id))) { Text(task.title) }
    /// ```
    @MainActor
    public init<ElementState: Sendable>(state: ElementState, @ViewBuilder label: () -> Label) {
        self.init(value: PrismStackPathItem(pushing: state), label: label)
    }
}
#endif
