import PrismEffects
import PrismSupport

/// Gets an enum case's associated value back out of an enum value, knowing only the case itself:
/// its embedding function, such as `AppAction.detail`. This is what lets a combinator take just
/// `action: AppAction.detail`, with no hand-written extractor and no macro.
///
/// Swift has no public way to ask "is this value that case?" without a pattern written for the
/// case. Two things answer it here: the enum's *tag* (which case a value is in, read with the
/// `getEnumTag` value witness the Swift runtime keeps for every enum: about a nanosecond) and the
/// embedding function (the case's constructor: `embed(v)` is in the case, whatever `v`).
///
/// How a case's payload is read is a fact about the enum type, learned once per case and payload
/// type and kept in a table for the whole process (a feature's `body`, and so every combinator in
/// it, is built anew for each action):
///
/// | the table says, for the value's tag | read | then |
/// |---|---|---|
/// | nothing yet | `Mirror` reads the payload; learn the row below that fits | as that row |
/// | the payload is not a `Value` | - | nil |
/// | in place | the payload, copied out of a copy of the value's memory (a few ns) | `v` when `embed(v)` has the value's tag, else nil |
/// | by reflection | the payload, by `Mirror` (about 2 us) | the same |
/// | (the root type is not an enum) | - | nil, and a runtime warning where the combinator was made |
///
/// A payload is read in place only when, the first time, the payload read in place had the same
/// bytes as the one `Mirror` read: a payload stored inline (not `indirect`) of exactly the type
/// `Value`. An `indirect` case, a payload that is a different representation of `Value` (an
/// existential of it), or padding bytes that differ, read by reflection from then on: slower,
/// never wrong.
///
/// An embedding function that nests (`{ .list(.row($0)) }`) is not one case: extraction finds
/// nothing and the child never runs. The combinators say so in their documentation and take a
/// `toChildAction:` closure (or a case key path) for it.
@usableFromInline
struct PrismEnumCase<Root, Value>: Sendable {
    @usableFromInline let embed: @Sendable (Value) -> Root
    @usableFromInline let layout: EnumLayout?

    @usableFromInline
    init(embed: @escaping @Sendable (Value) -> Root) {
        self.embed = embed
        self.layout = EnumLayout(of: Root.self)
    }

    /// A runtime warning at `location` when `Root` is not an enum (nothing can be extracted).
    ///
    /// Inlined, and all it does inline is read the kind of `Root`'s metadata: a combinator made
    /// in a feature's `body` (built for every action) calls it each time, and an opaque call
    /// there kept the whole `body` from being inlined into the feature's `reduce` (a root send
    /// through 10 nested `PrismScope(action: case)` features took 1,080 ns with it, 306 ns
    /// without). The warning itself is out of line.
    @inlinable
    @inline(__always)
    static func reportUnlessRootIsEnum(location: @autoclosure () -> PrismSourceLocation) {
        if !EnumLayout.isEnum(Root.self) { reportRootIsNotEnum(location: location()) }
    }

    /// The warning of `reportUnlessRootIsEnum(location:)`.
    @usableFromInline
    @inline(never)
    static func reportRootIsNotEnum(location: PrismSourceLocation) {
        location.report(
            """
            \(Root.self) is not an enum, so the child's action cannot be read back out of it from \
            `action:` alone: give the combinator a `toChildAction:` closure (or make \(Root.self) an enum).
            """
        )
    }

    /// How the payload of `root`'s case is read, once learned (nil before). For tests.
    func reading(for root: Root) -> PrismCaseReading? {
        guard let layout else { return nil }
        return PrismCaseReadings.shared.reading(CaseKey(root: Root.self, value: Value.self, tag: layout.tag(of: root)))
    }

    /// The payload of `root` when it is in the case `embed` makes, else nil. Inlinable, so that
    /// it is specialized for the user's enum: the fast path is a tag, a table lookup and a copy.
    @inlinable
    func extract(from root: Root) -> Value? {
        extract(from: root) { PrismCaseReadings.shared.reading($0) }
    }

