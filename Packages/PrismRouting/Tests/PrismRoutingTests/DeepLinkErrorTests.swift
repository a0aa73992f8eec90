import Foundation
import PrismRouting
import Testing

@MainActor
@Suite("Deep links that fail")
struct DeepLinkErrorTests {
    struct Failure: Error, Equatable {
        let reason: String
    }

    func error(_ url: String, links: PrismDeepLinks<Link> = Link.links) throws -> PrismRoutingError {
        try #require(throws: PrismRoutingError.self) { try links.navigationState(for: URL(url)) }
    }

    @Test(
        "a URL no pattern matches is an unknown URL",
        arguments: [
            "myapp://nowhere", "myapp://users", "myapp://users/42/repos/extra", "/Users/42", "myapp://settings/x",
        ]
    )
    func unknownURL(url: String) throws {
        let error = try error(url)
        #expect(error.code == .unknownURL)
        #expect(error.url == URL(url))
    }

    @Test(
        "a scheme or host that is not accepted is an unsupported URL",
        arguments: [
            "otherapp://users/42", "https://evil.example/users/42", "http://example.org/users/42", "file:///users/42",
        ]
    )
    func unsupportedURL(url: String) throws {
        #expect(try error(url).code == .unsupportedURL)
    }

    @Test("a web URL is refused when no host is listed")
    func noHostsListed() throws {
        var links = PrismDeepLinks<Link>(schemes: ["myapp"])
        links.register("/settings") { _ in [.settings] }
        #expect(try error("https://example.com/settings", links: links).code == .unsupportedURL)
        #expect(try links.navigationState(for: URL("myapp://settings")) == [.settings])
    }

    @Test(
        "a parameter that is not the type the handler asks for is malformed, and named",
        arguments: [
            ("myapp://users/abc", "id", "abc"),
            ("myapp://users/4.2", "id", "4.2"),
            ("myapp://users/99999999999999999999", "id", "99999999999999999999"),
            ("myapp://users/42/repos?page=two", "page", "two"),
            ("myapp://search?q=x&sort=newest", "sort", "newest"),
            ("myapp://items/not-a-uuid", "id", "not-a-uuid"),
            ("myapp://flags?enabled=yes&ratio=1", "enabled", "yes"),
            ("myapp://flags?enabled=true&ratio=nan", "ratio", "nan"),
            ("myapp://users/%20", "id", " "),
        ]
    )
    func malformedParameter(url: String, parameter: String, value: String) throws {
        let error = try error(url)
        #expect(error.code == .malformedParameter)
        #expect(error.parameter == parameter)
        #expect(error.value == value)
        #expect(error.url == URL(url))
        #expect(error.description.contains(parameter))
    }

    @Test(
        "a required query parameter that is absent or empty is missing, and named",
        arguments: [
            ("myapp://search", "q"),
            ("myapp://search?q=", "q"),
            ("myapp://search?sort=stars", "q"),
            ("myapp://flags?enabled=true", "ratio"),
        ]
    )
    func missingParameter(url: String, parameter: String) throws {
        let error = try error(url)
        #expect(error.code == .missingParameter)
        #expect(error.parameter == parameter)
    }

    @Test("a percent escape that is not UTF-8 is an invalid URL")
    func brokenEscape() throws {
        #expect(try error("myapp://files/%FF").code == .invalidURL)
        #expect(try error("myapp://search?q=%C3").code == .invalidURL)
    }

    @Test("a handler that reads a parameter its pattern does not declare fails with advice")
    func undeclaredParameter() throws {
        var links = PrismDeepLinks<Link>(schemes: ["myapp"])
        links.register("/users/:id") { parameters in
            [.repositories(userID: try parameters.value("id"), page: try parameters.value("page"))]
        }
        let error = try error("myapp://users/1?page=2", links: links)
        #expect(error.code == .undeclaredParameter)
        #expect(error.parameter == "page")
        #expect(error.message.contains("page="))
    }

    @Test("an error the handler throws is wrapped, with the handler's error kept")
    func handlerError() throws {
        var links = PrismDeepLinks<Link>(schemes: ["myapp"])
        links.register("/users/:id") { parameters in
            let id: Int = try parameters.value("id")
            guard id > 0 else { throw Failure(reason: "ids are positive") }
            return [.user(id: id)]
        }
        let error = try error("myapp://users/-1", links: links)
        #expect(error.code == .handlerFailed)
        #expect(error.underlying as? Failure == Failure(reason: "ids are positive"))
        #expect(error.url == URL("myapp://users/-1"))
    }

    @Test(
        "a failing link leaves the router as it was and notifies nobody",
        arguments: [
            "myapp://nowhere", "otherapp://users/1", "myapp://users/abc", "myapp://search", "myapp://files/%FF",
        ]
    )
    func failureChangesNothing(url: String) throws {
        let before = PrismNavigationState<Link>(stack: [.settings, .user(id: 1)], sheet: .newUser)
        let router = PrismRouter(state: before)
        let observer = ObservationCounter { _ = router.state }
        #expect(throws: PrismRoutingError.self) { try router.open(URL(url), with: Link.links) }
        #expect(router.state == before)
        #expect(observer.count == 0)

        var state = before
        #expect(throws: PrismRoutingError.self) { try state.open(URL(url), with: Link.links) }
        #expect(state == before)
    }

    @Test("a set of links with no patterns knows no URL")
    func emptyLinks() throws {
        #expect(try error("myapp://", links: PrismDeepLinks(schemes: ["myapp"])).code == .unknownURL)
    }
}
