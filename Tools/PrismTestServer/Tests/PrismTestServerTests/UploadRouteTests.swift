import AsyncHTTPClient
import Foundation
import NIOCore
import PrismSupport
import PrismTestServer
import Testing

@Suite("Upload route")
struct UploadRouteTests {
    private static let boundary = "----PrismBoundary7MA4YWxkTrZu0gW"

    private static func hex(_ digest: some Sequence<UInt8>) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    @Test("A multipart body built by hand is read back field by field and file by file")
    func multipartByHand() async throws {
        let file = Array("file contents\r\n--not-the-boundary\r\n".utf8) + [0, 1, 2, 255]
        var body: [UInt8] = []
        body += Array("preamble to ignore\r\n".utf8)
        body += Array("--\(Self.boundary)\r\n".utf8)
        body += Array("Content-Disposition: form-data; name=\"title\"\r\n\r\nHello, wörld\r\n".utf8)
        // A quote escaped the RFC way (backslash), non-ASCII name.
        body += Array("--\(Self.boundary)\r\n".utf8)
        body += Array("Content-Disposition: form-data; name=\"say \\\"hi\\\" ñ\"\r\n\r\n\"quoted\"\r\n".utf8)
        // A quote escaped the browser way (%22), non-ASCII file name, a content type.
        body += Array("--\(Self.boundary)\r\n".utf8)
        body += Array("Content-Disposition: form-data; name=\"fïle\"; filename=\"résumé %22final%22.bin\"\r\n".utf8)
        body += Array("Content-Type: application/octet-stream\r\n\r\n".utf8)
        body += file + Array("\r\n".utf8)
        // An RFC 8187 file name, which wins over the plain one.
        body += Array("--\(Self.boundary)\r\n".utf8)
        body += Array(
            "Content-Disposition: form-data; name=\"doc\"; filename=\"euro.txt\"; filename*=UTF-8''%E2%82%AC.txt\r\n\r\n€\r\n"
                .utf8)
        body += Array("--\(Self.boundary)--\r\nepilogue to ignore".utf8)

        try await withServer { server in
            let reply = try await TestClient.send(
                .POST,
                server.url("/upload"),
                headers: [("Content-Type", "multipart/form-data; boundary=\"\(Self.boundary)\"")],
                body: .bytes(ByteBuffer(bytes: body))
            )
            #expect(reply.status == 200)
            let summary = try reply.object()
            #expect(summary["fields"] as? [String: String] == ["title": "Hello, wörld", "say \"hi\" ñ": "\"quoted\""])
            let files = try #require(summary["files"] as? [[String: Any]])
            try #require(files.count == 2)
            #expect(files[0]["name"] as? String == "fïle")
            #expect(files[0]["filename"] as? String == "résumé \"final\".bin")
            #expect(files[0]["contentType"] as? String == "application/octet-stream")
            #expect(files[0]["size"] as? Int == file.count)
            #expect(files[0]["sha256"] as? String == Self.hex(SHA256.hash(data: file)))
            #expect(files[1]["filename"] as? String == "€.txt")
            #expect(files[1]["contentType"] is NSNull)
            #expect((summary["parts"] as? [Any])?.count == 4)
            #expect(summary["bodyLength"] as? Int == body.count)
        }
    }

