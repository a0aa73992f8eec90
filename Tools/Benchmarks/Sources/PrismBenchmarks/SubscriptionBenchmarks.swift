// GraphQL subscription benchmark (issue 19): events per second through one WebSocket, via
// PrismGraphQLClient.subscribe (decoded into a type) against the raw WSClient reading the same
// server stream (graphql-transport-ws by hand, messages counted, not decoded), same run.
import Foundation
import Logging
import PrismGraphQL
import PrismNetwork
import PrismTestServer
import WSClient

/// The data of `counter(to:)`.
struct SubscriptionBenchmarkData: Decodable, Sendable {
    var counter: Int
}

@MainActor
func subscriptionBenchmarks() async throws -> [Result] {
    var results: [Result] = []
    guard selected("subscription") else { return results }
    let server = try await PrismTestServer.start()
    defer { Task { try? await server.shutdown() } }

    let events = 20_000
    let document = "subscription Count($to: Int!) { counter(to: $to) }"
    let subscription = PrismGraphQLSubscription(query: document, variables: ["to": events], operationName: "Count")
    let graphql = PrismGraphQLClient(
        endpointURL: server.url("/graphql"), networkClient: PrismNetworkAdapter(cache: nil), cache: nil)
    let url = "ws://127.0.0.1:\(server.port)/graphql"
    let subscribe =
        #"{"id":"1","type":"subscribe","payload":{"operationName":"Count","query":"\#(document)","variables":{"to":\#(events)}}}"#

    /// PrismGraphQL: every event decoded as SubscriptionBenchmarkData.
    let viaPrism: @Sendable () async throws -> Int = {
        var count = 0
        for try await event in graphql.subscribe(subscription, as: SubscriptionBenchmarkData.self) {
            if event.data != nil { count += 1 }
        }
        return count
    }
    /// The raw WSClient: the protocol by hand, `next` messages counted.
    let raw: @Sendable () async throws -> Int = {
        let counted = Counted()
        var headers = WebSocketClientConfiguration().additionalHeaders
        headers[.secWebSocketProtocol] = "graphql-transport-ws"
        try await WebSocketClient.connect(
            url: url,
            configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 20, additionalHeaders: headers),
            logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        ) { inbound, outbound, _ in
            try await outbound.write(.text(#"{"type":"connection_init","payload":{}}"#))
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message else { continue }
                if text.hasPrefix(#"{"type":"connection_ack""#) {
                    try await outbound.write(.text(subscribe))
                } else if text.contains(#""type":"next""#) {
                    counted.value += 1
                } else if text.contains(#""type":"complete""#) {
                    return
                }
            }
        }
        return counted.value
    }

    // Both must read every event, or the comparison means nothing.
    let (checkPrism, checkRaw) = (try await viaPrism(), try await raw())
    precondition(checkPrism == events && checkRaw == events, "read \(checkPrism) and \(checkRaw) of \(events) events")

    var candidates: [Double] = []
    var baselines: [Double] = []
    for _ in 0..<5 {
        candidates.append(try await eventsPerSecond(events, viaPrism))
        baselines.append(try await eventsPerSecond(events, raw))
    }
    let candidate = candidates.sorted()[2]
    let baseline = baselines.sorted()[2]
    results.append(
        Result(
            name: "subscription: \(events) counter events through one socket",
            timing: Timing(nanosecondsPerOperation: 1e9 / candidate),
            baselineName: "raw WSClient reading the same stream, same run",
            baseline: Timing(nanosecondsPerOperation: 1e9 / baseline),
            bar: .atMostRatio(1.25),
            note: String(format: "%.0f vs %.0f events/s = %.0f%%", candidate, baseline, 100 * candidate / baseline)
        )
    )
    return results
}

/// A counter the raw client's handler writes (one task at a time).
private final class Counted: @unchecked Sendable {
    var value = 0
}

/// Events per second of one run of `body`, which returns how many events it read.
private func eventsPerSecond(_ expected: Int, _ body: @Sendable () async throws -> Int) async throws -> Double {
    let start = ContinuousClock.now
    let count = try await body()
    let elapsed = ContinuousClock.now - start
    precondition(count == expected, "read \(count) of \(expected) events")
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(count) / seconds
}
