// Streaming benchmarks (issue 30): what reading a text/event-stream costs per event.
// `--filter "server-sent"` runs them alone.
import Foundation
import PrismHTTP

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
