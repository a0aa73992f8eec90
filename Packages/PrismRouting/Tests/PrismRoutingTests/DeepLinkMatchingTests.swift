import Foundation
import PrismRouting
import Testing

/// The routes and links of a small app, shared by the deep-link suites.
enum Link: PrismRoutable {
    enum Sort: String, PrismDeepLinkValue {
        case stars
        case updated
    }

    case settings
    case newUser
    case user(id: Int)
    case repositories(userID: Int, page: Int)
    case search(query: String, sort: Sort?)
    case file(name: String)
    case overview(section: String)
    case item(UUID)
    case flags(enabled: Bool, ratio: Double)

    /// The app's links. `/users/new` is registered after `/users/:id` on purpose: the literal
    /// must win whatever the order.
    static var links: PrismDeepLinks<Link> {
        var links = PrismDeepLinks<Link>(schemes: ["myapp"], hosts: ["example.com", "www.example.com"])
        links.register("/") { _ in [] }
        links.register("/settings") { _ in PrismNavigationState(sheet: .settings) }
        links.register("/users/:id") { parameters in [.user(id: try parameters.value("id"))] }
        links.register("/users/new") { _ in PrismNavigationState(fullScreenCover: .newUser) }
        links.register("/users/:id/repos?page=") { parameters in
            let id: Int = try parameters.value("id")
            let page = try parameters.optionalValue("page", as: Int.self) ?? 1
            return [.user(id: id), .repositories(userID: id, page: page)]
        }
        links.register("/search?q=&sort=") { parameters in
            [.search(query: try parameters.value("q"), sort: try parameters.optionalValue("sort"))]
        }
        links.register("/files/:name") { parameters in [.file(name: try parameters.value("name"))] }
        links.register("/:section/overview") { parameters in [.overview(section: try parameters.value("section"))] }
        links.register("/items/:id") { parameters in [.item(try parameters.value("id"))] }
        links.register("/flags?enabled=&ratio=") { parameters in
            [.flags(enabled: try parameters.value("enabled"), ratio: try parameters.value("ratio"))]
        }
        return links
    }
}

@MainActor
@Suite("Matching deep links")
struct DeepLinkMatchingTests {
    func state(_ url: String) throws -> PrismNavigationState<Link> {
        try Link.links.navigationState(for: URL(url))
    }

    @Test("a path parameter is read as the type the handler asks for")
    func pathParameter() throws {
        #expect(try state("myapp://users/42") == [.user(id: 42)])
        #expect(try state("myapp://users/-7") == [.user(id: -7)])
    }

    @Test(
        "custom schemes, web hosts and bare paths all reach the same pattern",
        arguments: [
            "myapp://users/42",
            "MyApp://users/42",
            "myapp:///users/42",
            "myapp:users/42",
            "myapp://example.com/users/42",
            "https://example.com/users/42",
            "http://www.example.com/users/42",
            "https://EXAMPLE.com:8443/users/42",
            "/users/42",
            "users/42",
        ]
    )
    func schemesAndHosts(url: String) throws {
        #expect(try state(url) == [.user(id: 42)])
    }

    @Test(
        "trailing and doubled slashes and a fragment do not matter",
        arguments: ["myapp://users/42/", "https://example.com/users/42/", "myapp://users//42", "/users/42/#top"]
    )
    func slashesAndFragments(url: String) throws {
        #expect(try state(url) == [.user(id: 42)])
    }

    @Test("the root pattern matches a URL with no path")
    func rootPattern() throws {
        #expect(try state("myapp://") == [])
        #expect(try state("https://example.com") == [])
        #expect(try state("https://example.com/") == [])
    }

    @Test("a handler can return a whole state with a sheet or a cover")
    func wholeState() throws {
        #expect(try state("myapp://settings") == PrismNavigationState(sheet: .settings))
        #expect(try state("myapp://users/new") == PrismNavigationState(fullScreenCover: .newUser))
    }

    @Test("an optional query parameter may be absent, empty or present")
    func optionalQuery() throws {
        #expect(try state("myapp://users/42/repos") == [.user(id: 42), .repositories(userID: 42, page: 1)])
        #expect(try state("myapp://users/42/repos?page=") == [.user(id: 42), .repositories(userID: 42, page: 1)])
        #expect(try state("myapp://users/42/repos?page=3") == [.user(id: 42), .repositories(userID: 42, page: 3)])
        #expect(try state("myapp://users/42/repos/?page=3#x") == [.user(id: 42), .repositories(userID: 42, page: 3)])
    }

