import Foundation
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("URLSession uploads stage their body in a private 0600 file that never outlives the upload")
struct UploadStagingTests {
    /// A fresh folder of the test's own, so that what it finds there is the transport's.
    func withStagingFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("staging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    func contents(_ folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    @Test("while the upload runs, the body sits in a 0700 folder as a 0600 file; afterwards both are gone")
    func permissionsAndCleanup() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            try await withStagingFolder { (folder: URL) async throws in
                let transport = PrismURLSessionTransport(temporaryDirectory: folder)
                let request = PrismHTTPRequest(url: server.url("/upload?slow=1&bytesPerSecond=2000000"), method: .post)
                let upload = Task {
                    try await transport.upload(request, body: .data(Data(count: 3_000_000))) { _ in }
                }
                try await eventually { (server.uploadProgress?.bytesReceived ?? 0) > 0 }
                let entries = contents(folder)
                #expect(entries.count == 1)
                let staged = try #require(entries.first)
                #expect(staged.hasPrefix("prism-upload-"))
                #expect(mode(folder.appendingPathComponent(staged).path) == 0o700)
                #expect(mode(folder.appendingPathComponent(staged).appendingPathComponent("body").path) == 0o600)
                #expect(try await upload.value.statusCode == 200)
                #expect(contents(folder).isEmpty)
            }
        }
    }

    @Test("the staged file is removed when the upload fails, is cancelled, or its body cannot be read")
    func removedOnEveryPath() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            try await withStagingFolder { (folder: URL) async throws in
                let transport = PrismURLSessionTransport(temporaryDirectory: folder)
                // Nothing listens.
                let refused = try PrismRefusedPort()
                defer { refused.close() }
                let closedURL = URL(string: "http://127.0.0.1:\(refused.port)/upload")!
                await #expect(throws: PrismHTTPError.self) {
                    try await transport.upload(
                        PrismHTTPRequest(url: closedURL, method: .post), body: .data(Data(count: 1_000))
                    ) { _ in }
                }
                #expect(contents(folder).isEmpty)
                // Timed out in the middle of the send: /delay never reads the body, so the send
                // stalls once the socket buffers are full.
                await expectHTTPError(.timedOut) {
                    try await transport.upload(
                        PrismHTTPRequest(url: server.url("/delay/20000"), method: .post, timeout: .seconds(1)),
                        body: .data(Data(count: 16 << 20))
                    ) { _ in }
                }
                #expect(contents(folder).isEmpty)
                // Cancelled.
                let upload = Task {
                    try await transport.upload(
                        PrismHTTPRequest(url: server.url("/upload?bytesPerSecond=100000"), method: .post),
                        body: .data(Data(count: 2_000_000))
                    ) { _ in }
                }
                try await eventually { !contents(folder).isEmpty }
                upload.cancel()
                await #expect(throws: CancellationError.self) { try await upload.value }
                #expect(contents(folder).isEmpty)
                // A body whose chunks fail half way.
                struct Broken: Error {}
                let broken = PrismUploadBody(length: 10_000) {
                    AsyncThrowingStream { continuation in
                        continuation.yield(Data(count: 5_000))
                        continuation.finish(throwing: Broken())
                    }
                }
                await #expect(throws: Broken.self) {
                    try await transport.upload(
                        PrismHTTPRequest(url: server.url("/upload"), method: .post), body: broken
                    ) {
                        _ in
                    }
                }
                #expect(contents(folder).isEmpty)
            }
        }
    }
}

@Suite("URLSession uploads that end in the middle of their body")
struct UploadInterruptionTests {
    /// Progress seen so far, shared with the transport's progress callback.
    final class Sent: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: Int64 = 0
        var value: Int64 { lock.withLock { bytes } }
        func set(_ sent: Int64) { lock.withLock { bytes = sent } }
    }

    /// swift-corelibs-foundation resumes a paused libcurl handle when more of a file body has
    /// been read; when the task was cancelled in between, that resume used to trap the whole
    /// process (`EasyHandle.swift`, libcurl error 43). Many uploads, each cancelled at a
    /// different point of its body, must all end with `CancellationError` and leave the
    /// transport working.
    @Test(
        "forty uploads cancelled at different points of their body end cleanly, and the next upload succeeds",
        arguments: [Int64(1_000_000), PrismURLSessionTransport.inMemoryUploadLimit + 1_000_000]
    )
    func cancelledMidBody(size: Int64) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let transport = PrismURLSessionTransport()
            for round in 0..<40 {
                let sent = Sent()
                let threshold = Int64(1 + (round * 37_337) % 900_000)
                let upload = Task {
                    try await transport.upload(
                        PrismHTTPRequest(url: server.url("/upload?bytesPerSecond=8000000"), method: .post),
                        body: .data(Data(count: Int(size)))
                    ) { sent.set($0) }
                }
                try await eventually { sent.value >= threshold }
                upload.cancel()
                do {
                    let response = try await upload.value
                    // The whole body went out before the cancellation reached the task.
                    #expect(response.statusCode == 200)
                } catch {
                    #expect(error is CancellationError)
                }
            }
            let response = try await transport.upload(
                PrismHTTPRequest(url: server.url("/upload?id=after"), method: .post),
                body: .data(Data(count: Int(size)))
            ) { _ in }
            #expect(response.statusCode == 200)
            let received = try #require(server.uploadProgress(id: "after"))
            #expect(received.isComplete && received.bytesReceived == Int(size))
            // Up to the limit the body goes from memory with its length; beyond it, chunked.
            #expect(received.expectedBytes == (size <= PrismURLSessionTransport.inMemoryUploadLimit ? Int(size) : nil))
        }
    }
}
