import Hummingbird
import NIOCore
import ServiceLifecycle

/// The request context of the test server's routes: Hummingbird's core context plus the
/// connection's channel, so that a waiting route can notice that the client went away.
struct TestServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// Bodies that routes collect whole (JSON, `/echo`) may be this large; `/upload` streams.
    var maxUploadSize: Int { 64 << 20 }

    /// Waits `milliseconds` without blocking an event loop, ending early when the client closes
    /// the connection, the request's task is cancelled, or the server shuts down.
    ///
    /// - Returns: true when the whole wait elapsed.
    func pause(milliseconds: Int) async -> Bool {
        guard milliseconds > 0 else { return true }
        let sleeper = Task {
            try await Task.sleep(for: .milliseconds(milliseconds))
        }
        self.channel.closeFuture.whenComplete { _ in
            sleeper.cancel()
        }
        let result = await withTaskCancellationOrGracefulShutdownHandler {
            await sleeper.result
        } onCancelOrGracefulShutdown: {
            sleeper.cancel()
        }
        return (try? result.get()) != nil
    }
}
