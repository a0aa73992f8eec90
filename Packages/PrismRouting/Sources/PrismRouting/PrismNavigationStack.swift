#if canImport(SwiftUI)
import SwiftUI

/// A SwiftUI `NavigationStack` driven by a ``PrismRouter``: the router's stack is the
/// navigation path, its sheet and full-screen cover are presented over it.
///
/// ```swift
/// struct AppView: View {
///     @State private var router = PrismRouter<AppRoute>()
///
///     var body: some View {
///         PrismNavigationStack(router: router) {
///             HomeView()
///         } destination: { route in
///             switch route {
///             case .home: HomeView()
///             case .detail(let id): DetailView(id: id)
///             case .settings: SettingsView()
///             }
///         }
///         .environment(router)
///     }
/// }
/// ```
///
/// `destination` builds the view of every route: pushed, in a sheet or in a cover. When the user
/// goes back or swipes a sheet down, SwiftUI writes the change into the router. macOS has no
/// full-screen cover, so there the cover is presented as a sheet.
@MainActor
public struct PrismNavigationStack<Route: PrismRoutable, Root: View, Destination: View>: View {
    @Bindable private var router: PrismRouter<Route>
    private let rootView: Root
    private let destination: (Route) -> Destination

    /// Creates a navigation stack whose root is `root` and whose routes show `destination`.
    public init(
        router: PrismRouter<Route>,
        @ViewBuilder root: () -> Root,
        @ViewBuilder destination: @escaping (Route) -> Destination
    ) {
        self._router = Bindable(router)
        self.rootView = root()
        self.destination = destination
    }

    /// The navigation stack, with the sheet and the cover attached.
    public var body: some View {
        NavigationStack(path: $router.stack) {
            rootView.navigationDestination(for: Route.self) { route in destination(route) }
        }
        .prismPresentations(of: router, content: destination)
    }
}

extension View {
    /// Presents a ``PrismRouter``'s sheet with `.sheet(item:)` and its full-screen cover with
    /// `.fullScreenCover(item:)` (a sheet on macOS), each built by `content`.
    ///
    /// SwiftUI shows one modal per presenting view, so a cover over a sheet is presented from the
    /// sheet's view, never from the same view as the sheet (``PrismModalPresentation`` is the
    /// rule). Use it when you build the `NavigationStack` yourself; ``PrismNavigationStack``
    /// applies it for you.
    ///
    /// ```swift
    /// NavigationStack(path: $router.stack) { HomeView() }
    ///     .prismPresentations(of: router) { route in RouteView(route: route) }
    /// ```
    @MainActor
    public func prismPresentations<Route: PrismRoutable, Content: View>(
        of router: PrismRouter<Route>,
        @ViewBuilder content: @escaping (Route) -> Content
    ) -> some View {
        @Bindable var router = router
        // A change of the root modal's style waits for the old modal's dismissal from now on
        // (PrismModalPresentation): `onDismiss` of the root's two modifiers reports it.
        router.presenterAttached()
        let overSheet = { (route: Route) in
            content(route).prismCover(item: $router.presentedOverModal, onDismiss: nil, content: content)
        }
        let dismissed = { router.rootModalDismissed() }
        return self.sheet(item: $router.presentedAsSheet, onDismiss: dismissed) { layer in overSheet(layer.route) }
            .prismCover(item: $router.presentedAsCover, onDismiss: dismissed, content: content)
    }

    /// `.fullScreenCover(item:onDismiss:)`, or on macOS (which has none) a sheet attached to a view
    /// of its own.
    @MainActor
    fileprivate func prismCover<Route: PrismRoutable, Content: View>(
        item: Binding<PrismModalPresentation<Route>.Layer?>,
        onDismiss: (() -> Void)?,
        @ViewBuilder content: @escaping (Route) -> Content
    ) -> some View {
        #if os(macOS)
        return self.background {
            Color.clear.sheet(item: item, onDismiss: onDismiss) { layer in content(layer.route) }
        }
        #else
        return self.fullScreenCover(item: item, onDismiss: onDismiss) { layer in content(layer.route) }
        #endif
    }
}
#endif
