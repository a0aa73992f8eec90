import Foundation
import PrismRouting
import Testing

@MainActor
@Suite("Restoring navigation")
struct RestorationTests {
    /// A route whose encoding fails for one case, to see encoding errors reported.
    enum Fragile: PrismRoutable, Codable {
        case fine
        case broken

        struct Refused: Error {}

        func encode(to encoder: any Encoder) throws {
            guard self == .fine else { throw Refused() }
            var container = encoder.singleValueContainer()
            try container.encode("fine")
        }
    }

    nonisolated static let full = PrismNavigationState<Screen>(
        stack: [.home, .detail(id: "42"), .profile(userID: 7)],
        sheet: .settings,
        fullScreenCover: .onboarding
    )

    func json(_ text: String) -> Data { Data(text.utf8) }

    @Test(
        "a state survives a JSON round trip",
        arguments: [full, PrismNavigationState(), [.home], PrismNavigationState(sheet: .detail(id: "é/?"))]
    )
    func roundTrip(state: PrismNavigationState<Screen>) throws {
        let data = try state.encoded()
        #expect(try PrismNavigationState<Screen>(restoringFrom: data) == state)
        #expect(try JSONDecoder().decode(PrismNavigationState<Screen>.self, from: JSONEncoder().encode(state)) == state)
    }

    @Test("the envelope is labelled and versioned")
    func envelopeShape() throws {
        let data = try Self.full.encoded()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["version", "stack", "sheet", "fullScreenCover"])
        #expect(object["version"] as? Int == 1)
        #expect((object["stack"] as? [Any])?.count == 3)
        #expect(PrismNavigationState<Screen>.envelopeVersion == 1)

        let empty = try PrismNavigationState<Screen>().encoded()
        #expect(
            String(decoding: empty, as: UTF8.self) == #"{"fullScreenCover":null,"sheet":null,"stack":[],"version":1}"#)
    }

    @Test("a router encodes its state and restores it in one change")
    func routerRoundTrip() throws {
        let source = PrismRouter(state: Self.full)
        let data = try source.encodedState()

        let router = PrismRouter<Screen>()
        let observer = ObservationCounter { _ = router.state }
        let stack = ObservationCounter { _ = router.stack }
        try router.restore(from: data)
        #expect(router.state == Self.full)
        #expect(observer.count == 1)
        #expect(stack.count == 1)
    }

    @Test("a payload written by hand in the documented shape restores")
    func handWrittenPayload() throws {
        let data = json(
            #"{"version": 1, "stack": [{"home": {}}, {"detail": {"id": "42"}}], "sheet": {"settings": {}}}"#)
        #expect(
            try PrismNavigationState<Screen>(restoringFrom: data)
                == PrismNavigationState(stack: [.home, .detail(id: "42")], sheet: .settings))
    }

    @Test(
        "a route an older build saved that no longer decodes is reported with where it was",
        arguments: [
            (
                #"{"version":1,"stack":[{"home":{}},{"legacyInbox":{}}],"sheet":null,"fullScreenCover":null}"#,
                "stack[1]"
            ),
            (#"{"version":1,"stack":[{"detail":{"identifier":"42"}}]}"#, "stack[0]"),
            (#"{"version":1,"stack":[],"sheet":{"legacyInbox":{}}}"#, "sheet"),
            (#"{"version":1,"stack":[],"fullScreenCover":"onboarding"}"#, "fullScreenCover"),
        ]
    )
    func undecodableRoute(payload: String, location: String) throws {
        let router = PrismRouter(state: Self.full)
        let observer = ObservationCounter { _ = router.state }
        let error = try #require(throws: PrismRoutingError.self) { try router.restore(from: json(payload)) }
        #expect(error.code == .undecodableRoute)
        #expect(error.value == location)
        #expect(error.underlying is DecodingError)
        #expect(router.state == Self.full)
        #expect(observer.count == 0)
    }

    @Test("an envelope from a newer version is reported, not guessed at")
    func newerVersion() throws {
        var state = Self.full
        let error = try #require(throws: PrismRoutingError.self) {
            try state.restore(from: json(#"{"version":2,"stack":[{"home":{}}],"layers":[]}"#))
        }
        #expect(error.code == .unsupportedVersion)
        #expect(error.value == "2")
        #expect(state == Self.full)
        let zero = try #require(throws: PrismRoutingError.self) {
            try state.restore(from: json(#"{"version":0,"stack":[]}"#))
        }
        #expect(zero.code == .unsupportedVersion)
    }

    @Test(
        "garbage is reported as corrupt data",
        arguments: [
            "", "not json", "[]", "null", #"{"stack":[]}"#, #"{"version":"1","stack":[]}"#,
            #"{"version":1}"#, #"{"version":1,"stack":{"home":{}}}"#, #"{"version":1,"stack":[{"home":{}}]"#,
        ]
    )
    func garbage(payload: String) throws {
        let router = PrismRouter(state: Self.full)
        let error = try #require(throws: PrismRoutingError.self) { try router.restore(from: json(payload)) }
        #expect(error.code == .corruptData)
        #expect(router.state == Self.full)
    }

    @Test("an error decoding a state inside a larger value reaches the caller as a PrismRoutingError")
    func nestedDecoding() throws {
        struct Saved: Codable {
            var navigation: PrismNavigationState<Screen>
        }
        let payload = json(#"{"navigation":{"version":1,"stack":[{"legacyInbox":{}}]}}"#)
        let error = try #require(throws: PrismRoutingError.self) { try JSONDecoder().decode(Saved.self, from: payload) }
        #expect(error.code == .undecodableRoute)
    }

    @Test("a route that fails to encode is reported as an encoding failure")
    func encodingFailure() throws {
        #expect(
            try PrismNavigationState<Fragile>(stack: [.fine]).encoded()
                == Data(#"{"fullScreenCover":null,"sheet":null,"stack":["fine"],"version":1}"#.utf8))
        let router = PrismRouter<Fragile>(state: PrismNavigationState(stack: [.fine], sheet: .broken))
        let error = try #require(throws: PrismRoutingError.self) { try router.encodedState() }
        #expect(error.code == .encodingFailed)
        #expect(error.underlying is EncodingError || error.underlying is Fragile.Refused)
    }
}
