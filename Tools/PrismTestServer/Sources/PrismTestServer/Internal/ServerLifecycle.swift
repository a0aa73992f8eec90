import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// Runs one Hummingbird application in a `ServiceGroup` on a task, and stops it.
///
/// The application uses `MultiThreadedEventLoopGroup.singleton` (NIO's process-wide event loops),
/// so a server owns no threads: starting one binds a socket, stopping it closes its sockets.
final class ServerLifecycle: Sendable {
    /// How long a graceful shutdown may take before open connections are cut (task cancellation).
    static let maximumGracefulShutdownDuration = Duration.seconds(2)
    /// How long ``shutdown()`` waits for the server's task to end.
    ///
    /// A connection a client opened and never sent a request on (AsyncHTTPClient keeps one in its
    /// pool when the request it was opened for is cancelled before it is sent) outlives both the
    /// graceful stop and the cancellation after it, until the client closes it: a minute, for
    /// AsyncHTTPClient's idle timeout, seen in `TokenRefreshTests` one run in five. The listening
    /// socket is closed long before; ``shutdown()`` stops waiting for that connection after this
    /// long, and its task ends when the client closes it.
    static let maximumShutdownWait = Duration.seconds(3)

    private let group: ServiceGroup
    private let runTask: Task<Void, any Error>
    private let startup: StartupSignal
    private let stopTask = NIOLockedValueBox<Task<Void, any Error>?>(nil)

    /// The bound port.
    let port: Int

    /// Starts `application` and returns once its listening socket is bound and accepting.
    init(application: some ApplicationProtocol, startup: StartupSignal, logger: Logger) async throws {
        var configuration = ServiceGroupConfiguration(services: [application], logger: logger)
        configuration.maximumGracefulShutdownDuration = Self.maximumGracefulShutdownDuration
        let group = ServiceGroup(configuration: configuration)
        let runTask = Task {
            do {
                try await group.run()
                startup.fail(
                    PrismTestServerError(
                        code: .stoppedBeforeStart,
                        message: "the server stopped before it accepted connections"
                    )
                )
            } catch {
                startup.fail(error)
                throw error
            }
        }
        self.group = group
        self.runTask = runTask
        self.startup = startup
        self.port = try await withTaskCancellationHandler {
            try await startup.wait()
        } onCancel: {
            Task { await group.triggerGracefulShutdown() }
        }
    }

    /// Stops gracefully: no new connections, idle ones closed, running requests finished (waits,
    /// such as `/delay`, end early); after ``maximumGracefulShutdownDuration`` what remains is
    /// cancelled. Every call waits for the same stop: until the listening socket is closed, then
    /// for the rest at most ``maximumShutdownWait``; only the first one starts it.
    func shutdown() async throws {
        try await self.startStopping().value
    }

    /// Starts the graceful stop of ``shutdown()`` without waiting for it (for `deinit`).
    ///
    /// Never task cancellation: cancelling a NIO server task while an accepted connection is still
    /// queued for the accept loop traps in `NIOAsyncWriter` (apple/swift-nio#2813, #3481); graceful
    /// shutdown hands every accepted connection to the loop first.
    func stopInBackground() {
        _ = self.startStopping()
    }

    private func startStopping() -> Task<Void, any Error> {
        self.stopTask.withLockedValue { stopTask in
            if let stopTask { return stopTask }
            let group = self.group
            let runTask = self.runTask
            let listener = self.startup.listeningChannel
            let task = Task {
                await group.triggerGracefulShutdown()
                // The port is closed when shutdown returns, however busy the machine: an ordering
                // (the listening channel's close), not a time. Only what lingers after it (a
                // connection a client keeps open) is waited for at most `maximumShutdownWait`.
                try? await listener?.closeFuture.get()
                try await Self.result(of: runTask, waitingAtMost: Self.maximumShutdownWait)
            }
            stopTask = task
            return task
        }
    }

    /// The result of `task`, or success once `limit` has passed without one (`task` goes on).
    private static func result(of task: Task<Void, any Error>, waitingAtMost limit: Duration) async throws {
        let resumed = NIOLockedValueBox(false)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            @Sendable func resume(_ result: Result<Void, any Error>) {
                let first = resumed.withLockedValue { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(with: result) }
            }
            Task { resume(await task.result) }
            Task {
                try? await Task.sleep(for: limit)
                resume(.success(()))
            }
        }
    }
}
