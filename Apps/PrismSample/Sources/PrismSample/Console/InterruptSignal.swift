import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for Ctrl-C (SIGINT) or SIGTERM, so that a command can stop cleanly instead of dying.
enum InterruptSignal {
    /// Suspends until the process receives SIGINT or SIGTERM, and returns which.
    ///
    /// While it waits, those signals no longer end the process; afterwards they do again.
    static func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            Waiter(continuation).start()
        }
    }

    /// The dispatch sources of one wait. Touched only on its serial queue once started.
    private final class Waiter: @unchecked Sendable {
        private static let signals = [SIGINT, SIGTERM]
        private let queue = DispatchQueue(label: "prism-sample.signals")
        private let continuation: CheckedContinuation<Int32, Never>
        private var sources: [any DispatchSourceSignal] = []
        private var fired = false

        init(_ continuation: CheckedContinuation<Int32, Never>) {
            self.continuation = continuation
        }

        func start() {
            queue.sync {
                for number in Self.signals {
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                    source.setEventHandler { [self] in fire(number) }
                    sources.append(source)
                    source.resume()
                }
            }
        }

        private func fire(_ number: Int32) {
            guard !fired else { return }
            fired = true
            for source in sources { source.cancel() }
            sources.removeAll()
            for number in Self.signals { signal(number, SIG_DFL) }
            continuation.resume(returning: number)
        }
    }
}
