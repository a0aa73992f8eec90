// Presentation as state with PrismStore: an alert whose buttons send actions, an editor
// presented as a sheet that dismisses itself, a navigation stack, and fields bound to the store.
// snippet.hide
import Foundation
import Prism
import PrismTesting

// snippet.show

// snippet.editor
/// A note editor, presented as a sheet: it saves, then closes itself.
struct EditorFeature: PrismFeature {
    struct State: Equatable, Sendable, Codable {
        var text = ""
    }

    enum Action: PrismBindableAction, Equatable {
        case binding(PrismBindingAction<State>)
        case saveTapped

        var binding: PrismBindingAction<State>? {
            if case .binding(let action) = self { action } else { nil }
        }
    }

    @Dependency(\.dismiss) var dismiss

    var body: some PrismReducer<State, Action> {
        PrismBindingReducer()
        PrismReduce { state, action in
            switch action {
            case .binding:
                return .none
            case .saveTapped:
                return .run { [dismiss] _ in await dismiss() }
            }
        }
    }
}
// snippet.end

// snippet.notes
/// A list of notes: an editor as a sheet, an alert before a delete, a stack of note screens.
struct NotesFeature: PrismFeature {
    struct State: Equatable, Sendable {
        var notes: [String] = []
        var editor: EditorFeature.State?
        var alert: PrismAlertState<AlertAction>?
        var path = PrismStackState<EditorFeature.State>()
    }

    enum AlertAction: Equatable, Sendable, Codable {
        case confirmDelete(String)
    }

    enum Action: Equatable, Sendable {
        case newNoteTapped
        case deleteTapped(String)
        case openTapped(String)
        case editor(PrismPresentationAction<EditorFeature.Action>)
        case alert(PrismPresentationAction<AlertAction>)
        case path(PrismStackAction<EditorFeature.State, EditorFeature.Action>)

        var editor: PrismPresentationAction<EditorFeature.Action>? {
            if case .editor(let action) = self { action } else { nil }
        }
        var alert: PrismPresentationAction<AlertAction>? {
            if case .alert(let action) = self { action } else { nil }
        }
        var path: PrismStackAction<EditorFeature.State, EditorFeature.Action>? {
            if case .path(let action) = self { action } else { nil }
        }
    }

    var body: some PrismReducer<State, Action> {
        PrismReduce<State, Action> { state, action in
            switch action {
            case .newNoteTapped:
                state.editor = EditorFeature.State()
            case .editor(.dismiss):
                // The editor is still there: keep what it holds.
                if let text = state.editor?.text, !text.isEmpty { state.notes.append(text) }
            case .deleteTapped(let note):
                state.alert = PrismAlertState(
                    title: "Delete “\(note)”?", message: "It cannot be undone.",
                    buttons: [.init("Delete", role: .destructive, action: .confirmDelete(note)), .cancel()])
            case .alert(.presented(.confirmDelete(let note))):
                state.notes.removeAll { $0 == note }
            case .openTapped(let note):
                state.path.append(EditorFeature.State(text: note))
            case .editor, .alert, .path:
                break
            }
            return .none
        }
        .presents(\.editor, action: Action.editor, toPresentationAction: \.editor) { EditorFeature() }
        .presents(\.alert, action: Action.alert, toPresentationAction: \.alert)
        .forEach(\.path, action: Action.path, toStackAction: \.path) { EditorFeature() }
    }
}
// snippet.end

// snippet.test
/// The editor closes itself, and the list keeps the note: asserted action by action.
@MainActor
func testSavingANote() async {
    let store = PrismTestStore(initialState: NotesFeature.State(), reducer: NotesFeature())
    await store.send(.newNoteTapped) { $0.editor = EditorFeature.State() }
    await store.send(.editor(.presented(.set(\.text, "Call the bank")))) { $0.editor?.text = "Call the bank" }
    await store.send(.editor(.presented(.saveTapped))) { _ in }
    await store.receive(.editor(.dismiss)) {
        $0.notes = ["Call the bank"]
        $0.editor = nil
    }
}
// snippet.end
