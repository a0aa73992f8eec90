import Foundation
import Testing

@testable import PrismStore

private struct Credentials: Sendable, Equatable, Codable {
    var user = "ada"
    @PrismSecret var password = "hunter2"
}

private struct APIKey: PrismSecretValue, Sendable, Equatable {
    var raw = "sk-123"
}

@Suite("Values marked secret")
struct SecretTests {
    @Test("a secret property is left out of descriptions and dumps of the value that holds it")
    func redactedInDescriptions() {
        let credentials = Credentials()
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in ["\(credentials)", String(reflecting: credentials), dumped] {
            #expect(!text.contains("hunter2"))
            #expect(text.contains("ada"))
        }
    }

    @Test("a secret property compares and encodes as the bare value")
    func storedAsIs() throws {
        let credentials = Credentials()
        let data = try JSONEncoder().encode(credentials)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(object == ["user": "ada", "password": "hunter2"])
        #expect(try JSONDecoder().decode(Credentials.self, from: data) == credentials)
        var changed = credentials
        changed.password = "other"
        #expect(changed != credentials)
    }

    @Test("a type can mark all its values secret")
    func secretType() {
        let value: Any = APIKey()
        #expect(value is any PrismSecretValue)
    }
}
