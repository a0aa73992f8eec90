import Foundation
import PrismSupport

/// A strategy that can tell when what it stores under a key was changed by someone else: the
/// file strategy (a file watch), the defaults strategy (its suite's file on Linux, key-value
/// observing on Apple platforms). A shared value's backing reloads then.
protocol OutsideChangeSource {
    /// Calls `onChange` (on any thread) after what is stored under `key` may have changed, until
    /// the returned watch is released; nil if this cannot be watched.
    func watchOutsideChanges(key: String, onChange: @escaping @Sendable () -> Void) -> (any FileWatch)?
}

extension PrismDiskPersistence: OutsideChangeSource {
    func watchOutsideChanges(key: String, onChange: @escaping @Sendable () -> Void) -> (any FileWatch)? {
        // An invalid key stores nothing (its saves are refused and reported).
        guard let stored = try? PersistenceKey.normalized(key) else { return nil }
        return FileWatcher.watch(folder: directory.path, name: "\(stored).json", onChange: onChange)
    }
}

extension PrismUserDefaultsPersistence: OutsideChangeSource {
    func watchOutsideChanges(key: String, onChange: @escaping @Sendable () -> Void) -> (any FileWatch)? {
        guard let stored = try? PersistenceKey.normalized(key) else { return nil }
        #if canImport(Darwin)
        return DefaultsObserver(suiteName: suiteName, key: stored, onChange: onChange)
        #else
        // Foundation keeps a suite in `<config>/<suite>.plist` (the standard defaults under the
        // bundle identifier, else the process name) and reads the file again on `synchronize()`.
        let environment = ProcessInfo.processInfo.environment
        let config: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            config = xdg
        } else {
            config = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        let domain = suiteName ?? Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        let suiteName = suiteName
        return FileWatcher.watch(folder: config, name: "\(domain).plist") {
            // What this process cached of the suite is stale: read the file again first.
            _ = (suiteName.flatMap(UserDefaults.init(suiteName:)) ?? UserDefaults.standard).synchronize()
            onChange()
        }
        #endif
    }
}

#if canImport(Darwin)
/// Observes one key of a defaults suite by key-value observing, which hears changes made by
/// other processes too (an extension, `defaults write`). A key with a dot in it is a key path to
/// KVO: such a key hears this process's changes only (`UserDefaults.didChangeNotification`).
///
/// The watch does not observe itself: its registration is an object of its own, which the
/// watch's `deinit` unregisters while the registration is whole. An observer that unregistered in
/// its own `deinit` could be called, by a change from another process, while it was being torn
/// down.
private final class DefaultsObserver: FileWatch {
    private let registration: DefaultsRegistration

    init?(suiteName: String?, key: String, onChange: @escaping @Sendable () -> Void) {
        guard let defaults = suiteName.map({ UserDefaults(suiteName: $0) }) ?? UserDefaults.standard else {
            return nil
        }
        registration = DefaultsRegistration(defaults: defaults, key: key, onChange: onChange)
    }

    deinit {
        registration.stop()
    }
}

/// The observer `DefaultsObserver` registers: calls `onChange` until ``stop()``, after which a
/// notification already on its way does nothing.
private final class DefaultsRegistration: NSObject, @unchecked Sendable {  // fields set in init
    private let defaults: UserDefaults
    private let key: String
    private let onChange: @Sendable () -> Void
    private let active = PrismLocked(true)
    private var notificationToken: (any NSObjectProtocol)?

    init(defaults: UserDefaults, key: String, onChange: @escaping @Sendable () -> Void) {
        self.defaults = defaults
        self.key = key
        self.onChange = onChange
        super.init()
        if key.contains(".") {
            let active = active
            notificationToken = NotificationCenter.default.addObserver(
                forName: UserDefaults.didChangeNotification, object: nil, queue: nil
            ) { _ in
                if active.withLock({ $0 }) { onChange() }
            }
        } else {
            defaults.addObserver(self, forKeyPath: key, options: [.new], context: nil)
        }
    }

    override func observeValue(
        forKeyPath keyPath: String?,
        of object: Any?,
        change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        if active.withLock({ $0 }) { onChange() }
    }

    /// Unregisters; called once, by the watch's `deinit`.
    func stop() {
        active.withLock { $0 = false }
        if let notificationToken {
            NotificationCenter.default.removeObserver(notificationToken)
        } else {
            defaults.removeObserver(self, forKeyPath: key)
        }
    }
}
#endif
