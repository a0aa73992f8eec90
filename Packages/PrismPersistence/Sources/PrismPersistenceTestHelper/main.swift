// A command-line tool the PrismPersistence tests run as a child process, for what a test cannot
// do in its own process: be killed with SIGKILL in the middle of a save, write under a
// file-size limit, read UserDefaults as another process, use the keychain from another D-Bus
// environment (libsecret keeps one bus connection per process), save a key from several
// processes at once, hold a key's writer lock, be stopped by a signal right after a send.
//
// Each command prints one line starting with "result: " and exits 0; a wrong command line
// exits 2.
import Foundation
import PrismPersistence
import PrismSupport

func result(_ line: String) -> Never {
    print("result: \(line)")
    fflush(nil)
    exit(0)
}

func outcome(_ error: any Error) -> Never {
    guard let error = error as? PrismPersistenceError else { result("other \(error)") }
    result("error \(error.code) errno=\(error.errorNumber.map(String.init) ?? "-") \(error)")
}

func usage() -> Never {
    FileHandle.standardError.write(
        Data(
            """
            usage: PrismPersistenceTestHelper COMMAND ARGUMENTS
              save-loop DIRECTORY KEY                  save CrashState in a loop, printing "ready" after the first
              save-limited DIRECTORY KEY LIMIT COUNTER save CrashState.make(COUNTER) with RLIMIT_FSIZE = LIMIT bytes
              defaults-load SUITE KEY                  load Settings from a UserDefaults suite
              defaults-save SUITE KEY THEME SIZE       save Settings in a UserDefaults suite
              keychain-load SERVICE KEY [APP]          load Credentials from the keychain (as APP, or the default)
              keychain-save SERVICE KEY TOKEN [APP]    save Credentials in the keychain
              keychain-clear SERVICE KEY [APP]         clear a keychain item
              keychain-lock                            lock the Secret Service's default collection (Linux)
              keychain-restore SERVICE KEY TOKEN       restore a store through the middleware, set TOKEN, flush
              save-many DIRECTORY KEY FIRST COUNT      save CrashState.make(FIRST ..< FIRST + COUNT) in turn
              hold-lock DIRECTORY KEY                  hold KEY's writer lock, printing "locked", until stdin closes
              exit-flush DIRECTORY KEY MODE COUNT      send COUNT changes, print "sent N", then (MODE) wait for a
                                                       signal with (signal) or without (none) flushOnExit, or exit (exit-longest: with a timeout of .seconds(Int64.max))
              shared-loop DIRECTORY KEY                change a file-backed shared CrashState in a loop, "ready" after the first save
              shared-exit DIRECTORY KEY COUNT          send COUNT changes to a file-backed shared Counter (window: an hour),
                                                       print "sent N", wait for a signal
              shared-keychain SERVICE KEY TOKEN        load a keychain-backed shared Credentials?, set TOKEN, flush
              shared-writes DIRECTORY KEY THEME COUNT  hold a file-backed shared Settings, set THEME, then font sizes
                                                       1...COUNT, each saved, 20 ms apart; "wrote N"
              shared-temporary COUNT END               a test's temporary storage with a file-backed shared Counter, COUNT
                                                       changes flushed, "folder PATH"; END: exit, kill (SIGKILL) or release

            """.utf8
        )
    )
    exit(2)
}

// A process a shell starts in the background, or under nohup, inherits SIGINT and SIGQUIT, or
// SIGHUP, ignored, and PrismPersistence leaves an ignored signal alone, as it should. The tests
// send these signals as to an app started the usual way: the default dispositions first.
for number in [SIGHUP, SIGINT, SIGQUIT, SIGTERM] { signal(number, SIG_DFL) }

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { usage() }
let operands = Array(arguments.dropFirst())

func operand(_ index: Int) -> String {
    guard index < operands.count else { usage() }
    return operands[index]
}

/// The keychain of SERVICE (operand 0), as the application named by operand `index` when there
/// is one, else as the default application (this executable's name).
func keychain(applicationAt index: Int) -> PrismKeychainPersistence {
    guard index < operands.count else { return PrismKeychainPersistence(service: operand(0)) }
    return PrismKeychainPersistence(service: operand(0), application: operands[index])
}

