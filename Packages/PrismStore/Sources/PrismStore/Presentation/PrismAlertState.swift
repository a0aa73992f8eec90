/// What a button of an alert or a confirmation dialog does besides sending its action.
public enum PrismButtonRole: String, Hashable, Sendable, Codable {
    /// Dismisses without doing anything (SwiftUI puts it apart, "Cancel").
    case cancel
    /// Deletes or loses something (SwiftUI shows it in red).
    case destructive
}

/// A button of an alert or a confirmation dialog: its label, its role, and the action it sends
/// when tapped (none: it only dismisses).
public struct PrismButtonState<Action: Sendable>: Sendable {
    /// The button's text.
    public var label: String
    /// Its role, if it has one.
    public var role: PrismButtonRole?
    /// The action it sends; nil for a button that only dismisses.
    public var action: Action?

    /// A button labelled `label` that sends `action`.
    public init(_ label: String, role: PrismButtonRole? = nil, action: Action? = nil) {
        self.label = label
        self.role = role
        self.action = action
    }

    /// A cancel button, "Cancel" unless `label` says otherwise, that only dismisses.
    public static func cancel(_ label: String = "Cancel") -> Self {
        Self(label, role: .cancel)
    }

    /// The same button, sending what `transform` makes of its action.
    public func map<NewAction: Sendable>(_ transform: (Action) -> NewAction) -> PrismButtonState<NewAction> {
        PrismButtonState<NewAction>(label, role: role, action: action.map(transform))
    }
}

extension PrismButtonState: Equatable where Action: Equatable {}
extension PrismButtonState: Hashable where Action: Hashable {}
extension PrismButtonState: Codable where Action: Codable {}

/// An alert, as state: a title, a message and buttons that send actions. A value like any other
/// part of the state: compared in tests, saved and restored, shown by the inspector, and shown
/// by SwiftUI's `.alert` from the store.
///
/// ```swift
/// state.alert = PrismAlertState(
///     title: "Delete \(task.title)?", message: "It cannot be undone.",
///     buttons: [.init("Delete", role: .destructive, action: .confirmDelete(task.id)), .cancel()])
/// ```
///
/// A feature presents it with ``PrismReducer/presents(_:action:toPresentationAction:fileID:filePath:line:column:)``:
/// a tapped button sends `.presented(action)` and the alert goes away, as on screen.
public struct PrismAlertState<Action: Sendable>: Sendable {
    /// The title.
    public var title: String
    /// The message under the title, if any.
    public var message: String?
    /// The buttons, in order; none: the platform's single "OK".
    public var buttons: [PrismButtonState<Action>]

    /// An alert.
    public init(title: String, message: String? = nil, buttons: [PrismButtonState<Action>] = []) {
        self.title = title
        self.message = message
        self.buttons = buttons
    }

    /// The same alert, its buttons sending what `transform` makes of their actions.
    public func map<NewAction: Sendable>(_ transform: (Action) -> NewAction) -> PrismAlertState<NewAction> {
        PrismAlertState<NewAction>(title: title, message: message, buttons: buttons.map { $0.map(transform) })
    }
}

extension PrismAlertState: Equatable where Action: Equatable {}
extension PrismAlertState: Hashable where Action: Hashable {}
extension PrismAlertState: Codable where Action: Codable {}

/// Whether a confirmation dialog's title shows.
public enum PrismTitleVisibility: String, Hashable, Sendable, Codable {
    /// As the platform does.
    case automatic
    /// Always.
    case visible
    /// Never.
    case hidden
}

/// A confirmation dialog (an action sheet), as state: like ``PrismAlertState``, with whether the
/// title shows.
public struct PrismConfirmationDialogState<Action: Sendable>: Sendable {
    /// The title.
    public var title: String
    /// Whether the title shows.
    public var titleVisibility: PrismTitleVisibility
    /// The message, if any.
    public var message: String?
    /// The buttons, in order.
    public var buttons: [PrismButtonState<Action>]

    /// A confirmation dialog.
    public init(
        title: String, titleVisibility: PrismTitleVisibility = .automatic, message: String? = nil,
        buttons: [PrismButtonState<Action>] = []
    ) {
        self.title = title
        self.titleVisibility = titleVisibility
        self.message = message
        self.buttons = buttons
    }

    /// The same dialog, its buttons sending what `transform` makes of their actions.
    public func map<NewAction: Sendable>(
        _ transform: (Action) -> NewAction
    ) -> PrismConfirmationDialogState<NewAction> {
        PrismConfirmationDialogState<NewAction>(
            title: title, titleVisibility: titleVisibility, message: message, buttons: buttons.map { $0.map(transform) }
        )
    }
}

extension PrismConfirmationDialogState: Equatable where Action: Equatable {}
extension PrismConfirmationDialogState: Hashable where Action: Hashable {}
extension PrismConfirmationDialogState: Codable where Action: Codable {}