    /// `extract(from:)` on the main actor, where reducers run, for the case `embed` makes: the
    /// table is read through a cache only the main actor touches, with no lock
    /// (`PrismCaseReadings.mainActorReading`). Static, so that no `PrismEnumCase` is made (a
    /// scope extracts on every action).
    @MainActor
    @inlinable
    static func extractOnMainActor(from root: Root, embed: (Value) -> Root) -> Value? {
        extract(from: root, embed: embed, layout: EnumLayout(of: Root.self)) {
            PrismCaseReadings.mainActorReading($0)
        }
    }

    /// What a combinator that may keep no extractor does on each action: `extract(root)` when it
    /// has one, else the payload of the case `embed` makes. Read inline: out of line, the call
    /// cost a root send through 10 nested `PrismScope(action: case)` features 399 ns against
    /// 345 ns inline, and the combinator's key path is inlined either way.
    @MainActor
    @inlinable
    @inline(__always)
    static func extract(
        from root: Root,
        with extract: (@Sendable (Root) -> Value?)?,
        orCaseOf embed: (Value) -> Root
    ) -> Value? {
        if let extract { return extract(root) }
        return extractOnMainActor(from: root, embed: embed)
    }

    /// `extract(from:)`, reading the table with `lookUp`.
    @inlinable
    func extract(from root: Root, lookUp: (CaseKey) -> PrismCaseReading?) -> Value? {
        Self.extract(from: root, embed: embed, layout: layout, lookUp: lookUp)
    }

    /// The payload of `root` when it is in the case `embed` makes (`layout` is `Root`'s).
    @inlinable
    static func extract(
        from root: Root,
        embed: (Value) -> Root,
        layout: EnumLayout?,
        lookUp: (CaseKey) -> PrismCaseReading?
    ) -> Value? {
        guard let layout else { return nil }
        let tag = layout.tag(of: root)
        let key = CaseKey(root: Root.self, value: Value.self, tag: tag)
        let candidate: Value?
        switch lookUp(key) ?? learn(root, tag: tag, layout: layout, key: key) {
        case .notValue: return nil
        case .inPlace: candidate = layout.payload(of: root, tag: tag, as: Value.self)
        case .reflected: candidate = Self.reflectedPayload(of: root)
        }
        guard let candidate, layout.tag(of: embed(candidate)) == tag else { return nil }
        return candidate
    }

    /// Learns how the payload of `root`'s case is read, from `root`.
    @usableFromInline
    static func learn(_ root: Root, tag: UInt32, layout: EnumLayout, key: CaseKey) -> PrismCaseReading {
        let reading: PrismCaseReading
        if let payload = Self.reflectedPayload(of: root) {
            reading = layout.payloadReadsInPlace(root, tag: tag, equalTo: payload) ? .inPlace : .reflected
        } else {
            reading = .notValue
        }
        PrismCaseReadings.shared.learn(key, reading)
        return reading
    }

    /// `root`'s payload by reflection, when it is a `Value` (or a one-element labeled tuple of
    /// one, as `case detail(action: DetailAction)` stores it).
    @usableFromInline
    static func reflectedPayload(of root: Root) -> Value? {
        let mirror = Mirror(reflecting: root)
        guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else { return nil }
        if let value = payload as? Value { return value }
        let inner = Mirror(reflecting: payload)
        if inner.displayStyle == .tuple, inner.children.count == 1, let value = inner.children.first?.value as? Value {
            return value
        }
        return nil
    }
}

/// How one case's payload is read as one type.
@usableFromInline
enum PrismCaseReading: Sendable, Equatable {
    /// The case's payload is not of the type.
    case notValue
    /// Copied out of the enum value's memory.
    case inPlace
    /// By `Mirror`.
    case reflected
}

/// A case of an enum type (its tag), read as a payload type.
@usableFromInline
struct CaseKey: Hashable {
    @usableFromInline let root: ObjectIdentifier
    @usableFromInline let value: ObjectIdentifier
    @usableFromInline let tag: UInt32

    @inlinable
    init(root: Any.Type, value: Any.Type, tag: UInt32) {
        self.root = ObjectIdentifier(root)
        self.value = ObjectIdentifier(value)
        self.tag = tag
    }
}

