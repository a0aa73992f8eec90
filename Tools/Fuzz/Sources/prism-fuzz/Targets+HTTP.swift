import Foundation
import PrismSupport

@testable import PrismCache
@testable import PrismHTTP

// The parsers of what a server sends: dates, cache directives, Retry-After, redirects, event
// streams, and the cache's own files. Built with testability (a debug build, as make fuzz's is)
// so that the internal parsers are reached directly, without a socket in between.

extension FuzzTargets {
    static let httpDate = FuzzTarget(
        name: "http-date",
        checks:
            "a date parsed from any text formats to an IMF-fixdate that parses to the same second; any second of years 0-9999 formats and parses back; any other formats as the nearest one"
    ) { data in
        let text = String(decoding: data, as: UTF8.self)
        if let seconds = HTTPDate.parse(text) {
            let formatted = HTTPDate.format(seconds)
            fuzzExpect(HTTPDate.parse(formatted) == seconds, "\(text.debugDescription) → \(seconds) → \(formatted)")
        }
        var input = FuzzInput(data)
        let span = UInt64(HTTPDate.representable.upperBound - HTTPDate.representable.lowerBound + 1)
        let seconds = HTTPDate.representable.lowerBound + Int64(UInt64(bitPattern: input.int64()) % span)
        let formatted = HTTPDate.format(seconds)
        fuzzExpect(formatted.utf8.count == 29, "format(\(seconds)) is \(formatted.debugDescription)")
        fuzzExpect(HTTPDate.parse(formatted) == seconds, "format(\(seconds)) = \(formatted) does not parse back")
        fuzzExpect(
            HTTPDate.parse(formatted.uppercased()) == seconds, "\(formatted.uppercased()) is not read in any case")
        let any = input.int64()
        let clamped = min(max(any, HTTPDate.representable.lowerBound), HTTPDate.representable.upperBound)
        fuzzExpect(HTTPDate.parse(HTTPDate.format(any)) == clamped, "format(\(any)) is \(HTTPDate.format(any))")
    }

