import Dispatch
import Foundation
import PrismSupport

/// Tells when a file in a folder is replaced or rewritten by anyone: another process, another
/// writer of this process, this writer.
///
/// | Platform | How | Which files |
/// | --- | --- | --- |
/// | Linux | one `inotify` instance per process, read by one thread; a watch per folder (`IN_CLOSE_WRITE`, `IN_MOVED_TO`) | the file named, exactly |
/// | Apple platforms | a dispatch source per watch on the folder (`.write`: an entry added, removed or renamed) | any file of the folder (the caller looks) |
///
/// Both see the atomic saves of `PrismDiskPersistence` (a rename into the folder) and files
/// written in place. The folder is created if it is missing, so that a file saved later is
/// seen (mode 0700, as the store makes it). A watch ends when its `FileWatch` is released.
enum FileWatcher {
    /// Calls `onChange` (on a thread of the watcher's) after `name` in `folder` is written or
    /// replaced; nil if the folder cannot be watched (it cannot be created or opened, or the
    /// process has no watches left).
    static func watch(folder: String, name: String, onChange: @escaping @Sendable () -> Void) -> FileWatch? {
        // Readable by the user only, as `PrismDiskPersistence` makes it: the names in it are the
        // keys of the app's state.
        try? PrivateFolder.create(URL(fileURLWithPath: folder, isDirectory: true))
        #if os(Linux)
        return InotifyWatcher.shared?.add(folder: folder, name: name, onChange: onChange)
        #elseif canImport(Darwin)
        return DispatchSourceWatch(folder: folder, onChange: onChange)
        #else
        return nil
        #endif
    }
}

/// A watch of `FileWatcher`'s: ends when released.
protocol FileWatch: AnyObject, Sendable {}

#if os(Linux)
import Glibc

/// The process's one `inotify` instance and the thread that reads it.
private final class InotifyWatcher: Sendable {
    static let shared = InotifyWatcher()

    private struct Subscriber {
        let name: String
        let onChange: @Sendable () -> Void
    }

    private let descriptor: Int32
    /// The subscribers of each watch descriptor (one per folder), by subscription number.
    private let watches = PrismLocked<(next: UInt64, byWatch: [Int32: [UInt64: Subscriber]])>((0, [:]))

    private init?() {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let thread = Thread { [self] in readEvents() }
        thread.name = "PrismPersistence.FileWatcher"
        thread.start()
    }

    func add(folder: String, name: String, onChange: @escaping @Sendable () -> Void) -> FileWatch? {
        watches.withLock { watches -> FileWatch? in
            // The same folder (by inode) gives the same watch descriptor.
            let watch = inotify_add_watch(descriptor, folder, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_ONLYDIR))
            guard watch >= 0 else { return nil }
            let number = watches.next
            watches.next += 1
            watches.byWatch[watch, default: [:]][number] = Subscriber(name: name, onChange: onChange)
            return InotifySubscription(watcher: self, watch: watch, number: number)
        }
    }

    func remove(watch: Int32, number: UInt64) {
        watches.withLock { watches in
            guard var subscribers = watches.byWatch[watch] else { return }
            subscribers[number] = nil
            if subscribers.isEmpty {
                watches.byWatch[watch] = nil
                inotify_rm_watch(descriptor, watch)
            } else {
                watches.byWatch[watch] = subscribers
            }
        }
    }

    /// Reads events forever (the instance lives as long as the process).
    private func readEvents() {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        while true {
            let count = read(descriptor, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            var toCall: [@Sendable () -> Void] = []
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                let namePointer = (buffer + offset + headerSize).assumingMemoryBound(to: CChar.self)
                let name = nameLength > 0 ? String(cString: namePointer) : ""
                offset += headerSize + nameLength
                toCall += subscribers(for: event, name: name)
            }
            for call in toCall { call() }
        }
    }

    private func subscribers(for event: inotify_event, name: String) -> [@Sendable () -> Void] {
        watches.withLock { watches in
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                // Events were lost: every file may have changed.
                return watches.byWatch.values.flatMap { $0.values.map(\.onChange) }
            }
            if event.mask & UInt32(IN_IGNORED) != 0 {
                // The folder is gone (or the watch was removed): nothing more will come from it.
                watches.byWatch[event.wd] = nil
                return []
            }
            guard let subscribers = watches.byWatch[event.wd] else { return [] }
            return subscribers.values.filter { $0.name == name }.map(\.onChange)
        }
    }
}

private final class InotifySubscription: FileWatch {
    let watcher: InotifyWatcher
    let watch: Int32
    let number: UInt64

    init(watcher: InotifyWatcher, watch: Int32, number: UInt64) {
        self.watcher = watcher
        self.watch = watch
        self.number = number
    }

    deinit {
        watcher.remove(watch: watch, number: number)
    }
}

#elseif canImport(Darwin)

/// A dispatch source on a folder: it fires when an entry of the folder is added, removed or
/// renamed (which an atomic save does), and cannot say which.
private final class DispatchSourceWatch: FileWatch, @unchecked Sendable {  // `source` is set once
    private let source: any DispatchSourceFileSystemObject

    init?(folder: String, onChange: @escaping @Sendable () -> Void) {
        let descriptor = open(folder, O_EVTONLY)
        guard descriptor >= 0 else { return nil }
        source = DispatchSource.makeFileSystemObjectSource(
            fileDescriptor: descriptor, eventMask: [.write], queue: .global(qos: .utility))
        source.setEventHandler(handler: onChange)
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    deinit {
        source.cancel()
    }
}

#endif