/// What the process has learned of how enum cases are read: facts about types, so shared by
/// every combinator. A lookup is on every extraction, so the table is a small direct-mapped cache
/// (no hashing: the key's bits pick the slot) in front of a dictionary that holds everything.
@usableFromInline
final class PrismCaseReadings: Sendable {
    @usableFromInline static let shared = PrismCaseReadings()

    private struct Slot {
        var key: CaseKey?
        var reading = PrismCaseReading.notValue
    }

    private struct Table {
        static let slotCount = 64
        var slots = [Slot](repeating: Slot(), count: slotCount)
        var all: [CaseKey: PrismCaseReading] = [:]

        static func slot(of key: CaseKey) -> Int {
            let bits =
                (UInt(bitPattern: key.root.hashValueBits) >> 4) ^ (UInt(bitPattern: key.value.hashValueBits) >> 6)
            return Int((bits ^ UInt(key.tag) &* 0x9E37_79B9) % UInt(slotCount))
        }
    }

    private let table = PrismLocked(Table())

    @usableFromInline
    func reading(_ key: CaseKey) -> PrismCaseReading? {
        table.withLock { table in
            let slot = Table.slot(of: key)
            if table.slots[slot].key == key { return table.slots[slot].reading }
            guard let reading = table.all[key] else { return nil }
            table.slots[slot] = Slot(key: key, reading: reading)
            return reading
        }
    }

    /// `shared.reading(key)` from the main actor: first a cache that only the main actor
    /// touches, so a scope's extraction on every action takes no lock.
    @MainActor
    @usableFromInline
    static func mainActorReading(_ key: CaseKey) -> PrismCaseReading? {
        let cache = MainActorCache.shared
        if let reading = cache.reading(key) { return reading }
        guard let reading = shared.reading(key) else { return nil }
        cache.insert(key, reading)
        return reading
    }

    /// The main actor's copy of what the table learned: open addressing, never evicting (an app
    /// has as many keys as cases it extracts), so that no two cases a feature extracts on every
    /// action push each other out, as they can in the table's direct-mapped slots.
    @MainActor
    private final class MainActorCache {
        static let shared = MainActorCache()

        @exclusivity(unchecked)
        private var slots = [Slot](repeating: Slot(), count: 64)
        @exclusivity(unchecked)
        private var count = 0

        /// The reading kept for `key`, or nil.
        func reading(_ key: CaseKey) -> PrismCaseReading? {
            let mask = slots.count - 1
            var index = Self.hash(key) & mask
            while let kept = slots[index].key {
                if kept == key { return slots[index].reading }
                index = (index + 1) & mask
            }
            return nil
        }

        /// Keeps `reading` for `key`, growing the slots to stay at most half full.
        func insert(_ key: CaseKey, _ reading: PrismCaseReading) {
            if (count + 1) * 2 > slots.count {
                let old = slots
                slots = [Slot](repeating: Slot(), count: old.count * 2)
                count = 0
                for slot in old { if let kept = slot.key { insert(kept, slot.reading) } }
            }
            let mask = slots.count - 1
            var index = Self.hash(key) & mask
            while let kept = slots[index].key, kept != key { index = (index + 1) & mask }
            if slots[index].key == nil { count += 1 }
            slots[index] = Slot(key: key, reading: reading)
        }

        /// The key's bits, mixed (multiplied by odd constants, high half taken).
        static func hash(_ key: CaseKey) -> Int {
            let root = UInt64(UInt(bitPattern: key.root.hashValueBits)) &* 0x9E37_79B9_7F4A_7C15
            let value = UInt64(UInt(bitPattern: key.value.hashValueBits)) &* 0xC2B2_AE3D_27D4_EB4F
            let tag = UInt64(key.tag) &* 0x1656_67B1_9E37_79F9
            return Int(truncatingIfNeeded: (root ^ value ^ tag) >> 32)
        }
    }

