import Foundation

/// One timeout for a whole exchange: the head, the body, and every redirect.
///
/// AsyncHTTPClient's deadline ends when the response head arrives, and URLSession's timeout
/// restarts with every packet, so a server that answers its headers and then stalls, or sends
/// its body a byte at a time, could hold a request (and a pooled connection) forever. The
/// transports that ship run each exchange under a deadline of their own: when it passes, the
/// exchange is cancelled (its connection closed) and the request fails with `timedOut`.
enum Deadline {
    static func run<Value: Sendable>(
        _ timeout: Duration,
        url: URL,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            guard let value = first else {
                throw PrismHTTPError(
                    code: .timedOut,
                    message: "The whole response did not arrive within \(timeout).",
                    url: url
                )
            }
            return value
        }
    }
}