switch command {
case "save-loop":
    let persistence = PrismDiskPersistence(directory: URL(fileURLWithPath: operand(0)))
    let key = operand(1)
    do {
        let saved: CrashState? = try persistence.load(key: key)
        var counter = saved?.counter ?? 0
        var announced = false
        // A loop that never ends on its own ends with the test that started it: if that process
        // dies before it kills this one (a test run interrupted), this one is re-parented.
        let parent = getppid()
        while getppid() == parent {
            counter += 1
            try persistence.save(CrashState.make(counter), key: key)
            if !announced {
                print("ready")
                fflush(nil)
                announced = true
            }
        }
    } catch {
        outcome(error)
    }

case "save-limited":
    guard let limit = UInt64(operand(2)), let counter = Int(operand(3)) else { usage() }
    // Over the limit, write() fails with EFBIG instead of the process being killed.
    signal(SIGXFSZ, SIG_IGN)
    #if canImport(Glibc)
    var limits = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limits) == 0 else { result("setrlimit failed \(errno)") }
    #else
    var limits = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    guard setrlimit(RLIMIT_FSIZE, &limits) == 0 else { result("setrlimit failed \(errno)") }
    #endif
    do {
        try PrismDiskPersistence(directory: URL(fileURLWithPath: operand(0))).save(
            CrashState.make(counter), key: operand(1))
        result("saved")
    } catch {
        outcome(error)
    }

case "defaults-load":
    do {
        let settings: Settings? = try PrismUserDefaultsPersistence(suiteName: operand(0)).load(key: operand(1))
        result(settings.map { "loaded theme=\($0.theme) fontSize=\($0.fontSize)" } ?? "nil")
    } catch {
        outcome(error)
    }

case "defaults-save":
    guard let size = Int(operand(3)) else { usage() }
    do {
        try PrismUserDefaultsPersistence(suiteName: operand(0)).save(
            Settings(theme: operand(2), fontSize: size), key: operand(1))
        result("saved")
    } catch {
        outcome(error)
    }

case "keychain-load":
    do {
        let credentials: Credentials? = try keychain(applicationAt: 2).load(key: operand(1))
        result(credentials.map { "loaded \($0.token)" } ?? "nil")
    } catch {
        outcome(error)
    }

case "keychain-save":
    do {
        try keychain(applicationAt: 3).save(Credentials(token: operand(2)), key: operand(1))
        result("saved")
    } catch {
        outcome(error)
    }

case "keychain-clear":
    do {
        try keychain(applicationAt: 2).clear(key: operand(1))
        result("cleared")
    } catch {
        outcome(error)
    }

case "keychain-lock":
    result(lockDefaultCollection())

case "keychain-restore":
    await keychainRestoreAndSave(service: operand(0), key: operand(1), token: operand(2))

case "save-many":
    guard let first = Int(operand(2)), let count = Int(operand(3)) else { usage() }
    saveMany(directory: operand(0), key: operand(1), first: first, count: count)

case "hold-lock":
    holdLock(directory: operand(0), key: operand(1))

case "exit-flush":
    guard let count = Int(operand(3)), count >= 1, ["signal", "none", "exit", "exit-longest"].contains(operand(2))
    else { usage() }
    await exitFlush(directory: operand(0), key: operand(1), mode: operand(2), count: count)

case "shared-loop":
    await sharedLoop(directory: operand(0), key: operand(1))

case "shared-exit":
    guard let count = Int(operand(2)), count >= 1 else { usage() }
    await sharedExit(directory: operand(0), key: operand(1), count: count)

case "shared-keychain":
    await sharedKeychain(service: operand(0), key: operand(1), token: operand(2))

case "shared-temporary":
    guard let count = Int(operand(0)), count >= 1, ["exit", "kill", "release"].contains(operand(1)) else { usage() }
    await sharedTemporary(count: count, end: operand(1))

case "shared-writes":
    guard let count = Int(operand(3)), count >= 1 else { usage() }
    await sharedWrites(directory: operand(0), key: operand(1), theme: operand(2), count: count)

default:
    usage()
}
