import Foundation
import PrismGraphQL
import PrismTestServer
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Failures to get a GraphQL answer are PrismGraphQLErrors that keep status and body")
struct ErrorTests {
    /// Sends GetUser to `path` and returns the error it throws.
    func failure(
        _ server: PrismTestServer,
        path: String,
        transport: TransportKind = .asyncHTTPClient,
        options: PrismRequestOptions = PrismRequestOptions()
    ) async throws -> PrismGraphQLError {
        do {
            let response = try await server.graphQLClient(path: path, transport: transport)
                .execute(getUserQuery("octocat"), as: UserQueryData.self, options: options)
            throw TestFailure("expected an error, got \(response)")
        } catch let error as PrismGraphQLError {
            return error
        }
    }

    /// Sends GetUser to `path`, expects an invalid response with `status`, and returns its error.
    func invalidResponse(
        _ server: PrismTestServer,
        path: String,
        status: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> PrismGraphQLError {
        let error = try await failure(server, path: path)
        #expect(error.code == .invalidResponse, sourceLocation: sourceLocation)
        #expect(error.statusCode == status, sourceLocation: sourceLocation)
        return error
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test("a non-2xx status keeps the status, the body and the URL", arguments: TransportKind.allCases)
    func unacceptableStatus(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let error = try await failure(server, path: "/status/500", transport: transport)
            #expect(error.code == .unacceptableStatus)
            #expect(error.statusCode == 500)
            #expect(error.bodyText?.contains("status 500") == true)
            #expect(error.url == server.url("/status/500"))
            #expect(error.operationName == "GetUser")
            #expect(error.errors.isEmpty)
            #expect((error.underlying as? PrismHTTPError)?.code == .unacceptableStatus)
            #expect(error.description.contains("status 500"))
        }
    }

    @Test("a non-2xx answer whose body is a GraphQL response is returned with its errors and status, not thrown")
    func graphQLErrorsInNon2xx() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient(path: "/graphql/flaky/e?failures=1&status=400")
            let response = try await graphql.execute(getUserQuery("octocat"), as: UserQueryData.self)
            #expect(response.statusCode == 400)
            #expect(response.data == nil)
            #expect(response.errors?.map(\.message) == ["failure 1 of 1"])
        }
    }

    @Test("a 2xx body that is not JSON is an invalid response that keeps status and body")
    func notJSON() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let error = try await invalidResponse(server, path: "/status/204", status: 204)
            #expect(error.body == Data())
            #expect(error.underlying is DecodingError)
        }
    }

    @Test("JSON without data or errors is an invalid response")
    func jsonButNotGraphQL() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let error = try await invalidResponse(server, path: "/echo", status: 200)
            #expect(error.bodyText?.contains("\"method\":\"POST\"") == true)
        }
    }

    @Test("data that does not decode into the expected type is a decoding failure")
    func dataOfAnotherType() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            struct Mismatch: Decodable, Sendable {
                struct User: Decodable, Sendable { var publicRepos: String }
                var user: User
            }
            do {
                _ = try await server.graphQLClient().execute(getUserQuery("octocat"), as: Mismatch.self)
                Issue.record("expected a decoding failure")
            } catch let error as PrismGraphQLError {
                #expect(error.code == .decodingFailed)
                #expect(error.statusCode == 200)
                #expect(error.message.contains("publicRepos"))
                #expect(error.bodyText?.contains("\"publicRepos\":8") == true)
            }
        }
    }

    @Test("a server that closes the connection is a request failure", arguments: TransportKind.allCases)
    func droppedConnection(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let error = try await failure(server, path: "/drop", transport: transport)
            #expect(error.code == .requestFailed)
            #expect(error.statusCode == nil)
            let code = (error.underlying as? PrismHTTPError)?.code
            #expect(code == .connectionFailed || code == .transportFailed, "\(error)")
        }
    }

    @Test("a request that takes longer than its timeout fails as timed out")
    func timeout() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let error = try await failure(
                server, path: "/delay/5000", options: PrismRequestOptions(timeout: .milliseconds(200)))
            #expect(error.code == .requestFailed)
            #expect((error.underlying as? PrismHTTPError)?.code == .timedOut)
        }
    }

    @Test("cancelling the task cancels the request and throws CancellationError")
    func cancellation() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient(path: "/delay/600000")
            let task = Task { try await graphql.execute(getUserQuery("octocat"), as: UserQueryData.self) }
            // (A bound for a failing test only; CI runs many suites at once on two cores.)
            let deadline = ContinuousClock.now + .seconds(120)
            while server.hits("/delay/600000") == 0 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
        }
    }
}
