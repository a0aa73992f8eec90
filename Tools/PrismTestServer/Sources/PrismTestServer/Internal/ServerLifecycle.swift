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
    static let maximumGracefulShutdownDuration = Duration.seconds(5)

    private let group: ServiceGroup
    private let runTask: Task<Void, any Error>
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
        self.port = try await withTaskCancellationHandler {
            try await startup.wait()
        } onCancel: {
            Task { await group.triggerGracefulShutdown() }
        }
    }

    /// Stops gracefully: no new connections, idle ones closed, running requests finished (waits,
    /// such as `/delay`, end early); after ``maximumGracefulShutdownDuration`` what remains is
    /// cancelled. Every call waits for the same stop; only the first one starts it.
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
            let task = Task {
                await group.triggerGracefulShutdown()
                try await runTask.value
            }
            stopTask = task
            return task
        }
    }
}
