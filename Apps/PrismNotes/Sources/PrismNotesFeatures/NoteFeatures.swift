import Foundation
import PrismArchitecture

/// A note of the notes app.
public struct Note: Equatable, Sendable, Codable, Identifiable {
    /// Its number, never given twice.
    public var id: Int
    /// What it says.
    public var text: String

    /// A note `id` that says `text`.
    public init(id: Int, text: String) {
        self.id = id
        self.text = text
    }
}

/// The editor of a note, presented as a sheet: its text field is bound to the store, and it
/// closes itself when saved or cancelled.
public struct NoteEditorFeature: PrismFeature {
    /// The note being written: a new one while `noteID` is nil.
    public struct State: Equatable, Sendable, Codable {
        /// The note edited, nil for a new note.
        public var noteID: Int?
        /// The text as typed.
        public var text: String

        /// An editor of `text`, for the note `noteID` (nil: a new note).
        public init(noteID: Int? = nil, text: String = "") {
            self.noteID = noteID
            self.text = text
        }
    }

    /// What the editor's view sends.
    public enum Action: PrismBindableAction, Equatable {
        /// The text field.
        case binding(PrismBindingAction<State>)
        /// Save: the list keeps the text, then the editor closes itself.
        case saveTapped
        /// Cancel: the editor closes itself.
        case cancelTapped

        /// The binding action, if this is one.
        public var binding: PrismBindingAction<State>? {
            if case .binding(let action) = self { action } else { nil }
        }
    }

    @Dependency(\.dismiss) var dismiss

    /// The editor.
    public init() {}

    /// The text field's changes, then save and cancel, both of which close the editor.
    public var body: some PrismReducer<State, Action> {
        PrismBindingReducer()
        PrismReduce { _, action in
            switch action {
            case .binding:
                return .none
            case .saveTapped, .cancelTapped:
                return .run { [dismiss] _ in await dismiss() }
            }
        }
    }
}

/// A note's screen, pushed on the stack: it shows the note, and pops itself when done.
public struct NoteDetailFeature: PrismReducer {
    /// The note shown.
    public struct State: Equatable, Sendable, Codable {
        /// The note.
        public var note: Note

        /// The screen of `note`.
        public init(note: Note) {
            self.note = note
        }
    }

    /// What the screen's view sends.
    public enum Action: Equatable, Sendable {
        /// Done: the screen pops itself.
        case doneTapped
    }

    @Dependency(\.dismiss) var dismiss

    /// The screen.
    public init() {}

    /// Pops itself when done.
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .doneTapped:
            return .run { [dismiss] _ in await dismiss() }
        }
    }
}

/// The routes a link can open: a note's screen.
public enum NoteRoute: PrismRoutable {
    /// The screen of the note with this id.
    case note(Int)
}

/// The list of notes: an editor as a sheet, an alert before a delete, a dialog of more actions,
/// a stack of notes' screens, and deep links that open a whole stack.
public struct NotesFeature: PrismFeature {
    /// The list, and what it presents.
    public struct State: Equatable, Sendable {
        /// The notes, in order.
        public var notes: [Note]
        /// The id the next note gets.
        public var nextID: Int
        /// The editor, while it is presented (a sheet).
        public var editor: NoteEditorFeature.State?
        /// The alert, while it is shown.
        public var alert: PrismAlertState<AlertAction>?
        /// The dialog of more actions, while it is shown.
        public var dialog: PrismConfirmationDialogState<DialogAction>?
        /// The notes' screens pushed over the list.
        public var path: PrismStackState<NoteDetailFeature.State>

        /// A list of `notes`.
        public init(notes: [Note] = []) {
            self.notes = notes
            self.nextID = (notes.map(\.id).max() ?? 0) + 1
            self.editor = nil
            self.alert = nil
            self.dialog = nil
            self.path = []
        }
    }

    /// The buttons of the alerts.
    public enum AlertAction: Equatable, Sendable, Codable {
        /// Delete the note.
        case confirmDelete(Int)
    }

    /// The buttons of the dialog.
    public enum DialogAction: Equatable, Sendable, Codable {
        /// Add a copy of the note.
        case duplicate(Int)
        /// Ask before deleting the note.
        case delete(Int)
    }

    /// What the list's view sends, and what it hears of what it presents.
    public enum Action: Equatable, Sendable {
        /// "New": an editor for a new note.
        case newNoteTapped
        /// A note's "Edit": an editor of that note.
        case editTapped(Int)
        /// A note's "Delete": an alert asks first.
        case deleteTapped(Int)
        /// A note's "More": a dialog of actions.
        case moreTapped(Int)
        /// A note tapped: its screen is pushed.
        case openTapped(Int)
        /// A deep link: the stack becomes the link's.
        case openURL(URL)
        /// The editor's actions and its dismissal.
        case editor(PrismPresentationAction<NoteEditorFeature.Action>)
        /// The alert's buttons.
        case alert(PrismPresentationAction<AlertAction>)
        /// The dialog's buttons.
        case dialog(PrismPresentationAction<DialogAction>)
        /// The stack's screens, pushes and pops.
        case path(PrismStackAction<NoteDetailFeature.State, NoteDetailFeature.Action>)

