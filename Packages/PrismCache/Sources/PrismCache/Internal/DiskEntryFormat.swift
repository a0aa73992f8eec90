import PrismSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How one entry of the disk tier is laid out in its file, and the only code that reads or
/// writes that layout. Every number is little-endian.
///
/// | bytes | what |
/// |---|---|
/// | 8 | `magic`: "PRISMRC" and the format version, 1 |
/// | 8 | a checksum of every byte after it (``checksum(_:)``) |
/// | 4 + n | the key: its length, then its UTF-8 |
/// | 8 | when the entry was stored, in nanoseconds since 1970 (on the cache's wall clock) |
/// | 8, 8, 8 | the status code, the time to live and the initial age in nanoseconds |
/// | 4 + ... | the field lines: how many, then each name and value as length and UTF-8 |
/// | 4 + ... | the varying request headers: how many, then each name and value the same way |
/// | 8 + n | the body: its length, then its bytes; the file ends there |
///
/// A file is accepted only when the magic, the checksum, every length and the end agree: a
/// file cut short by a crash, changed on disk, or written by something else (another version,
/// another program) decodes to nil, and the disk tier removes it. The checksum guards against
/// accidents, not against an attacker who can write the cache's folder: such a writer can also
/// replace the app.
enum DiskEntryFormat {
    static let magic: [UInt8] = Array("PRISMRC".utf8) + [1]
    /// The suffix of an entry's file name (after 32 hexadecimal digits of ``fileName(for:)``).
    static let suffix = ".prc"
    /// What a file being written carries until it is renamed into place.
    static let temporarySuffix = ".tmp"

    /// An entry as stored, with when it was stored.
    struct Decoded {
        var key: String
        var entry: PrismCacheEntry
        /// When it was stored, in nanoseconds since 1970.
        var storedAtWall: Int64
    }

    /// The file name of `key`'s entry: a 128-bit digest of the key as 32 hexadecimal digits
    /// and ``suffix``. The key itself (which may carry a digest of the request's credentials,
    /// never the credentials) is only inside the file.
    static func fileName(for key: String) -> String {
        // Two FNV-1a passes with different offsets, each finished by a MurmurHash3 mix: stable
        // from one process to the next (Swift's own hash is seeded per process).
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x6c62_272e_07bb_0142
        for byte in key.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = second &+ (second >> 29)
        }
        var text = ""
        text.reserveCapacity(36)
        for part in [mix(first), mix(second ^ UInt64(key.utf8.count))] {
            let hex = String(part, radix: 16)
            text += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return text + suffix
    }

    /// Whether `name` is an entry's file name, as ``fileName(for:)`` makes them.
    static func isEntryFileName(_ name: String) -> Bool {
        guard name.hasSuffix(suffix), name.utf8.count == 32 + suffix.utf8.count else { return false }
        return name.utf8.prefix(32).allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    static func encode(_ entry: PrismCacheEntry, key: String, storedAtWall: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entry.cost + key.utf8.count + 128)
        bytes += magic
        bytes += [UInt8](repeating: 0, count: 8)
        appendText(key, to: &bytes)
        append(UInt64(bitPattern: storedAtWall), to: &bytes)
        append(UInt64(bitPattern: Int64(entry.statusCode)), to: &bytes)
        append(UInt64(bitPattern: DurationMath.nanoseconds(entry.ttl)), to: &bytes)
        append(UInt64(bitPattern: DurationMath.nanoseconds(entry.initialAge)), to: &bytes)
        append(UInt32(entry.fields.count), to: &bytes)
        for field in entry.fields {
            appendText(field.name, to: &bytes)
            appendText(field.value, to: &bytes)
        }
        let varying = entry.varyingRequestHeaders.sorted { $0.key < $1.key }
        append(UInt32(varying.count), to: &bytes)
        for (name, value) in varying {
            appendText(name, to: &bytes)
            appendText(value, to: &bytes)
        }
        append(UInt64(entry.data.count), to: &bytes)
        bytes += entry.data
        let sum = bytes.withUnsafeBytes { checksum(UnsafeRawBufferPointer(rebasing: $0[16...])) }
        withUnsafeBytes(of: sum.littleEndian) { bytes.replaceSubrange(8..<16, with: $0) }
        return bytes
    }

