import PrismSupport

/// The stores one server shows: each inspector that shares the server registers its store here,
/// and a page's WebSocket (`socket?store=<id>`) is handed to the inspector of the store it asks
/// for. Safe from any thread: the server hands pages over on its event loops.
final class StoreDirectory: Sendable {
    /// One registered store.
    struct Entry: Sendable {
        let id: Int
        let title: String
        /// Takes a page that asked for this store.
        let onPage: @Sendable (PageConnection) -> Void
        /// Hears the list of stores after it changed.
        let onChange: @Sendable ([StoreInfo]) -> Void
    }

    private let state = PrismLocked<(next: Int, entries: [Entry])>((1, []))

    /// Registers a store; returns its id (1 for the first). `onChange` hears the list whenever
    /// a store joins or leaves, this one's joining included.
    func register(
        title: String,
        onPage: @escaping @Sendable (PageConnection) -> Void,
        onChange: @escaping @Sendable ([StoreInfo]) -> Void
    ) -> Int {
        let id = state.withLock { state in
            let id = state.next
            state.next += 1
            state.entries.append(Entry(id: id, title: title, onPage: onPage, onChange: onChange))
            return id
        }
        announce()
        return id
    }

    /// Removes the store `id`; returns how many stores remain.
    @discardableResult
    func unregister(_ id: Int) -> Int {
        let remaining = state.withLock { state in
            state.entries.removeAll { $0.id == id }
            return state.entries.count
        }
        if remaining > 0 { announce() }
        return remaining
    }

    /// The stores registered, in the order they joined.
    var stores: [StoreInfo] {
        state.withLock { $0.entries.map { StoreInfo(id: $0.id, title: $0.title) } }
    }

    /// Hands `page` to the inspector of the store it asked for, or of the first store when it
    /// asked for none or for one that is gone; closes it when no store is left.
    func deliver(_ page: PageConnection) {
        let entry = state.withLock { state in
            state.entries.first { $0.id == page.storeID } ?? state.entries.first
        }
        guard let entry else {
            page.close()
            return
        }
        entry.onPage(page)
    }

    private func announce() {
        let entries = state.withLock { $0.entries }
        let stores = entries.map { StoreInfo(id: $0.id, title: $0.title) }
        for entry in entries { entry.onChange(stores) }
    }
}

/// A store as the page lists it.
struct StoreInfo: Encodable, Sendable, Equatable {
    let id: Int
    let title: String
}
