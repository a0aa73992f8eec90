// The notes app: PrismNotesFeatures' features in SwiftUI. Built on every platform; a window only
// where SwiftUI exists (macOS: `swift run prism-notes`; iOS: add this file's folder and
// PrismNotesFeatures to an app target). Elsewhere it says so and exits.
import Foundation
import PrismArchitecture
import PrismNotesFeatures

#if canImport(SwiftUI)
import SwiftUI

#if os(macOS)
import AppKit
#endif

/// The app: one store for the list and everything it presents.
@main
struct PrismNotesApp: App {
    @State private var store = PrismStore(
        initialState: NotesFeature.State(notes: [
            Note(id: 1, text: "Call the bank"), Note(id: 2, text: "Water the plants"),
        ]),
        reducer: NotesFeature())

    init() {
        #if os(macOS)
        // Run from a terminal (`swift run`), an app has no bundle: make it a regular app that
        // takes the keyboard, not a background process whose window never gets focus.
        NSApplication.shared.setActivationPolicy(.regular)
        NSApplication.shared.activate()
        #endif
    }

    var body: some Scene {
        WindowGroup {
            NotesView(store: store)
                .onOpenURL { url in store.send(.openURL(url)) }
        }
    }
}

/// The list: a stack of notes' screens, the editor in a sheet, an alert and a dialog, each from
/// the store's state.
struct NotesView: View {
    let store: PrismStore<NotesFeature.State, NotesFeature.Action>

    var body: some View {
        NavigationStack(path: store.stackPath(state: \.path, action: NotesFeature.Action.path)) {
            List(store.notes) { note in
                HStack {
                    NavigationLink(state: NoteDetailFeature.State(note: note)) { Text(note.text) }
                    Button("More") { store.send(.moreTapped(note.id)) }
                }
            }
            .navigationTitle("Notes")
            .toolbar { Button("New") { store.send(.newNoteTapped) } }
        } destination: { screen in
            NoteDetailView(store: screen)
        }
        .sheet(store.presentation(state: \.editor, action: NotesFeature.Action.editor)) { editor in
            NoteEditorView(store: editor)
        }
        .alert(store.presentation(state: \.alert, action: NotesFeature.Action.alert))
        .confirmationDialog(store.presentation(state: \.dialog, action: NotesFeature.Action.dialog))
    }
}

/// The editor: its text field bound to the store in one line.
struct NoteEditorView: View {
    @Bindable var store: PrismStore<NoteEditorFeature.State, NoteEditorFeature.Action>

    var body: some View {
        Form {
            TextField("Note", text: $store.text)
            HStack {
                Button("Cancel", role: .cancel) { store.send(.cancelTapped) }
                Button("Save") { store.send(.saveTapped) }
            }
        }
    }
}

/// A note's screen, pushed on the stack; "Done" pops it (the feature's own `dismiss()`).
struct NoteDetailView: View {
    let store: PrismStore<NoteDetailFeature.State, NoteDetailFeature.Action>

    var body: some View {
        VStack {
            Text(store.note.text)
            Button("Done") { store.send(.doneTapped) }
        }
        .navigationTitle("Note \(store.note.id)")
    }
}
#else
/// Without SwiftUI (Linux): the features run in `prism-sample`'s tour and in
/// PrismNotesFeaturesTests; this says where.
@main
enum PrismNotesApp {
    static func main() {
        print(
            "prism-notes is a SwiftUI app: run it on macOS (swift run prism-notes). Here, `make run` shows the same "
                + "features as text (the tour's \"Presenting features\" step).")
    }
}
#endif
