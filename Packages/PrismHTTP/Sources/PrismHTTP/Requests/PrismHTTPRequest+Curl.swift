import Foundation
import PrismSupport

extension PrismHTTPRequest {
    /// The request as a `curl` command line, for a log or a bug report; secrets redacted unless
    /// `redacting` is false.
    ///
    /// ```swift
    /// var request = PrismHTTPRequest(url: URL(string: "https://api.example.com/me?api_key=k1")!)
    /// request.headers["Authorization"] = "Bearer abc"
    /// print(request.curlCommand())
    /// // curl 'https://api.example.com/me?api_key=%3Credacted%3E' \
    /// //   -H 'Authorization: <redacted>'
    /// ```
    ///
    /// | part | rendered as |
    /// | --- | --- |
    /// | the method | nothing for a `GET` (or a `POST` with a body, curl's own default), `--head` for `HEAD`, else `-X METHOD` |
    /// | the URL | redacted by ``PrismHTTPRedaction/redact(_:)-(URL)``: the values of secret query items, and any user and password |
    /// | each header, in order | `-H 'Name: value'`, a secret's value `<redacted>` (``PrismHTTPRedaction``) |
    /// | the timeout | `--max-time` in seconds |
    /// | a text body | `--data-binary 'text'`; in a form (`application/x-www-form-urlencoded`) or a JSON object, the values of secret names (`password`, `client_secret`, `refresh_token`...) are `<redacted>` |
    /// | a body that is not UTF-8 text, or longer than 16 KB | `--data-binary '<N bytes not shown>'` |
    ///
    /// Every word is quoted for a POSIX shell (`'`, with `'\''` for a quote inside), so that
    /// nothing in a header or a body can end the command or start another. Lines are joined
    /// with ` \` and a newline.
    public func curlCommand(redacting: Bool = true) -> String {
        var words: [String] = []
        switch method {
        case .get:
            break
        case .post where body != nil:
            break
        case .head:
            words.append("--head")
        default:
            words.append("-X \(CurlRendering.quoted(method.rawValue))")
        }
        var lines = [
            "curl "
                + (words + [CurlRendering.quoted(redacting ? PrismHTTPRedaction.redact(url) : url.absoluteString)])
                .joined(separator: " ")
        ]
        let shown = redacting ? PrismHTTPRedaction.redact(headers) : headers
        for field in shown {
            lines.append("  -H " + CurlRendering.quoted("\(field.name): \(field.value)"))
        }
        if let timeout {
            lines.append("  --max-time \(DurationMath.seconds(timeout))")
        }
        if let body {
            lines.append(
                "  --data-binary "
                    + CurlRendering.quoted(
                        CurlRendering.text(of: body, contentType: headers["Content-Type"], redacting: redacting)))
        }
        return lines.joined(separator: " \\\n")
    }
}

extension PrismPreparedRequest {
    /// The request as it will go out (after the interceptors, with its credentials) as a `curl`
    /// command line, secrets redacted unless `redacting` is false: see
    /// ``PrismHTTPRequest/curlCommand(redacting:)``.
    public func curlCommand(redacting: Bool = true) -> String {
        request.curlCommand(redacting: redacting)
    }
}

/// The parts of ``PrismHTTPRequest/curlCommand(redacting:)``.
enum CurlRendering {
    /// The longest body shown: a log line, not a transfer.
    static let longestBody = 16 * 1_024

    /// `word` quoted for a POSIX shell.
    static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// What the command shows of `body`.
    static func text(of body: Data, contentType: String?, redacting: Bool) -> String {
        guard body.count <= longestBody, let text = String(data: body, encoding: .utf8),
            !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" })
        else {
            return "<\(body.count) bytes not shown>"
        }
        guard redacting, let contentType = contentType?.lowercased() else { return text }
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            return redactedForm(text)
        }
        if contentType.hasPrefix("application/json") || contentType.contains("+json") {
            return redactedJSON(body) ?? text
        }
        return text
    }

    /// A form with the values of secret names replaced (names compared percent-decoded).
    static func redactedForm(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).replacingOccurrences(of: "+", with: " ")
            let decoded = name.removingPercentEncoding ?? name
            guard parts.count == 2, PrismHTTPRedaction.isSensitive(decoded) else { return String(pair) }
            return parts[0] + "=%3Credacted%3E"
        }.joined(separator: "&")
    }

    /// A JSON body with the values of secret names replaced, at any depth; nil when it is not
    /// JSON. Keys come out sorted.
    static func redactedJSON(_ body: Data) -> String? {
        guard let value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(
                withJSONObject: redacted(value), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private static func redacted(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]:
            var result: [String: Any] = [:]
            for (key, member) in object {
                result[key] = PrismHTTPRedaction.isSensitive(key) ? "<redacted>" : redacted(member)
            }
            return result
        case let array as [Any]:
            return array.map(redacted)
        default:
            return value
        }
    }
}
