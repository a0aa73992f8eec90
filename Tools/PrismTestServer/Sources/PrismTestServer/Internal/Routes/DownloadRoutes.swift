import HTTPTypes
import Hummingbird
import NIOCore
import PrismSupport

/// `GET /download/:name?bytes=&validator=&ignoreRange=1&dropAfter=&drops=`: a file to download,
/// in whole or from a byte range, that can change between two requests and can be cut midway.
///
/// - The body is `bytes` bytes (default 1048576, at most 1 GB): byte `i` is
///   `(i + 7 * version) % 251`, where `version` is `/etag/:name`'s (`POST /etag/:name/bump`
///   changes the file).
/// - `validator=etag` (the default) sends `ETag: "download-<name>-v<version>"`;
///   `last-modified` sends `Last-Modified` (a minute later for each version); `none` neither.
/// - `Range: bytes=<first>-[<last>]` gets a 206 with `Content-Range`, unless `If-Range` names
///   another validator than the current one or `ignoreRange=1` (then the whole file, 200); a
///   range that starts past the end gets 416 with `Content-Range: bytes */<length>`.
/// - `lieRange=1`: a range request gets a 206 whose `Content-Range` starts at 0, not where asked.
/// - `dropAfter=<k>&drops=<d>`: the first `d` requests to the name (default 1) close the
///   connection after `k` bytes of their body; later ones finish.
struct DownloadRoutes: RouteGroup {
    static let maximumLength = 1 << 30

    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.get("/download/:name") { request, context -> Response in
            let name = context.parameter("name")
            let query = request.query
            let length = HostileRoutes.number(query["bytes"], default: 1 << 20, in: 0...Self.maximumLength)
            let version = self.state.withValues { $0.etagVersions[name, default: 1] }
            var headers: HTTPFields = [.contentType: "application/octet-stream", .acceptRanges: "bytes"]
            var validator: String?
            switch query["validator"] ?? "etag" {
            case "none": break
            case "last-modified":
                let date = HTTPDate.format(ServerState.initialLastModified + Int64(60 * version))
                headers[.lastModified] = date
                validator = date
            default:
                let etag = "\"download-\(name)-v\(version)\""
                headers[.eTag] = etag
                validator = etag
            }
            var first = 0
            var last = length - 1
            var status = HTTPResponse.Status.ok
            if query["ignoreRange"] != "1", let range = request.headers[.range].flatMap(Self.parseRange),
                request.headers[.ifRange].map({ $0 == validator }) ?? true
            {
                guard range.first < length else {
                    headers[.contentRange] = "bytes */\(length)"
                    return Response(status: .rangeNotSatisfiable, headers: headers)
                }
                // `lieRange=1`: a 206 that says it starts at 0 whatever was asked, with the whole file.
                first = query["lieRange"] == "1" ? 0 : range.first
                last = min(range.last ?? length - 1, length - 1)
                status = .partialContent
                headers[.contentRange] = "bytes \(first)-\(last)/\(length)"
            }
            let count = max(0, last - first + 1)
            headers[.contentLength] = String(count)
            let dropAfter = query["dropAfter"].flatMap { Int($0) }
            let drops = HostileRoutes.number(query["drops"], default: 1, in: 0...1_000)
            let attempt = self.state.withValues { values in
                values.flakyAttempts["download-\(name)", default: 0] += 1
                return values.flakyAttempts["download-\(name)"]!
            }
            let cut = dropAfter.flatMap { attempt <= drops ? min($0, count) : nil }
            let channel = context.channel
            let start = first
            let body = ResponseBody(contentLength: count) { writer in
                var written = 0
                let stop = cut ?? count
                while written < stop {
                    let size = min(PayloadCache.chunkSize, stop - written)
                    // The `/large` pattern, shifted by the version: a slice, no byte copied.
                    try await writer.write(PayloadCache.pattern(offset: start + written + 7 * version, count: size))
                    written += size
                }
                if cut != nil {
                    try? await channel.close().get()
                    return
                }
                try await writer.finish(nil)
            }
            return Response(status: status, headers: headers, body: body)
        }
    }

    /// `bytes=<first>-[<last>]`, one range; nil for anything else.
    static func parseRange(_ value: String) -> (first: Int, last: Int?)? {
        guard value.hasPrefix("bytes=") else { return nil }
        let spec = value.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard spec.count == 2, let first = Int(spec[0]) else { return nil }
        if spec[1].isEmpty { return (first, nil) }
        guard let last = Int(spec[1]), last >= first else { return nil }
        return (first, last)
    }
}