        var editor: PrismPresentationAction<NoteEditorFeature.Action>? {
            if case .editor(let action) = self { action } else { nil }
        }
        var alert: PrismPresentationAction<AlertAction>? {
            if case .alert(let action) = self { action } else { nil }
        }
        var dialog: PrismPresentationAction<DialogAction>? {
            if case .dialog(let action) = self { action } else { nil }
        }
        var path: PrismStackAction<NoteDetailFeature.State, NoteDetailFeature.Action>? {
            if case .path(let action) = self { action } else { nil }
        }
    }

    /// The links the app opens: `prismnotes://notes/3` shows note 3's screen,
    /// `prismnotes://notes/3/then/5` note 5's over note 3's.
    public static let links: PrismDeepLinks<NoteRoute> = {
        var links = PrismDeepLinks<NoteRoute>(schemes: ["prismnotes"])
        links.register("/notes/:id") { [.note(try $0.value("id"))] }
        links.register("/notes/:id/then/:next") { [.note(try $0.value("id")), .note(try $0.value("next"))] }
        return links
    }()

    /// A note that a link names and the list does not have.
    struct NoSuchNote: Error, CustomStringConvertible {
        let id: Int
        var description: String { "there is no note \(id)" }
    }

    /// The list.
    public init() {}

    /// The list's reducer, then the editor, the alert, the dialog and the stack.
    public var body: some PrismReducer<State, Action> {
        PrismReduce<State, Action> { state, action in
            Self.reduce(&state, action)
            return .none
        }
        .presents(\.editor, action: Action.editor, toPresentationAction: \.editor) { NoteEditorFeature() }
        .presents(\.alert, action: Action.alert, toPresentationAction: \.alert)
        .presents(\.dialog, action: Action.dialog, toPresentationAction: \.dialog)
        .forEach(\.path, action: Action.path, toStackAction: \.path) { NoteDetailFeature() }
    }

    private static func reduce(_ state: inout State, _ action: Action) {
        switch action {
        case .newNoteTapped:
            state.editor = NoteEditorFeature.State()
        case .editTapped(let id):
            guard let note = state.notes.first(where: { $0.id == id }) else { return }
            state.editor = NoteEditorFeature.State(noteID: id, text: note.text)
        case .editor(.presented(.saveTapped)):
            // The editor is still there: keep what it holds.
            guard let editor = state.editor, !editor.text.isEmpty else { return }
            if let id = editor.noteID, let index = state.notes.firstIndex(where: { $0.id == id }) {
                state.notes[index].text = editor.text
            } else {
                state.notes.append(Note(id: state.nextID, text: editor.text))
                state.nextID += 1
            }
        case .deleteTapped(let id), .dialog(.presented(.delete(let id))):
            guard let note = state.notes.first(where: { $0.id == id }) else { return }
            state.alert = PrismAlertState(
                title: "Delete “\(note.text)”?", message: "It cannot be undone.",
                buttons: [.init("Delete", role: .destructive, action: .confirmDelete(id)), .cancel()])
        case .alert(.presented(.confirmDelete(let id))):
            state.notes.removeAll { $0.id == id }
            state.path.replace(with: state.path.filter { $0.note.id != id })
        case .moreTapped(let id):
            guard let note = state.notes.first(where: { $0.id == id }) else { return }
            state.dialog = PrismConfirmationDialogState(
                title: note.text, titleVisibility: .visible,
                buttons: [
                    .init("Duplicate", action: .duplicate(id)),
                    .init("Delete", role: .destructive, action: .delete(id)),
                    .cancel(),
                ])
        case .dialog(.presented(.duplicate(let id))):
            guard let note = state.notes.first(where: { $0.id == id }) else { return }
            state.notes.append(Note(id: state.nextID, text: note.text))
            state.nextID += 1
        case .openTapped(let id):
            guard let note = state.notes.first(where: { $0.id == id }) else { return }
            state.path.append(NoteDetailFeature.State(note: note))
        case .openURL(let url):
            let notes = state.notes
            do throws(PrismRoutingError) {
                let screens = try links.stack(for: url) { route in
                    switch route {
                    case .note(let id):
                        guard let note = notes.first(where: { $0.id == id }) else { throw NoSuchNote(id: id) }
                        return NoteDetailFeature.State(note: note)
                    }
                }
                state.path.replace(with: screens)
            } catch {
                let reason = error.underlying.map { "\($0)" } ?? error.message
                state.alert = PrismAlertState(title: "Cannot open \(url.absoluteString)", message: reason)
            }
        case .editor, .alert, .dialog, .path:
            break
        }
    }
}
