import Dispatch
import Foundation
import PrismSupport

/// Tells when a file in a folder is replaced or rewritten by anyone: another process, another
/// writer of this process, this writer.
///
/// | Platform | How | Which files |
/// | --- | --- | --- |
/// | Linux | one `inotify` instance per process, read by one thread; a watch per folder (`IN_CLOSE_WRITE`, `IN_MOVED_TO`) | the file named, exactly: replaced, or written in place |
/// | Apple platforms | one dispatch source per folder, shared by its watches (`.write`: an entry added, removed or renamed) | the files whose identity (inode, size, modification time) changed: replaced or removed; a file written in place only once an entry of its folder changes |
///
/// Both see the atomic saves of `PrismDiskPersistence` (a rename into the folder), which is how
/// Prism writes. A folder's vnode source cannot see a file rewritten in place (its entries stay as
/// they were); seeing that would take a source per file, reopened at every save. The folder is
/// created if it is missing, so that a file saved later is seen (mode 0700, as the store makes
/// it). A watch ends when its `FileWatch` is released.
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
        return FolderSources.shared.add(folder: folder, name: name, onChange: onChange)
        #else
        return nil
        #endif
    }
}

/// A watch of `FileWatcher`'s: ends when released.
protocol FileWatch: AnyObject, Sendable {}

/// A watch that ends by calling `end` when released.
private final class EndingWatch: FileWatch {
    private let end: @Sendable () -> Void

    init(end: @escaping @Sendable () -> Void) {
        self.end = end
    }

    deinit {
        end()
    }
}

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
            return EndingWatch { [self] in remove(watch: watch, number: number) }
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

#elseif canImport(Darwin)

/// The process's dispatch sources, one per folder that somebody watches. A folder's source fires
/// when an entry is added, removed or renamed, and cannot say which: each watch keeps its file's
/// identity as last seen, and only the watches whose file changed are called.
private final class FolderSources: Sendable {
    static let shared = FolderSources()

    private struct Subscriber {
        let path: String
        var seen: FileIdentity?
        let onChange: @Sendable () -> Void
    }

    private struct Folder {
        let source: any DispatchSourceFileSystemObject
        var subscribers: [UInt64: Subscriber] = [:]
    }

    /// The folders watched, by path, with their subscribers by subscription number.
    private let folders = PrismLocked<(next: UInt64, byPath: [String: Folder])>((0, [:]))

    func add(folder: String, name: String, onChange: @escaping @Sendable () -> Void) -> FileWatch? {
        let folder = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL.path
        let path = (folder as NSString).appendingPathComponent(name)
        return folders.withLock { folders -> FileWatch? in
            if folders.byPath[folder] == nil {
                guard let source = openSource(folder) else { return nil }
                folders.byPath[folder] = Folder(source: source)
            }
            let number = folders.next
            folders.next += 1
            folders.byPath[folder]?.subscribers[number] = Subscriber(
                path: path, seen: FileIdentity(path: path), onChange: onChange)
            return EndingWatch { [self] in remove(folder: folder, number: number) }
        }
    }

    func remove(folder: String, number: UInt64) {
        let emptied = folders.withLock { folders -> (any DispatchSourceFileSystemObject)? in
            guard var entry = folders.byPath[folder] else { return nil }
            entry.subscribers[number] = nil
            guard entry.subscribers.isEmpty else {
                folders.byPath[folder] = entry
                return nil
            }
            folders.byPath[folder] = nil
            return entry.source
        }
        emptied?.cancel()
    }

    /// A source on `folder` (its descriptor closed when the source is cancelled); nil if the folder
    /// cannot be opened.
    private func openSource(_ folder: String) -> (any DispatchSourceFileSystemObject)? {
        let descriptor = open(folder, O_EVTONLY)
        guard descriptor >= 0 else { return nil }
        let source = DispatchSource.makeFileSystemObjectSource(
            fileDescriptor: descriptor, eventMask: [.write], queue: .global(qos: .utility))
        source.setEventHandler { [self] in folderChanged(folder) }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        return source
    }

    /// Calls the subscribers of `folder` whose file is not the one they saw last.
    private func folderChanged(_ folder: String) {
        let calls = folders.withLock { folders -> [@Sendable () -> Void] in
            guard var entry = folders.byPath[folder] else { return [] }
            var calls: [@Sendable () -> Void] = []
            for (number, subscriber) in entry.subscribers {
                let now = FileIdentity(path: subscriber.path)
                guard now != subscriber.seen else { continue }
                entry.subscribers[number]?.seen = now
                calls.append(subscriber.onChange)
            }
            folders.byPath[folder] = entry
            return calls
        }
        for call in calls { call() }
    }
}

/// What tells one version of a file from the next: a save that replaces it makes a new inode, one
/// that rewrites it changes its size or modification time. Nil: there is no such file.
private struct FileIdentity: Equatable {
    let inode: UInt64
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int(info.st_mtimespec.tv_sec)
        nanoseconds = Int(info.st_mtimespec.tv_nsec)
    }
}

#endif
