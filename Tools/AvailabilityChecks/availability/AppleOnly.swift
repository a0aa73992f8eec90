// SwiftUI, Security and Network have no interface on Linux: their newer declarations come from a
// list kept by hand (check-availability.py, APPLE_ONLY), and are found by name; `#if` branches
// and conditions count as anywhere else.

#if canImport(SwiftUI)
import SwiftUI

struct ScrollWatcher: View {
    @State private var offset = 0.0

    var body: some View {
        ScrollView { Text("Scroll") }
            .onScrollGeometryChange(for: Double.self) { geometry in  // slip
                geometry.contentOffset.y
            } action: { _, new in
                offset = new
            }
    }
}

struct CoverEverywhere: View {
    @Binding var shown: Bool

    var body: some View {
        Text("Cover").fullScreenCover(isPresented: $shown) { Text("Covered") }  // slip: macOS
    }
}

struct CoverBesideMac: View {
    @Binding var shown: Bool

    var body: some View {
        #if os(macOS)
        Text("Sheet").sheet(isPresented: $shown) { Text("Sheet") }
        #else
        Text("Cover").fullScreenCover(isPresented: $shown) { Text("Covered") }
        #endif
    }
}

struct PopoverEverywhere: View {
    @Binding var shown: Bool

    var body: some View {
        Text("Popover").popover(isPresented: $shown) { Text("Popped") }  // slip: tvOS watchOS
    }
}

struct PopoverWhereThereArePopovers: View {
    @Binding var shown: Bool

    var body: some View {
        #if os(iOS) || os(macOS) || os(visionOS)
        Text("Popover").popover(isPresented: $shown, arrowEdge: .bottom) { Text("Popped") }
        #else
        Text("Sheet").sheet(isPresented: $shown) { Text("Sheet") }
        #endif
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct Tabs: View {
    var body: some View {
        TabView {
            Tab("Home", systemImage: "house") { Text("Home") }
        }
    }
}

struct TabsEverywhere: View {
    var body: some View {
        TabView {
            Tab("Home", systemImage: "house") { Text("Home") }  // slip
        }
    }
}

struct Glassy: View {
    var body: some View {
        Text("Glass").glassEffect()  // slip
    }
}

#if os(iOS)
struct GlassyOnIOS: View {
    var body: some View {
        if #available(iOS 26, *) {
            Text("Glass").glassEffect()
        } else {
            Text("Plain")
        }
    }
}
#endif
#endif

#if canImport(Security)
import Security

func companionAccess() -> SecAccessControlCreateFlags {
    [.userPresence, .companion]  // slip
}
#endif
