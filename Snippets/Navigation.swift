// Navigation with PrismRouting: navigation as state, deep links, and restoration.
// snippet.hide
import Foundation
import Prism

// snippet.show

// snippet.routes
enum AppRoute: PrismRoutable, Codable {
    case inbox
    case message(id: Int)
    case thread(messageID: Int, page: Int)
    case settings
    case onboarding
}
// snippet.end

// snippet.router
@MainActor
func navigate(_ router: PrismRouter<AppRoute>) throws {
    router.push(.inbox)
    router.push(.message(id: 42))
    router.present(.settings)  // a sheet
    router.dismiss()  // the sheet goes
    try router.pop(to: .inbox)  // back to the inbox; throws if it is not in the stack
    router.setPath([.inbox, .message(id: 7)])  // the whole stack, one change
    router.root()
}
// snippet.end

// snippet.state
struct AppState: Equatable, Sendable {
    var navigation = PrismNavigationState<AppRoute>()
    var navigationError: String?
}

enum AppAction: Sendable {
    case navigation(PrismNavigationAction<AppRoute>)
    case openURL(URL)
}

struct AppReducer: PrismReducer {
    let links: PrismDeepLinks<AppRoute>

    func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
        do {
            switch action {
            case .navigation(let action):
                try state.navigation.apply(action)
            case .openURL(let url):
                try state.navigation.open(url, with: links)
            }
            state.navigationError = nil
        } catch {
            state.navigationError = error.description  // and the navigation is as it was
        }
        return .none
    }
}

@MainActor
func navigateWithActions(_ store: PrismStore<AppState, AppAction>) {
    store.send(.navigation(.push(.inbox)))
    store.send(.navigation(.push(.message(id: 42))))
    store.send(.navigation(.present(.settings)))
    store.send(.navigation(.dismiss))
    store.send(.navigation(.popTo(.inbox)))
}
// snippet.end

// snippet.links
func appLinks() -> PrismDeepLinks<AppRoute> {
    var links = PrismDeepLinks<AppRoute>(schemes: ["myapp"], hosts: ["mail.example.com"])
    links.register("/inbox") { _ in [.inbox] }
    links.register("/messages/:id") { parameters in
        [.inbox, .message(id: try parameters.value("id"))]
    }
    links.register("/messages/:id/thread?page=") { parameters in
        let id: Int = try parameters.value("id")
        let page = try parameters.optionalValue("page", as: Int.self) ?? 1
        return [.inbox, .message(id: id), .thread(messageID: id, page: page)]
    }
    links.register("/welcome") { _ in
        PrismNavigationState(stack: [.inbox], fullScreenCover: .onboarding)
    }
    return links
}
// snippet.end

// snippet.open
@MainActor
func open(_ url: URL, on router: PrismRouter<AppRoute>) {
    do {
        // myapp://messages/42/thread?page=2, https://mail.example.com/messages/42/thread?page=2
        // and /messages/42/thread?page=2 all reach the same pattern.
        try router.open(url, with: appLinks())
    } catch {
        switch error.code {
        case .unknownURL, .unsupportedURL:
            print("Not a link of this app: \(url)")
        case .missingParameter, .malformedParameter:
            print("A link with a bad \(error.parameter ?? "parameter"): \(error.message)")
        default:
            print(error)
        }
    }
}
// snippet.end

// snippet.restore
@MainActor
func save(_ router: PrismRouter<AppRoute>, to file: URL) throws {
    try router.encodedState().write(to: file, options: .atomic)
}

@MainActor
func restore(_ router: PrismRouter<AppRoute>, from file: URL) {
    guard let data = try? Data(contentsOf: file) else { return }  // first launch
    do {
        try router.restore(from: data)
    } catch {
        // A route this build no longer knows, an envelope from a newer build, damaged data:
        // the router stays at the root.
        print("Starting at the root: \(error.code)")
    }
}
// snippet.end

// snippet.restore-state
func restoredNavigation(from data: Data) -> PrismNavigationState<AppRoute> {
    (try? PrismNavigationState<AppRoute>(restoringFrom: data)) ?? PrismNavigationState()
}
// snippet.end
