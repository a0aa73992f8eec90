import Foundation
import PrismStore
import Testing

@testable import PrismInspector

@MainActor
@Suite("Secrets on the page")
struct InspectorRedactionTests {
    @Test("a secret in the state or in an action never reaches the page: it is shown redacted")
    func secretsRedacted() async throws {
        try await withTodoInspector { store, inspector in
            store.send(.login(name: "grace", password: PrismSecret(wrappedValue: "correct-horse")))
            let page = try await openPage(inspector)
            let batch = try await page.next("actions")
            #expect(batch.entries.last?["summary"] as? String == #".login(name: "grace", password: ‹redacted›)"#)
            for index in [0, 1] {
                try await page.send(["type": "select", "index": index])
                let state = try await page.next("state")
                // A secret's tree node says it is redacted, under the property's own name.
                let tree = try #require(state["state"] as? [String: Any])
                let account = try #require((tree["c"] as? [[String: Any]])?.first { $0["l"] as? String == "account" })
                let password = try #require(
                    (account["c"] as? [[String: Any]])?.first { $0["l"] as? String == "password" })
                #expect(password["v"] as? String == "‹redacted›")
                #expect(password["r"] as? Bool == true)
            }
            let all = page.allText
            #expect(!all.contains("correct-horse"))
            #expect(!all.contains("hunter2"))
            await page.close()
        }
    }

    @Test("an action holding a secret is not offered as JSON to send again")
    func noJSONForSecretActions() async throws {
        try await withTodoPage(sending: [
            .login(name: "grace", password: PrismSecret(wrappedValue: "correct-horse")), .add("milk"),
        ]) { _, _, page in
            try await page.send(["type": "select", "index": 1])
            let login = try await page.next("state")
            #expect(login["actionJSON"] == nil)
            try await page.send(["type": "select", "index": 2])
            let add = try await page.next("state")
            #expect(add["actionJSON"] as? String == #"{"add":{"_0":"milk"}}"#)
        }
    }

    @Test("a secret past the part of an action the page draws still keeps the action from being offered as JSON")
    func secretPastTheBudget() async throws {
        try await withTodoInspector { store, inspector in
            // 600 elements: the tree draws 500 of them; the secret is in the last.
            var accounts: [Account?] = Array(repeating: nil, count: 599)
            accounts.append(Account(name: "ada", password: "far-down-the-list"))
            store.send(.importAccounts(accounts))
            let page = try await openPage(inspector, past: "actions")
            try await page.send(["type": "select", "index": 1])
            let selected = try await page.next("state")
            #expect(selected["actionJSON"] == nil)
            #expect(!page.allText.contains("far-down-the-list"))
            await page.close()
        }
    }

    @Test("an export says it contains secrets when an action holds one, not only the initial state")
    func exportCountsActions() async throws {
        let store = PrismStore(initialState: OpenState(), reducer: OpenReducer())
        let inspector = try await PrismInspector.start(
            store, configuration: .init(batchInterval: .seconds(3_600), printsURL: false))
        store.send(.bump)
        let page = try await openPage(inspector, past: "actions")
        try await page.send(["type": "export"])
        #expect(try await page.next("export")["containsSecrets"] as? Bool == false)
        store.send(.signIn(PrismSecret(wrappedValue: "in-an-action")))
        try await page.send(["type": "export"])
        #expect(try await page.next("export")["containsSecrets"] as? Bool == true)
        await page.close()
        await inspector.stop()
    }
}

/// A state with no secret in it, whose actions may hold one.
struct OpenState: Codable, Equatable, Sendable {
    var count = 0
}

enum OpenAction: Codable, Equatable, Sendable {
    case bump
    case signIn(PrismSecret<String>)
}

struct OpenReducer: PrismReducer {
    func reduce(into state: inout OpenState, action: OpenAction) -> PrismEffect<OpenAction> {
        if case .bump = action { state.count += 1 }
        return .none
    }
}
