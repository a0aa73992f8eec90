// Seed page 003 (middleware), as written there. Only what the page calls but does not define
// (AppState, AppAction, AppReducer, AnalyticsService, CrashReporter, ErrorReporter) is stubbed
// here. `PrismDiskPersistence` belongs to PrismPersistence, which this package does not depend
// on: a stand-in with the same shape is defined below until that module lands.
import Foundation
import Testing

@testable import PrismStore

enum SeedMiddleware {
    // MARK: Stubs for what the page calls

    struct Item: Sendable, Equatable, Codable {
        var id: String
        var price: Int
    }

    struct Cart: Sendable, Equatable {
        var items: [Item] = []
        var total: Int { items.reduce(0) { $0 + $1.price } }
    }

    enum Screen: String, Sendable {
        case home
        case checkout
    }

    struct AppError: Error, Sendable, Equatable {
        var message: String
    }

    struct AppState: Sendable, Equatable {
        var count = 0
        var cart = Cart()
        var currentScreen = Screen.home
        var items: [Item] = []
    }

    enum AppAction: Sendable {
        case increment
        case purchase(Item)
        case userSignedIn
        case error(AppError)
        case addToCart(Item)
        case checkout
        case purchaseComplete
        case add(Item)
        case remove(String)
        case update(Item)
        case networkError(AppError)
    }

    struct AppReducer: PrismReducer {
        func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
            switch action {
            case .increment: state.count += 1
            case .addToCart(let item): state.cart.items.append(item)
            case .checkout: state.currentScreen = .checkout
            case .purchaseComplete: state.cart = Cart()
            case .add(let item): state.items.append(item)
            case .remove(let id): state.items.removeAll { $0.id == id }
            case .update(let item):
                if let index = state.items.firstIndex(where: { $0.id == item.id }) { state.items[index] = item }
            case .purchase, .userSignedIn, .error, .networkError: break
            }
            return .none
        }
    }

    /// What the services received, in order.
    static let events = LockedBox<[String]>([])

    enum AnalyticsService {
        static func track(_ event: String, properties: [String: String] = [:]) async {
            let details = properties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            events.mutate { $0.append(([event] + details).joined(separator: " ")) }
        }
    }

    enum Analytics {
        static func track(_ event: String) async { await AnalyticsService.track(event) }
    }

    enum CrashReporter {
        static func log(_ error: AppError) async { events.mutate { $0.append("crash \(error.message)") } }
    }

    enum ErrorReporter {
        static func report(_ error: AppError, context: [String: String]) async {
            events.mutate { $0.append("error \(error.message) screen=\(context["screen"] ?? "")") }
        }
    }

    /// Stand-in for PrismPersistence's disk strategy: JSON files in a folder.
    struct PrismDiskPersistence: Sendable {
        static let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("prism-seed-003-\(ProcessInfo.processInfo.processIdentifier)")

        func save<State: Codable & Sendable>(_ state: State, key: String) throws {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try JSONEncoder().encode(state).write(to: Self.directory.appendingPathComponent("\(key).json"))
        }

        func load<State: Codable & Sendable>(key: String) throws -> State? {
            let url = Self.directory.appendingPathComponent("\(key).json")
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return try JSONDecoder().decode(State.self, from: Data(contentsOf: url))
        }
    }

    // MARK: Custom middleware

    struct LoggingMiddleware: PrismMiddleware {
        func run(state: AppState, action: AppAction) -> PrismEffect<AppAction> {
            print("[Action] \(action)")
            print("[State]  count=\(state.count)")
            return .none
        }
    }

    // MARK: Practical examples

    struct AnalyticsMiddleware: PrismMiddleware {
        func run(state: AppState, action: AppAction) -> PrismEffect<AppAction> {
            let event: String? =
                switch action {
                case .addToCart: "add_to_cart"
                case .checkout: "begin_checkout"
                case .purchaseComplete: "purchase"
                default: nil
                }

            guard let event else { return .none }

            return .run { _ in
                await AnalyticsService.track(
                    event,
                    properties: [
                        "cart_total": "\(state.cart.total)",
                        "item_count": "\(state.cart.items.count)",
                    ])
            }
        }
    }

    struct PersistenceMiddleware: PrismMiddleware {
        let persistence = PrismDiskPersistence()

        func run(state: AppState, action: AppAction) -> PrismEffect<AppAction> {
            switch action {
            case .add, .remove, .update:
                return .run { [state] _ in
                    try? persistence.save(state.items, key: "saved_items")
                }
            default:
                return .none
            }
        }
    }

    struct ErrorMiddleware: PrismMiddleware {
        func run(state: AppState, action: AppAction) -> PrismEffect<AppAction> {
            switch action {
            case .networkError(let error):
                return .run { _ in
                    await ErrorReporter.report(
                        error,
                        context: [
                            "screen": state.currentScreen.rawValue
                        ])
                }
            default:
                return .none
            }
        }
    }
}

