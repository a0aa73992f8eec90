import Foundation
import PrismSupport
import PrismTestServer
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Multipart forms and uploads against the test server")
struct UploadTests {
    struct UploadSummary: PrismEntity {
        struct File: PrismEntity {
            var name: String
            var filename: String?
            var contentType: String?
            var size: Int
            var sha256: String
        }
        var fields: [String: String]
        var files: [File]
        var bodyLength: Int
    }

    func summary(_ response: PrismHTTPResponse) throws -> UploadSummary {
        #expect(response.statusCode == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try UploadSummary.decoder.decode(UploadSummary.self, from: response.body)
    }

    /// The SHA-256 of `data`, in hex as the server reports it. (swift-crypto: a plain Swift
    /// implementation, unoptimized in a debug build, would hold one of the few threads that the
    /// server and every other test share for seconds.)
    static func sha256Hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    func sha256Hex(_ data: Data) -> String { Self.sha256Hex(data) }

    @Test("the seed's form is read back field by field and file by file", arguments: TransportKind.allCases)
    func seedForm(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let imageData = Data((0..<3_000).map { UInt8($0 % 256) })

            var form = PrismMultipartFormData()
            form.append(
                data: imageData,
                name: "avatar",
                fileName: "avatar.png",
                mimeType: "image/png"
            )
            form.append(string: "John Doe", name: "username")

            let (body, contentType) = form.build()

            var request = URLRequest(url: server.url("/upload"))
            request.httpMethod = "POST"
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")

            let task = PrismUploadTask(request: request, data: body, transport: transport.make())
            var fractions: [Double] = []
            for await progress in await task.upload() {
                fractions.append(progress.fractionCompleted)
            }
            let result = try summary(try await task.response)
            #expect(result.fields == ["username": "John Doe"])
            #expect(result.files.count == 1)
            #expect(result.files.first?.filename == "avatar.png")
            #expect(result.files.first?.contentType == "image/png")
            #expect(result.files.first?.size == imageData.count)
            #expect(result.files.first?.sha256 == sha256Hex(imageData))
            #expect(fractions.last == 1.0)
            #expect(fractions == fractions.sorted())
        }
    }

    @Test("names with quotes, line breaks and non-ASCII cannot inject headers or parts")
    func hostileNames() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            var form = PrismMultipartFormData()
            form.append(string: "v1", name: "na\"me\r\nX-Injected: yes")
            form.append(
                data: Data("file".utf8), name: "fïchier", fileName: "résumé \"final\".txt", mimeType: "text/plain")
            let (body, contentType) = form.build()
            let client = PrismNetworkAdapter()
            let response = try await client.send(
                PrismHTTPRequest(
                    url: server.url("/upload"), method: .post, headers: ["Content-Type": contentType], body: body)
            )
            let result = try summary(response)
            // One field and one file: the quote and the line break stayed inside the name
            // (percent-encoded on the wire, decoded back by the server), injecting nothing.
            #expect(result.fields == ["na\"me\r\nX-Injected: yes": "v1"])
            #expect(result.files.count == 1)
            #expect(result.files.first?.name == "fïchier")
            #expect(result.files.first?.filename == "résumé \"final\".txt")
            #expect(result.files.first?.size == 4)
            #expect(String(decoding: body, as: UTF8.self).contains("name=\"na%22me%0D%0AX-Injected: yes\""))
        }
    }

    @Test(
        "a file of megabytes is streamed from disk, arrives byte for byte, with progress during the send",
        arguments: TransportKind.allCases)
    func largeFile(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "prism-upload-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: file) }
            // 4 MB: many times the 64 KB chunks the form reads, and a second's reading for the
            // server (?slow=1), whose back-pressure paces the send and its progress.
            var content = Data(count: 4 * 1_024 * 1_024)
            content.withUnsafeMutableBytes { buffer in
                for index in stride(from: 0, to: buffer.count, by: 4_096) {
                    buffer[index] = UInt8(truncatingIfNeeded: index / 4_096)
                }
            }
            try content.write(to: file)
            var form = PrismMultipartFormData()
            try form.append(fileURL: file, name: "video")
            form.append(string: "big", name: "label")

            var request = URLRequest(url: server.url("/upload?slow=1"))
            request.httpMethod = "POST"
            let task = PrismUploadTask(request: request, form: form, transport: transport.make())
            var events: [PrismUploadProgress] = []
            for await progress in await task.upload() { events.append(progress) }
            let result = try summary(try await task.response)
            #expect(result.files.first?.size == content.count)
            #expect(result.files.first?.sha256 == sha256Hex(content))
            #expect(result.files.first?.filename == file.lastPathComponent)
            #expect(result.fields["label"] == "big")
            #expect(events.last?.fractionCompleted == 1.0)
            #expect(events.map(\.bytesUploaded) == events.map(\.bytesUploaded).sorted())
            // Progress arrived while the body was still being sent, not only at the end.
            #expect(events.contains { $0.fractionCompleted > 0.05 && $0.fractionCompleted < 0.95 })
        }
    }

    @Test("cancelling stops the upload")
    func cancelUpload() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            var request = URLRequest(url: server.url("/upload?slow=1"))
            request.httpMethod = "POST"
            let task = PrismUploadTask(request: request, data: Data(count: 20 * 1_024 * 1_024))
            let stream = await task.upload()
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
            await task.cancel()
            await #expect(throws: CancellationError.self) { _ = try await task.response }
        }
    }

    @Test("attaching a file that does not exist is a clear error")
    func missingFile() {
        var form = PrismMultipartFormData()
        #expect(throws: PrismHTTPError.self) {
            try form.append(fileURL: URL(fileURLWithPath: "/nonexistent/file.bin"), name: "f")
        }
    }

    @Test("the streamed body is byte for byte the built one, and its length is exact")
    func streamMatchesBuild() async throws {
        var form = PrismMultipartFormData()
        form.append(string: "a", name: "x")
        form.append(data: Data(count: 200_000), name: "blob", fileName: "b.bin")
        var streamed = Data()
        for try await chunk in form.bodyStream(chunkSize: 7_000) { streamed.append(chunk) }
        #expect(streamed == form.build().body)
        #expect(Int64(streamed.count) == form.contentLength)
    }
}
