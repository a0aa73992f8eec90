import PrismInspectorModel
@_spi(PrismInternals) import PrismStore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// History: time travel, pausing, notes where the recording starts over, export and load.
extension PrismInspector {
    /// Puts the store back in the state recorded as snapshot `index` and makes it the
    /// debugger's current snapshot: the next action the app sends drops the snapshots ahead.
    func jump(to index: Int, for page: PageConnection?) {
        guard let store else { return }
        store.tools.moveRecording()
        guard let snapshot = history.goTo(index: index) else {
            page?.send { NoticeMessage.error("Snapshot #\(index) is no longer kept.").jsonText }
            return
        }
        isTraveling = true
        // Not heard by the store's middleware: a persisting one must not save a past state as
        // the app's (the app's next action is saved as usual).
        store.tools.replaceStateUnheard(with: snapshot.state)
        isTraveling = false
        broadcast { JumpedMessage(index: index).jsonText }
        flush()
    }

    func setRecording(_ on: Bool) {
        guard let store, on != store.tools.isRecording else { return }
        store.tools.moveRecording()
        if on {
            store.tools.isRecording = true
            let missed = store.tools.takeActionsNotRecorded()
            recorded.record(
                state: store.tools.currentState,
                payload: InspectorMarker.resumed(skipping: missed),
                secondsSinceReferenceDate: Date.now.timeIntervalSinceReferenceDate,
                reduceNanoseconds: -1
            )
        } else {
            store.tools.isRecording = false
        }
        flush()
    }

    /// The store's state was replaced without an action (by the app: undo, a restored file):
    /// what follows starts from a state no recorded action explains.
    func stateReplaced(_ state: State) {
        guard !isTraveling, let store, store.tools.isRecording else { return }
        store.tools.moveRecording()
        recorded.record(
            state: state,
            payload: InspectorMarker.replaced,
            secondsSinceReferenceDate: Date.now.timeIntervalSinceReferenceDate,
            reduceNanoseconds: -1
        )
    }

    /// A send left effects running: remember which action started them until they finish.
    func effectsStarted(_ task: PrismEffectTask) {
        guard let store, store.tools.isRecording, !effects.contains(where: { $0.task == task }) else { return }
        // The action that started them is the newest recorded, moved into the history or not.
        let index = recorded.nextIndex + store.tools.recordingsNotMoved - 1
        effects.append(RunningEffect(task: task, index: index, since: Date.now.timeIntervalSince1970))
        if effects.count > 64 {
            effects.removeAll { $0.task.isFinished }
            if effects.count > 1_000 { effects.removeFirst(effects.count - 1_000) }
        }
    }

    // MARK: Export and load

    /// Sends the page the session as a `PrismSessionRecording`: the actions since the last
    /// note (attached, state replaced, resumed, loaded), from the state at that note, so that
    /// replaying it gives the same states (skipped actions left out).
    func export(for page: PageConnection) {
        guard let encode = capabilities.encodeRecording else {
            page.send { NoticeMessage.error("The store's state and action types are not Codable.").jsonText }
            return
        }
        store?.tools.moveRecording()
        let all = recorded.snapshots(from: .min)
        guard !all.isEmpty else { return }
        let start = all.lastIndex { recorded.payload(of: $0) is InspectorMarker } ?? 0
        let initial = all[start]
        var entries: [(offset: Double, action: Action)] = []
        for snapshot in all[(start + 1)...] {
            // A skipped action is left out: replaying the file gives the states shown.
            guard let action = recorded.action(of: snapshot), !skipped.contains(snapshot.index) else {
                continue
            }
            entries.append((snapshot.timestamp.timeIntervalSince(initial.timestamp), action))
        }
        let parts = PrismSessionRecordingParts(
            fileName: nil, initialState: initial.state, entries: entries,
            sharedValues: recorded.sharedValues(ofSnapshot: initial.index))
        let stamp = Int(Date.now.timeIntervalSince1970)
        page.send {
            do {
                let data = try encode(parts)
                // The file holds the initial state and every action: a secret in any of them.
                let secrets =
                    ValueNode.containsSecret(parts.initialState)
                    || parts.entries.contains { ValueNode.containsSecret($0.action) }
                let head =
                    #"{"type":"export","fileName":"prism-session-\#(stamp).json","actions":\#(parts.entries.count),"#
                    + #""containsSecrets":\#(secrets),"data":"#
                return head + String(decoding: data, as: UTF8.self) + "}"
            } catch {
                return NoticeMessage.error("The session could not be encoded: \(error)").jsonText
            }
        }
    }

    /// Reads a session recording a page sent, off the main actor, then replaces the history
    /// with it: the states come from the store's reducer (effects are not run), and the store
    /// is put in the last one.
    func load(_ data: Data, for page: PageConnection) {
        guard let decode = capabilities.decodeRecording else {
            page.send { NoticeMessage.error("The store's state and action types are not Codable.").jsonText }
            return
        }
        Task.detached { [weak self] in
            let result = Result { try decode(data) }
            await self?.apply(result, for: page)
        }
    }

    private func apply(_ result: Result<PrismSessionRecordingParts<State, Action>, any Error>, for page: PageConnection)
    {
        let parts: PrismSessionRecordingParts<State, Action>
        switch result {
        case .success(let loaded): parts = loaded
        case .failure(let error):
            let reason = "\(error)"
            page.send { NoticeMessage.error("That file is not a session recording of this store: \(reason)").jsonText }
            return
        }
        guard let store else { return }
        store.tools.moveRecording()
        // The reducer alone: the recording's actions must not reach the store's middleware (a
        // persisting one would save the recording's states over the user's, an analytics one
        // would report them).
        let replay = store.tools.replay
        var state = parts.initialState
        let start = Date.now.timeIntervalSinceReferenceDate - (parts.entries.last?.offset ?? 0)
        history.clear()
        skipped = []
        broadcastSkipped()
        recorded.record(
            state: state,
            payload: InspectorMarker.loaded(parts.entries.count, from: parts.fileName),
            secondsSinceReferenceDate: start,
            reduceNanoseconds: -1
        )
        for entry in parts.entries {
            replay(&state, entry.action)
            recorded.record(
                action: entry.action, state: state, secondsSinceReferenceDate: start + entry.offset,
                reduceNanoseconds: -1)
        }
        isTraveling = true
        store.tools.replaceStateUnheard(with: state)
        isTraveling = false
        for id in pages.keys { pages[id]?.cursor = nil }
        let count = parts.entries.count
        broadcast { NoticeMessage.notice("Loaded \(count) actions; their effects were not run.").jsonText }
        flush()
    }
}
