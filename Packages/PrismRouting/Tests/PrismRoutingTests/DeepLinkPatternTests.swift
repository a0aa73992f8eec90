import Foundation
import PrismRouting
import Testing

@Suite("Writing deep-link patterns")
struct DeepLinkPatternTests {
    @Test("a pattern may omit the leading slash, add a trailing one, and list query names with or without '='")
    func lenientSpelling() throws {
        var links = PrismDeepLinks<Link>(schemes: ["myapp"])
        links.register("users/:id/") { parameters in [.user(id: try parameters.value("id"))] }
        links.register("/search?q&sort=") { parameters in
            [.search(query: try parameters.value("q"), sort: try parameters.optionalValue("sort"))]
        }
        #expect(try links.navigationState(for: URL("myapp://users/3")) == [.user(id: 3)])
        #expect(
            try links.navigationState(for: URL("myapp://search?q=a&sort=stars")) == [.search(query: "a", sort: .stars)])
        #expect(links.patterns == ["users/:id/", "/search?q&sort="])
    }

    @Test("schemes and hosts are compared without case")
    func caseInsensitiveConfiguration() throws {
        var links = PrismDeepLinks<Link>(schemes: ["MyApp"], hosts: ["Example.COM"])
        links.register("/settings") { _ in [.settings] }
        #expect(links.schemes == ["myapp"])
        #expect(links.hosts == ["example.com"])
        #expect(try links.navigationState(for: URL("MYAPP://settings")) == [.settings])
        #expect(try links.navigationState(for: URL("https://example.com/settings")) == [.settings])
    }

    @Test("registering two patterns that match the same URLs stops with a message")
    func conflictingPatterns() async {
        await #expect(processExitsWith: .failure) {
            var links = PrismDeepLinks<Link>()
            links.register("/users/:id") { _ in [] }
            links.register("/users/:name/") { _ in [] }
        }
    }

    @Test(
        "a malformed pattern stops with a message",
        arguments: [
            "myapp://users/:id",  // with a scheme
            "/users/:",  // a parameter without a name
            "/users/:id?id=",  // a parameter declared twice
            "/users?page=1",  // a query parameter given a value in the pattern
        ])
    func malformedPattern(_ pattern: String) async {
        await #expect(processExitsWith: .failure) { [pattern] in
            var links = PrismDeepLinks<Link>()
            links.register(pattern) { _ in [] }
        }
    }

    @Test("listing a web scheme as a custom scheme stops with a message")
    func webSchemeListed() async {
        await #expect(processExitsWith: .failure) {
            _ = PrismDeepLinks<Link>(schemes: ["https"])
        }
    }

    @Test("popping a negative number of screens stops with a message")
    func negativePop() async {
        await #expect(processExitsWith: .failure) {
            var state: PrismNavigationState<Screen> = [.home]
            state.pop(count: -1)
        }
    }
}
