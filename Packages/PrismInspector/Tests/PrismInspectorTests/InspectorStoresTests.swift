import Foundation
import PrismStore
import Testing

@testable import PrismInspector

/// A plain store for a second inspector: an `Int` counted by its actions.
enum CounterAction: Codable, Equatable, Sendable {
    case tick
}

@MainActor
func counterStore() -> PrismStore<Int, CounterAction> {
    PrismStore(
        initialState: 0,
        reducer: PrismReduce<Int, CounterAction> { state, _ in
            state += 1
            return .none
        })
}

extension PrismInspector {
    /// Opens a page's WebSocket on the store numbered `store` of this inspector's server.
    func openPage(store: Int) async throws -> TestSocket {
        let outcome = try await TestSocket.connect(
            port: port, path: pagePath + "socket?store=\(store)", origin: "http://127.0.0.1:\(port)")
        guard case .connected(let socket) = outcome else {
            Issue.record("the inspector refused its own page's WebSocket")
            throw CancellationError()
        }
        return socket
    }
}

@MainActor
@Suite("Several stores, one page")
struct InspectorStoresTests {
    @Test("a store that joins another's inspector is on the same URL; a page asks for either and sees only its actions")
    func twoStoresOnePage() async throws {
        let todos = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        let counter = counterStore()
        let main = try await startInspector(todos)
        let background = try await PrismInspector.start(
            counter, configuration: .init(batchInterval: .seconds(3_600), printsURL: false, title: "Background"),
            joining: main.host)
        #expect(background.url == main.url)
        todos.send(.add("milk"))
        counter.send(.tick)
        counter.send(.tick)

        let first = try await main.openPage(store: main.storeID)
        let hello = try await first.next("hello")
        let stores = try #require(hello["stores"] as? [[String: Any]])
        #expect(stores.map { $0["title"] as? String } == ["TodoState", "Background"])
        #expect(hello["store"] as? Int == main.storeID)
        let todoBatch = try await first.next("actions")
        #expect(todoBatch.entries.compactMap { $0["name"] as? String }.contains { $0.contains("add") })

        let second = try await main.openPage(store: background.storeID)
        let secondHello = try await second.next("hello")
        #expect(secondHello["title"] as? String == "Background")
        let counterBatch = try await second.next("actions")
        #expect(counterBatch.entries.filter { $0["marker"] as? Bool == false }.count == 2)
        #expect(main.connectedPages == 1 && background.connectedPages == 1)

        // A page that asks for no store, or one that is gone, gets the first.
        let unnamed = try await main.openPage(store: 99)
        #expect(try await unnamed.next("hello")["store"] as? Int == main.storeID)

        await first.close()
        await second.close()
        await unnamed.close()
        await background.stop()
        await main.stop()
    }

    @Test("pages hear when a store joins or leaves; the server goes on until the last inspector stops")
    func joinAndLeave() async throws {
        let todos = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        let main = try await startInspector(todos)
        let page = try await openPage(main, past: "hello")

        let counter = counterStore()
        let background = try await PrismInspector.start(
            counter, configuration: .init(printsURL: false, title: "Background"), joining: main.host)
        let joined = try await page.next("stores") { ($0["stores"] as? [Any])?.count == 2 }
        #expect((joined["stores"] as? [[String: Any]])?.last?["title"] as? String == "Background")

        // The first inspector stops: its page closes, the other store is still served.
        await main.stop()
        #expect(try await eventually { !page.isOpen })
        let second = try await background.openPage(store: background.storeID)
        #expect(try await second.next("hello")["title"] as? String == "Background")
        counter.send(.tick)
        background.flush()
        _ = try await second.next("actions") { !$0.entries.isEmpty }

        // A third store can still join the host; once every inspector stopped, nothing is served.
        let third = try await PrismInspector.start(
            PrismStore(initialState: TodoState(), reducer: TodoReducer()),
            configuration: .init(printsURL: false, title: "Third"), joining: main.host)
        await second.close()
        await background.stop()
        await third.stop()
        let after = try? await TestSocket.connect(
            port: main.port, path: main.pagePath + "socket", origin: "http://127.0.0.1:\(main.port)")
        if case .connected(let socket) = after {
            Issue.record("the server still accepted a page after every inspector stopped")
            await socket.close()
        }
        await #expect(throws: PrismInspectorError.self) {
            _ = try await PrismInspector.start(
                counterStore(), configuration: .init(printsURL: false), joining: main.host)
        }
    }
}
