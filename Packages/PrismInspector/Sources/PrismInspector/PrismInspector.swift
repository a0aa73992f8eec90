import PrismInspectorModel
@_spi(PrismInternals) import PrismStore
import PrismSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A web page that shows a running store and steers it: every action with its time and how
/// long its reduce took, the state after any of them, what each changed, the effects still
/// running; it jumps back to any recorded state, pauses recording, exports and loads session
/// recordings, and sends actions typed as JSON.
///
/// Attach it to the root store in one line and open the URL it prints:
///
/// ```swift
/// let inspector = try await PrismInspector.start(store)
/// // PrismInspector: http://127.0.0.1:52817/3f9c…/
/// ```
///
/// The server listens on 127.0.0.1 only, at a port the system picks, and answers only requests
/// whose path starts with the secret token in the printed URL; its WebSocket also checks that
/// it is talking to the inspector's own page. Values marked with `@PrismSecret` (or of a
/// `PrismSecretValue` type) are shown redacted.
///
/// While no page is open, the inspector costs a send a few nanoseconds: the store writes the
/// action and the state after it into a bounded log, and nothing is encoded until a page asks.
/// With a page open, reduces are timed and actions stream to the page in batches.
///
/// Keep the inspector while you use it and call ``stop()`` when done.
@MainActor
public final class PrismInspector<State: Sendable, Action: Sendable> {
    /// The address of the page, with its secret token: open it in a browser.
    public let url: URL
    /// How this inspector was set up.
    public let configuration: Configuration

    weak var store: PrismStore<State, Action>?
    let history: PrismTimeTravelDebugger<State>
    /// The tools' view of ``history``: what the store recorded of each action.
    var recorded: PrismStoreTools<State, Action>.History { PrismStoreTools.History(history) }
    let capabilities: InspectorCapabilities<State, Action>
    let server: InspectorServer
    /// This store's id among those the server shows (``StoreDirectory``).
    nonisolated let storeID: Int
    var pages: [Int: InspectorPage] = [:]
    var effects: [RunningEffect] = []
    var lastEffectsSent: [Int] = []
    var pumpTask: Task<Void, Never>?
    var pageTask: Task<Void, Never>?
    var storesTask: Task<Void, Never>?
    /// Set while the inspector itself replaces the store's state (a jump, a load), so that the
    /// replacement is not recorded as one made by the app.
    var isTraveling = false
    var isStopped = false
    /// Whether this inspector turned the shared values' journal on (see `attach(to:)`); read
    /// by `deinit` too.
    private nonisolated let journalsShared = PrismLocked(false)
    /// The actions the page skipped (see PrismInspector+Steering.swift), by snapshot number.
    var skipped: Set<Int> = []
    /// The lock state last sent to the pages.
    var lastLockSent: LockMessage?

    init(
        store: PrismStore<State, Action>,
        configuration: Configuration,
        capabilities: InspectorCapabilities<State, Action>,
        server: InspectorServer,
        storeID: Int,
        url: URL,
        endStreams: @escaping @Sendable () -> Void
    ) {
        self.endStreams = endStreams
        self.store = store
        self.configuration = configuration
        self.capabilities = capabilities
        self.server = server
        self.storeID = storeID
        self.url = url
        self.history = PrismTimeTravelDebugger(maxSnapshots: configuration.historyLimit)
        self.detachFromStore = { [weak store] owner in
            Task { @MainActor in store?.tools.detach(owner: owner) }
        }
    }

    /// What identifies this inspector's attachment to the store: its history, which is its own.
    var owner: ObjectIdentifier { ObjectIdentifier(history) }

    /// Detaches from the store on the main actor, from `deinit` (which cannot read `store`).
    private nonisolated let detachFromStore: @Sendable (ObjectIdentifier) -> Void
    /// Finishes the streams `pageTask` and `storesTask` wait on, from `deinit` (which cannot
    /// cancel them): a stream whose continuations are released unfinished keeps its reader
    /// waiting, and everything the reader holds, for ever.
    private nonisolated let endStreams: @Sendable () -> Void

