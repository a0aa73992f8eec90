import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `prism-sample interactive --inspect`: the app's store in PrismInspector's page.
@Suite("Sample app: the inspector")
struct SampleAppInspectorTests {
    @Test("interactive --inspect prints a URL that serves the inspector's page while the shell runs")
    func interactiveInspect() async throws {
        try await withDataDirectory { folder in
            let app = try RunningSampleApp(["interactive", "--inspect", "--data-dir", folder.path])
            let line = try await app.line(containing: "Inspector: ")
            let address = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") })
            let url = try #require(URL(string: String(address)))
            // On 127.0.0.1, and the whole path is the secret token: 64 hexadecimal digits.
            #expect(url.absoluteString.wholeMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\/[0-9a-f]{64}\//) != nil, "\(url)")

            let (page, response) = try await URLSession.shared.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: page, as: UTF8.self).contains("<title>PrismInspector</title>"))
            var withoutToken = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            withoutToken.path = "/"
            let (_, refused) = try await URLSession.shared.data(from: try #require(withoutToken.url))
            #expect((refused as? HTTPURLResponse)?.statusCode == 403)

            app.write("add Buy milk\nquit\n")
            #expect(try await app.finish() == 0)
            #expect(app.outputSoFar.contains("Added #1: Buy milk"))
            #expect(app.outputSoFar.contains("Bye."))
            // Stopped with the shell: nothing listens there any more.
            await #expect(throws: (any Error).self) { _ = try await URLSession.shared.data(from: url) }
        }
    }
}
