import Foundation
import PrismGraphQL
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// File uploads by the GraphQL multipart request specification, against the test server, which
/// parses the multipart body byte for byte and puts each file into the variables.
@Suite("GraphQL uploads: the multipart request specification, files streamed from disk")
struct UploadTests {
    struct UploadedFile: Decodable, Sendable, Equatable {
        var filename: String?
        var contentType: String?
        var size: Int
        var sha256: String
    }

    struct UploadFilesData: Decodable, Sendable {
        var uploadFiles: [UploadedFile]
    }

    struct UploadFileData: Decodable, Sendable {
        var uploadFile: UploadedFile
    }

    static let uploadFiles = PrismGraphQLQuery(
        query:
            "mutation Upload($files: [Upload!]!) { uploadFiles(files: $files) { filename contentType size sha256 } }",
        operationName: "Upload"
    )

    static let uploadFile = PrismGraphQLQuery(
        query: "mutation One($file: Upload!) { uploadFile(file: $file) { filename contentType size sha256 } }",
        operationName: "One"
    )

    /// A temporary file of `size` bytes of a pattern, removed after `body`.
    func withFile<T>(size: Int, _ body: (URL) async throws -> T) async throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "graphql-upload-\(UUID().uuidString).bin")
        try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url)
    }

    @Test(
        "bytes in memory and a file on disk reach the server at their places in the variables, with names and types",
        arguments: TransportKind.allCases)
    func filesReachTheServer(transport: TransportKind) async throws {
        try await withServer { server in
            try await withFile(size: 2_000_000) { url in
                let graphql = server.graphQLClient(transport: transport)
                let files = [
                    try PrismGraphQLFile(
                        data: Data("hello".utf8), variable: "files.0", fileName: "hello.txt", mimeType: "text/plain"),
                    try PrismGraphQLFile(fileURL: url, variable: "files.1", mimeType: "application/octet-stream"),
                ]
                let sent = LockedBox<[Int64]>([])
                let response = try await graphql.upload(Self.uploadFiles, files: files, as: UploadFilesData.self) {
                    bytes in sent.mutate { $0.append(bytes) }
                }
                #expect(response.statusCode == 200)
                let uploaded = try #require(response.data?.uploadFiles)
                #expect(uploaded.count == 2)
                // SHA-256 of "hello".
                #expect(
                    uploaded.first
                        == UploadedFile(
                            filename: "hello.txt", contentType: "text/plain", size: 5,
                            sha256: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"))
                #expect(uploaded.last?.filename == url.lastPathComponent)
                #expect(uploaded.last?.size == 2_000_000)
                // The same file through the server's plain upload route: the same digest.
                let raw = try await transport.make().send(
                    PrismHTTPRequest(url: server.url("/upload"), method: .post, body: try Data(contentsOf: url)))
                #expect(String(decoding: raw.body, as: UTF8.self).contains(uploaded.last?.sha256 ?? "-"))
                // Progress rose to the whole body, more than the two files.
                let reports = sent.wrappedValue
                #expect(reports == reports.sorted())
                #expect((reports.last ?? 0) > 2_000_005)
            }
        }
    }

    @Test(
        "an upload goes through the adapter's interceptors and carries the preflight header servers require",
        arguments: TransportKind.allCases)
    func throughTheAdapter(transport: TransportKind) async throws {
        try await withServer { server in
            let graphql = server.graphQLClient(
                transport: transport, interceptors: [PrismInterceptor.headers(["X-App": "uploads"])])
            let file = try PrismGraphQLFile(data: Data(count: 10), variable: "file", fileName: "zeros")
            let response = try await graphql.upload(Self.uploadFile, files: [file], as: UploadFileData.self)
            #expect(response.data?.uploadFile.size == 10)
            let request = try #require(server.requests.last)
            #expect(request.headers["x-app"] == "uploads")
            #expect(request.headers["apollo-require-preflight"] == "true")
            #expect(request.headers["content-type"]?.hasPrefix("multipart/form-data; boundary=") == true)
            let operation = try #require(server.graphQLOperations.last)
            #expect(operation.operationName == "One")
        }
    }

    @Test("a file that cannot be read fails before anything is sent")
    func unreadableFile() async throws {
        try await withServer { server in
            let graphql = server.graphQLClient()
            let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
            let file = try PrismGraphQLFile(fileURL: missing, variable: "file")
            await #expect(throws: (any Error).self) {
                try await graphql.upload(Self.uploadFile, files: [file], as: UploadFileData.self)
            }
            #expect(server.graphQLStatistics.requests == 0)
        }
    }

    @Test("a variable path that is not one, and two files for one variable, are encodingFailed errors, unsent")
    func badPaths() async throws {
        for path in ["", "0", "files..0", "a b", "files.0."] {
            #expect(throws: PrismGraphQLError.self) {
                try PrismGraphQLFile(data: Data(), variable: path, fileName: "x")
            }
        }
        try await withServer { server in
            let graphql = server.graphQLClient()
            let twice = try PrismGraphQLFile(data: Data(count: 1), variable: "file", fileName: "x")
            let error = await #expect(throws: PrismGraphQLError.self) {
                try await graphql.upload(Self.uploadFile, files: [twice, twice], as: UploadFileData.self)
            }
            #expect(error?.code == .encodingFailed)
            #expect(server.graphQLStatistics.requests == 0)
        }
    }

    @Test("the test server refuses a map that names a place the operations do not hold as null")
    func serverChecksTheMap() async throws {
        try await withServer { server in
            var form = PrismMultipartFormData()
            form.append(
                string: #"{"query":"mutation($file: Upload!) { uploadFile(file: $file) { size } }"}"#,
                name: "operations")
            form.append(string: #"{"0":["variables.file"]}"#, name: "map")
            form.append(data: Data(count: 3), name: "0", fileName: "x", mimeType: "application/octet-stream")
            let (body, contentType) = form.build()
            let response = try await TransportKind.asyncHTTPClient.make().send(
                PrismHTTPRequest(
                    url: server.url("/graphql"), method: .post, headers: ["Content-Type": contentType], body: body))
            #expect(response.statusCode == 400)
            #expect(String(decoding: response.body, as: UTF8.self).contains("variables.file"))
        }
    }
}
