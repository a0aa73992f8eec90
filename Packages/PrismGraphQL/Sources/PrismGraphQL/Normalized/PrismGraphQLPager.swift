import Foundation
import PrismHTTP
import PrismSupport

/// Which page a pager asks for: what its query is made with.
public enum PrismGraphQLPageRequest: Hashable, Sendable, Codable {
    /// The first page: a Relay connection's `first: n`, an offset list's offset 0.
    case first
    /// The page after a cursor: `first: n, after: cursor`.
    case after(String)
    /// The page before a cursor: `last: n, before: cursor`.
    case before(String)
    /// The page of an offset list that starts at this offset.
    case offset(Int)
}

/// A Relay connection's `pageInfo` (the GraphQL Cursor Connections specification), as
/// ``PrismGraphQLPage/relay(items:pageInfo:)`` reads it. The code generator makes a selection
/// of `endCursor` and `hasNextPage` (and `startCursor`, `hasPreviousPage`) conform.
public protocol PrismGraphQLPageInfo {
    /// The cursor of the page's last item.
    var endCursor: String? { get }
    /// Whether there is a page after this one.
    var hasNextPage: Bool { get }
    /// The cursor of the page's first item; nil when not selected.
    var startCursor: String? { get }
    /// Whether there is a page before this one; false when not selected.
    var hasPreviousPage: Bool { get }
}

extension PrismGraphQLPageInfo {
    /// Nil: a selection for forward paging only.
    public var startCursor: String? { nil }
    /// False: a selection for forward paging only.
    public var hasPreviousPage: Bool { false }
}

/// One page as a pager sees it: its items, and how to ask for the pages beside it.
public struct PrismGraphQLPage<Item: Sendable>: Sendable {
    /// The page's items, in order.
    public var items: [Item]
    /// How to ask for the page after this one; nil at the end.
    public var next: PrismGraphQLPageRequest?
    /// How to ask for the page before this one; nil at the start.
    public var previous: PrismGraphQLPageRequest?

    /// A page of `items`, with the requests for the pages beside it.
    public init(items: [Item], next: PrismGraphQLPageRequest?, previous: PrismGraphQLPageRequest?) {
        self.items = items
        self.next = next
        self.previous = previous
    }

    /// A page of a Relay connection (the GraphQL Cursor Connections specification), from its
    /// `pageInfo`: the next page is the one after `endCursor`, when `hasNextPage`; the previous
    /// one before `startCursor`, when `hasPreviousPage`.
    public static func relay(
        items: [Item], startCursor: String?, endCursor: String?, hasPreviousPage: Bool, hasNextPage: Bool
    ) -> Self {
        Self(
            items: items, next: hasNextPage ? endCursor.map(PrismGraphQLPageRequest.after) : nil,
            previous: hasPreviousPage ? startCursor.map(PrismGraphQLPageRequest.before) : nil)
    }

    /// A page of a Relay connection, from its generated `pageInfo`.
    ///
    /// ```swift
    /// .relay(items: data.taskConnection.edges.map(\.node), pageInfo: data.taskConnection.pageInfo)
    /// ```
    public static func relay(items: [Item], pageInfo: some PrismGraphQLPageInfo) -> Self {
        relay(
            items: items, startCursor: pageInfo.startCursor, endCursor: pageInfo.endCursor,
            hasPreviousPage: pageInfo.hasPreviousPage, hasNextPage: pageInfo.hasNextPage)
    }

    /// A page of an offset list that starts at `offset`, `pageSize` items long when full: there
    /// is a next page when this one is full, a previous one when it does not start at 0.
    public static func offset(items: [Item], at offset: Int, pageSize: Int) -> Self {
        Self(
            items: items, next: items.count >= pageSize ? .offset(offset + items.count) : nil,
            previous: offset > 0 ? .offset(max(0, offset - pageSize)) : nil)
    }
}

/// The pages a pager has, merged into one list.
public struct PrismGraphQLPagedList<Item: Sendable>: Sendable {
    /// The items of every page, in order.
    public var items: [Item]
    /// Whether there is a page after the last one (``PrismGraphQLPager/loadNext()`` fetches it).
    public var hasNextPage: Bool
    /// Whether there is a page before the first one (``PrismGraphQLPager/loadPrevious()``).
    public var hasPreviousPage: Bool
    /// How many pages the list is made of.
    public var pageCount: Int
}

extension PrismGraphQLPagedList: Equatable where Item: Equatable {}

