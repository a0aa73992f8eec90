/// What SwiftUI is asked to present while the navigation state moves from one presentation to
/// another.
///
/// The sheet and the cover are two modifiers on the root view. When the root's modal changes
/// style in one update (a cover alone, then a sheet with the cover over it, which puts the sheet
/// at the root), one modifier dismisses while the other presents, and UIKit refuses a
/// presentation while a dismissal animates: the screen and the state disagree. So that change
/// goes in two steps, the second when SwiftUI reports the dismissal (`onDismiss`):
///
/// | the root shows | the state asks for | the root is asked to show | once its modal is dismissed |
/// | --- | --- | --- | --- |
/// | nothing | anything | what the state asks for | - |
/// | a layer | nothing, or a layer of the same style (one modifier, which sequences a change of route itself) | what the state asks for | - |
/// | a layer | a layer of the other style | nothing: the layer is dismissed | what the state asks for by then |
/// | nothing, waiting for a dismissal | anything | nothing | what the state asks for by then |
struct ModalStaging<Route: PrismRoutable> {
    /// What the root and its modal are asked to present now.
    private(set) var shown: PrismModalPresentation<Route>
    /// What the state asks for.
    private var wanted: PrismModalPresentation<Route>
    /// Whether the root's modal is being dismissed, before the next one is presented.
    private(set) var awaitsDismissal = false

    init(_ presentation: PrismModalPresentation<Route>) {
        shown = presentation
        wanted = presentation
    }

    /// The state now asks for `presentation`.
    mutating func request(_ presentation: PrismModalPresentation<Route>) {
        wanted = presentation
        guard !awaitsDismissal else { return }
        if let current = shown.fromRoot, let next = presentation.fromRoot, current.style != next.style {
            awaitsDismissal = true
            shown = PrismModalPresentation(PrismNavigationState())
        } else {
            shown = presentation
        }
    }

    /// SwiftUI finished dismissing the root's modal.
    mutating func rootDismissed() {
        guard awaitsDismissal else { return }
        awaitsDismissal = false
        shown = wanted
    }
}
