import Foundation
import PrismGraphQL
import PrismRouting
import PrismStore

@testable import PrismInspectorModel
@testable import PrismPersistence

// What the architecture half reads from outside: deep links, session recordings, saved states
// (with their migrations), and any value the inspector draws.

extension FuzzTargets {
    static let deepLinks = FuzzTarget(
        name: "deep-links",
        checks:
            "any URL opens a state of the router or throws PrismRoutingError; every state opened, and any route with any values, written as a URL opens that same state"
    ) { data in
        if let url = URL(string: String(decoding: data, as: UTF8.self)) {
            if let state = try? FuzzRoute.links.navigationState(for: url) {
                let written = FuzzRoute.url(for: state)
                fuzzExpect(
                    (try? FuzzRoute.links.navigationState(for: written)) == state,
                    "\(url) opens \(state.stack), but \(written) does not")
            }
        }
        var input = FuzzInput(data)
        let route = FuzzRoute.make(from: &input)
        let state = FuzzRoute.state(showing: route)
        let written = FuzzRoute.url(for: state, scheme: ["prism://", "https://example.com", ""][input.below(3)])
        do {
            let opened = try FuzzRoute.links.navigationState(for: written)
            fuzzExpect(opened == state, "\(written) opens \(opened.stack), not \(state.stack)")
        } catch {
            fuzzExpect(false, "\(written) for \(route) fails: \(error)")
        }
    }

    static let sessionRecording = FuzzTarget(
        name: "session-recording",
        checks:
            "any file decodes as a session recording or throws; a decoded recording encodes, and its encoding decodes and encodes to the same bytes"
    ) { data in
        typealias Recording = PrismSessionRecording<FuzzState, FuzzAction>
        guard let recording = try? JSONDecoder().decode(Recording.self, from: data) else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let once = try? encoder.encode(recording) else {
            return fuzzExpect(
                false, "a recording that decoded does not encode: \(String(decoding: data, as: UTF8.self))")
        }
        guard let again = try? JSONDecoder().decode(Recording.self, from: once) else {
            return fuzzExpect(
                false, "a recording's own encoding does not decode: \(String(decoding: once, as: UTF8.self))")
        }
        fuzzExpect(again.initialState == recording.initialState && again.actions == recording.actions, "values differ")
        fuzzExpect((try? encoder.encode(again)) == once, "the encoding is not stable")
    }

    static let savedState = FuzzTarget(
        name: "saved-state",
        checks:
            "any stored bytes load as the current state (migrated from 1 or 2) or fail with a typed reason; a loaded state saves and loads as itself; a state saved at any version loads migrated"
    ) { data in
        switch StateCodec.decode(FuzzSaved.self, from: data) {
        case .success(let state):
            guard let saved = try? StateCodec.encode(state, key: "fuzz") else {
                return fuzzExpect(false, "a loaded state does not save")
            }
            guard case .success(let loaded) = StateCodec.decode(FuzzSaved.self, from: saved) else {
                return fuzzExpect(false, "a saved state does not load: \(String(decoding: saved, as: UTF8.self))")
            }
            fuzzExpect(loaded == state, "\(state) saved and loaded as \(loaded)")
        case .failure(let failure):
            fuzzExpect(!failure.message.isEmpty, "a failure without a message")
        }
        var input = FuzzInput(data)
        let name = input.anyText(upTo: 20)
        let count = Int(input.int64() % 1_000_000)
        let version = 1 + input.below(3)
        var state: [String: Any] = version == 1 ? ["title": name, "count": count] : ["name": name, "count": count]
        if version == 3 { state["tags"] = ["a"] }
        guard let envelope = try? JSONSerialization.data(withJSONObject: ["version": version, "state": state]) else {
            return
        }
        let expected = FuzzSaved(name: name, count: count, tags: version == 3 ? ["a"] : [])
        guard case .success(let loaded) = StateCodec.decode(FuzzSaved.self, from: envelope) else {
            return fuzzExpect(false, "version \(version) does not load: \(String(decoding: envelope, as: UTF8.self))")
        }
        fuzzExpect(loaded == expected, "version \(version) loads as \(loaded), not \(expected)")
    }