    /// The entry in `bytes`, or nil when they are not a whole, intact entry file.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Decoded? {
        guard bytes.count >= 16, bytes.prefix(8).elementsEqual(magic) else { return nil }
        var reader = Reader(bytes: bytes, offset: 8)
        guard let sum = reader.uint64(),
            sum == checksum(UnsafeRawBufferPointer(rebasing: bytes[16...])),
            let key = reader.text(),
            let storedAtWall = reader.uint64(),
            let status = reader.uint64(),
            let ttl = reader.uint64(),
            let initialAge = reader.uint64(),
            let fieldCount = reader.uint32()
        else { return nil }
        var fields: [PrismCacheEntry.Field] = []
        for _ in 0..<fieldCount {
            guard let name = reader.text(), let value = reader.text() else { return nil }
            fields.append(PrismCacheEntry.Field(name: name, value: value))
        }
        guard let varyingCount = reader.uint32() else { return nil }
        var varying: [String: String] = [:]
        for _ in 0..<varyingCount {
            guard let name = reader.text(), let value = reader.text() else { return nil }
            varying[name] = value
        }
        guard let dataCount = reader.uint64(), let data = reader.data(count: dataCount), reader.isAtEnd,
            let statusCode = Int(exactly: Int64(bitPattern: status)), (100...999).contains(statusCode)
        else { return nil }
        let entry = PrismCacheEntry(
            data: data, statusCode: statusCode, fields: fields, ttl: .nanoseconds(Int64(bitPattern: ttl)),
            initialAge: .nanoseconds(Int64(bitPattern: initialAge)), varyingRequestHeaders: varying)
        return Decoded(key: key, entry: entry, storedAtWall: Int64(bitPattern: storedAtWall))
    }

    /// The key in the first bytes of an entry file (its magic checked, nothing else): what the
    /// disk tier reads of each file when it lists its folder.
    static func key(inPrefix bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.count >= 16, bytes.prefix(8).elementsEqual(magic) else { return nil }
        var reader = Reader(bytes: bytes, offset: 16)
        return reader.text()
    }

    /// A 64-bit checksum of `bytes`, eight at a time (a byte at a time would cost more than the
    /// read itself for a large body).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9e37_79b9_7f4a_7c15 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            hash = (hash ^ word) &* 0xff51_afd7_ed55_8ccd
            hash ^= hash >> 32
            offset += 8
        }
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* 0x0000_0100_0000_01b3
            offset += 1
        }
        return mix(hash)
    }

    /// The 64-bit finalizer of MurmurHash3.
    private static func mix(_ value: UInt64) -> UInt64 {
        var mixed = value
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        mixed &*= 0xc4ce_b9fe_1a85_ec53
        mixed ^= mixed >> 33
        return mixed
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func appendText(_ text: String, to bytes: inout [UInt8]) {
        append(UInt32(text.utf8.count), to: &bytes)
        bytes += text.utf8
    }

    /// Reads numbers, text and bytes in order, each only if the bytes hold all of it.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset: Int

        var isAtEnd: Bool { offset == bytes.count }

        mutating func uint64() -> UInt64? {
            guard bytes.count - offset >= 8 else { return nil }
            defer { offset += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func uint32() -> UInt32? {
            guard bytes.count - offset >= 4 else { return nil }
            defer { offset += 4 }
            return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }

        mutating func text() -> String? {
            guard let count = uint32(), let range = take(UInt64(count)) else { return nil }
            // The checksum has vouched for the bytes; invalid UTF-8 (never written) would be repaired.
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        mutating func data(count: UInt64) -> Data? {
            take(count).map { Data(UnsafeRawBufferPointer(rebasing: bytes[$0])) }
        }

        private mutating func take(_ count: UInt64) -> Range<Int>? {
            guard count <= UInt64(bytes.count - offset) else { return nil }
            let range = offset..<(offset + Int(count))
            offset = range.upperBound
            return range
        }
    }
}