    static let cacheControl = FuzzTarget(
        name: "cache-control",
        checks:
            "directives written as tokens and quoted strings (with quoted pairs) parse back to themselves; any response's freshness lifetime and age stay within 0...2^31 s"
    ) { data in
        var input = FuzzInput(data)
        // A list of directives, written as RFC 9111 §5.2 says, read back.
        var written: [(name: String, value: String?)] = []
        for _ in 0..<input.below(5) {
            let name = input.text(upTo: 8, from: Alphabet.token).lowercased()
            guard !name.isEmpty else { continue }
            switch input.below(3) {
            case 0: written.append((name, nil))
            case 1:
                let token = input.text(upTo: 8, from: Alphabet.token)
                written.append((name, token.isEmpty ? nil : token))
            default:
                written.append(
                    (
                        name,
                        input.text(upTo: 12, from: Alphabet.awkward.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" })
                    ))
            }
        }
        let field = written.map { directive in
            guard let value = directive.value else { return directive.name }
            if !value.isEmpty, value.allSatisfy(Alphabet.token.contains) { return "\(directive.name)=\(value)" }
            return
                "\(directive.name)=\"\(value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
        }.joined(separator: input.bool() ? ", " : ",")
        let read = CacheControl.directives(field)
        fuzzExpect(
            read.count == written.count && zip(read, written).allSatisfy { $0.name == $1.name && $0.value == $1.value },
            "\(field.debugDescription) read as \(read), written from \(written)")

        // Any header lines: the lifetime and the age a stored response gets stay in range.
        var headers = PrismHTTPHeaders()
        let names = ["Cache-Control", "Expires", "Date", "Age", "Last-Modified", "Pragma", "Vary", "ETag"]
        for _ in 0..<input.below(6) {
            headers.add(name: names[input.below(names.count)], value: input.anyText(upTo: 40))
        }
        let status = [200, 203, 204, 206, 300, 301, 404, 410, 500][input.below(9)]
        let control = CacheControl(headers)
        _ = control.forbidsStoring(status: status)
        if let maxAge = control.maxAge { fuzzExpect(maxAge >= 0, "max-age \(maxAge) for \(headers)") }
        let now = Double(HTTPDate.representable.lowerBound + Int64(input.below(65_536)) * 4_000_000)
        let lifetime = HTTPFreshness.lifetime(of: headers, status: status, responseTime: now)
        if let lifetime { fuzzExpect(lifetime.isFinite && lifetime >= 0, "lifetime \(lifetime) for \(headers)") }
        let age = HTTPFreshness.ageOnArrival(of: headers, requestTime: now - 1, responseTime: now)
        fuzzExpect(age.isFinite && age >= 0, "age \(age) for \(headers)")
        if let ttl = HTTPFreshness.timeToLive(of: headers, status: status, requestTime: now - 1, responseTime: now) {
            fuzzExpect(ttl >= .zero && ttl <= .seconds(HTTPFreshness.deltaSecondsCap), "ttl \(ttl) for \(headers)")
        }
    }

    static let retryAfter = FuzzTarget(
        name: "retry-after",
        checks:
            "any Retry-After on a 429 or 503 gives no delay or one of at least zero; seconds and HTTP dates give the delay they say"
    ) { data in
        var input = FuzzInput(data)
        let now = Date(timeIntervalSince1970: TimeInterval(input.below(65_536)) * 40_000)
        func delay(_ value: String, status: Int = 503) -> Duration? {
            let error = PrismHTTPError(
                code: .unacceptableStatus, message: "fuzz", statusCode: status, headers: ["Retry-After": value])
            return PrismRetryFailure(error: error).retryAfter(now: now)
        }
        let text = String(decoding: input.rest(), as: UTF8.self)
        if let wait = delay(text) { fuzzExpect(wait >= .zero, "Retry-After \(text.debugDescription) → \(wait)") }
        fuzzExpect(delay(text, status: 500) == nil, "Retry-After read on a 500")
        var structured = FuzzInput(data)
        let seconds = Int(structured.below(65_536))
        fuzzExpect(delay(" \(seconds) ") == .seconds(seconds), "Retry-After: \(seconds)")
        let when = Int64(now.timeIntervalSince1970) + Int64(seconds) - 300
        let expected: Duration = .seconds(max(0, Double(when) - now.timeIntervalSince1970))
        fuzzExpect(delay(HTTPDate.format(when)) == expected, "Retry-After: \(HTTPDate.format(when)) at \(now)")
    }

    static let redirectLocation = FuzzTarget(
        name: "redirect-location",
        checks:
            "any Location: a hop goes to http or https only, never from https to http, never elsewhere under sameOrigin, and carries no credential or body to another origin"
    ) { data in
        var input = FuzzInput(data)
        let starts = [
            "https://api.example.com/v1/items?page=2", "http://example.com:8080/a/b", "https://user:pw@example.com/",
        ]
        let start = URL(string: starts[input.below(starts.count)])!
        let status = [301, 302, 303, 307, 308, 200, 304][input.below(7)]
        let method: PrismNetworkMethod = [.get, .post, .put, .head, .delete][input.below(5)]
        let policy: PrismRedirectPolicy = input.bool() ? .follow() : .sameOrigin()
        let headers: PrismHTTPHeaders = [
            "Authorization": "Bearer secret", "Cookie": "a=b", "Content-Type": "text/plain", "X-Trace": "1",
        ]
        let bodyIsSent = input.bool()
        let request = PrismHTTPRequest(
            url: start, method: method, headers: headers, body: bodyIsSent ? Data("body".utf8) : nil)
        let location = String(decoding: input.rest(), as: UTF8.self)
        let response = PrismHTTPResponse(statusCode: status, headers: ["Location": location], url: start)
        guard
            let hop = Redirects.nextHop(
                after: response, to: request, bodyIsSent: bodyIsSent, original: start, policy: policy)
        else { return }
        let target = hop.request.url
        let scheme = target.scheme?.lowercased()
        fuzzExpect(Redirects.statuses.contains(status), "followed a \(status)")
        fuzzExpect(scheme == "http" || scheme == "https", "hop to \(target) from Location \(location.debugDescription)")
        fuzzExpect(!(start.scheme == "https" && scheme == "http"), "https to http: \(target)")
        let sameOrigin = Origin(target) == Origin(start)
        if policy == .sameOrigin() {
            fuzzExpect(sameOrigin, "sameOrigin followed \(location.debugDescription) to \(target)")
        }
        if !sameOrigin {
            fuzzExpect(hop.request.body == nil && !hop.keepsBody, "a body goes to another origin: \(target)")
            for field in hop.request.headers {
                fuzzExpect(!Redirects.isCredential(field.name), "\(field.name) goes to another origin: \(target)")
            }
        }
    }

    static let multipartNames = FuzzTarget(
        name: "multipart-names",
        checks:
            "any field name, file name and type: each part's header is whole lines with no injected field, the body splits at the boundary into the parts and their exact bytes"
    ) { data in
        var input = FuzzInput(data)
        var form = PrismMultipartFormData()
        var parts: [(name: String, hasType: Bool, bytes: [UInt8])] = []
        for _ in 0..<(1 + input.below(3)) {
            let name = input.anyText(upTo: 24)
            let fileName = input.bool() ? input.anyText(upTo: 24) : nil
            let mimeType = input.bool() ? input.anyText(upTo: 24) : nil
            let bytes = input.bytes(upTo: 40)
            form.append(data: Data(bytes), name: name, fileName: fileName, mimeType: mimeType)
            parts.append((name, fileName != nil || mimeType != nil, bytes))
        }
        let (body, contentType) = form.build()
        fuzzExpect(contentType.hasPrefix("multipart/form-data; boundary="), contentType)
        let boundary = Array("--\(contentType.dropFirst("multipart/form-data; boundary=".count))".utf8)
        // Split at CRLF + delimiter, the first delimiter starting the body.
        let bytes = Array(body)
        fuzzExpect(bytes.starts(with: boundary), "the body does not start with its boundary")
        var pieces: [[UInt8]] = []
        var start = boundary.count
        var index = start
        let separator = [13, 10] + boundary
        while index + separator.count <= bytes.count {
            if bytes[index..<(index + separator.count)].elementsEqual(separator) {
                pieces.append(Array(bytes[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        fuzzExpect(Array(bytes[start...]) == Array("--\r\n".utf8), "the body does not end with the closing delimiter")
        fuzzExpect(pieces.count == parts.count, "\(pieces.count) pieces for \(parts.count) parts")
        for (piece, part) in zip(pieces, parts) {
            let crlf: [UInt8] = [13, 10]
            fuzzExpect(piece.starts(with: crlf), "a part does not start on a new line")
            guard let end = (0..<piece.count).first(where: { piece[$0...].starts(with: crlf + crlf) }) else {
                return fuzzExpect(false, "a part has no blank line after its header")
            }
            // Bytes, not characters: a combining mark after a space or CR joins it in one Character.
            let pieces = piece[2..<end].split(separator: 13, omittingEmptySubsequences: false)
            fuzzExpect(pieces.dropFirst().allSatisfy { $0.first == 10 }, "a CR without LF in a part's header")
            let lines = pieces.enumerated().map { $0.offset == 0 ? Array($0.element) : Array($0.element.dropFirst()) }
            let expected = part.hasType ? 2 : 1
            let shown = lines.map { String(decoding: $0, as: UTF8.self) }
            fuzzExpect(lines.count == expected, "part \(part.name.debugDescription): header lines \(shown)")
            fuzzExpect(
                lines.allSatisfy { !$0.contains(13) && !$0.contains(10) && !$0.contains(0) },
                "a header line holds CR, LF or NUL: \(shown)")
            let disposition = Array("Content-Disposition: form-data; name=\"".utf8)
            fuzzExpect(lines[0].starts(with: disposition), shown[0])
            if lines.count == 2 { fuzzExpect(lines[1].starts(with: Array("Content-Type: ".utf8)), shown[1]) }
            fuzzExpect(Array(piece[(end + 4)...]) == part.bytes, "part \(part.name.debugDescription): bytes differ")
        }
    }

    static let serverSentEvents = FuzzTarget(
        name: "server-sent-events",
        checks:
            "any stream: the events and the last event ID are the same however its bytes are cut into chunks; no event's data passes the limit"
    ) { data in
        var input = FuzzInput(data)
        let limit = 1 + input.below(256)
        let cuts = (0..<input.below(6)).map { _ in input.below(256) }
        let stream = input.rest()
        func parse(_ chunks: [ArraySlice<UInt8>]) -> (events: [PrismServerSentEvent], id: String, failed: Bool) {
            var parser = PrismServerSentEventParser(maximumEventBytes: limit)
            var events: [PrismServerSentEvent] = []
            for chunk in chunks {
                do { events += try parser.parse(chunk) } catch { return (events, parser.lastEventID, true) }
            }
            return (events, parser.lastEventID, false)
        }
        let whole = parse([stream[...]])
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        for cut in cuts.map({ min($0, stream.count) }).sorted() where cut >= start {
            chunks.append(stream[start..<cut])
            start = cut
        }
        chunks.append(stream[start...])
        let cutUp = parse(chunks)
        fuzzExpect(whole.failed == cutUp.failed, "fails whole: \(whole.failed), in chunks \(cuts): \(cutUp.failed)")
        if !whole.failed {
            fuzzExpect(whole.events == cutUp.events, "events differ when cut at \(cuts)")
            fuzzExpect(whole.id == cutUp.id, "last event ID differs when cut at \(cuts)")
        }
        for event in whole.events { fuzzExpect(event.data.utf8.count <= limit, "event data past \(limit) bytes") }
    }

    static let cacheEntryFile = FuzzTarget(
        name: "cache-entry-file",
        checks:
            "any file in the cache's folder decodes to nil or to an entry that encodes and decodes to the same entry; an entry's file decodes to it"
    ) { data in
        let secret = [UInt8](repeating: 0x5a, count: 32)
        var bytes = Array(data)
        // Past the code, most inputs would stop at it: put the right one in, as a file written
        // with the folder's secret by an older or broken writer would have.
        let header = DiskEntryFormat.headerSize
        if bytes.count >= header, bytes.starts(with: DiskEntryFormat.magic), bytes[8] & 1 == 0 {
            let code = bytes.withUnsafeBytes {
                SHA256.authenticationCode(for: UnsafeRawBufferPointer(rebasing: $0[header...]), key: secret)
            }
            bytes.replaceSubrange(8..<header, with: code)
        }
        if let decoded = bytes.withUnsafeBytes({ DiskEntryFormat.decode($0, secret: secret) }) {
            let again = DiskEntryFormat.encode(
                decoded.entry, key: decoded.key, storedAtWall: decoded.storedAtWall, secret: secret)
            let twice = again.withUnsafeBytes { DiskEntryFormat.decode($0, secret: secret) }
            // A decoded file may hold a cookie (an older writer's); it is not written again.
            var withoutCookies = decoded
            withoutCookies.entry.fields.removeAll { DiskEntryFormat.unstoredFields.contains($0.name.lowercased()) }
            fuzzExpect(twice.map { same($0, withoutCookies) } == true, "a decoded entry does not survive encoding")
            let other = again.withUnsafeBytes {
                DiskEntryFormat.decode($0, secret: [UInt8](repeating: 0xa5, count: 32))
            }
            fuzzExpect(other == nil, "a file decodes under another folder's secret")
        }
        var input = FuzzInput(data)
        let key = input.anyText(upTo: 30)
        var fields: [PrismCacheEntry.Field] = []
        for _ in 0..<input.below(4) {
            fields.append(.init(name: input.anyText(upTo: 10), value: input.anyText(upTo: 20)))
        }
        var varying: [String: String] = [:]
        for _ in 0..<input.below(3) { varying[input.anyText(upTo: 8)] = input.anyText(upTo: 8) }
        var entry = PrismCacheEntry(
            data: Data(input.bytes(upTo: 64)), statusCode: 100 + input.below(900), fields: fields,
            ttl: .nanoseconds(input.int64()), initialAge: .nanoseconds(input.int64()), varyingRequestHeaders: varying)
        let stored = input.int64()
        let file = DiskEntryFormat.encode(entry, key: key, storedAtWall: stored, secret: secret)
        let read = file.withUnsafeBytes { DiskEntryFormat.decode($0, secret: secret) }
        entry.fields.removeAll { DiskEntryFormat.unstoredFields.contains($0.name.lowercased()) }
        fuzzExpect(
            read.map { same($0, DiskEntryFormat.Decoded(key: key, entry: entry, storedAtWall: stored)) } == true,
            "an entry does not decode from its own file")
        fuzzExpect(
            file.withUnsafeBytes { DiskEntryFormat.keyLength(inPrefix: $0) } == key.utf8.count,
            "the key's length in the header differs")
    }

    private static func same(_ lhs: DiskEntryFormat.Decoded, _ rhs: DiskEntryFormat.Decoded) -> Bool {
        lhs.key == rhs.key && lhs.storedAtWall == rhs.storedAtWall && lhs.entry.data == rhs.entry.data
            && lhs.entry.statusCode == rhs.entry.statusCode && lhs.entry.fields == rhs.entry.fields
            && lhs.entry.ttl == rhs.entry.ttl && lhs.entry.initialAge == rhs.entry.initialAge
            && lhs.entry.varyingRequestHeaders == rhs.entry.varyingRequestHeaders
    }
}
