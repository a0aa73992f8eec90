// Streaming benchmarks (issue 30): what reading a text/event-stream costs per event.
// `--filter "server-sent"` runs them alone.
import Foundation
import PrismHTTP
import PrismTestServer

#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import NIOCore
#endif

/// Parses 100,000 small events (`id`, `event` and a JSON `data` line each), fed in 16 KB chunks
/// as a transport delivers them, beside the least any reader does with the same bytes (split
/// them into lines, each made a string) in the same run. Bar: at least 100,000 events a second, 10 us each.
@MainActor
func serverSentEventBenchmarks() -> [Result] {
    guard selected("server-sent") else { return [] }
    let count = 100_000
    var stream: [UInt8] = []
    for index in 0..<count {
        stream += Array("id: \(index)\nevent: tick\ndata: {\"n\":\(index),\"text\":\"hello\"}\n\n".utf8)
    }
    let chunks = stride(from: 0, to: stream.count, by: 16_384).map {
        Array(stream[$0..<min($0 + 16_384, stream.count)])
    }
    let (parse, raw) = measurePair(
        operations: count,
        repetitions: 5,
        {
            var parser = PrismServerSentEventParser()
            var events = 0
            for chunk in chunks { events += (try? parser.parse(chunk).count) ?? 0 }
            precondition(events == count, "the parser dispatched \(events) events of \(count)")
        },
        against: {
            // The least any reader does: the lines, each made a string.
            var line: [UInt8] = []
            var lines = 0
            for chunk in chunks {
                for byte in chunk {
                    if byte == 0x0A {
                        blackHole(String(decoding: line, as: UTF8.self))
                        line.removeAll(keepingCapacity: true)
                        lines += 1
                    } else {
                        line.append(byte)
                    }
                }
            }
            precondition(lines == 4 * count)
        }
    )
    return [
        Result(
            name: "server-sent events: parse 100,000 small events (16 KB chunks)",
            timing: parse,
            baselineName: "the same bytes split into line strings",
            baseline: raw,
            bar: .atMostNanoseconds(10_000),
            note: String(format: "%.0f events/s", 1e9 / parse.nanosecondsPerOperation)
        )
    ]
}

/// `--filter "stream"`: a 100 MB body streamed through the client against raw AsyncHTTPClient
/// streaming the same body (bar: at least 90% of its throughput), and Server-Sent Events parsed
/// and delivered from a loopback stream against reading the same stream's bytes (bar: at least
/// 100,000 events a second).
@MainActor
func streamingNetworkBenchmarks() async throws -> [Result] {
    guard selected("stream") else { return [] }
    var results: [Result] = []
    let server = try await PrismTestServer.start()
    defer { Task { try? await server.shutdown() } }
    let client = PrismNetworkAdapter(cache: nil)
    let size = 100 << 20
    let url = server.url("/large/\(size)")

    #if AsyncHTTPClient && os(Linux)
    let streamed: @Sendable () async throws -> Void = {
        let response = try await client.stream(PrismHTTPRequest(url: url))
        var total = 0
        for try await chunk in response.body { total += chunk.count }
        precondition(total == size, "streamed \(total) bytes of \(size)")
    }
    let raw: @Sendable () async throws -> Void = {
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: url.absoluteString), timeout: .seconds(60))
        var total = 0
        for try await buffer in response.body { total += buffer.readableBytes }
        precondition(total == size, "read \(total) bytes of \(size)")
    }
    let (candidate, baseline) = try await pairedRate(
        rounds: 7, total: 8, concurrency: 1, candidate: streamed, baseline: raw)
    results.append(
        Result(
            name: "client.stream(_:) 100 MB body",
            timing: Timing(nanosecondsPerOperation: 1e9 / candidate),
            baselineName: "raw AsyncHTTPClient streaming the same body",
            baseline: Timing(nanosecondsPerOperation: 1e9 / baseline),
            bar: .atMostRatio(1 / 0.90),
            note: String(
                format: "%.0f vs %.0f MB/s = %.0f%%", candidate * 100, baseline * 100, 100 * candidate / baseline)))
    #endif

    // 100,000 events of about 50 bytes, one stream, read to its end through the client.
    let count = 100_000
    let text = (0..<count).map { "id: \($0)\nevent: tick\ndata: {\"n\":\($0)}\n\n" }.joined()
    let events: @Sendable () async throws -> Void = {
        server.script("bench-events", [.init(headers: [("Content-Type", "text/event-stream")], body: text)])
        let response = try await client.stream(PrismHTTPRequest(url: server.url("/scripted/bench-events")))
        var delivered = 0
        for try await _ in response.body.serverSentEvents() { delivered += 1 }
        precondition(delivered == count, "delivered \(delivered) events of \(count)")
    }
    let bytes: @Sendable () async throws -> Void = {
        server.script("bench-events", [.init(headers: [("Content-Type", "text/event-stream")], body: text)])
        let response = try await client.stream(PrismHTTPRequest(url: server.url("/scripted/bench-events")))
        var total = 0
        for try await chunk in response.body { total += chunk.count }
        precondition(total == text.utf8.count)
    }
    let (eventRate, byteRate) = try await pairedRate(
        rounds: 5, total: 4, concurrency: 1, candidate: events, baseline: bytes)
    let perEvent = 1e9 / (eventRate * Double(count))
    results.append(
        Result(
            name: "server-sent events: 100,000 delivered over loopback",
            timing: Timing(nanosecondsPerOperation: perEvent),
            baselineName: "the same stream's bytes, read",
            baseline: Timing(nanosecondsPerOperation: 1e9 / (byteRate * Double(count))),
            bar: .atMostNanoseconds(10_000),
            note: String(
                format: "%.0f events/s; the bytes alone %.0f events' worth/s", 1e9 / perEvent, byteRate * Double(count))
        ))
    return results
}
