import PrismSupport

#if !canImport(Darwin)
import Synchronization
#endif

/// What a root store's reduce marks for the code it runs, checked by every send:
/// `everyReduce || marker.linkWanted` takes the marked reduce (`RootCore.reduceMarked`).
@usableFromInline
struct ReduceMarks {
    /// Whether the store marks each reduce as a reducer running, for shared values: set when
    /// the first shared value was made before this store (its state holds them); a store made
    /// earlier reads them at full price.
    @usableFromInline
    let shared = SharedReads.areInUse
    /// `shared`, or the store has not reduced an action yet (its first publishes its link to
    /// the reducers that ask for it, `PrismStoreContext`).
    @usableFromInline
    var everyReduce = true
    /// `ReduceMarker.shared`, which lives as long as the process: not retained per use.
    @usableFromInline
    unowned(unsafe) let marker = ReduceMarker.shared

    @usableFromInline
    init() {}
}

/// Whether a store's link is published now (`ReduceMarker.shared.link != nil`), kept in step by
/// `link`: what each `PrismScope` checks for every action it runs. A global with a constant
/// initial value needs no lazy initialization, where reading `ReduceMarker.shared` costs a
/// `swift_once` each time. Main actor only.
@usableFromInline
@exclusivity(unchecked)
nonisolated(unsafe) var reduceLinkIsPublished = false

/// Marks the thread that runs a reducer, so that a shared value read in it skips Observation
/// (a reducer's reads are no view's). Root stores made once shared values exist mark each
/// reduce (`RootCore.marks`); one object, kept in a field by each store and each shared
/// value, so that neither pays for a lazy global on every use.
///
/// It also holds the link of the store that is reducing, while one is asked for
/// (`PrismStoreContext`): `linkWanted` is the one flag a send checks for it.
@usableFromInline
final class ReduceMarker: @unchecked Sendable {  // `reducing` is the main thread's (Darwin)
    @usableFromInline
    static let shared = ReduceMarker()

    /// Whether the next reduce of any root store publishes its link: set when a reducer asks for
    /// its store and finds none; cleared after a reduce that published. (A store's first reduce
    /// publishes it anyway.) Main actor only.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var linkWanted = false
    /// The `StoreLink` of the store reducing now, as the reducer running now sees it, while
    /// one is published. Main actor only.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var link: AnyObject? {
        didSet { reduceLinkIsPublished = link != nil }
    }

    #if canImport(Darwin)
    /// How many reducers are running, on the main thread.
    @usableFromInline
    @exclusivity(unchecked)
    var reducing = 0

    @inlinable
    func begin() -> Int {
        reducing += 1
        return 0
    }

    @inlinable
    func end(_: Int) {
        reducing -= 1
    }

    @inlinable
    func isReducingHere() -> Bool {
        pthread_main_np() != 0 && reducing > 0
    }
    #else
    /// The `pthread_t` of the thread running a reducer (the main actor's), or 0.
    @usableFromInline
    let thread = Atomic<UInt>(0)

    @inlinable
    func begin() -> UInt {
        let outer = thread.load(ordering: .relaxed)
        thread.store(UInt(pthread_self()), ordering: .relaxed)
        return outer
    }

    @inlinable
    func end(_ outer: UInt) {
        thread.store(outer, ordering: .relaxed)
    }

    @inlinable
    func isReducingHere() -> Bool {
        thread.load(ordering: .relaxed) == UInt(pthread_self())
    }
    #endif
}
