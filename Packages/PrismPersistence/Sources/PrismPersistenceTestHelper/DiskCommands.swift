import Foundation
import PrismPersistence
import PrismSupport

/// Saves `CrashState.make(first + i)` for `i` in `0..<count`, as one of several processes
/// writing the same key.
func saveMany(directory: String, key: String, first: Int, count: Int) -> Never {
    let persistence = PrismDiskPersistence(directory: URL(fileURLWithPath: directory))
    do {
        for counter in first..<(first + count) {
            try persistence.save(CrashState.make(counter), key: key)
        }
        result("saved \(count)")
    } catch {
        outcome(error)
    }
}

/// Holds the lock writers of `key` take (`.<key>.json.lock`), as another process saving
/// would, until standard input closes.
func holdLock(directory: String, key: String) -> Never {
    let descriptor = open("\(directory)/.\(key).json.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { result("open failed \(errno)") }
    guard flock(descriptor, LOCK_EX) == 0 else { result("flock failed \(errno)") }
    print("locked")
    fflush(nil)
    while readLine() != nil {}
    result("released")
}
