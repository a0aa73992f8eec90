import PrismInspectorModel
@_spi(PrismInternals) import PrismStore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One open page, as the inspector sees it.
struct InspectorPage {
    let connection: PageConnection
    /// The newest snapshot number sent to the page; nil: send everything, and tell the page to
    /// forget what it had.
    var cursor: Int?
    var lastCurrent: Int?
    var lastRecording: Bool?
}

/// One action or note on its way to a page: taken on the main actor (cheap copies), described
/// on the page's connection (reflection, JSON).
struct EntryInput<Action: Sendable>: Sendable {
    let index: Int
    let parent: Int?
    let time: Double
    let duration: Int64?
    let action: Action?
    let note: String
    let skipped: Bool
    let byEffect: Bool

    func described() -> ActionsMessage.Entry {
        guard let action else {
            return .init(
                index: index, parent: parent, time: time, duration: duration, name: note, summary: note, marker: true,
                skipped: false, byEffect: false)
        }
        let node = ValueNode(of: action, budget: .summary)
        return .init(
            index: index, parent: parent, time: time, duration: duration, name: node.actionName,
            summary: node.oneLine(limit: 200), marker: false, skipped: skipped, byEffect: byEffect)
    }
}

// Pages: connecting, streaming batches, answering messages.
extension PrismInspector {
    func connect(_ page: PageConnection) {
        guard !isStopped else {
            page.close()
            return
        }
        pages[page.id] = InspectorPage(connection: page)
        store?.tools.measuresReduceDuration = true
        let hello = HelloMessage(
            title: configuration.title ?? ValueNode.displayName(of: State.self),
            stateType: ValueNode.displayName(of: State.self),
            actionType: ValueNode.displayName(of: Action.self),
            canSendActions: capabilities.decodeAction != nil,
            canExport: capabilities.encodeRecording != nil,
            canLoad: capabilities.decodeRecording != nil,
            historyLimit: configuration.historyLimit,
            recording: store?.tools.isRecording ?? false,
            locked: store?.tools.isLocked ?? false,
            held: store?.tools.heldActions ?? 0,
            stores: server.directory.stores,
            store: storeID
        )
        let helloText = hello.jsonText
        page.send { helloText }
        Task { [weak self] in
            for await text in page.messages {
                self?.handle(text, from: page.id)
            }
            self?.disconnect(page.id)
        }
        lastEffectsSent = []
        let skippedIndices = skipped.sorted()
        if !skippedIndices.isEmpty { page.send { SkippedMessage(indices: skippedIndices).jsonText } }
        flush()
        startPump()
    }

    func disconnect(_ id: Int) {
        pages[id] = nil
        if pages.isEmpty {
            releaseLockForClosedPages()
            store?.tools.measuresReduceDuration = false
            pumpTask?.cancel()
            pumpTask = nil
        }
    }

