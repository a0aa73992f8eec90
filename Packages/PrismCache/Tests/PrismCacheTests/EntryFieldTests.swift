import Foundation
import PrismCache
import Testing

@Suite("An entry keeps its field lines and knows its age")
struct EntryFieldTests {
    typealias Field = PrismCacheEntry.Field

    let fields = [
        Field(name: "Set-Cookie", value: "a=1"), Field(name: "Cache-Control", value: "max-age=60"),
        Field(name: "set-cookie", value: "b=2"), Field(name: "ETag", value: "\"v1\""),
    ]

    @Test("fields keep order and repetition; header(_:) joins a repeated field, headers is the joined view")
    func fieldLines() {
        let entry = PrismCacheEntry(data: Data("x".utf8), statusCode: 200, fields: fields, ttl: .seconds(60))
        #expect(entry.fields == fields)
        #expect(entry.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(entry.header("set-cookie") == "a=1, b=2")
        #expect(entry.etag == "\"v1\"")
        #expect(entry.header("Vary") == nil)
        #expect(entry.headers == ["Set-Cookie": "a=1, b=2", "Cache-Control": "max-age=60", "ETag": "\"v1\""])
        var changed = entry
        changed.headers = ["B": "2", "A": "1"]
        #expect(changed.fields == [Field(name: "A", value: "1"), Field(name: "B", value: "2")])
        // Changing a copy leaves the original as it was.
        #expect(entry.fields == fields)
        #expect(entry.cost == 1 + fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count })
    }

    @Test("a lookup says how long the entry has been stored; its age adds the age it arrived with")
    func age() async {
        let clock = ManualClock()
        let cache = PrismResponseCache(maxSize: 4, clock: clock)
        let stored = PrismCacheEntry(
            data: Data("x".utf8), statusCode: 200, fields: fields, ttl: .seconds(60), initialAge: .seconds(30))
        await cache.set(stored, for: "k")
        clock.advance(by: .seconds(100))
        let read = await cache.lookup("k").entry
        #expect(read?.timeInCache == .seconds(100))
        #expect(read?.age == .seconds(130))
        #expect(read?.remainingFreshness == .seconds(-40))
        // What the entry is, not when it was read, decides equality.
        #expect(read == stored)
        #expect(stored.timeInCache == .zero)
        var older = stored
        older.initialAge = .seconds(31)
        #expect(older != stored)
    }

    @Test("refresh(key:fields:) replaces every line of a named field, keeps the rest, and restarts the age")
    func refreshFields() async {
        let clock = ManualClock()
        let cache = PrismResponseCache(maxSize: 4, clock: clock)
        await cache.set(
            PrismCacheEntry(
                data: Data("x".utf8), statusCode: 200, fields: fields, ttl: .zero, initialAge: .seconds(30)),
            for: "k")
        clock.advance(by: .seconds(50))
        let refreshed = await cache.refresh(
            key: PrismCacheKey("k"), fields: [Field(name: "SET-COOKIE", value: "c=3")], ttl: .seconds(10),
            initialAge: .seconds(2))
        #expect(
            refreshed?.fields == [
                Field(name: "Cache-Control", value: "max-age=60"), Field(name: "ETag", value: "\"v1\""),
                Field(name: "SET-COOKIE", value: "c=3"),
            ])
        #expect(refreshed?.age == .seconds(2))
        clock.advance(by: .seconds(5))
        guard case .fresh(let entry) = await cache.lookup("k") else {
            Issue.record("the refreshed entry is fresh for 10 s")
            return
        }
        #expect(entry.age == .seconds(7))
        #expect(await cache.refresh(key: PrismCacheKey("gone"), fields: []) == nil)
    }
}
