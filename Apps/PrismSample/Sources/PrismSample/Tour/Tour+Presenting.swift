import Foundation
import Prism
import PrismNotesFeatures

extension Tour {
    /// The notes app's features (Apps/PrismNotes, a SwiftUI app on Apple platforms) driven as its
    /// views drive them, shown as text: an alert, a sheet that closes itself, a dialog, a stack.
    func showPresenting() async {
        heading("Presenting features: an alert, a sheet that closes itself, a stack (PrismAlertState, presents)")
        let store = PrismStore(
            initialState: NotesFeature.State(notes: [
                Note(id: 1, text: "Call the bank"), Note(id: 2, text: "Water the plants"),
            ]),
            reducer: NotesFeature())
        store.send(.newNoteTapped)
        store.send(.editor(.presented(.set(\.text, "Book the train"))))
        code("New, then type \"Book the train\"", "the sheet: \(Self.sheet(of: store.state))")
        await store.send(.editor(.presented(.saveTapped))).finish()
        code(
            "Save",
            "the editor saved and dismissed itself: \(Self.sheet(of: store.state)); \(Self.notes(of: store.state))")

        store.send(.deleteTapped(1))
        code("Delete \"Call the bank\"", "the alert: \(Self.alert(of: store.state))")
        store.send(.alert(.presented(.confirmDelete(1))))
        code("tap Delete", "the alert is gone (\(Self.alert(of: store.state))); \(Self.notes(of: store.state))")

        store.send(.openTapped(2))
        code("tap \"Water the plants\"", "the stack: \(Self.stack(of: store.state))")
        store.send(.openURL(Self.link("prismnotes://notes/2/then/3")))
        code("open prismnotes://notes/2/then/3", "the stack: \(Self.stack(of: store.state)) (every screen new)")
        if let top = store.state.path.ids.last {
            await store.send(.path(.element(id: top, action: .doneTapped))).finish()
        }
        code("Done on the top screen", "it popped itself: \(Self.stack(of: store.state))")
        store.send(.openURL(Self.link("prismnotes://notes/9")))
        code("open prismnotes://notes/9", "the alert: \(Self.alert(of: store.state)); the stack is unchanged")
        note("Each of these is state: a test asserts it, the inspector shows it, and SwiftUI's .sheet, .alert")
        note("and NavigationStack(path:) show it on Apple platforms (swift run prism-notes on a Mac).")
    }

    private static func link(_ text: String) -> URL {
        // swift-format-ignore: NeverForceUnwrap
        URL(string: text)!
    }

    private static func sheet(of state: NotesFeature.State) -> String {
        state.editor.map { "an editor of \"\($0.text)\"" } ?? "none"
    }

    private static func notes(of state: NotesFeature.State) -> String {
        "notes: " + state.notes.map(\.text).joined(separator: ", ")
    }

    private static func alert(of state: NotesFeature.State) -> String {
        guard let alert = state.alert else { return "none" }
        let buttons = alert.buttons.map { "[\($0.label)\($0.role.map { " (\($0))" } ?? "")]" }
        return "“\(alert.title)”" + (alert.message.map { " \($0)" } ?? "") + (buttons.isEmpty ? "" : " ")
            + buttons.joined(separator: " ")
    }

    private static func stack(of state: NotesFeature.State) -> String {
        (["Notes"] + zip(state.path.ids, state.path).map { "\($0) \($1.note.text)" }).joined(separator: " > ")
    }
}
