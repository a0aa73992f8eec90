import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@testable import PrismHTTP

/// `curlCommand()`: what it shows and hides, and the command itself run by a real shell and a
/// real curl against the test server's echo.
@Suite("A request as a curl command: secrets redacted, every word quoted, and it runs")
struct CurlCommandTests {
    struct Echoed: Decodable {
        var method: String
        var headers: [String: String]
        var body: String?
    }

    /// Runs `command` with `/bin/sh -c`; its standard output. The wait blocks a thread of its
    /// own, never one of the cooperative pool's (which the test server's handlers need).
    static func run(_ command: String) async throws -> Data {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " --silent --show-error --max-time 60"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = try await offTheCooperativePool {
            let data = try output.fileHandleForReading.readToEnd() ?? Data()
            process.waitUntilExit()
            return data
        }
        #expect(process.terminationStatus == 0, "\(command)")
        return data
    }

    @Test("secrets in headers, the query and the user info are redacted; the rest is shown as sent")
    func redacted() throws {
        var request = PrismHTTPRequest(
            url: try #require(URL(string: "https://me:pw@api.example.com/me?api_key=k1&page=2")))
        request.headers["Authorization"] = "Bearer abc"
        request.headers["Accept"] = "application/json"
        request.timeout = .seconds(15)
        #expect(
            request.curlCommand()
                == """
                curl 'https://api.example.com/me?api_key=%3Credacted%3E&page=2' \\
                  -H 'Authorization: <redacted>' \\
                  -H 'Accept: application/json' \\
                  --max-time 15.0
                """)
        let shown = request.curlCommand(redacting: false)
        #expect(shown.contains("Bearer abc") && shown.contains("api_key=k1") && shown.contains("me:pw@"))
    }

    @Test("the method: nothing for GET or a POST with a body, --head for HEAD, else -X")
    func methods() throws {
        let url = try #require(URL(string: "https://example.com/x"))
        #expect(PrismHTTPRequest(url: url, method: .head).curlCommand() == "curl --head 'https://example.com/x'")
        #expect(PrismHTTPRequest(url: url, method: .delete).curlCommand() == "curl -X 'DELETE' 'https://example.com/x'")
        #expect(PrismHTTPRequest(url: url, method: .post).curlCommand() == "curl -X 'POST' 'https://example.com/x'")
        var post = PrismHTTPRequest(url: url, method: .post)
        post.body = Data("a=1".utf8)
        #expect(post.curlCommand() == "curl 'https://example.com/x' \\\n  --data-binary 'a=1'")
    }

    @Test("secret fields of a form or a JSON body are redacted; binary and long bodies are not shown")
    func bodies() throws {
        let url = try #require(URL(string: "https://example.com/token"))
        var form = PrismHTTPRequest(url: url, method: .post)
        form.headers["Content-Type"] = "application/x-www-form-urlencoded"
        form.body = Data("grant_type=password&username=ada&password=s3cret&client%5Fsecret=x".utf8)
        #expect(
            form.curlCommand().hasSuffix(
                "--data-binary 'grant_type=password&username=ada&password=%3Credacted%3E&client%5Fsecret=%3Credacted%3E'"
            ))
        var json = PrismHTTPRequest(url: url, method: .post)
        json.headers["Content-Type"] = "application/json; charset=utf-8"
        json.body = Data(#"{"user":{"name":"ada","refreshToken":"r1"},"items":[{"apiKey":"k"}]}"#.utf8)
        #expect(
            json.curlCommand().hasSuffix(
                #"--data-binary '{"items":[{"apiKey":"<redacted>"}],"user":{"name":"ada","refreshToken":"<redacted>"}}'"#
            ))
        var binary = PrismHTTPRequest(url: url, method: .put)
        binary.body = Data([0, 1, 2, 0xFF])
        #expect(binary.curlCommand().hasSuffix("--data-binary '<4 bytes not shown>'"))
        binary.body = Data(repeating: UInt8(ascii: "a"), count: CurlRendering.longestBody + 1)
        #expect(binary.curlCommand().hasSuffix("--data-binary '<16385 bytes not shown>'"))
    }

    @Test("run by sh and curl, the command sends the same method, headers and body, quotes and all")
    func itRuns() async throws {
        try await withServer { server in
            var request = PrismHTTPRequest(url: server.url("/echo/curl"), method: .put)
            request.headers["X-Quote"] = "it's \"quoted\"; $(echo no) `echo no` \\ done"
            request.headers["Content-Type"] = "text/plain"
            request.body = Data("line one\nit's line 'two' $HOME\n".utf8)
            let echoed = try JSONDecoder().decode(
                Echoed.self, from: try await Self.run(request.curlCommand(redacting: false)))
            #expect(echoed.method == "PUT")
            #expect(echoed.headers["x-quote"] == "it's \"quoted\"; $(echo no) `echo no` \\ done")
            #expect(echoed.body == "line one\nit's line 'two' $HOME\n")

            // A value that would end the quote and run a command is sent as text, whole.
            let marker = FileManager.default.temporaryDirectory.appendingPathComponent(
                "prism-curl-\(UUID().uuidString)")
            var hostile = PrismHTTPRequest(url: server.url("/echo/curl"))
            hostile.headers["X-Hostile"] = "'; touch \(marker.path); '"
            let sent = try JSONDecoder().decode(
                Echoed.self, from: try await Self.run(hostile.curlCommand(redacting: false)))
            #expect(sent.headers["x-hostile"] == "'; touch \(marker.path); '")
            #expect(!FileManager.default.fileExists(atPath: marker.path))

            // Redacted, the secret's placeholder is sent as text.
            var secret = PrismHTTPRequest(url: server.url("/echo/curl"))
            secret.headers["Authorization"] = "Bearer s3cret"
            let redacted = try JSONDecoder().decode(Echoed.self, from: try await Self.run(secret.curlCommand()))
            #expect(redacted.headers["authorization"] == "<redacted>")
            #expect(redacted.method == "GET")
        }
    }

    @Test("a prepared request renders as it goes out, with the interceptors' headers")
    func prepared() async throws {
        let client = PrismNetworkAdapter(
            cache: nil,
            interceptors: [
                PrismInterceptor { request in
                    var request = request
                    request.headers["X-Trace"] = "t1"
                    request.headers["X-Api-Key"] = "k"
                    return request
                }
            ])
        let prepared = try await client.prepare(
            PrismHTTPRequest(url: try #require(URL(string: "https://example.com/a"))), options: PrismRequestOptions())
        #expect(
            prepared.curlCommand()
                == "curl 'https://example.com/a' \\\n  -H 'X-Trace: t1' \\\n  -H 'X-Api-Key: <redacted>'")
    }
}
