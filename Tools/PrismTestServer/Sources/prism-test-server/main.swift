// prism-test-server: runs Prism's test server until SIGINT or SIGTERM.
//
//     swift run prism-test-server [--host 127.0.0.1] [--port 8080]

import Foundation
import PrismTestServer
import UnixSignals

let usage =
    "usage: prism-test-server [--host <address>] [--port <port>]   (defaults: 127.0.0.1, 8080; 0 = any free port)"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("prism-test-server: \(message)\n\(usage)\n".utf8))
    exit(64)
}

var host = "127.0.0.1"
var port = 8080
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--host":
        guard let value = arguments.popFirst() else { fail("--host needs an address") }
        host = value
    case "--port":
        guard let value = arguments.popFirst(), let number = Int(value), (0...65_535).contains(number) else {
            fail("--port needs a number from 0 to 65535")
        }
        port = number
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        fail("unknown argument '\(argument)'")
    }
}

let server: PrismTestServer
do {
    server = try await PrismTestServer.start(host: host, port: port)
} catch {
    fail("cannot listen on \(host):\(port): \(error)")
}
FileHandle.standardOutput.write(Data("PrismTestServer listening on \(server.baseURL.absoluteString)\n".utf8))
for await signal in await UnixSignalsSequence(trapping: .sigint, .sigterm) {
    FileHandle.standardOutput.write(Data("received \(signal), shutting down\n".utf8))
    break
}
try await server.shutdown()
