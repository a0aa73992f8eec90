import Testing

@testable import PrismStore

// The example of PrismStoreContext's documentation, as written there.
private typealias AppState = Counter
private typealias AppAction = CounterAction

@MainActor
private final class Backup {
    var store: PrismStoreContext<AppState>?
    var written: [AppState] = []

    func write(_ state: AppState) { written.append(state) }
}

private struct BackupMiddleware: PrismMiddleware {
    let backup: Backup

    func run(state: AppState, action: AppAction) -> PrismEffect<AppAction> {
        if backup.store == nil, let store = PrismStoreContext.current(for: state) {
            backup.store = store  // store.read() gives the latest state, whenever asked
            store.onStateReplaced { backup.write($0) }  // an undo, a redo, replaceState(with:)
        }
        backup.write(state)
        return .none
    }
}

@MainActor
@Suite("PrismStoreContext's documented example")
struct StoreContextExampleTests {
    @Test("the backup middleware finds its store, reads it later, and writes a state the app put back")
    func backup() {
        let backup = Backup()
        let store = PrismStore(
            initialState: AppState(), reducer: CounterFeature(), middleware: BackupMiddleware(backup: backup))
        store.send(.increment)
        store.send(.increment)
        #expect(backup.store?.read()?.count == 2)
        store.replaceState(with: AppState(count: 1))
        #expect(backup.written.map(\.count) == [1, 2, 1])
    }
}
