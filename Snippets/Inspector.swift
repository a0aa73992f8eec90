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
await inspector.stop()
