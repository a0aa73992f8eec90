/// How the normalized cache identifies objects, and which types a fragment on an interface or a
/// union covers.
///
/// ```swift
/// var configuration = PrismGraphQLNormalizedCacheConfiguration()
/// configuration.keyFields["Repository"] = ["owner", "name"]
/// configuration.possibleTypes["Node"] = ["User", "Repository"]
/// ```
public struct PrismGraphQLNormalizedCacheConfiguration: Sendable {
    /// The fields that identify an object of each type, by `__typename`: its record is stored
    /// once under `Type:values` (`Repository:{"name":"prism","owner":"acme"}`), whichever
    /// operation it came from.
    public var keyFields: [String: [String]]
    /// The fields that identify an object of a type not in ``keyFields``, when the object has them
    /// all: `["id"]` by default. An object without them is stored under the path it was reached by,
    /// and only operations that reach it the same way share it.
    public var defaultKeyFields: [String]
    /// The object types each interface and union stands for: a fragment on `Node` applies to a
    /// `User` only when `possibleTypes["Node"]` holds `"User"`. A fragment on a type not listed
    /// applies to an object when the object has every field the fragment selects directly.
    public var possibleTypes: [String: Set<String>]
    /// The most records the cache holds (nil, the default: no limit). A write that leaves more
    /// collects the records no query reaches; if there are still too many, the root fields
    /// written longest ago are dropped (their queries then miss and are fetched again) and what
    /// they alone reached is collected with them.
    public var maximumRecordCount: Int?
    /// How long a field stays fresh once written, by type (`"Item"`) or by field (`"Item.price"`,
    /// which wins over its type's). A field past its age is still an answer: `fetch` and `watch`
    /// with `cacheFirst` give it at once and ask the server again in the background, as HTTP's
    /// `stale-while-revalidate` does. A field of a type not named here never goes stale.
    public var maxAge: [String: Duration]

    /// A configuration; with none given, objects are identified by `id`.
    ///
    /// - Precondition: `maximumRecordCount`, when given, is positive; no `maxAge` is negative.
    public init(
        keyFields: [String: [String]] = [:], defaultKeyFields: [String] = ["id"],
        possibleTypes: [String: Set<String>] = [:], maximumRecordCount: Int? = nil,
        maxAge: [String: Duration] = [:]
    ) {
        precondition((maximumRecordCount ?? 1) > 0, "maximumRecordCount must be positive.")
        precondition(maxAge.values.allSatisfy { $0 >= .zero }, "A maxAge cannot be negative.")
        self.maxAge = maxAge
        self.keyFields = keyFields
        self.defaultKeyFields = defaultKeyFields
        self.possibleTypes = possibleTypes
        self.maximumRecordCount = maximumRecordCount
    }
}
