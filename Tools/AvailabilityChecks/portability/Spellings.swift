// Glibc's spellings of what Darwin spells otherwise, and Linux-only calls.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func openSocket() -> Int32 {
    socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)  // slip
}

func modificationTime(_ status: stat) -> Int {
    status.st_mtim.tv_sec  // slip
}

func watch(_ path: String) -> Int32 {
    let descriptor = inotify_init1(0)  // slip
    return inotify_add_watch(descriptor, path, UInt32(IN_MODIFY))  // slip
}

func sendWithoutSignal(_ socket: Int32) -> Int {
    send(socket, nil, 0, MSG_NOSIGNAL)  // slip
}

func portableSocket() -> Int32 {
    #if canImport(Glibc)
    socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    socket(AF_INET, SOCK_STREAM, 0)
    #endif
}

func portableModificationTime(_ status: stat) -> Int {
    #if os(Linux)
    status.st_mtim.tv_sec
    #else
    status.st_mtimespec.tv_sec
    #endif
}

#if os(Linux)
func linuxWatch(_ path: String) -> Int32 {
    inotify_add_watch(inotify_init1(0), path, UInt32(IN_MODIFY))
}
#endif