    @usableFromInline
    func learn(_ key: CaseKey, _ reading: PrismCaseReading) {
        table.withLock { table in
            table.all[key] = reading
            table.slots[Table.slot(of: key)] = Slot(key: key, reading: reading)
        }
    }
}

extension ObjectIdentifier {
    /// The identifier's address bits, to pick a slot with.
    fileprivate var hashValueBits: Int { Int(bitPattern: self) }
}

/// An enum type's value witnesses for its tag and payload (the Swift runtime's ABI: the enum
/// value witness table follows the value witness table, which is 8 function pointers, size,
/// stride, then the flags and the extra inhabitant count, 32 bits each).
///
/// `@unchecked Sendable`: it holds a type's metadata and the runtime's witness functions, which
/// live, unchanged, as long as the process.
@usableFromInline
struct EnumLayout: @unchecked Sendable {
    @usableFromInline typealias GetTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
    @usableFromInline typealias ProjectPayload = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    @usableFromInline typealias InjectTag = @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void

    @usableFromInline let metadata: UnsafeRawPointer
    @usableFromInline let getTag: GetTag
    @usableFromInline let projectPayload: ProjectPayload
    @usableFromInline let injectTag: InjectTag

    /// Whether `type` is an enum (or an `Optional`): the kind its metadata starts with
    /// (include/swift/ABI/MetadataKind.def: 0x201 enum, 0x202 Optional).
    @inlinable
    @inline(__always)
    static func isEnum(_ type: Any.Type) -> Bool {
        let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: Int.self)
        return kind == 0x201 || kind == 0x202
    }

    /// The enum witnesses of `type`; nil when it is not an enum (or an `Optional`).
    @usableFromInline
    init?(of type: Any.Type) {
        guard Self.isEnum(type) else { return nil }
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let pointer = MemoryLayout<UnsafeRawPointer>.size
        let witnesses = metadata.load(fromByteOffset: -pointer, as: UnsafeRawPointer.self)
        let enumWitnesses = 10 * pointer + 8
        self.metadata = metadata
        getTag = witnesses.load(fromByteOffset: enumWitnesses, as: GetTag.self)
        projectPayload = witnesses.load(fromByteOffset: enumWitnesses + pointer, as: ProjectPayload.self)
        injectTag = witnesses.load(fromByteOffset: enumWitnesses + 2 * pointer, as: InjectTag.self)
    }

    /// Which case `value` is in.
    @inlinable
    func tag<Root>(of value: Root) -> UInt32 {
        withUnsafePointer(to: value) { getTag(UnsafeRawPointer($0), metadata) }
    }

    /// The payload of `value` (in the case `tag`), read from memory as a `Value`. Only for a case
    /// that ``payloadReadsInPlace(_:tag:equalTo:)`` accepted.
    @inlinable
    func payload<Root, Value>(of value: Root, tag: UInt32, as _: Value.Type) -> Value {
        var copy = value
        return withUnsafeMutableBytes(of: &copy) { bytes in
            let base = bytes.baseAddress!
            projectPayload(base, metadata)
            // Copies (retains) the payload, then puts the tag back so that `copy` is destroyed as
            // the enum value it is.
            let payload = base.load(as: Value.self)
            injectTag(base, tag, metadata)
            return payload
        }
    }

    /// Whether reading `value`'s payload from memory gives `expected` (the payload `Mirror` read)
    /// bit for bit: a payload stored inline (not `indirect`), of exactly the type `Value`.
    @usableFromInline
    func payloadReadsInPlace<Root, Value>(_ value: Root, tag: UInt32, equalTo expected: Value) -> Bool {
        let size = MemoryLayout<Value>.size
        guard size <= MemoryLayout<Root>.size, MemoryLayout<Value>.alignment <= MemoryLayout<Root>.alignment else {
            return false
        }
        var copy = value
        return withUnsafeMutableBytes(of: &copy) { bytes in
            let base = bytes.baseAddress!
            projectPayload(base, metadata)
            defer { injectTag(base, tag, metadata) }
            return withUnsafeBytes(of: expected) { expectedBytes in
                expectedBytes.elementsEqual(UnsafeRawBufferPointer(start: base, count: size))
            }
        }
    }
}
