import Testing

@testable import PrismEffects

@Suite("Effect values")
struct EffectValueTests {
    @Test("none is none, and every other effect is not")
    func noneIsNone() {
        #expect(PrismEffect<Int>.none.isNone)
        #expect(!PrismEffect<Int>.send(1).isNone)
        #expect(!PrismEffect<Int>.run { _ in }.isNone)
        #expect(!PrismEffect<Int>.cancel(id: "x").isNone)
    }

    @Test("merging and concatenating nothing gives none")
    func emptyCombinationsAreNone() {
        #expect(PrismEffect<Int>.merge(.none, .none).isNone)
        #expect(PrismEffect<Int>.merge([]).isNone)
        #expect(PrismEffect<Int>.concatenate(.none).isNone)
        #expect(PrismEffect<Int>.sequence([]).isNone)
        #expect(PrismEffect<Int>.none.merge(with: .none).isNone)
    }

    @Test("a merge of one effect is that effect")
    func singleMergeUnwraps() {
        let effect = PrismEffect<Int>.merge(.none, .send(3), .none)
        guard case .send(3) = effect.operation else {
            Issue.record("expected .send(3), got \(effect.operation)")
            return
        }
    }

    @Test("nested merges are flattened")
    func nestedMergesFlatten() {
        let effect = PrismEffect<Int>.merge(.merge(.send(1), .send(2)), .send(3))
        guard case .merge(let parts) = effect.operation else {
            Issue.record("expected a merge")
            return
        }
        #expect(parts.count == 3)
    }

    @Test("cancellable on none without cancelInFlight stays none")
    func cancellableNone() {
        #expect(PrismEffect<Int>.none.cancellable(id: 1).isNone)
        #expect(!PrismEffect<Int>.none.cancellable(id: 1, cancelInFlight: true).isNone)
    }

    @Test("debouncing none is none")
    func debounceNone() {
        #expect(PrismEffect<Int>.none.debounce(id: 1, for: .milliseconds(5)).isNone)
    }

    @Test("an unhandled error's description names where the effect was created and how to handle it")
    func errorDescription() {
        struct Boom: Error {}
        let error = PrismEffectError(underlying: Boom(), fileID: "App/Feature.swift", line: 42)
        #expect(error.description.contains("App/Feature.swift:42"))
        #expect(error.description.contains("Boom"))
        #expect(error.description.contains("catch:"))
    }
}