    private func startPump() {
        guard pumpTask == nil else { return }
        let clock = configuration.clock
        let interval = configuration.batchInterval
        pumpTask = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                guard let self else { return }
                self.flush()
            }
        }
    }

    func broadcast(_ make: @escaping @Sendable () -> String?) {
        for page in pages.values { page.connection.send(make) }
    }

    /// Sends every page what it has not seen: new actions (in one batch per page), where the
    /// store is, whether it records, and the effects still running. A page that has not read
    /// what it was sent yet is skipped this time; if the history evicts actions meanwhile, its
    /// next batch says how many it will never see.
    func flush() {
        guard let store, !pages.isEmpty else { return }
        store.tools.moveRecording()
        let all = recorded.snapshots(from: .min)
        let current = recorded.currentIndex
        let recording = store.tools.isRecording
        pruneSkipped(all)
        sendLockState()
        for (id, var page) in pages {
            guard page.connection.backlog < 3 else { continue }
            let start = firstOffset(in: all, after: page.cursor)
            let changed = start < all.count || current != page.lastCurrent || recording != page.lastRecording
            guard changed || page.cursor == nil else { continue }
            var missed = 0
            if let cursor = page.cursor, start == 0, let first = all.first, first.index > cursor + 1 {
                missed = first.index - cursor - 1
            }
            let dropped = missed
            let inputs = all[start...].indices.map { offset in
                entryInput(all[offset], parent: offset > 0 ? all[offset - 1].index : nil)
            }
            let reset = page.cursor == nil
            page.cursor = all.last?.index ?? page.cursor ?? -1
            page.lastCurrent = current
            page.lastRecording = recording
            pages[id] = page
            page.connection.send {
                ActionsMessage(
                    reset: reset, entries: inputs.map { $0.described() }, dropped: dropped, current: current,
                    recording: recording
                ).jsonText
            }
        }
        sendEffects(all)
    }

    private func sendEffects(_ all: [PrismTimeTravelDebugger<State>.Snapshot]) {
        effects.removeAll { $0.task.isFinished }
        let indices = effects.map(\.index)
        guard indices != lastEffectsSent else { return }
        lastEffectsSent = indices
        let running = effects.map { effect in
            let snapshot = all.first { $0.index == effect.index }
            return (effect, snapshot.flatMap { recorded.action(of: $0) })
        }
        broadcast {
            EffectsMessage(
                running: running.map { effect, action in
                    EffectsMessage.Effect(
                        index: effect.index,
                        name: action.map { ValueNode(of: $0, budget: .summary).actionName } ?? "#\(effect.index)",
                        since: effect.since * 1_000
                    )
                }
            ).jsonText
        }
    }

    func entryInput(_ snapshot: PrismTimeTravelDebugger<State>.Snapshot, parent: Int?) -> EntryInput<Action> {
        let action = recorded.action(of: snapshot)
        return EntryInput(
            index: snapshot.index,
            parent: parent,
            time: (snapshot.timestamp.timeIntervalSince1970 * 1_000).rounded(),
            duration: recorded.reduceNanoseconds(of: snapshot) >= 0 ? recorded.reduceNanoseconds(of: snapshot) : nil,
            action: action,
            note: action == nil ? snapshot.action : "",
            skipped: skipped.contains(snapshot.index),
            byEffect: recorded.isSentByEffect(snapshot)
        )
    }

    /// The position in `all` of the first snapshot numbered after `cursor`.
    private func firstOffset(in all: [PrismTimeTravelDebugger<State>.Snapshot], after cursor: Int?) -> Int {
        guard let cursor else { return 0 }
        var low = 0
        var high = all.count
        while low < high {
            let middle = (low + high) / 2
            if all[middle].index <= cursor { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: Messages from pages

    func handle(_ text: String, from id: Int) {
        guard let page = pages[id]?.connection else { return }
        let data = Data(text.utf8)
        guard let message = try? JSONDecoder().decode(IncomingMessage.self, from: data) else {
            page.send { NoticeMessage.error("The inspector did not understand a message of the page.").jsonText }
            return
        }
        switch message.type {
        case "select":
            guard let index = message.index else { return }
            select(index, for: page)
        case "jump":
            guard let index = message.index else { return }
            jump(to: index, for: page)
        case "record":
            setRecording(message.on ?? true)
        case "skip":
            guard let index = message.index else { return }
            setSkipped(index, message.on ?? true, for: page)
        case "test":
            guard let index = message.index else { return }
            writeTest(from: index, through: message.through ?? index, for: page)
        case "lock":
            setLocked(message.on ?? true, dropping: message.drop ?? false)
        case "export":
            export(for: page)
        case "load":
            load(data, for: page)
        case "send":
            sendAction(data, for: page)
        default:
            page.send { NoticeMessage.error("Unknown message \"\(message.type)\".").jsonText }
        }
    }

    private func select(_ index: Int, for page: PageConnection) {
        store?.tools.moveRecording()
        let all = recorded.snapshots(from: .min)
        guard let offset = all.firstIndex(where: { $0.index == index }) else {
            page.send { NoticeMessage.error("Snapshot #\(index) is no longer kept.").jsonText }
            return
        }
        let snapshot = all[offset]
        let previous = offset > 0 ? all[offset - 1] : nil
        let action = recorded.action(of: snapshot)
        let sentFrom = recorded.callSite(of: snapshot)?.description
        let encodeAction = capabilities.encodeAction
        // Shared values as they were at each snapshot (the states hold them by reference).
        let sharedValues = recorded.sharedValues(ofSnapshot: snapshot.index)
        let previousSharedValues = previous.map { recorded.sharedValues(ofSnapshot: $0.index) }
        page.send {
            let state = PrismSharedTools.Values.$inEffect.withValue(sharedValues) { ValueNode(of: snapshot.state) }
            let before = previous.map { previous in
                PrismSharedTools.Values.$inEffect.withValue(previousSharedValues) { ValueNode(of: previous.state) }
            }
            let actionNode = action.map { ValueNode(of: $0) }
            // An action with a secret in it (anywhere, not only in the part the tree draws) is
            // not offered as JSON: that would show the secret.
            let actionJSON = action.flatMap { action in
                ValueNode.containsSecret(action) ? nil : encodeAction?(action)
            }
            return StateMessage(
                index: index, state: state, action: actionNode, diff: before.map { $0.diff(to: state) } ?? [],
                hasPrevious: before != nil, actionJSON: actionJSON, sentFrom: sentFrom
            ).jsonText
        }
    }

    private func sendAction(_ data: Data, for page: PageConnection) {
        guard let decode = capabilities.decodeAction else {
            page.send {
                NoticeMessage.error("The store's action type is not Decodable: it cannot be sent as JSON.").jsonText
            }
            return
        }
        do {
            let action = try decode(data)
            // The page's own send passes a lock: it is how one steps a locked app.
            let wasLocked = store?.tools.isLocked ?? false
            store?.tools.sendPastLock(action)
            page.send { NoticeMessage.notice(wasLocked ? "Sent past the lock." : "Sent.").jsonText }
        } catch {
            let reason = "\(error)"
            page.send { NoticeMessage.error("That JSON is not an action: \(reason)").jsonText }
        }
    }
}
