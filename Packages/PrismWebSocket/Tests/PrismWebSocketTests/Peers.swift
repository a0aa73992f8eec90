import Foundation
import PrismHTTP
import PrismTestSupport
import PrismWebSocket
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The Python process of peers.py: a `websockets` server, and raw hostile peers beside it.
final class Peers: Sendable {
    let webSocketPort: Int
    let rawPort: Int
    private let process: ChildProcess
    private let input: Pipe

    private init(process: ChildProcess, input: Pipe, webSocketPort: Int, rawPort: Int) {
        self.process = process
        self.input = input
        self.webSocketPort = webSocketPort
        self.rawPort = rawPort
    }

    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The Python of the tests' virtual environment (Tools/scripts/install-python-deps.sh).
    static let python = root.appendingPathComponent(".build-python/venv/bin/python")

    /// Starts peers.py, runs `body`, stops it.
    static func withRunning<T>(_ body: (Peers) async throws -> T) async throws -> T {
        try #require(
            FileManager.default.isExecutableFile(atPath: python.path),
            "No Python with websockets at \(python.path): run Tools/scripts/install-python-deps.sh (make deps).")
        let process = ChildProcess()
        process.executableURL = python
        process.arguments = [
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("peers.py").path
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = try await offTheCooperativePool { () -> String in
            var bytes = Data()
            while true {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty || byte == Data("\n".utf8) { break }
                bytes += byte
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let ports = line.split(separator: " ").compactMap { Int($0) }
        try #require(ports.count == 2, "peers.py printed \"\(line)\"")
        let peers = Peers(process: process, input: input, webSocketPort: ports[0], rawPort: ports[1])
        do {
            let result = try await body(peers)
            await peers.stop()
            return result
        } catch {
            await peers.stop()
            throw error
        }
    }

    /// Freezes the peers' process (SIGSTOP): its connections stay up in the kernel, and nothing
    /// answers on them, as with a peer that vanished without closing (a half-open connection).
    func freeze() {
        kill(process.processIdentifier, SIGSTOP)
    }

    /// Lets the frozen process run again (SIGCONT).
    func thaw() {
        kill(process.processIdentifier, SIGCONT)
    }

    private func stop() async {
        thaw()
        try? input.fileHandleForWriting.close()
        _ = try? await offTheCooperativePool { [process] in process.waitUntilExit() }
    }

    /// A URL of the `websockets` server.
    func url(_ path: String) -> URL { URL(string: "ws://127.0.0.1:\(webSocketPort)\(path)")! }

    /// A URL of a raw peer.
    func raw(_ path: String) -> URL { URL(string: "ws://127.0.0.1:\(rawPort)\(path)")! }
}

/// Tries again at once, `maxAttempts` attempts in all, whatever the failure.
struct Immediately: PrismRetryPolicy {
    let maxAttempts: Int
    func delay(afterAttempt attempt: Int, failure: PrismRetryFailure) -> Duration? {
        attempt < maxAttempts ? .zero : nil
    }
}

/// Every event of `socket` until it ends, and the error it ended with.
func allEvents(of socket: PrismWebSocket) async -> ([PrismWebSocketEvent], PrismWebSocketError?) {
    var events: [PrismWebSocketEvent] = []
    do {
        for try await event in socket.events { events.append(event) }
        return (events, nil)
    } catch {
        return (events, error as? PrismWebSocketError)
    }
}

extension PrismWebSocketEvent {
    var text: String? {
        if case .message(.text(let text)) = self { text } else { nil }
    }

    var binary: Data? {
        if case .message(.binary(let data)) = self { data } else { nil }
    }

    var handshake: PrismWebSocketHandshake? {
        if case .connected(let handshake) = self { handshake } else { nil }
    }

    var disconnection: PrismWebSocketError? {
        if case .disconnected(let error, _) = self { error } else { nil }
    }

    var closed: (code: PrismWebSocketCloseCode?, reason: String)? {
        if case .closed(let code, let reason) = self { (code, reason) } else { nil }
    }
}

extension PrismWebSocketConfiguration {
    /// The defaults, ``patient``.
    static var patient: PrismWebSocketConfiguration { PrismWebSocketConfiguration().patient }

    /// These settings with no wait on the wall clock that a busy machine can run out: five
    /// minutes to open and to close, and no keep-alive pings. The peers answer at once, but beside
    /// every other suite on two busy cores the default ten seconds to open have passed before the
    /// test ran again, and a pong read late counted as a lost connection. The timeouts and the
    /// keep-alive themselves are tested on a clock the test controls.
    var patient: PrismWebSocketConfiguration {
        var configuration = self
        configuration.openTimeout = .seconds(300)
        configuration.closeTimeout = .seconds(300)
        configuration.pingInterval = nil
        return configuration
    }
}

/// A client with no cache (a WebSocket is never cached; the client is only its pipeline).
func client(
    interceptors: [any PrismRequestInterceptor] = [], authenticator: (any PrismAuthenticator)? = nil
) -> PrismNetworkAdapter {
    PrismNetworkAdapter(cache: nil, interceptors: interceptors, authenticator: authenticator)
}

/// Reads a socket's events in a task of its own, for a test that drives a clock meanwhile.
final class EventLog: Sendable {
    private let state = LockedBox<(events: [PrismWebSocketEvent], failure: PrismWebSocketError?, ended: Bool)>(
        ([], nil, false))
    private let task: Task<Void, Never>

    init(reading socket: PrismWebSocket) {
        let state = self.state
        task = Task {
            do {
                for try await event in socket.events { state.mutate { $0.events.append(event) } }
            } catch {
                state.mutate { $0.failure = error as? PrismWebSocketError }
            }
            state.mutate { $0.ended = true }
        }
    }

    /// The events so far.
    var events: [PrismWebSocketEvent] { state.wrappedValue.events }
    /// The error the events ended with, if they ended with one.
    var failure: PrismWebSocketError? { state.wrappedValue.failure }
    /// Whether the events ended (normally or not).
    var ended: Bool { state.wrappedValue.ended }

    /// Waits for the reading to end.
    func end() async { await task.value }
}
