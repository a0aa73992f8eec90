// PrismRouting at a glance: a router, navigation as state, screens that are features, deep links,
// restoration and the SwiftUI glue. It compiles with the package (the SwiftUI part where SwiftUI
// exists).
// snippet.hide
import Foundation
import Logging
import Prism

#if canImport(SwiftUI)
import SwiftUI
#endif

// snippet.show
// snippet.router
enum AppRoute: PrismRoutable, Codable {
    case home
    case detail(id: String)
    case settings
    case onboarding
    case user(id: Int)
    case repositories(userID: Int, page: Int)
}

let router = PrismRouter<AppRoute>()
router.push(.detail(id: "42"))  // push onto the navigation stack
router.present(.settings)  // present as a sheet
router.fullScreen(.onboarding)  // present full-screen
router.dismiss()  // dismiss the topmost layer: the cover
router.root()  // return to the root
// snippet.end

// snippet.show
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
            state.navigationError = error.description
        }
        return .none
    }
}

// snippet.hide
let links = PrismDeepLinks<AppRoute>(schemes: ["myapp"])
let store = PrismStore(initialState: AppState(), reducer: AppReducer(links: links))
// snippet.show
store.send(.navigation(.push(.detail(id: "42"))))
store.send(.navigation(.popTo(.home)))
// snippet.end
// snippet.hide

struct TimerState: Hashable, Sendable {
    let id: Int
    var seconds = 0
}

enum TimerAction: Sendable {
    case tick
}

struct TimerFeature: PrismReducer {
    func reduce(into state: inout TimerState, action: TimerAction) -> PrismEffect<TimerAction> {
        state.seconds += 1
        return .none
    }
}

enum ScreenFeatures {
    // snippet.show
    // snippet.screens
    enum Screen: PrismRoutable {
        case timer(TimerState)
        case about(id: Int)

        var id: Int {
            switch self {
            case .timer(let timer): timer.id
            case .about(let id): id
            }
        }
    }
    // snippet.end

    // snippet.hide
    enum ScreenAction: Sendable {
        case timer(TimerAction)
    }

    struct ScreenFeature: PrismFeature {
        var body: some PrismReducer<Screen, ScreenAction> {
            PrismScope(state: \.timer, embed: Screen.timer, action: ScreenAction.timer, toChildAction: \.timer) {
                TimerFeature()
            }
        }
    }

    struct AppState: Equatable, Sendable {
        var navigation = PrismNavigationState<Screen>()
    }

    enum AppAction: Sendable {
        case screen(id: Int, action: ScreenAction)
        case sheet(ScreenAction)
    }

    struct AppCoreReducer: PrismReducer {
        func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> { .none }
    }

    struct AppFeature: PrismFeature {
        var body: some PrismReducer<AppState, AppAction> {
            // snippet.show
            // snippet.screen-features
            // In the app's feature (PrismStore):
            AppCoreReducer()
                .forEach(\.navigation.stack, action: AppAction.screen) {
                    ScreenFeature()  // a PrismScope per case: the timer feature on `.timer`, ...
                }
                .ifLet(\.navigation.sheet, action: AppAction.sheet) {
                    ScreenFeature()
                }
            // snippet.end
            // snippet.hide
        }
    }
}

extension ScreenFeatures.ScreenAction {
    var timer: TimerAction? {
        if case .timer(let action) = self { action } else { nil }
    }
}

extension ScreenFeatures.Screen {
    var timer: TimerState? {
        if case .timer(let timer) = self { timer } else { nil }
    }
}

@MainActor
func deepLinks(router: PrismRouter<AppRoute>) throws {
    // snippet.show
    // snippet.links
    var links = PrismDeepLinks<AppRoute>(schemes: ["myapp"], hosts: ["example.com"])
    links.register("/users/:id/repos?page=") { parameters in
        let id: Int = try parameters.value("id")
        let page = try parameters.optionalValue("page", as: Int.self) ?? 1
        return [.user(id: id), .repositories(userID: id, page: page)]
    }

    try router.open(URL(string: "myapp://users/42/repos?page=2")!, with: links)
    // snippet.end
    // snippet.hide
}

@MainActor
func restoration(router: PrismRouter<AppRoute>, navigationFile: URL, logger: Logger) throws {
    // snippet.show
    // snippet.restore
    // When the app goes to the background
    try router.encodedState().write(to: navigationFile)

    // At the next launch
    do {
        try router.restore(from: Data(contentsOf: navigationFile))
    } catch {
        logger.notice("Starting at the root: \(error)")
    }
    // snippet.end
    // snippet.hide
}

#if canImport(SwiftUI)
struct HomeView: View {
    var body: some View { Text("Home") }
}

struct RouteView: View {
    let route: AppRoute
    var body: some View { Text(String(describing: route)) }
}

struct RootView: View {
    let router: PrismRouter<AppRoute>

    var body: some View {
        // snippet.show
        // snippet.swiftui
        PrismNavigationStack(router: router) {
            HomeView()
        } destination: { route in
            RouteView(route: route)
        }
        // snippet.end
        // snippet.hide
    }
}
#endif
