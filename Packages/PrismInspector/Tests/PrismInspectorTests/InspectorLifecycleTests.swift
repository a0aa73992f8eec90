import Foundation
import PrismStore
import Testing

@testable import PrismInspector

@MainActor
@Suite("Starting and stopping an inspector")
struct InspectorLifecycleTests {
    @Test("stopping closes the pages, stops serving and detaches: the store records nothing more")
    func stopDetaches() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        let inspector = try await startInspector(store)
        let page = try await openPage(inspector)
        _ = try await page.next("actions")
        store.send(.increment)
        await inspector.stop()
        store.send(.increment)
        #expect(inspector.debugger.snapshots.count == 2)
        #expect(inspector.connectedPages == 0)
        await #expect(throws: (any Error).self) {
            _ = try await httpRequest(port: inspector.port, path: inspector.pagePath)
        }
        await page.close()
    }

    @Test("a port that is taken is a clear error")
    func portTaken() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        try await withInspector(store) { first in
            let other = PrismStore(initialState: TodoState(), reducer: TodoReducer())
            let error = await #expect(throws: PrismInspectorError.self) {
                _ = try await PrismInspector.start(other, configuration: .init(port: first.port, printsURL: false))
            }
            #expect(error?.code == .cannotListen)
        }
    }

    @Test("each inspector has its own token, and the URL carries it")
    func tokens() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        try await withInspector(store) { first in
            try await withInspector(PrismStore(initialState: TodoState(), reducer: TodoReducer())) { second in
                let tokens = [first, second].map { String($0.pagePath.dropFirst().dropLast()) }
                #expect(tokens[0] != tokens[1])
                #expect(tokens.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
            }
        }
    }
}
