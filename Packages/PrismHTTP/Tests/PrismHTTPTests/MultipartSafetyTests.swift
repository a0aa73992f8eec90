import Foundation
import Logging
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Multipart forms and uploads: boundaries checked, unreadable files caught first, uploads go through the client")
struct MultipartSafetyTests {
    struct UploadSummary: PrismEntity {
        struct File: PrismEntity {
            var name: String
            var size: Int
            var sha256: String
        }
        var fields: [String: String]
        var files: [File]
    }

    @Test(
        "a custom boundary must be valid per RFC 2046",
        arguments: [
            "", String(repeating: "a", count: 71), "ends with space ", "bad\r\nboundary", "semi;colon", "quo\"te",
        ]
    )
    func invalidBoundaries(boundary: String) {
        expectHTTPError(.encodingFailed) { try PrismMultipartFormData(boundary: boundary) }
    }

    @Test("a valid boundary with spaces and punctuation is quoted in Content-Type and parsed by the server")
    func validCustomBoundary() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            var form = try PrismMultipartFormData(boundary: "my boundary:'()+_,-./=?")
            form.append(string: "v", name: "field")
            #expect(form.contentType == "multipart/form-data; boundary=\"my boundary:'()+_,-./=?\"")
            let (body, contentType) = try form.encoded()
            let response = try await PrismNetworkAdapter(cache: nil).send(
                PrismHTTPRequest(
                    url: server.url("/upload"), method: .post, headers: ["Content-Type": contentType], body: body))
            #expect(response.statusCode == 200)
            #expect(try UploadSummary.decoder.decode(UploadSummary.self, from: response.body).fields == ["field": "v"])
            #expect(try PrismMultipartFormData(boundary: String(repeating: "b", count: 70)).boundary.count == 70)
        }
    }

    /// A form whose file is removed after it was appended.
    func formWithVanishedFile() throws -> PrismMultipartFormData {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vanishing-\(UUID().uuidString).bin")
        try Data(count: 10_000).write(to: file)
        var form = PrismMultipartFormData()
        form.append(string: "meta", name: "label")
        try form.append(fileURL: file, name: "file")
        try FileManager.default.removeItem(at: file)
        return form
    }

    @Test(
        "a file that can no longer be read fails the upload before anything is sent", arguments: TransportKind.allCases)
    func unreadableFileFailsFirst(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let form = try formWithVanishedFile()
            var request = URLRequest(url: server.url("/upload"))
            request.httpMethod = "POST"
            let task = PrismUploadTask(request: request, form: form, transport: transport.make())
            await expectHTTPError(.encodingFailed) { try await task.response }
            await expectHTTPError(.encodingFailed) {
                try await transport.make().upload(
                    PrismHTTPRequest(url: server.url("/upload"), method: .post), body: .multipart(form)
                ) { _ in }
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("encoded() says which file is unreadable; build() never sends an empty file in its place")
    func inMemoryBodies() throws {
        let form = try formWithVanishedFile()
        expectHTTPError(.encodingFailed) { try form.encoded() }
        #expect(form.build().body.isEmpty)
    }

    @Test("a file that changed size since it was appended is caught before sending")
    func fileChangedSize() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("growing-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(count: 1_000).write(to: file)
        var form = PrismMultipartFormData()
        try form.append(fileURL: file, name: "file")
        try Data(count: 2_000).write(to: file)
        #expect(throws: PrismHTTPError.self) { try form.validateFiles() }
        #expect(throws: PrismHTTPError.self) { try PrismUploadBody.multipart(form).validate() }
    }

    @Test(
        "an upload goes through the client's interceptors, authenticator (with a refresh) and logging",
        arguments: TransportKind.allCases)
    func uploadThroughTheClient(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let refreshClient = PrismNetworkAdapter(cache: nil)
            let auth = PrismBearerTokenAuthenticator(accessToken: "token-0") { _ in
                struct Tokens: PrismEntity { var accessToken: String }
                struct Body: Encodable, Sendable { var refreshToken: String }
                let endpoint = ServerEndpoint(server, "/auth/refresh", method: .post, payload: Body(refreshToken: "r"))
                return try await refreshClient.request(on: ServerRequest<Tokens>(endpoint: endpoint)).accessToken
            }
            let lines = LockedBox<[String]>([])
            let client = PrismNetworkAdapter(
                transport: transport.make(), cache: nil,
                interceptors: [PrismInterceptor.headers(["X-App": "prism"])],
                authenticator: auth,
                logger: Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
            )
            server.expireToken()
            let content = Data((0..<300_000).map { UInt8($0 % 251) })
            var form = PrismMultipartFormData()
            form.append(data: content, name: "file", fileName: "f.bin")
            var request = URLRequest(url: server.url("/upload?requireToken=1"))
            request.httpMethod = "POST"
            let task = PrismUploadTask(request: request, form: form, client: client)
            var progress: [PrismUploadProgress] = []
            for await value in await task.upload() { progress.append(value) }
            let response = try await task.response
            #expect(response.statusCode == 200)
            let summary = try UploadSummary.decoder.decode(UploadSummary.self, from: response.body)
            #expect(summary.files.first?.size == content.count)
            #expect(summary.files.first?.sha256 == UploadTests.sha256Hex(content))
            #expect(server.refreshCount == 1)
            let uploads = server.requests.filter { $0.path == "/upload" }
            #expect(uploads.count == 2)  // the 401, then the retry with the new token
            #expect(uploads.allSatisfy { $0.headers["x-app"] == "prism" })
            #expect(uploads.last?.headers["authorization"] == "Bearer token-1")
            #expect(lines.wrappedValue.contains { $0.contains("POST") && $0.contains("/upload") })
            #expect(progress.last?.fractionCompleted == 1.0)
        }
    }
}
