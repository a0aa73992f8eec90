import PrismRouting
import Testing

@Suite("The identity of a route")
struct RoutableIdentityTests {
    struct Article: PrismRoutable {
        var id: String
        var title: String
    }

    func identifier<Value: Identifiable>(of value: Value) -> Value.ID { value.id }

    @Test("a route without an id of its own is identified by itself")
    func defaultIdentity() {
        #expect(identifier(of: Screen.detail(id: "42")) == .detail(id: "42"))
        #expect(Screen.detail(id: "42").id != Screen.detail(id: "7").id)
        #expect(Screen.home.id == Screen.home.id)
    }

    @Test("a route that declares an id keeps it")
    func declaredIdentity() {
        let article = Article(id: "a-1", title: "First")
        let renamed = Article(id: "a-1", title: "Renamed")
        #expect(identifier(of: article) == "a-1")
        #expect(article.id == renamed.id)
        #expect(article != renamed)
    }
}
