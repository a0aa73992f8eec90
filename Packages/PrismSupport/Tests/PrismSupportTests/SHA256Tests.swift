import Foundation
import PrismSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("SHA-256 gives the digests of FIPS 180-4, of NIST's vectors and of the system's sha256sum")
struct SHA256Tests {
    @Test(
        "the examples of FIPS 180-4 and NIST's short and long messages",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
            (
                "The quick brown fox jumps over the lazy dog",
                "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"
            ),
        ])
    func knownAnswers(message: String, digest: String) {
        #expect(SHA256.hex(of: message) == digest)
    }

    @Test("a million times 'a', hashed in pieces of every size up to a block and a half")
    func millionAs() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hex(of: Data(repeating: UInt8(ascii: "a"), count: 1_000_000)) == expected)
        var hasher = SHA256()
        var left = 1_000_000
        var size = 1
        while left > 0 {
            let piece = min(size, left)
            hasher.update(data: Data(repeating: UInt8(ascii: "a"), count: piece))
            left -= piece
            size = size % 96 + 1
        }
        #expect(Hexadecimal.lowercase(hasher.finalize()) == expected)
    }

    @Test("a message cut anywhere, in any number of pieces, has the digest of the whole")
    func piecesMatchTheWhole() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 1_000, 4_097] {
            let message = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let whole = SHA256.hash(data: message)
            #expect(whole.count == SHA256.byteCount)
            for _ in 0..<20 {
                var cuts = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                    Int.random(in: 0...length, using: &generator)
                }
                cuts.sort()
                var hasher = SHA256()
                var start = 0
                for cut in cuts + [length] {
                    hasher.update(data: message[start..<cut])
                    start = cut
                }
                #expect(hasher.finalize() == whole, "length \(length), cut at \(cuts)")
            }
        }
    }

    @Test("random messages have the digest the system's sha256sum computes")
    func matchesTheSystemTool() async throws {
        let tool = try #require(
            ["/usr/bin/sha256sum", "/bin/sha256sum"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "sha256sum (coreutils) is not installed")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prism-sha256-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SystemRandomNumberGenerator()
        var files: [(URL, String)] = []
        for index in 0..<40 {
            let length =
                index < 30 ? Int.random(in: 0...300, using: &generator) : Int.random(in: 0...200_000, using: &generator)
            let message = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let file = folder.appendingPathComponent("message-\(index)")
            try message.write(to: file)
            files.append((file, SHA256.hex(of: message)))
        }
        // popen, not Foundation's Process: on Linux, Process.run() crashes now and then in a test
        // process holding thousands of descriptors (PrismTestSupport's ChildProcess says why,
        // which this package's tests cannot use: it depends on this package). On a thread of its
        // own: blocking one of the two threads Swift concurrency runs every test on stalls the
        // tests beside this one on a busy machine. The paths are this test's own, without quotes.
        let command = ([tool] + files.map(\.0.path)).map { "'\($0)'" }.joined(separator: " ")
        let (printed, status) = await withCheckedContinuation { continuation in
            Thread {
                guard let stream = popen(command, "r") else {
                    continuation.resume(returning: ("", Int32(-1)))
                    return
                }
                var data = [UInt8]()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = fread(&buffer, 1, buffer.count, stream)
                    if count <= 0 { break }
                    data += buffer[..<count]
                }
                continuation.resume(returning: (String(decoding: data, as: UTF8.self), pclose(stream)))
            }.start()
        }
        #expect(status == 0)
        let digests = printed.split(separator: "\n").map { String($0.prefix(64)) }
        #expect(digests == files.map(\.1))
    }

    @Test(
        "HMAC-SHA256 gives RFC 4231's codes: short keys, a key of a whole block's worth, and keys longer than a block",
        arguments: [
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array(
                    ("This is a test using a larger than block-size key and a larger than block-size data. "
                        + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
        ]
    )
    func authenticationCodes(key: [UInt8], message: [UInt8], expected: String) {
        let code = message.withUnsafeBytes { SHA256.authenticationCode(for: $0, key: key) }
        #expect(Hexadecimal.lowercase(code) == expected)
    }
}
