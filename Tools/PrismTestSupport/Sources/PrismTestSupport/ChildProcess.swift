import Foundation

#if canImport(Glibc)
import Glibc

/// A child process for a test, with the members of Foundation's `Process` that the tests use,
/// started with `posix_spawn` itself.
///
/// Not `Process` on Linux: its `run()` (swift-corelibs-foundation, Swift 6.3.1) lists
/// `/proc/self/fd` to close every descriptor in the child, copying 256 bytes of each directory
/// entry where the entry is shorter, and crashes when an entry ends glibc's buffer before an
/// unmapped page (swift-corelibs-foundation pull request 5472, merged after 6.3.1). A test run
/// holds thousands of descriptors while other tests start children (the inspector's 2,000
/// idle sockets): one run in a few crashed. Here the child closes them with
/// `posix_spawn_file_actions_addclosefrom_np`, nothing is listed, and no file action is added
/// per descriptor.
///
/// Like `Process`: set the members, `run()`, then `waitUntilExit()` (it blocks: call it off the
/// cooperative pool, with ``offTheCooperativePool(_:)``). A `Pipe` given as a standard stream
/// has its child's end closed in this process once the child started.
public final class ChildProcess: @unchecked Sendable {
    /// The program.
    public var executableURL: URL?
    /// Its arguments, without the program's name.
    public var arguments: [String]?
    /// Its environment; nil: this process's.
    public var environment: [String: String]?
    /// The folder it starts in; nil: this process's.
    public var currentDirectoryURL: URL?
    /// A `Pipe`, a `FileHandle` (`FileHandle.nullDevice` for /dev/null), or nil for /dev/null;
    /// by default this process's own.
    public var standardInput: Any? = FileHandle.standardInput
    /// As ``standardInput``.
    public var standardOutput: Any? = FileHandle.standardOutput
    /// As ``standardInput``.
    public var standardError: Any? = FileHandle.standardError

    /// The child's process ID, once it runs.
    public private(set) var processIdentifier: pid_t = 0

    private let lock = NSLock()
    /// The child's wait status, once reaped.
    private var waitStatus: Int32?

    /// A child to set up, then ``run()``.
    public init() {}

    // glibc's `_np` file actions, which its module for Swift does not declare.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: CloseFrom.self)
    }
    private static let changeDirectory = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: ChangeDirectory.self)
    }

    /// Starts the child; throws when it cannot be started (a missing program, a folder that
    /// does not exist).
    public func run() throws {
        guard let executableURL else { throw ChildProcessError(message: "no executableURL") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var childEnds: [FileHandle] = []
        func redirect(_ stream: Any?, to descriptor: Int32, childReads: Bool) throws {
            switch stream {
            case let pipe as Pipe:
                let end = childReads ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, descriptor)
                childEnds.append(end)
            case let handle as FileHandle where handle === FileHandle.nullDevice:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0)
            case let handle as FileHandle:
                if handle.fileDescriptor != descriptor {
                    posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, descriptor)
                }
            case nil:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0)
            default:
                throw ChildProcessError(message: "a standard stream is a Pipe, a FileHandle or nil")
            }
        }
        try redirect(standardInput, to: STDIN_FILENO, childReads: true)
        try redirect(standardOutput, to: STDOUT_FILENO, childReads: false)
        try redirect(standardError, to: STDERR_FILENO, childReads: false)
        // After the dup2s: every other descriptor of this process stays out of the child.
        guard let closeFrom = Self.closeFrom, let changeDirectory = Self.changeDirectory else {
            throw ChildProcessError(message: "glibc 2.34 or later is needed (posix_spawn_file_actions_addclosefrom_np)")
        }
        _ = closeFrom(&actions, 3)
        if let folder = currentDirectoryURL {
            _ = changeDirectory(&actions, folder.path)
        }

        let path = executableURL.path
        let argv = ([path] + (arguments ?? [])).map { strdup($0) } + [nil]
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
        for end in childEnds { try? end.close() }
        guard result == 0 else {
            throw ChildProcessError(message: "posix_spawn \(path) failed: \(String(cString: strerror(result)))")
        }
        processIdentifier = pid
    }

    /// Blocks until the child ended.
    public func waitUntilExit() {
        while true {
            if lock.withLock({ waitStatus != nil }) { return }
            var status: Int32 = 0
            let result = waitpid(processIdentifier, &status, 0)
            if result == processIdentifier {
                lock.withLock { waitStatus = status }
                return
            }
            // EINTR: again. ECHILD: another thread reaped it (isRunning), and noted its status.
            if result == -1 && errno != EINTR && errno != ECHILD { return }
            if result == -1 && errno == ECHILD && lock.withLock({ waitStatus == nil }) { return }
        }
    }

    /// Whether the child was started and has not ended.
    public var isRunning: Bool {
        guard processIdentifier > 0 else { return false }
        return lock.withLock {
            guard waitStatus == nil else { return false }
            var status: Int32 = 0
            if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier {
                waitStatus = status
                return false
            }
            return true
        }
    }

    /// The exit status, or the signal that ended the child.
    public var terminationStatus: Int32 {
        let status = lock.withLock { waitStatus } ?? 0
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    /// Whether the child exited or a signal ended it.
    public var terminationReason: Process.TerminationReason {
        let status = lock.withLock { waitStatus } ?? 0
        return status & 0x7f == 0 ? .exit : .uncaughtSignal
    }
}

/// A child that could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// ``message``.
    public var description: String { message }
}
#else
/// Foundation's `Process`, which has none of Linux's trouble on Apple platforms.
public typealias ChildProcess = Process
#endif
