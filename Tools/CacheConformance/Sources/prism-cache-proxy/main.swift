// prism-cache-proxy: the HTTP caching conformance suite's way into Prism's client cache.
//
// The suite (https://github.com/http-tests/cache-tests) sends its requests to a cache as to a
// proxy. Two small programs play that cache: `front.mjs` (beside this file) listens for the
// suite exactly as a proxy would, in Node (whose parser takes any method token, `M-SEARCH`
// included, and which adds no `Date` of its own), and hands each request over to this one as
// JSON: method, URL, header field lines, body. Here one PrismNetworkAdapter with its default
// cache (a private cache, no cache policy) sends it to the suite's server, and the response the
// client returns, from the network or from its cache, goes back the same way, field lines in
// order. Redirects are passed back, not followed, as a cache in front of a browser would.
//
//     swift run -c release prism-cache-proxy [--port 8081]
//
// CONTRIBUTING.md ("Measuring HTTP caching") gives the whole run.
import Foundation
import Hummingbird
import PrismHTTP

/// A request the front hands over.
struct Forwarded: Codable {
    var method: String
    var url: String
    var headers: [[String]]
    var body: String?
}

/// The client's response, handed back.
struct Answer: Codable, ResponseEncodable {
    var status: Int
    var headers: [[String]]
    var body: String
}

/// Fields a proxy does not pass on (RFC 9110 §7.6.1), and the ones the transport writes itself.
let notForwarded: Set<String> = [
    "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "host", "content-length",
]

var port = 8081
if let index = CommandLine.arguments.firstIndex(of: "--port"), index + 1 < CommandLine.arguments.count {
    port = Int(CommandLine.arguments[index + 1]) ?? port
}

var configuration = PrismTransportConfiguration.default
configuration.redirects = .none
let client = PrismNetworkAdapter(transport: PrismNetworkAdapter.defaultTransport(configuration: configuration))

let router = Router()
router.post("/forward") { request, context -> Answer in
    let forwarded = try await request.decode(as: Forwarded.self, context: context)
    guard let url = URL(string: forwarded.url), let method = PrismNetworkMethod(forwarded.method) else {
        return Answer(status: 400, headers: [], body: "")
    }
    var headers = PrismHTTPHeaders()
    for field in forwarded.headers where field.count == 2 && !notForwarded.contains(field[0].lowercased()) {
        headers.add(name: field[0], value: field[1])
    }
    let body = forwarded.body.flatMap { Data(base64Encoded: $0) }
    do {
        let response = try await client.send(
            PrismHTTPRequest(url: url, method: method, headers: headers, body: body, timeout: .seconds(30)))
        return Answer(
            status: response.statusCode,
            // The response's own Content-Length goes back: the front writes no other.
            headers: response.headers.filter {
                $0.name.lowercased() == "content-length" || !notForwarded.contains($0.name.lowercased())
            }.map { [$0.name, $0.value] },
            body: response.body.base64EncodedString())
    } catch {
        FileHandle.standardError.write(Data("\(forwarded.method) \(url): \(error)\n".utf8))
        return Answer(status: 502, headers: [], body: Data("\(error)".utf8).base64EncodedString())
    }
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
print("prism-cache-proxy on http://127.0.0.1:\(port)/forward")
try await app.runService()
