import Foundation
import PrismHTTP
import PrismTestServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Multipart forms and uploads against the test server")
struct UploadTests {
    struct UploadSummary: PrismEntity {
        struct File: PrismEntity {
            var name: String
            var filename: String?
            var contentType: String?
            var size: Int
            var sha256: String
        }
        var fields: [String: String]
        var files: [File]
        var bodyLength: Int
    }

    func summary(_ response: PrismHTTPResponse) throws -> UploadSummary {
        #expect(response.statusCode == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try UploadSummary.decoder.decode(UploadSummary.self, from: response.body)
    }

    func sha256Hex(_ data: Data) -> String { SHA256Reference.hash(data) }

    @Test("the seed's form is read back field by field and file by file", arguments: TransportKind.allCases)
    func seedForm(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let imageData = Data((0..<3_000).map { UInt8($0 % 256) })

            var form = PrismMultipartFormData()
            form.append(
                data: imageData,
                name: "avatar",
                fileName: "avatar.png",
                mimeType: "image/png"
            )
            form.append(string: "John Doe", name: "username")

            let (body, contentType) = form.build()

            var request = URLRequest(url: server.url("/upload"))
            request.httpMethod = "POST"
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")

            let task = PrismUploadTask(request: request, data: body, transport: transport.make())
            var fractions: [Double] = []
            for await progress in await task.upload() {
                fractions.append(progress.fractionCompleted)
            }
            let result = try summary(try await task.response)
            #expect(result.fields == ["username": "John Doe"])
            #expect(result.files.count == 1)
            #expect(result.files.first?.filename == "avatar.png")
            #expect(result.files.first?.contentType == "image/png")
            #expect(result.files.first?.size == imageData.count)
            #expect(result.files.first?.sha256 == sha256Hex(imageData))
            #expect(fractions.last == 1.0)
            #expect(fractions == fractions.sorted())
        }
    }

    @Test("names with quotes, line breaks and non-ASCII cannot inject headers or parts")
    func hostileNames() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            var form = PrismMultipartFormData()
            form.append(string: "v1", name: "na\"me\r\nX-Injected: yes")
            form.append(
                data: Data("file".utf8), name: "fïchier", fileName: "résumé \"final\".txt", mimeType: "text/plain")
            let (body, contentType) = form.build()
            let client = PrismNetworkAdapter()
            let response = try await client.send(
                PrismHTTPRequest(
                    url: server.url("/upload"), method: .post, headers: ["Content-Type": contentType], body: body)
            )
            let result = try summary(response)
            // One field and one file: the quote and the line break stayed inside the name
            // (percent-encoded on the wire, decoded back by the server), injecting nothing.
            #expect(result.fields == ["na\"me\r\nX-Injected: yes": "v1"])
            #expect(result.files.count == 1)
            #expect(result.files.first?.name == "fïchier")
            #expect(result.files.first?.filename == "résumé \"final\".txt")
            #expect(result.files.first?.size == 4)
            #expect(String(decoding: body, as: UTF8.self).contains("name=\"na%22me%0D%0AX-Injected: yes\""))
        }
    }

    @Test(
        "a 50 MB file is streamed from disk, arrives byte for byte, with progress during the send",
        arguments: TransportKind.allCases)
    func largeFile(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "prism-upload-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: file) }
            var content = Data(count: 50 * 1_024 * 1_024)
            content.withUnsafeMutableBytes { buffer in
                for index in stride(from: 0, to: buffer.count, by: 4_096) {
                    buffer[index] = UInt8(truncatingIfNeeded: index / 4_096)
                }
            }
            try content.write(to: file)
            var form = PrismMultipartFormData()
            try form.append(fileURL: file, name: "video")
            form.append(string: "big", name: "label")

            var request = URLRequest(url: server.url("/upload?slow=1"))
            request.httpMethod = "POST"
            let task = PrismUploadTask(request: request, form: form, transport: transport.make())
            var events: [PrismUploadProgress] = []
            for await progress in await task.upload() { events.append(progress) }
            let result = try summary(try await task.response)
            #expect(result.files.first?.size == content.count)
            #expect(result.files.first?.sha256 == sha256Hex(content))
            #expect(result.files.first?.filename == file.lastPathComponent)
            #expect(result.fields["label"] == "big")
            #expect(events.last?.fractionCompleted == 1.0)
            #expect(events.map(\.bytesUploaded) == events.map(\.bytesUploaded).sorted())
            // Progress arrived while the body was still being sent, not only at the end.
            #expect(events.contains { $0.fractionCompleted > 0.05 && $0.fractionCompleted < 0.95 })
        }
    }

    @Test("cancelling stops the upload")
    func cancelUpload() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            var request = URLRequest(url: server.url("/upload?slow=1"))
            request.httpMethod = "POST"
            let task = PrismUploadTask(request: request, data: Data(count: 20 * 1_024 * 1_024))
            let stream = await task.upload()
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
            await task.cancel()
            await #expect(throws: CancellationError.self) { _ = try await task.response }
        }
    }

    @Test("attaching a file that does not exist is a clear error")
    func missingFile() {
        var form = PrismMultipartFormData()
        #expect(throws: PrismHTTPError.self) {
            try form.append(fileURL: URL(fileURLWithPath: "/nonexistent/file.bin"), name: "f")
        }
    }

    @Test("the streamed body is byte for byte the built one, and its length is exact")
    func streamMatchesBuild() async throws {
        var form = PrismMultipartFormData()
        form.append(string: "a", name: "x")
        form.append(data: Data(count: 200_000), name: "blob", fileName: "b.bin")
        var streamed = Data()
        for try await chunk in form.bodyStream(chunkSize: 7_000) { streamed.append(chunk) }
        #expect(streamed == form.build().body)
        #expect(Int64(streamed.count) == form.contentLength)
    }
}

/// A plain SHA-256 (FIPS 180-4), to check the server's digests against.
enum SHA256Reference {
    static func hash(_ data: Data) -> String {
        var h: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        let k: [UInt32] = [
            0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
            0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
            0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
            0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
            0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
            0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
            0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
            0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
        ]
        var message = [UInt8](data)
        let bitLength = UInt64(message.count) * 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var w = [UInt32](repeating: 0, count: 64)
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                w[i] = (0..<4).reduce(UInt32(0)) { ($0 << 8) | UInt32(message[chunk + i * 4 + $1]) }
            }
            for i in 16..<64 {
                let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
                let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                let choice = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
                let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (index, value) in [a, b, c, d, e, f, g, hh].enumerated() { h[index] = h[index] &+ value }
        }
        return h.map { String(format: "%08x", $0) }.joined()
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
