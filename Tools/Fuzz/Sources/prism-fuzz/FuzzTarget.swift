import Foundation

/// One parser under fuzzing: what it reads, and the property checked on every input beyond "it
/// does not crash".
struct FuzzTarget: Sendable {
    /// The name `PRISM_FUZZ_TARGET` and `make fuzz TARGETS=...` use; also its corpus folder.
    let name: String
    /// What is checked, in a sentence (`prism-fuzz list`).
    let checks: String
    /// Runs one input; a broken property traps through ``fuzzExpect(_:_:)``.
    let check: @Sendable (Data) -> Void
}

/// Every target, in the order `make fuzz` runs them.
enum FuzzTargets {
    static let all: [FuzzTarget] = [
        httpDate,
        cacheControl,
        retryAfter,
        redirectLocation,
        multipartNames,
        deepLinks,
        graphQLOperations,
        graphQLJSONValue,
        graphQLRecord,
        graphQLDocument,
        graphQLTransportWS,
        graphQLCodegenText,
        serverSentEvents,
        cacheEntryFile,
        sessionRecording,
        savedState,
        inspectorValues,
    ]

    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// Traps with `message` when `condition` is false: libFuzzer keeps the input as a crash, and a
/// replay names what broke.
func fuzzExpect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        FileHandle.standardError.write(Data("prism-fuzz: property broken: \(message())\n".utf8))
        fatalError(message())
    }
}

/// Reads structured values off the fuzzer's bytes, so that one input can describe a request, a
/// route or a list of directives. Past the end every read gives zero or empty: each input is a
/// valid description.
struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ data: Data) { bytes = Array(data) }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A number in `0..<bound` (bound at most 65,536).
    mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let raw = bound > 256 ? Int(byte()) << 8 | Int(byte()) : Int(byte())
        return raw % bound
    }

    mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return Int64(bitPattern: value)
    }

    /// Up to `maximum` bytes, the first byte giving the length.
    mutating func bytes(upTo maximum: Int) -> [UInt8] {
        let count = below(maximum + 1)
        return (0..<count).map { _ in byte() }
    }

    /// Text of up to `maximum` characters drawn from `alphabet`.
    mutating func text(upTo maximum: Int, from alphabet: [Character]) -> String {
        let count = below(maximum + 1)
        return String((0..<count).map { _ in alphabet[below(alphabet.count)] })
    }

    /// Text of up to `maximum` bytes as UTF-8, broken sequences repaired.
    mutating func anyText(upTo maximum: Int) -> String {
        String(decoding: bytes(upTo: maximum), as: UTF8.self)
    }

    /// What is left, whole.
    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return offset < bytes.count ? Array(bytes[offset...]) : []
    }
}

enum Alphabet {
    static let token = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~")
    static let lettersAndDigits = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    /// Letters, digits and the characters URLs, JSON and headers treat specially.
    static let awkward = Array("aZ09 -_./:?#[]@!$&'()*+,;=%\"\\\t\r\n{}<>|^`~é€😀\u{0}")
}
