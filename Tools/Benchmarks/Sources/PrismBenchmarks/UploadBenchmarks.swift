// Upload benchmarks (issue 4): a 100 MB multipart body streamed from a file stays small in
// memory, and a 100 MB upload through PrismUploadTask keeps up with the raw transport.
import Foundation
import PrismNetwork
import PrismTestServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import NIOCore
#endif

/// A file of `bytes` bytes in a fresh temporary folder, written 1 MB at a time.
func temporaryFile(bytes: Int) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prism-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent("payload.bin")
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    var written = 0
    while written < bytes {
        let count = min(chunk.count, bytes - written)
        try handle.write(contentsOf: chunk.prefix(count))
        written += count
    }
    return url
}

/// Reads a 100 MB multipart body built from a file to the end, chunk by chunk, and reports the
/// highest resident memory above what was resident before (bar: under 32 MB).
func multipartMemoryBenchmark() async throws -> [String] {
    guard selected("multipart") else { return [] }
    let size = 100 << 20
    let file = try temporaryFile(bytes: size)
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    var form = PrismMultipartFormData()
    form.append(string: "holiday photos", name: "title")
    try form.append(fileURL: file, name: "file", fileName: "payload.bin", mimeType: "application/octet-stream")
    guard let baseline = heapInUse() else {
        return [
            "multipart body of 100 MB from a file, peak memory under 32 MB: NO"
                + " (not measured: this platform has no proc file system)"
        ]
    }
    var peak = 0
    var total = 0
    var chunks = 0
    for try await chunk in form.bodyStream() {
        total += chunk.count
        chunks += 1
        if chunks % 16 == 0 { peak = max(peak, (heapInUse() ?? baseline) - baseline) }
    }
    peak = max(peak, (heapInUse() ?? baseline) - baseline)
    precondition(Int64(total) == form.contentLength, "the stream ended early")
    let megabytes = Double(peak) / Double(1 << 20)
    let verdict = peak < 32 << 20 ? "yes" : "NO"
    return [
        String(
            format: "multipart body of %.0f MB from a file, read in %d chunks: peak %.1f MB above baseline "
                + "(bar: under 32 MB): %@",
            Double(total) / Double(1 << 20), chunks, megabytes, verdict)
    ]
}

/// Uploads 100 MB to the test server through `PrismUploadTask` and through the raw
/// AsyncHTTPClient, alternately, and compares their throughput (bar: at least 80%).
func uploadThroughputBenchmarks() async throws -> [Result] {
    var results: [Result] = []
    #if AsyncHTTPClient && os(Linux)
    guard selected("upload") else { return results }
    let server = try await PrismTestServer.start()
    let size = 100 << 20
    let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let url = server.url("/upload")
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
    let prepared = request

    func prism() async throws -> Duration {
        let start = ContinuousClock.now
        let task = PrismUploadTask(request: prepared, data: payload)
        var last = 0.0
        for await progress in await task.upload() { last = progress.fractionCompleted }
        let response = try await task.response
        precondition(response.statusCode == 200 && last == 1.0, "the upload failed: \(response.statusCode)")
        return ContinuousClock.now - start
    }
    func raw() async throws -> Duration {
        let start = ContinuousClock.now
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = .POST
        outgoing.headers.add(name: "Content-Type", value: "application/octet-stream")
        outgoing.body = .bytes(ByteBuffer(bytes: payload))
        let response = try await HTTPClient.shared.execute(outgoing, timeout: .seconds(120))
        _ = try await response.body.collect(upTo: 1 << 20)
        precondition(response.status.code == 200, "the raw upload failed: \(response.status.code)")
        return ContinuousClock.now - start
    }

    _ = try await prism()
    _ = try await raw()
    var prismSamples: [Double] = []
    var rawSamples: [Double] = []
    for _ in 0..<5 {
        prismSamples.append(try await prism().nanoseconds)
        rawSamples.append(try await raw().nanoseconds)
    }
    try await server.shutdown()
    let candidate = prismSamples.sorted()[2]
    let baseline = rawSamples.sorted()[2]
    let megabytesPerSecond = { (nanoseconds: Double) in Double(size) / Double(1 << 20) / (nanoseconds / 1e9) }
    results.append(
        Result(
            name: "PrismUploadTask 100 MB upload over loopback",
            timing: Timing(nanosecondsPerOperation: candidate),
            baselineName: "raw AsyncHTTPClient POST of the same bytes",
            baseline: Timing(nanosecondsPerOperation: baseline),
            bar: .atMostRatio(1 / 0.8),
            note: String(
                format: "%.0f vs %.0f MB/s = %.0f%%", megabytesPerSecond(candidate), megabytesPerSecond(baseline),
                100 * baseline / candidate)
        )
    )
    #endif
    return results
}
