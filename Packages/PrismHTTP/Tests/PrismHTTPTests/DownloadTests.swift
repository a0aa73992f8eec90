import Foundation
import PrismSupport
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Downloads: streamed to a hidden file, checked, moved into place; resumed with Range and If-Range")
struct DownloadTests {
    /// What `/download/:name` serves: byte `i` is `(i + 7 * version) % 251`.
    static func expected(bytes: Int, version: Int = 1) -> Data {
        Data((0..<bytes).map { UInt8(($0 + 7 * version) % 251) })
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// A fresh folder, and the files in it when the test ends (hidden ones included).
    final class Folder: Sendable {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("prism-download-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func file(_ name: String) -> URL { url.appendingPathComponent(name) }

        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

        /// The contents of the file `name`.
        func contents(_ name: String) throws -> Data { try Data(contentsOf: file(name)) }
    }

    /// Starts a test server, a client on `transport` that caches nothing, and a fresh folder;
    /// runs `body` and shuts the server down whatever happens.
    static func withDownloads(
        _ transport: TransportKind, _ body: (PrismTestServer, Folder, PrismNetworkAdapter) async throws -> Void
    ) async throws {
        try await withClient(transport) { (server, client) async throws in
            try await body(server, try Folder(), client)
        }
    }

    /// One resumable download of `url` to `destination`, tried again and again by a test.
    struct Resumable {
        let client: PrismNetworkAdapter
        let url: URL
        let destination: URL
        var policy = PrismDownloadPolicy(resumable: true)

        /// An attempt that must fail; its error.
        @discardableResult
        func fails(sourceLocation: SourceLocation = #_sourceLocation) async -> PrismHTTPError? {
            await #expect(throws: PrismHTTPError.self, sourceLocation: sourceLocation) { try await run() }
        }

        /// An attempt.
        func run() async throws -> PrismDownload {
            try await client.download(PrismHTTPRequest(url: url), to: destination, policy: policy)
        }
    }

    @Test(
        "a file arrives whole, with its checksum, readable by the user only, and nothing else is left in the folder",
        arguments: TransportKind.allCases)
    func wholeFile(transport: TransportKind) async throws {
        try await Self.withDownloads(transport) { (server, folder, client) async throws in
            let reports = LockedBox<[PrismDownloadProgress]>([])
            let bytes = 3_000_000
            let download = try await client.download(
                PrismHTTPRequest(url: server.url("/download/whole?bytes=\(bytes)")), to: folder.file("whole.bin"),
                policy: PrismDownloadPolicy(expectedSHA256: Self.sha256(Self.expected(bytes: bytes)).uppercased())
            ) { progress in
                reports.mutate { $0.append(progress) }
            }
            let data = try folder.contents("whole.bin")
            #expect(data == Self.expected(bytes: bytes))
            #expect(download.byteCount == Int64(bytes))
            #expect(download.sha256 == Self.sha256(data))
            #expect(download.resumedAt == 0)
            #expect(download.statusCode == 200)
            #expect(folder.names == ["whole.bin"])
            #expect(try Self.permissions(of: folder.file("whole.bin")) == 0o600)
            let progress = reports.wrappedValue
            #expect(progress.count > 2)
            #expect(progress.map(\.bytesReceived) == progress.map(\.bytesReceived).sorted())
            #expect(progress.last == PrismDownloadProgress(bytesReceived: Int64(bytes), totalBytes: Int64(bytes)))
            #expect(progress.last?.fraction == 1)
        }
    }

    /// The POSIX permissions of `file`.
    static func permissions(of file: URL) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test(
        "a connection cut midway keeps what arrived; the next download asks for the rest with Range and If-Range",
        arguments: TransportKind.allCases, ["etag", "last-modified"])
    func resumesAfterCut(transport: TransportKind, validator: String) async throws {
        try await withClient(transport) { (server, client) async throws in
            let bytes = 2_000_000
            // Cut after the first byte, after one chunk, midway, and one byte short of the end.
            for (index, cut) in [1, 65_536, 700_000, bytes - 1].enumerated() {
                let folder = try Folder()
                let name = "cut\(index)-\(validator)"
                let url = server.url("/download/\(name)?bytes=\(bytes)&validator=\(validator)&dropAfter=\(cut)")
                let attempt = Resumable(client: client, url: url, destination: folder.file("cut.bin"))
                await attempt.fails()
                #expect(!folder.names.contains("cut.bin"), "cut at \(cut)")

                let download = try await attempt.run()
                #expect(try folder.contents("cut.bin") == Self.expected(bytes: bytes), "cut at \(cut)")
                #expect(download.sha256 == Self.sha256(Self.expected(bytes: bytes)))
                #expect(download.resumedAt <= Int64(cut))
                #expect(folder.names == ["cut.bin"])
                let second = try #require(server.requests.last { $0.path == "/download/\(name)" })
                if download.resumedAt > 0 {
                    // What arrived was kept and only the rest was asked for.
                    #expect(download.statusCode == 206)
                    #expect(second.headers["range"] == "bytes=\(download.resumedAt)-")
                    #expect(second.headers["if-range"] != nil)
                } else {
                    // Nothing had arrived (a cut after the first byte can lose it in flight).
                    #expect(download.statusCode == 200)
                }
            }
            // Cuts past the first chunk always leave something to resume from.
            #expect(server.requests.filter { $0.headers["range"] != nil }.count >= 2)
        }
    }

    @Test(
        "a file that changed on the server between two attempts is downloaded again whole",
        arguments: TransportKind.allCases)
    func changedFileStartsOver(transport: TransportKind) async throws {
        try await Self.withDownloads(transport) { (server, folder, client) async throws in
            let bytes = 1_500_000
            let url = server.url("/download/changing?bytes=\(bytes)&dropAfter=600000")
            let attempt = Resumable(client: client, url: url, destination: folder.file("f.bin"))
            await attempt.fails()
            // The file changes: the If-Range validator no longer matches, the server sends it all.
            try await bump("/etag/changing", on: server, through: PrismNetworkAdapter(cache: nil))
            let download = try await attempt.run()
            #expect(download.statusCode == 200)
            #expect(download.resumedAt == 0)
            #expect(try folder.contents("f.bin") == Self.expected(bytes: bytes, version: 2))
        }
    }

    @Test("a server that ignores Range gets the whole file downloaded again", arguments: TransportKind.allCases)
    func serverIgnoresRange(transport: TransportKind) async throws {
        try await Self.withDownloads(transport) { (server, folder, client) async throws in
            let bytes = 1_000_000
            let url = server.url("/download/norange?bytes=\(bytes)&ignoreRange=1&dropAfter=400000")
            let attempt = Resumable(client: client, url: url, destination: folder.file("n.bin"))
            await attempt.fails()
            #expect(try await attempt.run().statusCode == 200)
            #expect(try folder.contents("n.bin") == Self.expected(bytes: bytes))
            #expect(server.requests.last { $0.path == "/download/norange" }?.headers["range"] != nil)
        }
    }

    @Test(
        "a server that answers a range with another range is not believed: the part is dropped, the next download is whole",
        arguments: TransportKind.allCases)
    func lyingRange(transport: TransportKind) async throws {
        try await Self.withDownloads(transport) { (server, folder, client) async throws in
            try Data("the old file".utf8).write(to: folder.file("l.bin"))
            let bytes = 1_000_000
            let url = server.url("/download/liar?bytes=\(bytes)&lieRange=1&dropAfter=300000")
            let attempt = Resumable(client: client, url: url, destination: folder.file("l.bin"))
            await attempt.fails()
            // The resume is answered 206 "bytes 0-999999/1000000": appending it would corrupt the file.
            let lie = await attempt.fails()
            #expect(lie?.statusCode == 206)
            #expect(folder.names == ["l.bin"])
            #expect(try folder.contents("l.bin") == Data("the old file".utf8))
            #expect(try await attempt.run().statusCode == 200)
            #expect(try folder.contents("l.bin") == Self.expected(bytes: bytes))
        }
    }

    @Test(
        "without resumability, a cut or cancelled download leaves nothing behind, and an old file in place is untouched",
        arguments: TransportKind.allCases)
    func notResumableLeavesNothing(transport: TransportKind) async throws {
        try await Self.withDownloads(transport) { (server, folder, client) async throws in
            try Data("the old file".utf8).write(to: folder.file("old.bin"))
            await #expect(throws: PrismHTTPError.self) {
                try await client.download(
                    PrismHTTPRequest(url: server.url("/download/gone?bytes=1000000&dropAfter=300000")),
                    to: folder.file("old.bin"))
            }
            #expect(folder.names == ["old.bin"])
            #expect(try folder.contents("old.bin") == Data("the old file".utf8))

            // Cancelled while the server stalls midway.
            let started = LockedBox(false)
            let stalled = server.url("/hostile/stall?length=2000000&sent=100000&ms=30000")
            let task = Task {
                try await client.download(PrismHTTPRequest(url: stalled), to: folder.file("old.bin")) { _ in
                    started.mutate { $0 = true }
                }
            }
            try await eventually { started.wrappedValue }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(folder.names == ["old.bin"])
            try await eventually { server.abandonedResponses("/hostile/stall") == 1 }
        }
    }

    /// Runs `attempt` and cancels it once 200,000 bytes arrived.
    static func cancelAfter200KB(_ attempt: Resumable) async throws {
        let halfway = LockedBox(false)
        let task = Task {
            try await attempt.client.download(
                PrismHTTPRequest(url: attempt.url), to: attempt.destination, policy: attempt.policy
            ) { progress in
                if progress.bytesReceived >= 200_000 {
                    halfway.mutate { $0 = true }
                    withUnsafeCurrentTask { $0?.cancel() }
                }
            }
        }
        try await eventually { halfway.wrappedValue }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test(
        "a resumable download that is cancelled keeps what arrived, and resumes from there",
        arguments: TransportKind.allCases)
    func cancelledResumable(transport: TransportKind) async throws {
        try await Self.withDownloads(transport) { (server, folder, client) async throws in
            let bytes = 1_000_000
            // The first request sends 300,000 bytes and then stalls (it is cut after 300,000 and
            // never closed, as far as the reader can tell, until cancelled).
            let attempt = Resumable(
                client: client, url: server.url("/download/paused?bytes=\(bytes)"), destination: folder.file("p.bin"))
            try await Self.cancelAfter200KB(attempt)
            #expect(folder.names == [".p.bin.prismdownload", ".p.bin.prismdownload.json"])
            #expect(try await attempt.run().resumedAt >= 200_000)
            #expect(try folder.contents("p.bin") == Self.expected(bytes: bytes))
        }
    }

    @Test(
        "a link planted as the partial file is not followed: the download starts over, and the link's target is untouched",
        arguments: TransportKind.allCases)
    func plantedLink(transport: TransportKind) async throws {
        try await Self.withDownloads(transport) { (server, folder, client) async throws in
            let bytes = 1_000_000
            let attempt = Resumable(
                client: client, url: server.url("/download/planted?bytes=\(bytes)"), destination: folder.file("p.bin"))
            // An interrupted download leaves its part and its note, both the user's only.
            try await Self.cancelAfter200KB(attempt)
            let part = folder.file(".p.bin.prismdownload")
            let note = folder.file(".p.bin.prismdownload.json")
            for file in [part, note] {
                #expect(try Self.permissions(of: file) == 0o600, "\(file.lastPathComponent)")
            }
            // Someone who can write to the folder replaces the part with a link to a file of
            // the user's: resuming would append the server's bytes to it.
            let victim = folder.file("victim.txt")
            let kept = Data("the user's own file\n".utf8)
            try kept.write(to: victim)
            try FileManager.default.removeItem(at: part)
            try FileManager.default.createSymbolicLink(at: part, withDestinationURL: victim)
            #expect(try await attempt.run().resumedAt == 0)
            #expect(try folder.contents("p.bin") == Self.expected(bytes: bytes))
            #expect(try Data(contentsOf: victim) == kept)
            #expect(folder.names == ["p.bin", "victim.txt"])
        }
    }

    @Test(
        "a checksum that does not match, or a file past the size limit, is never moved into place",
        arguments: TransportKind.allCases)
    func checksAndLimits(transport: TransportKind) async throws {
        try await Self.withDownloads(transport) { (server, folder, client) async throws in
            /// Downloads `path` to `name` in the folder with `policy`, expecting an error with `code`.
            func refused(_ path: String, to name: String, _ policy: PrismDownloadPolicy, _ code: PrismHTTPError.Code)
                async
            {
                await expectHTTPError(code, "\(path)") {
                    try await client.download(
                        PrismHTTPRequest(url: server.url(path)), to: folder.file(name), policy: policy)
                }
            }
            let wrong = String(repeating: "0", count: 64)
            await refused(
                "/download/sum?bytes=10000", to: "s.bin", PrismDownloadPolicy(expectedSHA256: wrong, resumable: true),
                .integrityCheckFailed)
            #expect(folder.names.isEmpty)
            await refused(
                "/download/big?bytes=100000", to: "b.bin", PrismDownloadPolicy(maximumBytes: 50_000),
                .responseTooLarge)
            // No Content-Length: the limit is found while the bytes arrive.
            await refused(
                "/hostile/oversized/200000", to: "c.bin", PrismDownloadPolicy(maximumBytes: 50_000),
                .responseTooLarge)
            #expect(folder.names.isEmpty)
            await refused(
                "/download/sum?bytes=10", to: "m.bin", PrismDownloadPolicy(expectedSHA256: "not a checksum"),
                .integrityCheckFailed)
            #expect(server.hits("/download/sum") == 1)
        }
    }

    @Test("a destination whose folder does not exist fails with fileFailed before anything is sent")
    func missingFolder() async throws {
        try await withClient { (server, client) async throws in
            let nowhere = FileManager.default.temporaryDirectory
                .appendingPathComponent("prism-missing-\(UUID().uuidString)/file.bin")
            await expectHTTPError(.fileFailed) {
                try await client.download(PrismHTTPRequest(url: server.url("/download/x?bytes=10")), to: nowhere)
            }
            #expect(server.hits("/download/x") == 0)
        }
    }

    @Test("a status other than 200 fails with unacceptableStatus and writes nothing", arguments: TransportKind.allCases)
    func errorStatus(transport: TransportKind) async throws {
        try await Self.withDownloads(transport) { (server, folder, client) async throws in
            let error = await expectHTTPError(.unacceptableStatus) {
                try await client.download(PrismHTTPRequest(url: server.url("/status/404")), to: folder.file("e.bin"))
            }
            #expect(error?.statusCode == 404)
            #expect(folder.names.isEmpty)
        }
    }
}
