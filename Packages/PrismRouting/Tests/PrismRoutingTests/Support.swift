import Foundation
import Observation
import PrismRouting

/// Counts the notifications an observation sends, re-tracking after each one like SwiftUI.
@MainActor
final class ObservationCounter {
    private(set) var count = 0
    private let read: @MainActor () -> Void

    init(_ read: @escaping @MainActor () -> Void) {
        self.read = read
        track()
    }

    private func track() {
        withObservationTracking {
            read()
        } onChange: { [weak self] in
            MainActor.assumeIsolated {
                self?.count += 1
                self?.track()
            }
        }
    }
}

/// The screens of the app most suites navigate.
enum Screen: PrismRoutable, Codable {
    case home
    case detail(id: String)
    case settings
    case onboarding
    case profile(userID: Int)
}

extension URL {
    /// A URL from a literal the test knows to be valid.
    init(_ string: String) {
        guard let url = URL(string: string) else { preconditionFailure("not a URL: \(string)") }
        self = url
    }
}
