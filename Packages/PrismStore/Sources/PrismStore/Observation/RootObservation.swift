/// The part of a root store that serves whoever looks at it: the registrar of the readers of the
/// whole state, the watchers of parts of it (scoped and derived stores, member reads), and the
/// member watchers by key path.
///
/// The root checks it behind one flag (`RootCore.needsObservation`): while nobody looks, a send
/// touches nothing here. Not generic, so that the loop over the watchers compiles to concrete
/// code where the store's own types are not known; the root passes itself to each watcher.
@MainActor
@usableFromInline
final class RootObservation: StateRegistrar, @unchecked Sendable {  // isolated to the main actor
    /// Whether somebody read the root's state since the last change it was told about.
    @usableFromInline
    @exclusivity(unchecked)
    var isObserved = false
    /// Whether a scoped or derived store, or a member read, is watching (see `Watcher`).
    @usableFromInline
    @exclusivity(unchecked)
    var hasWatchers = false
    /// The registered watchers, held strongly; each one's owner holds it too, so one that
    /// only this list references has no owner left and is dropped (see `checkWatchers`).
    @exclusivity(unchecked) private(set) var watchers: [Watcher] = []
    @exclusivity(unchecked) private var watchersAtLastSweep = 0
    /// Scratch for `checkWatchers`: kept to spare an allocation per send.
    @exclusivity(unchecked) private var changedWatchers: [Watcher] = []

    /// The watchers of members read through `store.member`, by key path (see `MemberWatcher`).
    @usableFromInline
    @exclusivity(unchecked)
    var memberWatchers: [AnyKeyPath: Watcher] = [:]
    /// The key path of the last member read and its watcher: a view re-reads the member it
    /// read after each change, found by identity without hashing the key path.
    @usableFromInline
    @exclusivity(unchecked)
    var lastMemberKeyPath: AnyKeyPath?
    @usableFromInline
    @exclusivity(unchecked)
    var lastMemberWatcher: Watcher?

    @usableFromInline
    override init() {}

    /// Whether anybody looks: a reader of the whole state, or a watcher.
    @inlinable
    var isLookedAt: Bool { isObserved || hasWatchers }

    /// Records a read of the whole state: the next change tells the registrar's observers.
    /// Returns whether this read started the observation (the root then checks it on sends).
    @inlinable
    func noteStateRead() -> Bool {
        accessState()
        if isObserved { return false }
        isObserved = true
        return true
    }

    /// Tells every watcher whose part of `root`'s state changed, once (it stays listed,
    /// unregistered, until it is read again); drops the watchers nobody read since they were
    /// told and those whose owner is gone. Rewrites `watchers` only when one of them leaves.
    @usableFromInline
    func checkWatchers(root: AnyObject) {
        if watchers.count == 1 {
            checkOnlyWatcher(root: root)
            return
        }
        // The list of the changed, reused from send to send (taken out, so that a check run by
        // an observer while this one notifies gets a list of its own).
        var changed = changedWatchers
        changedWatchers = []
        defer {
            changed.removeAll(keepingCapacity: true)
            changedWatchers = changed
        }
        var leaving = false
        var index = 0
        // By index: a projection is user code, and must not see the list borrowed.
        while index < watchers.count {
            if !watchers[index].isRegistered || isKnownUniquelyReferenced(&watchers[index]) {
                watchers[index].isRegistered = false
                watchers[index].isListed = false
                leaving = true
            } else {
                let watcher = watchers[index]
                if watcher.hasChanged(watcher, root) {
                    watcher.isRegistered = false
                    changed.append(watcher)
                }
            }
            index += 1
        }
        if leaving {
            watchers.removeAll { !$0.isListed }
            watchersAtLastSweep = watchers.count
            hasWatchers = !watchers.isEmpty
        }
        // Observers that read again while being told register anew, with the state as it is
        // now.
        for watcher in changed { watcher.willSetState() }
        for watcher in changed { watcher.didSetState() }
    }

    /// `checkWatchers` for the common case of one watcher (a view reading one member, or one
    /// scoped store), without the list of the changed.
    private func checkOnlyWatcher(root: AnyObject) {
        if !watchers[0].isRegistered || isKnownUniquelyReferenced(&watchers[0]) {
            let watcher = watchers.removeLast()
            watcher.isRegistered = false
            watcher.isListed = false
            watchersAtLastSweep = 0
            hasWatchers = false
            return
        }
        let watcher = watchers[0]
        guard watcher.hasChanged(watcher, root) else { return }
        watcher.isRegistered = false
        // An observer that reads again while told registers anew.
        watcher.willSetState()
        watcher.didSetState()
    }

    /// Lists `watcher`, registered (see `Watcher`).
    @usableFromInline
    func register(_ watcher: Watcher) {
        watcher.isListed = true
        watchers.append(watcher)
        hasWatchers = true
        if watchers.count > 64 && watchers.count > 2 * watchersAtLastSweep {
            // Many reads and no send: drop the watchers nobody owns or read any more.
            for index in watchers.indices
            where !watchers[index].isRegistered || isKnownUniquelyReferenced(&watchers[index]) {
                watchers[index].isRegistered = false
                watchers[index].isListed = false
            }
            watchers.removeAll { !$0.isListed }
            watchersAtLastSweep = watchers.count
        }
    }
}
