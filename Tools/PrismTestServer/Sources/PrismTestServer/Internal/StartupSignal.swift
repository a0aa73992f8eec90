import NIOConcurrencyHelpers
import NIOCore

/// Hands the bound port from `onServerRunning` (or the error that prevented it) to `start`.
final class StartupSignal: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Int, any Error>?)
        case running(Int)
        case failed(any Error)
    }

    private let state = NIOLockedValueBox(State.waiting(nil))
    private let listener = NIOLockedValueBox<(any Channel)?>(nil)

    /// The listening channel, once the server accepts connections.
    var listeningChannel: (any Channel)? { self.listener.withLockedValue { $0 } }

    /// Called with the listening channel once the server accepts connections.
    func succeed(channel: any Channel) {
        self.listener.withLockedValue { $0 = channel }
        if let port = channel.localAddress?.port {
            self.resolve(.success(port))
        } else {
            self.resolve(.failure(PrismTestServerError(code: .noPort, message: "the listening socket has no port")))
        }
    }

    /// Called if the server stops or fails before it runs; ignored after it runs.
    func fail(_ error: any Error) {
        self.resolve(.failure(error))
    }

    /// Waits for ``succeed(channel:)`` or ``fail(_:)``.
    func wait() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let result: Result<Int, any Error>? = self.state.withLockedValue { state in
                switch state {
                case .waiting:
                    state = .waiting(continuation)
                    return nil
                case .running(let port):
                    return .success(port)
                case .failed(let error):
                    return .failure(error)
                }
            }
            if let result { continuation.resume(with: result) }
        }
    }

    private func resolve(_ result: Result<Int, any Error>) {
        let continuation = self.state.withLockedValue { state -> CheckedContinuation<Int, any Error>? in
            guard case .waiting(let continuation) = state else { return nil }
            switch result {
            case .success(let port): state = .running(port)
            case .failure(let error): state = .failed(error)
            }
            return continuation
        }
        continuation?.resume(with: result)
    }
}
