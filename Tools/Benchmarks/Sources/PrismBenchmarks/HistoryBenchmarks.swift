import Foundation
import PrismArchitecture

/// A document state: 1 KB that every action changes, so each snapshot holds its own copy.
struct DocumentState: Equatable, Sendable {
    var bytes = [UInt8](repeating: 0, count: 1_024)
    var edits = 0
}

enum DocumentAction: Sendable {
    case edit
}

struct DocumentReducer: PrismReducer {
    func reduce(into state: inout DocumentState, action: DocumentAction) -> PrismEffect<DocumentAction> {
        state.bytes[state.edits % state.bytes.count] &+= 1
        state.edits += 1
        return .none
    }
}

/// The process's resident memory in bytes (Linux: /proc/self/statm); nil where it cannot be read
/// (Apple platforms have no /proc): a memory check then says NO, "not measured", never yes.
func heapInUse() -> Int? {
    #if os(Linux)
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return nil
    #endif
}

/// Records 100,000 actions with `maxSnapshots: 100` and checks that memory stays flat: what is
/// resident after 100,000 actions is what was resident after 1,000 (within 10% and 256 KB).
@MainActor
func historyBenchmarks() -> [String] {
    guard selected("time travel") else { return [] }
    let debugger = PrismTimeTravelDebugger<DocumentState>(maxSnapshots: 100)
    let store = PrismStore(initialState: DocumentState(), reducer: DocumentReducer(), middleware: debugger.middleware())
    guard let baseline = heapInUse() else {
        return [
            "time travel memory flat from 1,000 to 100,000 actions: NO"
                + " (not measured: this platform has no proc file system)"
        ]
    }
    var readings: [(actions: Int, bytes: Int)] = []
    var sent = 0
    for checkpoint in [1_000, 10_000, 100_000] {
        while sent < checkpoint {
            store.send(.edit)
            sent += 1
        }
        readings.append((checkpoint, (heapInUse() ?? baseline) - baseline))
    }
    precondition(debugger.snapshots.count == 100 && store.state.edits == 100_000)
    let first = Double(readings[0].bytes)
    let last = Double(readings[2].bytes)
    let flat = last <= first * 1.10 + 256 * 1_024
    var lines = readings.map { reading in
        "time travel, maxSnapshots 100: resident memory above baseline after \(reading.actions) actions: "
            + String(format: "%.1f KB", Double(reading.bytes) / 1_024)
    }
    lines.append(
        "time travel memory flat from 1,000 to 100,000 actions (<= 1.10x + 256 KB): " + (flat ? "yes" : "NO")
            + String(format: " (%.2fx)", last / max(first, 1))
    )
    return lines
}
