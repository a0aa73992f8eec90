import Foundation
@_spi(PrismInternals) import PrismHTTP
import PrismSupport
import PrismTestServer
import PrismTestSupport
import Testing

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
    }

    @Test(
        "a file arrives whole, with its checksum, readable by the user only, and nothing else is left in the folder",
        arguments: TransportKind.allCases)
    func wholeFile(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let folder = try Folder()
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let reports = LockedBox<[PrismDownloadProgress]>([])
            let bytes = 3_000_000
            let download = try await client.download(
                PrismHTTPRequest(url: server.url("/download/whole?bytes=\(bytes)")), to: folder.file("whole.bin"),
                policy: PrismDownloadPolicy(expectedSHA256: Self.sha256(Self.expected(bytes: bytes)).uppercased())
            ) { progress in
                reports.mutate { $0.append(progress) }
            }
            let data = try Data(contentsOf: folder.file("whole.bin"))
            #expect(data == Self.expected(bytes: bytes))
            #expect(download.byteCount == Int64(bytes))
            #expect(download.sha256 == Self.sha256(data))
            #expect(download.resumedAt == 0)
            #expect(download.statusCode == 200)
            #expect(folder.names == ["whole.bin"])
            let permissions =
                try FileManager.default.attributesOfItem(atPath: folder.file("whole.bin").path)[
                    .posixPermissions] as? NSNumber
            #expect(permissions?.intValue == 0o600)
            let progress = reports.wrappedValue
            #expect(progress.count > 2)
            #expect(progress.map(\.bytesReceived) == progress.map(\.bytesReceived).sorted())
            #expect(progress.last == PrismDownloadProgress(bytesReceived: Int64(bytes), totalBytes: Int64(bytes)))
            #expect(progress.last?.fraction == 1)
        }
    }

    @Test(
        "a connection cut midway keeps what arrived; the next download asks for the rest with Range and If-Range",
        arguments: TransportKind.allCases, ["etag", "last-modified"])
    func resumesAfterCut(transport: TransportKind, validator: String) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let bytes = 2_000_000
            // Cut after the first byte, after one chunk, midway, and one byte short of the end.
            for (index, cut) in [1, 65_536, 700_000, bytes - 1].enumerated() {
                let folder = try Folder()
                let name = "cut\(index)-\(validator)"
                let url = server.url("/download/\(name)?bytes=\(bytes)&validator=\(validator)&dropAfter=\(cut)")
                let policy = PrismDownloadPolicy(resumable: true)
                await #expect(throws: PrismHTTPError.self) {
                    try await client.download(PrismHTTPRequest(url: url), to: folder.file("cut.bin"), policy: policy)
                }
                #expect(!folder.names.contains("cut.bin"), "cut at \(cut)")

                let download = try await client.download(
                    PrismHTTPRequest(url: url), to: folder.file("cut.bin"), policy: policy)
                #expect(try Data(contentsOf: folder.file("cut.bin")) == Self.expected(bytes: bytes), "cut at \(cut)")
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
        try await withServer { (server: PrismTestServer) async throws in
            let folder = try Folder()
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let bytes = 1_500_000
            let url = server.url("/download/changing?bytes=\(bytes)&dropAfter=600000")
            let policy = PrismDownloadPolicy(resumable: true)
            await #expect(throws: PrismHTTPError.self) {
                try await client.download(PrismHTTPRequest(url: url), to: folder.file("f.bin"), policy: policy)
            }
            // The file changes: the If-Range validator no longer matches, the server sends it all.
            _ = try await PrismNetworkAdapter(cache: nil).send(
                PrismHTTPRequest(url: server.url("/etag/changing/bump"), method: .post))
            let download = try await client.download(
                PrismHTTPRequest(url: url), to: folder.file("f.bin"), policy: policy)
            #expect(download.statusCode == 200)
            #expect(download.resumedAt == 0)
            #expect(try Data(contentsOf: folder.file("f.bin")) == Self.expected(bytes: bytes, version: 2))
        }
    }

    @Test("a server that ignores Range gets the whole file downloaded again", arguments: TransportKind.allCases)
    func serverIgnoresRange(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let folder = try Folder()
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let bytes = 1_000_000
            let url = server.url("/download/norange?bytes=\(bytes)&ignoreRange=1&dropAfter=400000")
            let policy = PrismDownloadPolicy(resumable: true)
            await #expect(throws: PrismHTTPError.self) {
                try await client.download(PrismHTTPRequest(url: url), to: folder.file("n.bin"), policy: policy)
            }
            let download = try await client.download(
                PrismHTTPRequest(url: url), to: folder.file("n.bin"), policy: policy)
            #expect(download.statusCode == 200)
            #expect(try Data(contentsOf: folder.file("n.bin")) == Self.expected(bytes: bytes))
            #expect(server.requests.last { $0.path == "/download/norange" }?.headers["range"] != nil)
        }
    }

    @Test(
        "a server that answers a range with another range is not believed: the part is dropped, the next download is whole",
        arguments: TransportKind.allCases)
    func lyingRange(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let folder = try Folder()
            try Data("the old file".utf8).write(to: folder.file("l.bin"))
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let bytes = 1_000_000
            let url = server.url("/download/liar?bytes=\(bytes)&lieRange=1&dropAfter=300000")
            let policy = PrismDownloadPolicy(resumable: true)
            await #expect(throws: PrismHTTPError.self) {
                try await client.download(PrismHTTPRequest(url: url), to: folder.file("l.bin"), policy: policy)
            }
            // The resume is answered 206 "bytes 0-999999/1000000": appending it would corrupt the file.
            let lie = await #expect(throws: PrismHTTPError.self) {
                try await client.download(PrismHTTPRequest(url: url), to: folder.file("l.bin"), policy: policy)
            }
            #expect(lie?.statusCode == 206)
            #expect(folder.names == ["l.bin"])
            #expect(try Data(contentsOf: folder.file("l.bin")) == Data("the old file".utf8))
            let download = try await client.download(
                PrismHTTPRequest(url: url), to: folder.file("l.bin"), policy: policy)
            #expect(download.statusCode == 200)
            #expect(try Data(contentsOf: folder.file("l.bin")) == Self.expected(bytes: bytes))
        }
    }

    @Test(
        "without resumability, a cut or cancelled download leaves nothing behind, and an old file in place is untouched",
        arguments: TransportKind.allCases)
    func notResumableLeavesNothing(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let folder = try Folder()
            try Data("the old file".utf8).write(to: folder.file("old.bin"))
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            await #expect(throws: PrismHTTPError.self) {
                try await client.download(
                    PrismHTTPRequest(url: server.url("/download/gone?bytes=1000000&dropAfter=300000")),
                    to: folder.file("old.bin"))
            }
            #expect(folder.names == ["old.bin"])
            #expect(try Data(contentsOf: folder.file("old.bin")) == Data("the old file".utf8))

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

    /// Downloads `url` to `destination` and cancels the download once 200,000 bytes arrived.
    static func cancelAfter200KB(
        _ client: PrismNetworkAdapter, url: URL, to destination: URL, policy: PrismDownloadPolicy
    ) async throws {
        let halfway = LockedBox(false)
        let task = Task {
            try await client.download(PrismHTTPRequest(url: url), to: destination, policy: policy) { progress in
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
        try await withServer { (server: PrismTestServer) async throws in
            let folder = try Folder()
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let bytes = 1_000_000
            // The first request sends 300,000 bytes and then stalls (it is cut after 300,000 and
            // never closed, as far as the reader can tell, until cancelled).
            let url = server.url("/download/paused?bytes=\(bytes)")
            let policy = PrismDownloadPolicy(resumable: true)
            try await Self.cancelAfter200KB(client, url: url, to: folder.file("p.bin"), policy: policy)
            #expect(folder.names == [".p.bin.prismdownload", ".p.bin.prismdownload.json"])
            let download = try await client.download(
                PrismHTTPRequest(url: url), to: folder.file("p.bin"), policy: policy)
            #expect(download.resumedAt >= 200_000)
            #expect(try Data(contentsOf: folder.file("p.bin")) == Self.expected(bytes: bytes))
        }
    }

    @Test(
        "a link planted as the partial file is not followed: the download starts over, and the link's target is untouched",
        arguments: TransportKind.allCases)
    func plantedLink(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let folder = try Folder()
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let bytes = 1_000_000
            let url = server.url("/download/planted?bytes=\(bytes)")
            let policy = PrismDownloadPolicy(resumable: true)
            // An interrupted download leaves its part and its note, both the user's only.
            try await Self.cancelAfter200KB(client, url: url, to: folder.file("p.bin"), policy: policy)
            let part = folder.file(".p.bin.prismdownload")
            let note = folder.file(".p.bin.prismdownload.json")
            for file in [part, note] {
                let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
                #expect(mode?.intValue == 0o600, "\(file.lastPathComponent)")
            }
            // Someone who can write to the folder replaces the part with a link to a file of
            // the user's: resuming would append the server's bytes to it.
            let victim = folder.file("victim.txt")
            let kept = Data("the user's own file\n".utf8)
            try kept.write(to: victim)
            try FileManager.default.removeItem(at: part)
            try FileManager.default.createSymbolicLink(at: part, withDestinationURL: victim)
            let download = try await client.download(
                PrismHTTPRequest(url: url), to: folder.file("p.bin"), policy: policy)
            #expect(download.resumedAt == 0)
            #expect(try Data(contentsOf: folder.file("p.bin")) == Self.expected(bytes: bytes))
            #expect(try Data(contentsOf: victim) == kept)
            #expect(folder.names == ["p.bin", "victim.txt"])
        }
    }

    @Test(
        "a checksum that does not match, or a file past the size limit, is never moved into place",
        arguments: TransportKind.allCases)
    func checksAndLimits(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let folder = try Folder()
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let wrong = String(repeating: "0", count: 64)
            let mismatch = await #expect(throws: PrismHTTPError.self) {
                try await client.download(
                    PrismHTTPRequest(url: server.url("/download/sum?bytes=10000")), to: folder.file("s.bin"),
                    policy: PrismDownloadPolicy(expectedSHA256: wrong, resumable: true))
            }
            #expect(mismatch?.code == .integrityCheckFailed)
            #expect(folder.names.isEmpty)

            let announced = await #expect(throws: PrismHTTPError.self) {
                try await client.download(
                    PrismHTTPRequest(url: server.url("/download/big?bytes=100000")), to: folder.file("b.bin"),
                    policy: PrismDownloadPolicy(maximumBytes: 50_000))
            }
            #expect(announced?.code == .responseTooLarge)
            // No Content-Length: the limit is found while the bytes arrive.
            let chunked = await #expect(throws: PrismHTTPError.self) {
                try await client.download(
                    PrismHTTPRequest(url: server.url("/hostile/oversized/200000")), to: folder.file("c.bin"),
                    policy: PrismDownloadPolicy(maximumBytes: 50_000))
            }
            #expect(chunked?.code == .responseTooLarge)
            #expect(folder.names.isEmpty)

            let malformed = await #expect(throws: PrismHTTPError.self) {
                try await client.download(
                    PrismHTTPRequest(url: server.url("/download/sum?bytes=10")), to: folder.file("m.bin"),
                    policy: PrismDownloadPolicy(expectedSHA256: "not a checksum"))
            }
            #expect(malformed?.code == .integrityCheckFailed)
            #expect(server.hits("/download/sum") == 1)
        }
    }

    @Test("a destination whose folder does not exist fails with fileFailed before anything is sent")
    func missingFolder() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(cache: nil)
            let nowhere = FileManager.default.temporaryDirectory
                .appendingPathComponent("prism-missing-\(UUID().uuidString)/file.bin")
            let error = await #expect(throws: PrismHTTPError.self) {
                try await client.download(PrismHTTPRequest(url: server.url("/download/x?bytes=10")), to: nowhere)
            }
            #expect(error?.code == .fileFailed)
            #expect(server.hits("/download/x") == 0)
        }
    }

    @Test("a status other than 200 fails with unacceptableStatus and writes nothing", arguments: TransportKind.allCases)
    func errorStatus(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let folder = try Folder()
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let error = await #expect(throws: PrismHTTPError.self) {
                try await client.download(PrismHTTPRequest(url: server.url("/status/404")), to: folder.file("e.bin"))
            }
            #expect(error?.code == .unacceptableStatus)
            #expect(error?.statusCode == 404)
            #expect(folder.names.isEmpty)
        }
    }
}