/// The page's `.combine` example names `PrismSideEffect` without generic arguments, relying on
/// the app's context for them. This scope provides that context; in an app, write
/// `PrismSideEffect<AppState, AppAction>.combine(...)`.
typealias SeedAppSideEffect = PrismSideEffect<SeedMiddleware.AppState, SeedMiddleware.AppAction>

enum SeedMiddlewareSideEffects {
    typealias AppState = SeedMiddleware.AppState
    typealias AppAction = SeedMiddleware.AppAction
    typealias AnalyticsService = SeedMiddleware.AnalyticsService

    @MainActor
    static func analyticsSideEffect() -> SeedAppSideEffect {
        let analytics = PrismSideEffect<AppState, AppAction> { state, action in
            switch action {
            case .purchase(let item):
                return .run { _ in
                    await AnalyticsService.track("purchase", properties: ["item": item.id])
                }
            default:
                return .none
            }
        }
        return analytics
    }

    static func noop() -> SeedAppSideEffect {
        let noop = PrismSideEffect<AppState, AppAction>.none
        return noop
    }
}

enum SeedMiddlewareCombineContext {
    typealias PrismSideEffect = SeedAppSideEffect
    typealias Analytics = SeedMiddleware.Analytics
    typealias CrashReporter = SeedMiddleware.CrashReporter

    static func combined() -> SeedAppSideEffect {
        let combined = PrismSideEffect.combine(
            PrismSideEffect { state, action in
                print("[LOG] \(action)")
                return .none
            },
            PrismSideEffect { state, action in
                switch action {
                case .userSignedIn:
                    return .run { _ in await Analytics.track("sign_in") }
                default:
                    return .none
                }
            },
            PrismSideEffect { state, action in
                switch action {
                case .error(let e):
                    return .run { _ in await CrashReporter.log(e) }
                default:
                    return .none
                }
            }
        )
        return combined
    }
}

@MainActor
@Suite("Seed page 003: middleware", .serialized)
struct SeedMiddlewareTests {
    typealias AppState = SeedMiddleware.AppState
    typealias AppReducer = SeedMiddleware.AppReducer
    typealias LoggingMiddleware = SeedMiddleware.LoggingMiddleware

    init() {
        SeedMiddleware.events.mutate { $0 = [] }
    }

    @Test("middleware attaches to a store and composes with a reducer")
    func attaching() {
        let store = PrismStore(
            initialState: AppState(),
            reducer: AppReducer(),
            middleware: LoggingMiddleware()
        )
        store.send(.increment)
        #expect(store.state.count == 1)

        let combined = AppReducer().handling(with: LoggingMiddleware())
        let composed = PrismStore(initialState: AppState(), reducer: combined)
        composed.send(.increment)
        #expect(composed.state.count == 1)
    }

    @Test("the inline, no-op and combined side effects of the page")
    func sideEffects() async {
        let store = PrismStore(
            initialState: AppState(),
            reducer: AppReducer(),
            middleware: SeedMiddlewareSideEffects.analyticsSideEffect()
        )
        await store.send(.purchase(SeedMiddleware.Item(id: "book", price: 12))).finish()
        #expect(SeedMiddleware.events.wrappedValue == ["purchase item=book"])

        #expect(SeedMiddlewareSideEffects.noop().run(state: AppState(), action: .increment).isNone)

        SeedMiddleware.events.mutate { $0 = [] }
        let combinedStore = PrismStore(
            initialState: AppState(),
            reducer: AppReducer(),
            middleware: SeedMiddlewareCombineContext.combined()
        )
        await combinedStore.send(.userSignedIn).finish()
        await combinedStore.send(.error(SeedMiddleware.AppError(message: "boom"))).finish()
        #expect(SeedMiddleware.events.wrappedValue == ["sign_in", "crash boom"])
    }

    @Test("the practical middleware track, persist and report after the reducer ran")
    func practicalMiddleware() async throws {
        let store = PrismStore(
            initialState: AppState(),
            reducer: AppReducer(),
            middleware: [
                SeedMiddleware.AnalyticsMiddleware(), SeedMiddleware.PersistenceMiddleware(),
                SeedMiddleware.ErrorMiddleware(),
            ]
        )
        await store.send(.addToCart(SeedMiddleware.Item(id: "pen", price: 3))).finish()
        await store.send(.checkout).finish()
        await store.send(.networkError(SeedMiddleware.AppError(message: "offline"))).finish()
        #expect(
            SeedMiddleware.events.wrappedValue == [
                "add_to_cart cart_total=3 item_count=1",
                "begin_checkout cart_total=3 item_count=1",
                "error offline screen=checkout",
            ]
        )
        await store.send(.add(SeedMiddleware.Item(id: "saved", price: 1))).finish()
        let saved: [SeedMiddleware.Item]? = try SeedMiddleware.PrismDiskPersistence().load(key: "saved_items")
        #expect(saved == [SeedMiddleware.Item(id: "saved", price: 1)])
    }
}
