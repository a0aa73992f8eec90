@_spi(PrismInternals) import PrismStore

// Steering: skipping an action to see the app without it, and locking the app while inspecting.
//
// Skipping recomputes states, it does not re-run the app: from the state before the toggled
// action, every recorded action up to the next note (attached, state replaced, resumed,
// loaded: a state no action explains) is replayed with the store's bare reducer
// (`PrismReducer.replay`: no middleware, no effect), the skipped ones left out. The snapshots
// take the recomputed states, and if the store is at one of them (the newest, or where a jump
// put it) it takes that state, unheard by its middleware. Turning the action on again
// recomputes the same way. The rule, case by case:
//
// | Toggled snapshot                  | What happens                                           |
// | --------------------------------- | ------------------------------------------------------ |
// | a note, not an action             | refused: a note has no action to leave out             |
// | the oldest kept (state before it  | refused: nothing to recompute from                     |
// |   evicted)                        |                                                        |
// | an action                         | states from it to the next note recomputed             |
// | an action after the store's       | the store keeps its state (it is not at a recomputed   |
// |   current snapshot's note         |   snapshot)                                            |
//
// A reducer that reads a date or a UUID from its dependencies may compute other values than
// the app did: the recomputed states are the reducer's, not the app's.
//
// Locking holds every action the app and its effects send (see `PrismStore.tools.lock()`) until the
// page unlocks, releasing them in order or dropping them; the page's own sends pass. The last
// page to close releases what is held: a closed page must not leave the app frozen.
extension PrismInspector {
    // MARK: Skipping

    func setSkipped(_ index: Int, _ skip: Bool, for page: PageConnection) {
        guard let store else { return }
        store.tools.moveRecording()
        let all = recorded.snapshots(from: .min)
        guard let offset = all.firstIndex(where: { $0.index == index }) else {
            page.send { NoticeMessage.error("Snapshot #\(index) is no longer kept.").jsonText }
            return
        }
        guard recorded.action(of: all[offset]) != nil else {
            page.send { NoticeMessage.error("#\(index) is a note, not an action: there is nothing to skip.").jsonText }
            return
        }
        guard offset > 0 else {
            page.send {
                NoticeMessage.error(
                    "The state before #\(index) is no longer kept: the states after it cannot be recomputed."
                ).jsonText
            }
            return
        }
        guard skip != skipped.contains(index) else { return }
        if skip { skipped.insert(index) } else { skipped.remove(index) }
        recompute(from: offset, in: all)
        broadcastSkipped()
        flush()
    }

    /// Recomputes the states from `all[offset]` to the next note with the bare reducer,
    /// leaving out the skipped actions, and puts the store in the recomputed state if it is at
    /// one of those snapshots.
    private func recompute(from offset: Int, in all: [PrismTimeTravelDebugger<State>.Snapshot]) {
        guard let store else { return }
        let replay = store.tools.replay
        let current = recorded.currentIndex
        var state = all[offset - 1].state
        var stateAtCurrent: State?
        for snapshot in all[offset...] {
            guard let action = recorded.action(of: snapshot) else { break }
            if !skipped.contains(snapshot.index) { replay(&state, action) }
            recorded.replaceState(ofSnapshot: snapshot.index, with: state)
            if snapshot.index == current { stateAtCurrent = state }
        }
        if let stateAtCurrent {
            isTraveling = true
            // Not heard by the middleware: a persisting one must not save a state the app did
            // not reach by itself.
            store.tools.replaceStateUnheard(with: stateAtCurrent)
            isTraveling = false
        }
    }

    /// Forgets skipped actions that are no longer kept (evicted, or dropped by an action
    /// recorded after a jump back).
    func pruneSkipped(_ all: [PrismTimeTravelDebugger<State>.Snapshot]) {
        guard !skipped.isEmpty else { return }
        let kept = Set(all.lazy.map(\.index))
        let before = skipped.count
        skipped.formIntersection(kept)
        if skipped.count != before { broadcastSkipped() }
    }

    func broadcastSkipped() {
        let indices = skipped.sorted()
        broadcast { SkippedMessage(indices: indices).jsonText }
    }

    // MARK: Locking

    func setLocked(_ on: Bool, dropping: Bool) {
        guard let store, !isStopped else { return }
        if on {
            guard !store.tools.isLocked else { return }
            store.tools.lock()
            broadcast { NoticeMessage.notice("Locked: the app's actions are held until you unlock.").jsonText }
        } else {
            guard store.tools.isLocked else { return }
            let count = store.tools.unlock(releasing: !dropping)
            let what = count == 1 ? "1 held action" : "\(count) held actions"
            broadcast {
                NoticeMessage.notice(dropping ? "Unlocked; dropped \(what)." : "Unlocked; released \(what) in order.")
                    .jsonText
            }
        }
        flush()
    }

    /// Tells the pages whether the store is locked and how many actions it holds, when that
    /// changed since the last time; and if the store unlocked itself, why.
    func sendLockState() {
        guard let store else { return }
        if store.tools.takeUnlockedByOverflow() {
            broadcast {
                NoticeMessage.error("Unlocked by itself: 100,000 actions were held; they were released in order.")
                    .jsonText
            }
        }
        let state = LockMessage(locked: store.tools.isLocked, held: store.tools.heldActions)
        guard state != lastLockSent else { return }
        lastLockSent = state
        broadcast { state.jsonText }
    }

    /// The last page closed: a locked store releases what it holds.
    func releaseLockForClosedPages() {
        guard let store, store.tools.isLocked else { return }
        store.tools.unlock(releasing: true)
        lastLockSent = nil
    }
}