    deinit {
        // `stop()` is the way to end an inspector; an inspector dropped without it stops
        // serving pages here (the channel closes on its own event loop), and detaches from the
        // store on the main actor, so that the store stops recording.
        if server.directory.unregister(storeID) == 0 { server.closeNow() }
        detachFromStore(ObjectIdentifier(history))
        if journalsShared.withLock({ $0 }) { Task { @MainActor in PrismSharedTools.Journal.end() } }
        endStreams()
    }

    /// The history the inspector records: a snapshot of the state after every action (and a
    /// note where the recording starts again from a state no action explains), which time
    /// travel moves through.
    ///
    /// Read it here rather than keeping it: reading moves what the store logged since the last
    /// read into it.
    public var debugger: PrismTimeTravelDebugger<State> {
        store?.tools.moveRecording()
        return history
    }

    /// Whether actions are recorded. While not, the store reduces as usual and the inspector
    /// counts what it missed; resuming records a note with that count.
    public var isRecording: Bool {
        get { store?.tools.isRecording ?? false }
        set { setRecording(newValue) }
    }

    /// A Swift Testing test that replays the recorded actions numbered `first` through `last`
    /// (`PrismTimeTravelDebugger.Snapshot.index`) with `PrismTestStore`, exhaustively: each
    /// action sent, or received when an effect sent it, with the whole state the app reached
    /// after it. What the page's Write test button gives.
    ///
    /// The test makes the reducer with ``Configuration-swift.struct/testReducer``, or the
    /// store's reducer type with no arguments; the dependencies its effects read are for the
    /// test to set, where the code says. States and actions are written as their JSON: with
    /// types that are not `Codable`, or a value that does not encode, the test says so and
    /// fails rather than not compile.
    ///
    /// - Throws: ``PrismInspectorError`` with the code
    ///   ``PrismInspectorError/Code-swift.struct/cannotWriteTest`` when the actions are no
    ///   longer kept, the state before the first is not, a note is among them, or all are
    ///   skipped.
    public func testSource(from first: Int, through last: Int) throws -> String {
        switch testInput(from: first, through: last) {
        case .success(let input): return input.generator().source()
        case .failure(let failure): throw PrismInspectorError(code: .cannotWriteTest, message: failure.reason)
        }
    }

    /// How many pages are connected.
    public var connectedPages: Int { pages.count }

    /// What another inspector joins to be shown on this one's page (see
    /// `start(_:configuration:joining:)`): the server, its URL and its token.
    public var host: PrismInspectorHost { PrismInspectorHost(server: server, url: url) }

    /// Stops serving this store, closes its pages, and detaches from the store (whose sends then
    /// cost nothing again). The server stops with the last inspector that shares it.
    public func stop() async {
        guard !isStopped else { return }
        isStopped = true
        store?.tools.measuresReduceDuration = false
        store?.tools.moveRecording()
        store?.tools.detach(owner: owner)
        if journalsShared.withLock({ $0 }) {
            journalsShared.withLock { $0 = false }
            PrismSharedTools.Journal.end()
        }
        for page in pages.values { page.connection.close() }
        pages.removeAll()
        pumpTask?.cancel()
        pageTask?.cancel()
        storesTask?.cancel()
        if server.directory.unregister(storeID) == 0 { await server.stop() }
    }

    // MARK: Starting

