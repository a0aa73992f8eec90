import Foundation
import PrismSupport

// Two builds of one program (Tools/scripts/fuzz.sh, CONTRIBUTING.md "Fuzzing"):
//
// - `PRISM_FUZZING` (built with `--sanitize=fuzzer --sanitize=address`): libFuzzer's own `main`
//   drives the target named by the environment variable `PRISM_FUZZ_TARGET` through
//   `LLVMFuzzerTestOneInput` (`PRISM_FUZZ_TARGET=list` names them); a failed check traps, and
//   libFuzzer keeps the input.
// - Otherwise (the root's ordinary build, which `make test` compiles): `prism-fuzz replay TARGET
//   FILE...` runs a target over files or folders of inputs (a crash found, the seed corpus) and
//   `prism-fuzz list` names the targets with what each checks.

#if PRISM_FUZZING
/// The target this process fuzzes, chosen once before the first input.
nonisolated(unsafe) private var chosen: FuzzTarget?

/// Called by libFuzzer once, before the first input: chooses the target.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    let name = ProcessInfo.processInfo.environment["PRISM_FUZZ_TARGET"] ?? ""
    if name == "list" {
        for target in FuzzTargets.all { print(target.name) }
        exit(0)
    }
    guard let target = FuzzTargets.named(name) else {
        StandardError.write(
            "prism-fuzz: set PRISM_FUZZ_TARGET to one of: \(FuzzTargets.all.map(\.name).joined(separator: ", "))\n")
        exit(2)
    }
    chosen = target
    return 0
}

/// Called by libFuzzer for each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = chosen else { return 0 }
    let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: size)) } ?? Data()
    target.check(bytes)
    return 0
}
#else
@main
enum FuzzReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "list":
            for target in FuzzTargets.all { print("\(target.name)\t\(target.checks)") }
        case "replay" where arguments.count >= 3:
            guard let target = FuzzTargets.named(arguments[1]) else {
                StandardError.write("prism-fuzz: no target named \(arguments[1]) (prism-fuzz list names them)\n")
                exit(2)
            }
            var count = 0
            for path in arguments.dropFirst(2) {
                for file in inputs(at: path) {
                    guard let bytes = FileManager.default.contents(atPath: file) else {
                        StandardError.write("prism-fuzz: cannot read \(file)\n")
                        exit(2)
                    }
                    target.check(bytes)
                    count += 1
                }
            }
            print("\(target.name): \(count) inputs replayed, every check held")
        default:
            StandardError.write(
                """
                usage: prism-fuzz list
                       prism-fuzz replay TARGET FILE-OR-FOLDER...
                (the fuzzing build is made by make fuzz; see CONTRIBUTING.md)

                """)
            exit(2)
        }
    }

    /// `path` if it is a file, else the files in it, sorted.
    private static func inputs(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
    }
}
#endif
