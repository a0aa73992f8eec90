import Foundation
import PrismTestServer
import Testing

@testable import PrismGraphQL

/// An answer that holds only `data` has its data decoded directly (AnswerShortcut): for every
/// body, what the client makes of it must be what the full decode makes of it, errors included.
@Suite("The shortcut for answers that hold only data")
struct AnswerShortcutTests {
    static let context = GraphQLResponseDecoding.Context(url: URL(string: "https://example.com/graphql")!)
    static let user = #"{"user":{"login":"octocat","name":"The Octocat","publicRepos":8}}"#

    static let bodies: [String] = [
        #"{"data":\#(user)}"#,
        " \n{ \"data\" :\t{ \"user\" : { \"login\" : \"a\\\"}{[\", \"name\" : null , \"publicRepos\" : 1 } } }\r\n ",
        #"{"data":{"user":{"login":"\\","name":"\\\"","publicRepos":8}}}"#,
        #"{"data":{"user":null}}"#,
        #"{"data":null}"#,
        #"{"data":\#(user),"errors":[{"message":"partial"}]}"#,
        #"{"data":\#(user),"extensions":{"cost":1}}"#,
        #"{"data":\#(user),"data":{"user":null}}"#,
        #"{"d\u0061ta":\#(user)}"#,
        #"{"data":\#(user)} x"#,
        #"{"data":\#(user)}}"#,
        #"{"data":\#(user)"#,
        #"{"data":{"user":{"login":1,"publicRepos":8}}}"#,
        #"{"data":{"user":{"login":"a","publicRepos":8}"#,
        #"{"data":[1,2]}"#,
        #"{"data":tru}"#,
        #"{"data":"text"}"#,
        #"{"data":12e}"#,
        "\u{FEFF}{\"data\":\(user)}",
        #"{"data":{"user":{"login":"a","publicRepos":8,"deep":"# + String(repeating: "[", count: 600)
            + String(repeating: "]", count: 600) + "}}}",
        "",
        "{}",
    ]

    @Test("typed data: the same response, or the same error, as the full decode", arguments: bodies)
    func sameAsFullDecode(body: String) {
        compare(UserQueryData.self, body: body)
        compare(PrismGraphQLValue.self, body: body)
    }

    @Test("a body in UTF-16 is read by the full decode")
    func utf16() throws {
        var bytes: [UInt8] = []
        for unit in #"{"data":\#(Self.user)}"#.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(AnswerShortcut.dataRange(in: Data(bytes)) == nil)
        let response = try GraphQLResponseDecoding.decode(UserQueryData.self, from: Data(bytes), context: Self.context)
        #expect(response.data?.user?.publicRepos == 8)
    }

    @Test("the shortcut is taken for data alone, and for nothing else")
    func takenWhereItShouldBe() {
        #expect(AnswerShortcut.dataRange(in: Data(#"{"data":\#(Self.user)}"#.utf8)) == 8..<(8 + Self.user.utf8.count))
        #expect(AnswerShortcut.dataRange(in: Data(#"{"data":null}"#.utf8)) == nil)
        #expect(AnswerShortcut.dataRange(in: Data(#"{"data":\#(Self.user),"errors":[]}"#.utf8)) == nil)
        #expect(AnswerShortcut.dataRange(in: Data(#"{"d\u0061ta":\#(Self.user)}"#.utf8)) == nil)
        // A body that is a slice of a larger buffer: offsets are from its start.
        let framed = Data(#"xx{"data":5}"#.utf8).dropFirst(2)
        #expect(AnswerShortcut.dataRange(in: framed) == 8..<9)
    }

    @Test("through a real server: an answer of data alone, and one with garbage after it")
    func throughTheServer() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let tricky = #"{"data":{"user":{"login":"}{\"","name":null,"publicRepos":3}}}"#
            server.script("tricky", [.init(headers: [("Content-Type", "application/json")], body: tricky)])
            let client = server.graphQLClient(path: "/scripted/tricky")
            let response = try await client.execute(getUserQuery("octocat"), as: UserQueryData.self)
            #expect(response.data?.user == UserQueryData.User(login: #"}{""#, name: nil, publicRepos: 3))

            server.script("garbage", [.init(headers: [("Content-Type", "application/json")], body: tricky + "]")])
            do {
                _ = try await server.graphQLClient(path: "/scripted/garbage")
                    .execute(getUserQuery("octocat"), as: UserQueryData.self)
                Issue.record("expected an invalid response")
            } catch let error as PrismGraphQLError {
                #expect(error.code == .invalidResponse)
            }
        }
    }

    private func compare<T: Decodable & Sendable>(
        _ type: T.Type, body: String, sourceLocation: SourceLocation = #_sourceLocation
    )
    where T: Equatable {
        let data = Data(body.utf8)
        let shortcut = Result { () throws(PrismGraphQLError) in
            try GraphQLResponseDecoding.decode(T.self, from: data, context: Self.context)
        }
        let full = Result { () throws(PrismGraphQLError) in
            try GraphQLResponseDecoding.fullDecode(T.self, from: data, context: Self.context)
        }
        switch (shortcut, full) {
        case (.success(let shortcut), .success(let full)):
            #expect(shortcut.data == full.data, sourceLocation: sourceLocation)
            #expect(shortcut.errors == full.errors, sourceLocation: sourceLocation)
            #expect(shortcut.extensions == full.extensions, sourceLocation: sourceLocation)
        case (.failure(let shortcut), .failure(let full)):
            #expect(shortcut.code == full.code, sourceLocation: sourceLocation)
            #expect(shortcut.message == full.message, sourceLocation: sourceLocation)
        default:
            Issue.record("the shortcut gives \(shortcut), the full decode \(full)", sourceLocation: sourceLocation)
        }
    }
}
