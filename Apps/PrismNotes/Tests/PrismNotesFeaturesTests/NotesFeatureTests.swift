import Foundation
import PrismArchitecture
import PrismNotesFeatures
import PrismTesting
import Testing

/// The notes app's features, as its SwiftUI views drive them, with the test store: every action
/// and every change asserted.
@MainActor
@Suite("The notes app: an editor sheet, alerts, a dialog, a stack and deep links")
struct NotesFeatureTests {
    private static let bank = Note(id: 1, text: "Call the bank")
    private static let plants = Note(id: 2, text: "Water the plants")

    private func makeStore() -> PrismTestStore<NotesFeature.State, NotesFeature.Action> {
        PrismTestStore(initialState: NotesFeature.State(notes: [Self.bank, Self.plants]), reducer: NotesFeature())
    }

    private static func url(_ text: String) -> URL {
        // swift-format-ignore: NeverForceUnwrap
        URL(string: text)!
    }

    @Test("a new note: typed in the sheet, saved, and the sheet closes itself")
    func newNote() async {
        let store = makeStore()
        await store.send(.newNoteTapped) { $0.editor = NoteEditorFeature.State() }
        await store.send(.editor(.presented(.set(\.text, "Book the train")))) { $0.editor?.text = "Book the train" }
        await store.send(.editor(.presented(.saveTapped))) {
            $0.notes.append(Note(id: 3, text: "Book the train"))
            $0.nextID = 4
        }
        await store.receive(.editor(.dismiss)) { $0.editor = nil }
    }

    @Test("editing then cancelling keeps the note as it was")
    func cancelledEdit() async {
        let store = makeStore()
        await store.send(.editTapped(1)) { $0.editor = NoteEditorFeature.State(noteID: 1, text: "Call the bank") }
        await store.send(.editor(.presented(.set(\.text, "Call the bank at 9")))) {
            $0.editor?.text = "Call the bank at 9"
        }
        await store.send(.editor(.presented(.cancelTapped))) { _ in }
        await store.receive(.editor(.dismiss)) { $0.editor = nil }
        #expect(store.state.notes == [Self.bank, Self.plants])
    }

    private static func dialog(for id: Int) -> PrismConfirmationDialogState<NotesFeature.DialogAction> {
        PrismConfirmationDialogState(
            title: "Water the plants", titleVisibility: .visible,
            buttons: [
                .init("Duplicate", action: .duplicate(id)), .init("Delete", role: .destructive, action: .delete(id)),
                .cancel(),
            ])
    }

    @Test("delete asks first; the dialog's delete asks too; duplicate adds a copy")
    func alertAndDialog() async {
        let store = makeStore()
        await store.send(.moreTapped(2)) { $0.dialog = Self.dialog(for: 2) }
        await store.send(.dialog(.presented(.duplicate(2)))) {
            $0.dialog = nil
            $0.notes.append(Note(id: 3, text: "Water the plants"))
            $0.nextID = 4
        }
        await store.send(.moreTapped(3)) { $0.dialog = Self.dialog(for: 3) }
        await store.send(.dialog(.presented(.delete(3)))) {
            $0.dialog = nil
            $0.alert = PrismAlertState(
                title: "Delete “Water the plants”?", message: "It cannot be undone.",
                buttons: [.init("Delete", role: .destructive, action: .confirmDelete(3)), .cancel()])
        }
        await store.send(.alert(.presented(.confirmDelete(3)))) {
            $0.alert = nil
            $0.notes.removeLast()
        }
        await store.send(.deleteTapped(1)) {
            $0.alert = PrismAlertState(
                title: "Delete “Call the bank”?", message: "It cannot be undone.",
                buttons: [.init("Delete", role: .destructive, action: .confirmDelete(1)), .cancel()])
        }
        await store.send(.alert(.dismiss)) { $0.alert = nil }
        #expect(store.state.notes == [Self.bank, Self.plants])
    }

    @Test("a note's screen is pushed, and pops itself when done")
    func stack() async {
        let store = makeStore()
        await store.send(.openTapped(2)) { $0.path.append(NoteDetailFeature.State(note: Self.plants)) }
        let id = store.state.path.ids[0]
        await store.send(.path(.element(id: id, action: .doneTapped))) { _ in }
        await store.receive(.path(.popFrom(id: id))) { $0.path.popLast() }
    }

    @Test("a link opens a whole stack; a link to a note that is not there says so and changes nothing")
    func deepLinks() async {
        let store = makeStore()
        await store.send(.openTapped(1)) { $0.path.append(NoteDetailFeature.State(note: Self.bank)) }
        await store.send(.openURL(Self.url("prismnotes://notes/1/then/2"))) {
            $0.path.replace(with: [
                NoteDetailFeature.State(note: Self.bank), NoteDetailFeature.State(note: Self.plants),
            ])
        }
        #expect(store.state.path.ids.map(\.rawValue) == [2, 3])
        await store.send(.openURL(Self.url("prismnotes://notes/9"))) {
            $0.alert = PrismAlertState(title: "Cannot open prismnotes://notes/9", message: "there is no note 9")
        }
        #expect(store.state.path.ids.map(\.rawValue) == [2, 3])
    }
}