    static let inspectorValues = FuzzTarget(
        name: "inspector-values",
        checks:
            "any JSON value the page draws becomes a tree within its budget that encodes as JSON; a diff of two stays within its limit; no secret is seen in plain values"
    ) { data in
        guard let value = try? JSONDecoder().decode(PrismGraphQLValue.self, from: data) else { return }
        for budget in [ValueNode.Budget.state, .summary] {
            let node = ValueNode(of: value, budget: budget)
            let (nodes, depth) = node.size()
            fuzzExpect(nodes <= budget.nodes + 1, "\(nodes) nodes past a budget of \(budget.nodes)")
            fuzzExpect(depth <= budget.depth + 2, "depth \(depth) past \(budget.depth)")
            guard let json = try? JSONEncoder().encode(node) else { return fuzzExpect(false, "a tree does not encode") }
            fuzzExpect((try? JSONSerialization.jsonObject(with: json)) != nil, "a tree's JSON does not parse")
        }
        fuzzExpect(!ValueNode.containsSecret(value), "a secret seen in plain JSON")
        let before = ValueNode(of: value)
        let after = ValueNode(of: PrismGraphQLValue.array([value, .string("x")]))
        let lines = before.diff(to: after, limit: 50)
        fuzzExpect(lines.count <= 51, "\(lines.count) diff lines past a limit of 50")
        fuzzExpect(before.diff(to: before).isEmpty, "a value differs from itself")
    }
}

// MARK: - The values the architecture targets use

enum FuzzRoute: PrismRoutable {
    case home
    case newUser
    case user(id: Int)
    case repositories(userID: Int, page: Int)
    case article(slug: String)
    case search(query: String)

    static let links: PrismDeepLinks<FuzzRoute> = {
        var links = PrismDeepLinks<FuzzRoute>(schemes: ["prism"], hosts: ["example.com"])
        links.register("/home") { _ in [.home] }
        links.register("/users/new") { _ in [.newUser] }
        links.register("/users/:id") { parameters in [.user(id: try parameters.value("id"))] }
        links.register("/users/:id/repos?page=") { parameters in
            let id: Int = try parameters.value("id")
            return [.user(id: id), .repositories(userID: id, page: try parameters.optionalValue("page") ?? 1)]
        }
        links.register("/articles/:slug") { parameters in [.article(slug: try parameters.value("slug"))] }
        links.register("/search?q=") { parameters in [.search(query: try parameters.optionalValue("q") ?? "")] }
        return links
    }()

    static func make(from input: inout FuzzInput) -> FuzzRoute {
        func text() -> String {
            let text = input.anyText(upTo: 16)
            return text.isEmpty ? "x" : text
        }
        switch input.below(6) {
        case 0: return .home
        case 1: return .newUser
        case 2: return .user(id: Int(input.int64()))
        case 3: return .repositories(userID: Int(input.int64()), page: Int(input.int64()))
        case 4:
            let slug = text()
            return .article(slug: slug)
        default: return .search(query: text())
        }
    }

    /// The state a link to `route` opens.
    static func state(showing route: FuzzRoute) -> PrismNavigationState<FuzzRoute> {
        if case .repositories(let id, _) = route { return [.user(id: id), route] }
        return [route]
    }

    /// A link to `state`'s last route, each value percent-encoded.
    static func url(for state: PrismNavigationState<FuzzRoute>, scheme: String = "") -> URL {
        func encoded(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
        }
        let path =
            switch state.stack.last ?? .home {
            case .home: "/home"
            case .newUser: "/users/new"
            case .user(let id): "/users/\(id)"
            case .repositories(let id, let page): "/users/\(id)/repos?page=\(page)"
            case .article(let slug): "/articles/\(encoded(slug))"
            case .search(let query): "/search?q=\(encoded(query))"
            }
        return URL(string: scheme == "prism://" ? "prism:/" + path : scheme + path)!
    }
}

struct FuzzState: Codable, Equatable, Sendable {
    var count: Int
    var names: [String]
    var note: String?
}

enum FuzzAction: Codable, Equatable, Sendable {
    case add(String)
    case increment(by: Int)
    case reset
}

/// A saved state at version 3: version 1 called `name` `title`; version 2 had no `tags`.
struct FuzzSaved: PrismVersionedState, Equatable {
    var name: String
    var count: Int
    var tags: [String]

    static let persistenceMigrations = PrismPersistenceMigrations(currentVersion: 3) { migrations in
        migrations.migrate(from: 1) { json in
            guard var object = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
                throw FuzzMigrationError()
            }
            object["name"] = object.removeValue(forKey: "title")
            return try JSONSerialization.data(withJSONObject: object)
        }
        migrations.migrate(from: 2) { json in
            guard var object = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
                throw FuzzMigrationError()
            }
            if object["tags"] == nil { object["tags"] = [String]() }
            return try JSONSerialization.data(withJSONObject: object)
        }
    }
}

struct FuzzMigrationError: Error {}

extension ValueNode {
    /// How many nodes the tree has, and how deep it goes.
    func size() -> (nodes: Int, depth: Int) {
        var nodes = 1
        var depth = 0
        for child in children ?? [] {
            let (childNodes, childDepth) = child.size()
            nodes += childNodes
            depth = max(depth, childDepth)
        }
        return (nodes, depth + 1)
    }
}
