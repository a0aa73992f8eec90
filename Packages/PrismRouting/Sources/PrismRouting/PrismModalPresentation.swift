/// How a navigation state's sheet and full-screen cover are presented in SwiftUI, which shows one
/// modal per presenting view.
///
/// ``PrismNavigationState`` allows a sheet and a cover at once (the cover above the sheet). Presented
/// from the same view, SwiftUI would show only one of them ("already presenting") and the screen
/// and the state would disagree. So the root presents the lower layer, and the layer above it is
/// presented from the lower layer's view:
///
/// | state | the root presents | the root's modal presents |
/// | --- | --- | --- |
/// | nothing presented | nothing | |
/// | a sheet | the sheet | nothing |
/// | a cover | the cover | nothing |
/// | a sheet and a cover | the sheet | the cover |
///
/// Dismissing what the root presents (the user swipes the sheet down) dismisses what is presented
/// over it too, as SwiftUI does; dismissing the upper layer leaves the lower one.
/// `PrismNavigationStack` follows this rule; it is public for a presentation you build yourself.
///
/// When the root's modal changes style in one change of the state (a cover alone, then a sheet with
/// the cover over it), UIKit cannot dismiss one and present the other at once. The router's
/// `presentedAs...` properties, as `prismPresentations(of:content:)` uses them, then show nothing
/// at the root until SwiftUI reports the old modal dismissed, and the new presentation after.
public struct PrismModalPresentation<Route: PrismRoutable>: Hashable, Sendable {
    /// How a layer is presented.
    public enum Style: Hashable, Sendable {
        /// `.sheet(item:)`.
        case sheet
        /// `.fullScreenCover(item:)` (a sheet on macOS, which has no full-screen cover).
        case fullScreenCover
    }

    /// One presented layer: its route and how it is presented.
    public struct Layer: Hashable, Sendable, Identifiable {
        /// The route presented.
        public var route: Route
        /// How it is presented.
        public var style: Style

        /// A layer that presents `route` as `style`.
        public init(route: Route, style: Style) {
            self.route = route
            self.style = style
        }

        /// The route's identity, so that SwiftUI replaces the modal when the route changes.
        public var id: Route.ID { route.id }
    }

    /// What the root view presents, or nil.
    public var fromRoot: Layer?
    /// What the root's modal presents over itself, or nil.
    public var fromModal: Layer?

    /// The presentation of `state`.
    public init(_ state: PrismNavigationState<Route>) {
        switch (state.sheet, state.fullScreenCover) {
        case (nil, nil):
            fromRoot = nil
            fromModal = nil
        case (let sheet?, nil):
            fromRoot = Layer(route: sheet, style: .sheet)
            fromModal = nil
        case (nil, let cover?):
            fromRoot = Layer(route: cover, style: .fullScreenCover)
            fromModal = nil
        case (let sheet?, let cover?):
            fromRoot = Layer(route: sheet, style: .sheet)
            fromModal = Layer(route: cover, style: .fullScreenCover)
        }
    }
}

extension PrismNavigationState {
    /// Which modal the root presents and which one is presented over it
    /// (``PrismModalPresentation``).
    public var modalPresentation: PrismModalPresentation<Route> {
        PrismModalPresentation(self)
    }

    /// Dismisses what the root presents and everything over it: the sheet and the cover. What
    /// SwiftUI reports when the user dismisses the root's modal.
    public mutating func dismissRootModal() {
        sheet = nil
        fullScreenCover = nil
    }

    /// Dismisses the modal presented over the root's modal (the cover over a sheet), leaving the
    /// sheet. Does nothing when only one layer is presented.
    public mutating func dismissModalOverModal() {
        if sheet != nil { fullScreenCover = nil }
    }
}

extension PrismRouter {
    /// What the root view presents as a sheet (``PrismModalPresentation``): bind it to
    /// `.sheet(item:)`. Setting it to nil, as SwiftUI does when the user dismisses the sheet,
    /// dismisses the sheet and the cover over it in one change.
    public var presentedAsSheet: PrismModalPresentation<Route>.Layer? {
        get { modalsShown.fromRoot.flatMap { $0.style == .sheet ? $0 : nil } }
        set { if newValue == nil, presentedAsSheet != nil { state.dismissRootModal() } }
    }

    /// What the root view presents as a full-screen cover, when no sheet is up: bind it to
    /// `.fullScreenCover(item:)`. Setting it to nil dismisses the cover.
    public var presentedAsCover: PrismModalPresentation<Route>.Layer? {
        get { modalsShown.fromRoot.flatMap { $0.style == .fullScreenCover ? $0 : nil } }
        set { if newValue == nil, presentedAsCover != nil { state.dismissRootModal() } }
    }

    /// The full-screen cover over the sheet, presented from the sheet's view: bind it to
    /// `.fullScreenCover(item:)` inside the sheet. Setting it to nil dismisses the cover and
    /// leaves the sheet.
    public var presentedOverModal: PrismModalPresentation<Route>.Layer? {
        get { modalsShown.fromModal }
        set { if newValue == nil, presentedOverModal != nil { state.dismissModalOverModal() } }
    }
}