/// Fetches a paginated list page by page (a Relay connection, or an offset list) and keeps the
/// pages in the normalized cache as one list: each page's objects are records like any others (a
/// mutation that renames an item renames it in the list), and the list of pages is a record of
/// its own, so that a cache on disk gives the whole list back after a relaunch.
///
/// ```swift
/// let pager = PrismGraphQLPager(id: "tasks", client: graphql) { request in
///     switch request {
///     case .after(let cursor): TasksPageQuery(first: 20, after: cursor)
///     case .before(let cursor): TasksPageQuery(last: 20, before: cursor)
///     default: TasksPageQuery(first: 20)
///     }
/// } page: { data, _ in
///     .relay(
///         items: data.taskConnection.edges.map(\.node),
///         startCursor: data.taskConnection.pageInfo.startCursor,
///         endCursor: data.taskConnection.pageInfo.endCursor,
///         hasPreviousPage: data.taskConnection.pageInfo.hasPreviousPage,
///         hasNextPage: data.taskConnection.pageInfo.hasNextPage)
/// }
/// try await pager.loadNext()  // the first page
/// try await pager.loadNext()  // the second, after the first
/// for await list in pager.watch() { show(list.items) }
/// ```
///
/// Loads run one at a time: a `loadNext()` while another runs waits for it and returns what it
/// loaded (one request for both); a load in the other direction starts when it ends.
public final class PrismGraphQLPager<Query: PrismGraphQLQueryOperation, Item: Sendable>: Sendable {
    /// What names the pager's list in the cache: two pagers with the same id share it.
    public let id: String
    private let client: PrismGraphQLClient
    private let cache: PrismGraphQLNormalizedCache
    private let query: @Sendable (PrismGraphQLPageRequest) -> Query
    private let page: @Sendable (Query.Data, PrismGraphQLPageRequest) -> PrismGraphQLPage<Item>

    private enum Direction { case first, next, previous }

    private struct Loading {
        var direction: Direction
        var task: Task<PrismGraphQLPagedList<Item>, any Error>
    }

    private let loading = PrismLocked<Loading?>(nil)

    /// A pager of the list named `id`, whose pages `client` fetches and keeps in its normalized
    /// cache (``PrismGraphQLClient/normalizing(into:)``).
    ///
    /// - Parameters:
    ///   - id: What names the list in the cache.
    ///   - client: The client that fetches the pages; its normalized cache keeps them.
    ///   - query: The query for a page.
    ///   - page: The items of a page's answer, and the requests for the pages beside it
    ///     (``PrismGraphQLPage/relay(items:startCursor:endCursor:hasPreviousPage:hasNextPage:)``,
    ///     ``PrismGraphQLPage/offset(items:at:pageSize:)``).
    /// - Precondition: `client` has a normalized cache.
    public init(
        id: String, client: PrismGraphQLClient,
        query: @escaping @Sendable (PrismGraphQLPageRequest) -> Query,
        page: @escaping @Sendable (Query.Data, PrismGraphQLPageRequest) -> PrismGraphQLPage<Item>
    ) {
        guard let cache = client.normalizedCache else {
            preconditionFailure(
                "A pager keeps its pages in a normalized cache: give the client one with normalizing(into:).")
        }
        self.id = id
        self.client = client
        self.cache = cache
        self.query = query
        self.page = page
    }

    /// The record of the list of pages, and the query root's field that keeps it from being
    /// collected.
    private var key: PrismGraphQLCacheKey { PrismGraphQLCacheKey(rawValue: "PAGER:\(id)") }
    private var rootField: String { "__pager:\(id)" }

    /// The list as the cache holds it now: every page it has, merged; nil before the first page.
    public var list: PrismGraphQLPagedList<Item>? {
        Self.read(requests: requests(), cache: cache, query: query, page: page)?.list
    }

    /// The list now, if the cache has a page of it, then again each time a page is added or a
    /// record of its items changes (a mutation renames an item, say), without a request. Ends
    /// when the reading task is cancelled.
    public func watch() -> AsyncStream<PrismGraphQLPagedList<Item>> {
        let key = self.key
        let query = self.query
        let page = self.page
        return cache.observe { cache -> ([PagedData], Set<PrismGraphQLCacheKey>)? in
            let requests = Self.requests(in: cache.record(for: key))
            guard let (read, records) = Self.readData(requests: requests, cache: cache, query: query) else {
                // Until there are pages, the pager's record is what to wait for.
                return ([], [key])
            }
            return (read, records.union([key]))
        } output: { datas -> PrismGraphQLPagedList<Item>? in
            guard !datas.isEmpty else { return nil }
            let pages = Self.decode(datas, page: page)
            return pages.isEmpty ? nil : Self.merge(pages)
        }
    }

    /// Fetches the first page again and makes it the only one (a pull to refresh).
    @discardableResult
    public func refresh() async throws -> PrismGraphQLPagedList<Item> {
        try await load(.first)
    }

    /// Fetches the page after the last one and adds it to the list (the first page, when there
    /// is none yet). At the end of the list it fetches nothing.
    ///
    /// - Throws: What ``PrismGraphQLClient/fetch(_:policy:)`` throws; the list is left as it was.
    @discardableResult
    public func loadNext() async throws -> PrismGraphQLPagedList<Item> {
        try await load(.next)
    }

    /// Fetches the page before the first one and puts it at the start of the list. At the start
    /// of the list it fetches nothing.
    @discardableResult
    public func loadPrevious() async throws -> PrismGraphQLPagedList<Item> {
        try await load(.previous)
    }

    // MARK: Loading