    /// Starts the server (or joins `host`'s) and attaches to `store`; the public `start`
    /// overloads choose the capabilities by what the state and action types conform to.
    static func start(
        _ store: PrismStore<State, Action>,
        configuration: Configuration,
        capabilities: InspectorCapabilities<State, Action>,
        joining host: PrismInspectorHost?
    ) async throws -> PrismInspector {
        precondition(store.tools.isRoot, "Attach PrismInspector to the root store, not a scoped store.")
        precondition(configuration.historyLimit >= 1, "PrismInspector needs a history of at least one snapshot.")
        guard store.tools.attachedOwner == nil else { throw alreadyInspected }
        let server: InspectorServer
        let url: URL
        if let host {
            server = host.server
            url = host.url
            guard !server.directory.stores.isEmpty else {
                throw PrismInspectorError(
                    code: .cannotListen,
                    message:
                        "The inspector to join has stopped (its server stopped with its last store): start a new one."
                )
            }
        } else {
            (server, url) = try await startServer(configuration)
        }
        let (pagesStream, pagesContinuation) = AsyncStream.makeStream(of: PageConnection.self)
        let (storesStream, storesContinuation) = AsyncStream.makeStream(
            of: [StoreInfo].self, bufferingPolicy: .bufferingNewest(1))
        let storeID = server.directory.register(
            title: configuration.title ?? ValueNode.displayName(of: State.self),
            onPage: { pagesContinuation.yield($0) },
            onChange: { storesContinuation.yield($0) }
        )
        let inspector = PrismInspector(
            store: store, configuration: configuration, capabilities: capabilities, server: server,
            storeID: storeID, url: url,
            endStreams: {
                pagesContinuation.finish()
                storesContinuation.finish()
            })
        guard inspector.attach(to: store) else {
            // Another inspector attached while this one's server was starting.
            await inspector.stop()
            throw alreadyInspected
        }
        inspector.pageTask = Task { [weak inspector] in
            for await page in pagesStream {
                guard let inspector else {
                    page.close()
                    continue
                }
                inspector.connect(page)
            }
        }
        inspector.storesTask = Task { [weak inspector] in
            for await stores in storesStream {
                inspector?.broadcast { StoresMessage(stores: stores).jsonText }
            }
        }
        if configuration.printsURL {
            let joined =
                host == nil ? "" : " (\(inspector.configuration.title ?? ValueNode.displayName(of: State.self)) joined)"
            StandardError.write("PrismInspector: \(url.absoluteString)\(joined)\n")
        }
        return inspector
    }

    /// Starts a server for `configuration`: its URL carries a new token.
    private static func startServer(_ configuration: Configuration) async throws -> (InspectorServer, URL) {
        let token = InspectorToken.make()
        let server: InspectorServer
        do {
            server = try await InspectorServer.start(
                port: configuration.port,
                routes: InspectorRoutes(token: token),
                limits: InspectorServer.Limits(
                    maxMessageBytes: configuration.maxMessageBytes,
                    maxConnections: configuration.maxConnections,
                    idleTimeout: configuration.idleTimeout,
                    maxQueuedMessages: configuration.maxQueuedMessages
                )
            )
        } catch let error as PrismInspectorError {
            throw error
        } catch {
            throw PrismInspectorError(
                code: .cannotListen, message: "PrismInspector could not listen on 127.0.0.1:\(configuration.port).",
                underlying: error)
        }
        guard let url = URL(string: "http://127.0.0.1:\(server.port)/\(token)/") else {
            preconditionFailure("A URL made of an address, a port and hexadecimal digits is valid.")
        }
        return (server, url)
    }

    /// The error of a second inspector on a store.
    private static var alreadyInspected: PrismInspectorError {
        PrismInspectorError(
            code: .storeAlreadyInspected,
            message: """
                Another PrismInspector is attached to this store. Stop it (await inspector.stop()) before \
                starting another: two would share one recording, and stopping one would detach the other.
                """
        )
    }

    /// Attaches to `store`, unless another inspector is attached.
    private func attach(to store: PrismStore<State, Action>) -> Bool {
        guard store.tools.attachedOwner == nil else { return false }
        // The history holds shared values by reference: the journal keeps what they were at
        // each snapshot, for the tests and exports written from it.
        PrismSharedTools.Journal.begin()
        journalsShared.withLock { $0 = true }
        recorded.record(
            state: store.tools.currentState,
            payload: InspectorMarker.attached,
            secondsSinceReferenceDate: Date.now.timeIntervalSinceReferenceDate,
            reduceNanoseconds: -1
        )
        return store.tools.attach(
            owner: owner,
            recordingInto: history,
            listener: { [weak self] event in
                switch event {
                case .stateReplaced(let state, _): self?.stateReplaced(state)
                case .effectsStarted(let task): self?.effectsStarted(task)
                }
            }
        )
    }
}

/// What another inspector joins to be shown on the same page: an inspector's server, its URL
/// and its token (``PrismInspector/host``). Pass it to `start(_:configuration:joining:)`.
public final class PrismInspectorHost: Sendable {
    /// The page's URL, which every inspector of the host shares.
    public let url: URL
    let server: InspectorServer

    init(server: InspectorServer, url: URL) {
        self.server = server
        self.url = url
    }
}