    @Test("a required query parameter is read, with other query items ignored")
    func requiredQuery() throws {
        #expect(try state("myapp://search?q=swift") == [.search(query: "swift", sort: nil)])
        #expect(
            try state("myapp://search?utm_source=mail&sort=stars&q=swift") == [.search(query: "swift", sort: .stars)])
    }

    @Test("when a query item repeats, the first value counts")
    func repeatedQueryItem() throws {
        #expect(try state("myapp://search?q=first&q=second") == [.search(query: "first", sort: nil)])
    }

    @Test("path segments and query items are percent-decoded, an encoded slash staying in its segment")
    func percentDecoding() throws {
        #expect(try state("myapp://files/a%2Fb%20c.txt") == [.file(name: "a/b c.txt")])
        #expect(try state("myapp://files/caf%C3%A9") == [.file(name: "café")])
        #expect(
            try state("myapp://search?q=caf%C3%A9%20au%20lait%26more") == [
                .search(query: "café au lait&more", sort: nil)
            ])
        #expect(try state("myapp://search?q=a+b") == [.search(query: "a+b", sort: nil)])
        #expect(try state("https://example.com/%75sers/42") == [.user(id: 42)])
    }

    @Test("a literal segment beats a parameter, whatever the order of registration")
    func literalsWin() throws {
        // "/users/new" was registered after "/users/:id".
        #expect(try state("myapp://users/new") == PrismNavigationState(fullScreenCover: .newUser))
        // Both "/users/:id" and "/:section/overview" match; the leftmost literal decides.
        let error = try #require(throws: PrismRoutingError.self) { try state("myapp://users/overview") }
        #expect(error.code == .malformedParameter)
        #expect(error.parameter == "id")
        #expect(try state("myapp://teams/overview") == [.overview(section: "teams")])
    }

    @Test("the order of registration does not change which pattern wins")
    func orderIndependence() throws {
        var forward = PrismDeepLinks<Link>(schemes: ["myapp"])
        forward.register("/users/:id") { _ in [.settings] }
        forward.register("/users/new") { _ in [.newUser] }
        var backward = PrismDeepLinks<Link>(schemes: ["myapp"])
        backward.register("/users/new") { _ in [.newUser] }
        backward.register("/users/:id") { _ in [.settings] }
        for links in [forward, backward] {
            #expect(try links.navigationState(for: URL("myapp://users/new")) == [.newUser])
            #expect(try links.navigationState(for: URL("myapp://users/7")) == [.settings])
        }
        #expect(forward.patterns == ["/users/:id", "/users/new"])
    }

    @Test("UUIDs, Booleans, Doubles and raw-value enums are read from their text")
    func valueTypes() throws {
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(try state("myapp://items/e621e1f8-c36c-495a-93fc-0c247a3e6e5f") == [.item(id)])
        #expect(try state("myapp://flags?enabled=true&ratio=0.25") == [.flags(enabled: true, ratio: 0.25)])
        #expect(try state("myapp://flags?enabled=0&ratio=-3") == [.flags(enabled: false, ratio: -3)])
        #expect(try state("myapp://search?q=x&sort=updated") == [.search(query: "x", sort: .updated)])
    }

    @Test("the handler sees the URL, the pattern and every query item")
    func parametersContext() throws {
        let seen = LockedParameters()
        var links = PrismDeepLinks<Link>(hosts: ["example.com"])
        links.register("/users/:id?tab=") { parameters in
            seen.set(parameters)
            return [.user(id: try parameters.value("id"))]
        }
        let url = URL("https://example.com/users/5?tab=repos&ref=mail")
        _ = try links.navigationState(for: url)
        let parameters = try #require(seen.value)
        #expect(parameters.url == url)
        #expect(parameters.pattern == "/users/:id?tab=")
        #expect(parameters.query == ["tab": "repos", "ref": "mail"])
        #expect(try parameters.value("tab", as: String.self) == "repos")
    }

    @Test("opening a link on a router or a state sets the whole navigation state")
    func openReplacesEverything() throws {
        let router = PrismRouter<Link>(state: PrismNavigationState(stack: [.settings, .newUser], sheet: .settings))
        try router.open(URL("myapp://users/42/repos?page=2"), with: Link.links)
        #expect(router.state == [.user(id: 42), .repositories(userID: 42, page: 2)])

        var state = PrismNavigationState<Link>(stack: [.newUser], fullScreenCover: .settings)
        try state.open(URL("https://example.com/settings"), with: Link.links)
        #expect(state == PrismNavigationState(sheet: .settings))
    }
}

/// Hands the parameters a handler saw back to the test.
final class LockedParameters: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: PrismDeepLinkParameters?

    var value: PrismDeepLinkParameters? { lock.withLock { stored } }

    func set(_ parameters: PrismDeepLinkParameters) { lock.withLock { stored = parameters } }
}
