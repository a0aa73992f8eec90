// PrismInspector attached to an app's root store in one line. It compiles with the package; run,
// it starts the inspector and prints its URL.
// snippet.hide
import Prism

struct AppState: Equatable, Sendable, Codable {
    var count = 0
}

enum AppAction: Equatable, Sendable, Codable {
    case increment
}

struct AppReducer: PrismReducer {
    func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
        state.count += 1
        return .none
    }
}

// swift-format-ignore: OrderedImports
// snippet.show
// snippet.start
import PrismInspector

let store = PrismStore(initialState: AppState(), reducer: AppReducer())
let inspector = try await PrismInspector.start(store)
// PrismInspector: http://127.0.0.1:52817/3f9c0a…/
// snippet.end
// snippet.hide
store.send(.increment)
store.send(.increment)
store.send(.increment)
// snippet.show
// snippet.test-source
// The actions #1 through #3 as a Swift Testing test (what the page's Write test button gives).
let test = try inspector.testSource(from: 1, through: 3)
print(test)
// snippet.end
// snippet.hide
await inspector.stop()

let otherStore = PrismStore(initialState: AppState(), reducer: AppReducer())
// snippet.show
// snippet.test-reducer
// A test written from the page makes the reducer with this expression.
let configured = try await PrismInspector.start(
    otherStore,
    configuration: .init(testReducer: "AppReducer()")
)
// snippet.end
// snippet.hide
let syncStore = PrismStore(initialState: AppState(), reducer: AppReducer())
// snippet.show
// snippet.joining
// A second store on the same page: it shares the configured inspector's server and URL.
let sync = try await PrismInspector.start(
    syncStore,
    configuration: .init(title: "Sync"),
    joining: configured.host
)
// snippet.end
// snippet.hide
await sync.stop()
await configured.stop()