    private func load(_ direction: Direction) async throws -> PrismGraphQLPagedList<Item> {
        while true {
            let (task, joined) = loading.withLock { loading -> (Task<PrismGraphQLPagedList<Item>, any Error>, Bool) in
                if let current = loading { return (current.task, current.direction == direction) }
                let task = Task { [self] in
                    defer { self.loading.withLock { $0 = nil } }
                    return try await fetch(direction)
                }
                loading = Loading(direction: direction, task: task)
                return (task, true)
            }
            if joined { return try await task.value }
            // Another direction is loading: this one starts after it.
            _ = try? await task.value
        }
    }

    private func fetch(_ direction: Direction) async throws -> PrismGraphQLPagedList<Item> {
        var requests = requests()
        let current = Self.read(requests: requests, cache: cache, query: query, page: page)
        // Pages the cache lost (collected, over the budget) end the list where they start.
        if let current { requests = Array(requests.prefix(current.list.pageCount)) }
        let request: PrismGraphQLPageRequest
        switch direction {
        case .first:
            request = .first
            requests = [.first]
        case .next:
            guard let current else { return try await fetch(.first) }
            guard let next = current.last.next else { return current.list }
            request = next
            requests.append(next)
        case .previous:
            guard let current else { return try await fetch(.first) }
            guard let previous = current.first.previous else { return current.list }
            request = previous
            requests.insert(previous, at: 0)
        }
        let operation = query(request)
        let pages = PrismGraphQLRecord(fields: [
            "pages": .value(.array(requests.map { (try? PrismGraphQLValue.encoding($0)) ?? .null }))
        ])
        // The page and the list of pages in one write: a watch sees both at once.
        _ = try await client.executeNormalizing(
            operation, into: cache, options: PrismRequestOptions(),
            records: [key: pages, .queryRoot: PrismGraphQLRecord(fields: [rootField: .reference(key)])]
        ).requireData()
        guard let list = Self.read(requests: requests, cache: cache, query: query, page: page)?.list else {
            throw PrismGraphQLError(
                code: .cacheMiss, message: "The page just fetched is not whole in the cache.",
                operationName: Query.operationName)
        }
        return list
    }

    // MARK: Reading

    private func requests() -> [PrismGraphQLPageRequest] {
        Self.requests(in: cache.record(for: key))
    }

    private static func requests(in record: PrismGraphQLRecord?) -> [PrismGraphQLPageRequest] {
        guard case .value(.array(let values))? = record?.fields["pages"] else { return [] }
        return values.compactMap { try? $0.decoded(as: PrismGraphQLPageRequest.self) }
    }

    /// Each page's data, as far as the cache has them whole, and the records read.
    private static func readData(
        requests: [PrismGraphQLPageRequest], cache: PrismGraphQLNormalizedCache,
        query: @Sendable (PrismGraphQLPageRequest) -> Query
    ) -> ([PagedData], Set<PrismGraphQLCacheKey>)? {
        var datas: [PagedData] = []
        var records: Set<PrismGraphQLCacheKey> = []
        for request in requests {
            guard let target = try? cache.target(of: query(request)), let (data, read) = try? cache.read(target)
            else { break }
            datas.append(PagedData(request: request, data: data))
            records.formUnion(read)
        }
        return datas.isEmpty ? nil : (datas, records)
    }

    private static func read(
        requests: [PrismGraphQLPageRequest], cache: PrismGraphQLNormalizedCache,
        query: @Sendable (PrismGraphQLPageRequest) -> Query,
        page: @Sendable (Query.Data, PrismGraphQLPageRequest) -> PrismGraphQLPage<Item>
    ) -> (list: PrismGraphQLPagedList<Item>, first: PrismGraphQLPage<Item>, last: PrismGraphQLPage<Item>)? {
        guard let (datas, _) = readData(requests: requests, cache: cache, query: query) else { return nil }
        let pages = decode(datas, page: page)
        guard let first = pages.first, let last = pages.last else { return nil }
        return (merge(pages), first, last)
    }

    private static func decode(
        _ datas: [PagedData], page: @Sendable (Query.Data, PrismGraphQLPageRequest) -> PrismGraphQLPage<Item>
    ) -> [PrismGraphQLPage<Item>] {
        var pages: [PrismGraphQLPage<Item>] = []
        for paged in datas {
            guard let data = try? PrismGraphQLValue.object(paged.data).decoded(as: Query.Data.self) else { break }
            pages.append(page(data, paged.request))
        }
        return pages
    }

    private static func merge(_ pages: [PrismGraphQLPage<Item>]) -> PrismGraphQLPagedList<Item> {
        PrismGraphQLPagedList(
            items: pages.flatMap(\.items), hasNextPage: pages.last?.next != nil,
            hasPreviousPage: pages.first?.previous != nil, pageCount: pages.count)
    }
}

/// One page's answer as the cache holds it.
struct PagedData: Equatable, Sendable {
    var request: PrismGraphQLPageRequest
    var data: [String: PrismGraphQLValue]
}
