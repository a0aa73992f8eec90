import Foundation
import Prism

/// The deep links of the app: what `go <screen>` understands.
///
/// `go task 2` is the link `/task/2`; full links such as `prism-sample://task/2` work too. Each
/// link maps to a whole navigation state, which the router then shows.
enum ScreenLinks {
    /// Every link the app knows.
    static let all: PrismDeepLinks<Screen> = {
        var links = PrismDeepLinks<Screen>(schemes: ["prism-sample"])
        links.register("/tasks") { _ in [] }
        links.register("/list") { _ in [] }
        links.register("/task/:id") { parameters in [.task(id: try parameters.value("id"))] }
        links.register("/tasks/:id") { parameters in [.task(id: try parameters.value("id"))] }
        links.register("/history") { _ in [.history] }
        links.register("/sync") { _ in [.sync] }
        links.register("/settings") { _ in PrismNavigationState(sheet: .settings) }
        return links
    }()

    /// The names `go` accepts, for help and error messages.
    static let help = "tasks, task <id>, history, sync, settings"

    /// The navigation state the words after `go` name (`["task", "2"]`), or a URL's.
    ///
    /// - Throws: ``SampleError`` naming the screens there are, when the words name none.
    static func navigationState(for words: [String]) throws(SampleError) -> PrismNavigationState<Screen> {
        let typed = words.joined(separator: " ")
        let text = words.joined(separator: "/")
        guard !words.isEmpty, let url = text.contains("://") ? URL(string: text) : URL(string: "/" + text) else {
            throw SampleError("Say which screen: go \(help).")
        }
        do {
            return try all.navigationState(for: url)
        } catch {
            throw SampleError("There is no screen \"\(typed)\" (\(error.message)). The screens are: \(help).")
        }
    }
}
