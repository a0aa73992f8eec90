import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

// The transports' deadline clock, which these tests replace with one they move by hand.
@_spi(PrismInternals) @testable import PrismHTTP

@Suite("An upload's timeout bounds every pause in the send and then the response, not the whole send")
struct UploadDeadlineTests {
    /// A transport of `kind` whose uploads measure their deadline on `clock`.
    static func make(_ kind: TransportKind, clock: TestClock<Duration>) -> any PrismHTTPTransport {
        switch kind {
        case .asyncHTTPClient:
            #if AsyncHTTPClient && os(Linux)
            return PrismAsyncHTTPClientTransport(configuration: .default, deadlineClock: DeadlineClock(clock))
            #else
            return make(.urlSession, clock: clock)
            #endif
        case .urlSession:
            return PrismURLSessionTransport(
                configuration: .default, temporaryDirectory: FileManager.default.temporaryDirectory,
                deadlineClock: DeadlineClock(clock))
        }
    }

    /// Starts a test server and a transport of `kind` whose deadlines are measured on a clock the
    /// test moves; runs `body` and shuts the server down whatever happens.
    static func withClockedTransport(
        _ kind: TransportKind,
        _ body: (PrismTestServer, TestClock<Duration>, any PrismHTTPTransport) async throws -> Void
    ) async throws {
        try await withServer { server in
            let clock = TestClock()
            try await body(server, clock, make(kind, clock: clock))
        }
    }

    /// A body of `chunks` chunks of 64 KB, each handed over when the test opens its gate; `asked`
    /// hears the number of each chunk the transport asks for (when it asks for chunk n, what came
    /// before was counted as progress), and ends when `asking` is finished.
    static func gatedBody(
        chunks: Int
    ) -> (body: PrismUploadBody, asked: AsyncStream<Int>, asking: AsyncStream<Int>.Continuation, gates: [Gate]) {
        let gates = (0..<chunks).map { _ in Gate() }
        let (asked, asking) = AsyncStream<Int>.makeStream()
        let body = PrismUploadBody(length: Int64(chunks * 65_536)) {
            let count = LockedBox(0)
            return AsyncThrowingStream(unfolding: {
                let number = count.mutate { value -> Int in
                    value += 1
                    return value
                }
                guard number <= chunks else { return nil }
                asking.yield(number)
                await gates[number - 1].wait()
                return Data(count: 65_536)
            })
        }
        return (body, asked, asking, gates)
    }

    @Test(
        "an upload that keeps sending outlasts its timeout many times over: each bit of progress moves the deadline",
        arguments: TransportKind.allCases)
    func steadyUploadOutlastsItsTimeout(transport: TransportKind) async throws {
        try await Self.withClockedTransport(transport) { (server, clock, sender) async throws in
            let (body, asked, asking, gates) = Self.gatedBody(chunks: 20)
            let upload = Task {
                // However the upload ends, the loop below stops waiting for the next chunk.
                defer { asking.finish() }
                return try await sender.upload(
                    PrismHTTPRequest(url: server.url("/upload"), method: .post, timeout: .seconds(2)), body: body
                ) { _ in }
            }
            // Each chunk comes 1.5 s after the one before, on the deadline's clock: 30 s in all,
            // fifteen times the timeout, but never a pause as long as it.
            var requests = asked.makeAsyncIterator()
            for gate in gates {
                guard await requests.next() != nil else { break }
                await clock.advance(by: .milliseconds(1_500))
                gate.open()
            }
            let response = try await upload.value
            #expect(response.statusCode == 200)
            #expect(server.hits("/upload") == 1)
        }
    }

    @Test(
        "once the whole body is sent, the response must arrive within the timeout, on the same clock",
        arguments: TransportKind.allCases)
    func responseAfterTheBodyIsBounded(transport: TransportKind) async throws {
        try await Self.withClockedTransport(transport) { (server, clock, sender) async throws in
            let length: Int64 = 10_000
            let (sent, sending) = AsyncStream<Int64>.makeStream()
            let finished = LockedBox(false)
            // /delay takes in the small body and answers after ten minutes of real time: only the
            // deadline, on the test's clock, can end the upload first.
            let upload = Task {
                defer { finished.mutate { $0 = true } }
                return try await sender.upload(
                    PrismHTTPRequest(url: server.url("/delay/600000"), method: .post, timeout: .seconds(2)),
                    body: .data(Data(count: Int(length)))
                ) { bytes in sending.yield(bytes) }
            }
            for await bytes in sent where bytes == length { break }
            // The response's deadline starts once the transport has handed over the last byte,
            // which on a busy machine may come after the progress report: move the clock on each
            // time a deadline waits on it, until the upload has ended (for two minutes of real
            // time at most: then the upload waits for the server, and the test fails).
            let wall = ContinuousClock.now
            while !finished.wrappedValue, ContinuousClock.now - wall < .seconds(120) {
                await clock.waitForSleeper(timeout: .milliseconds(50))
                if finished.wrappedValue { break }
                await clock.advance(by: .seconds(2))
            }
            await expectHTTPError(.timedOut) { try await upload.value }
            #expect(server.hits("/delay/600000") == 1)
        }
    }

    @Test(
        "an upload the server stops reading fails with timedOut once the send has stalled for the timeout",
        arguments: TransportKind.allCases)
    func stalledSendTimesOut(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            // A real one-second timeout: /delay never reads the body, so the send stalls once the
            // socket buffers (a few MB at most) are full, and no progress comes again.
            await expectHTTPError(.timedOut) {
                try await transport.make().upload(
                    PrismHTTPRequest(url: server.url("/delay/20000"), method: .post, timeout: .seconds(1)),
                    body: .data(Data(count: 16 << 20))
                ) { _ in }
            }
        }
    }
}