    @Test("A raw body is reported as one file named body")
    func rawBody() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(
                .POST, server.url("/upload"), headers: [("Content-Type", "image/png")], text: "not really a png")
            let summary = try reply.object()
            let file = try #require((summary["files"] as? [[String: Any]])?.first)
            #expect(file["name"] as? String == "body")
            #expect(file["filename"] is NSNull)
            #expect(file["contentType"] as? String == "image/png")
            #expect(file["size"] as? Int == 16)
            #expect(file["sha256"] as? String == Self.hex(SHA256.hash(data: Array("not really a png".utf8))))
            #expect(summary["bodyLength"] as? Int == 16)
        }
    }

    @Test(
        "A malformed multipart body is a 400",
        arguments: [
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno closing boundary",
            "no boundary at all",
            "--\(boundary)garbage\r\n\r\n--\(boundary)--",
        ]
    )
    func malformed(body: String) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(
                .POST,
                server.url("/upload"),
                headers: [("Content-Type", "multipart/form-data; boundary=\(Self.boundary)")],
                text: body
            )
            #expect(reply.status == 400)
            #expect((try reply.object()["message"] as? String)?.hasPrefix("malformed multipart body") == true)
        }
    }

    @Test("Multipart without a boundary parameter is a 400")
    func missingBoundary() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(
                .POST,
                server.url("/upload"),
                headers: [("Content-Type", "multipart/form-data")],
                text: "x"
            )
            #expect(reply.status == 400)
        }
    }

    @Test("A file of megabytes streams through the parser with the right size and SHA-256")
    func megabytes() async throws {
        var chunk = ByteBuffer()
        for index in 0..<(1 << 20) { chunk.writeInteger(UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13)) }
        // 8 MB: many times what the server reads at once, in parts cut wherever the socket cuts
        // them.
        let chunks = 8
        var hasher = SHA256()
        chunk.withUnsafeReadableBytes { bytes in
            for _ in 0..<chunks { hasher.update(bufferPointer: bytes) }
        }
        let digest = Self.hex(hasher.finalize())
        let head = ByteBuffer(
            string: "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"video\"; filename=\"big.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n"
        )
        let tail = ByteBuffer(
            string:
                "\r\n--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nok\r\n--\(Self.boundary)--\r\n"
        )
        let buffers = [head] + Array(repeating: chunk, count: chunks) + [tail]
        let length = buffers.reduce(0) { $0 + $1.readableBytes }

        try await withServer { server in
            let reply = try await TestClient.send(
                .POST,
                server.url("/upload?id=big"),
                headers: [("Content-Type", "multipart/form-data; boundary=\(Self.boundary)")],
                body: .stream(BufferSequence(buffers: buffers), length: .known(Int64(length)))
            )
            #expect(reply.status == 200)
            let summary = try reply.object()
            let file = try #require((summary["files"] as? [[String: Any]])?.first)
            #expect(file["size"] as? Int == chunks << 20)
            #expect(file["sha256"] as? String == digest)
            #expect(summary["fields"] as? [String: String] == ["note": "ok"])
            #expect(summary["bodyLength"] as? Int == length)
            let progress = try #require(server.uploadProgress(id: "big"))
            #expect(progress.isComplete)
            #expect(progress.bytesReceived == length)
            #expect(progress.expectedBytes == length)
        }
    }

    @Test("With ?slow=1 the server reads slowly, so the client is held back while progress shows")
    func slowUploadProgress() async throws {
        let chunk = [UInt8](repeating: 7, count: 256 << 10)
        // 16 MB read at 16 MB/s: several times what the socket buffers on both sides hold, so that
        // the client's writes wait for the server's reads.
        let chunks = 64
        let total = chunks * chunk.count
        try await withServer { server in
            let port = server.port
            let samples = Samples()
            // A plain socket whose blocking writes show what the kernel accepted: an HTTP client
            // may buffer a streamed body ahead of the socket.
            let response = try await onOwnThread {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "POST /upload?id=slow&slow=1&bytesPerSecond=\(16 << 20) HTTP/1.1\r\nHost: localhost\r\n"
                        + "Content-Type: application/octet-stream\r\nContent-Length: \(total)\r\n\r\n"
                )
                for index in 1...chunks {
                    try connection.send(bytes: chunk)
                    samples.append(
                        sent: index * chunk.count, received: server.uploadProgress(id: "slow")?.bytesReceived ?? 0)
                }
                return try connection.read(until: "\"bodyLength\":\(total)}")
            }
            #expect(response.hasPrefix("HTTP/1.1 200 OK"))
            // While the client still had bytes to send, the server had read some but not all of them.
            #expect(samples.all.contains { $0.sent < total && $0.received > 0 && $0.received < $0.sent })
            let progress = try #require(server.uploadProgress)
            #expect(progress.id == "slow")
            #expect(progress.isComplete)
            #expect(progress.bytesReceived == total)
            #expect(progress.expectedBytes == total)
            #expect(progress.updates > 1)
        }
    }

    @Test("Expect: 100-continue is answered before the body is sent")
    func expectContinue() async throws {
        try await withServer { server in
            let port = server.port
            let (interim, final) = try await onOwnThread {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
                )
                let interim = try connection.read(until: "\r\n\r\n")
                try connection.send("hello")
                return (interim, try connection.read(until: "\"bodyLength\":5}"))
            }
            #expect(interim.hasPrefix("HTTP/1.1 100 Continue"))
            #expect(final.contains("HTTP/1.1 200 OK"))
        }
    }
}

/// Body chunks handed to the client one at a time.
struct BufferSequence: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let buffers: [ByteBuffer]

    struct AsyncIterator: AsyncIteratorProtocol {
        let buffers: [ByteBuffer]
        var index = 0

        mutating func next() async -> ByteBuffer? {
            guard self.index < self.buffers.count else { return nil }
            defer { self.index += 1 }
            return self.buffers[self.index]
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(buffers: self.buffers)
    }
}

/// (bytes the client had sent, bytes the server had read) pairs, collected across threads.
final class Samples: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [(sent: Int, received: Int)] = []

    func append(sent: Int, received: Int) {
        self.lock.withLock { self.samples.append((sent, received)) }
    }

    var all: [(sent: Int, received: Int)] {
        self.lock.withLock { self.samples }
    }
}
