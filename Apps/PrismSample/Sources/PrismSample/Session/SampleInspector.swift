import Foundation
import PrismInspector

/// How the sample starts PrismInspector: quiet (the sample prints the page's URL itself), and
/// with the reducer a test written from the page makes (``AppFeature/offline``).
enum SampleInspector {
    static var configuration: PrismInspector<AppState, AppAction>.Configuration {
        .init(printsURL: false, testReducer: "AppFeature.offline")
    }
}

extension AppFeature {
    /// The app's features as a test written from the inspector's page makes them: a sync
    /// connection that reaches no server (nothing listens on port 9 here) and keeps no token,
    /// and a detail timer that ticks every second.
    static var offline: AppFeature {
        let nowhere = URL(string: "http://127.0.0.1:9") ?? URL(fileURLWithPath: "/")
        let connection = SyncConnection(target: .server(nowhere), vault: nil, log: { _ in })
        return AppFeature(sync: SyncReducer(connection: connection), detailInterval: .seconds(1))
    }
}
