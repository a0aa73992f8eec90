// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
import Foundation
// A stand-in for the part of SwiftUI's interface that Prism's SwiftUI code uses, written here
// from Apple's documentation (the macOS 15 / iOS 18 SDKs' signatures: `Binding(get:set:)` takes
// `@isolated(any) @Sendable` closures that inherit the caller's actor, `View` is main-actor
// isolated, `fullScreenCover` is unavailable on macOS). Linux has no SwiftUI, so without it the
// code behind `#if canImport(SwiftUI)` is never compiled here. Tools/scripts/typecheck-swiftui.sh
// type-checks that code against this stand-in: it catches a wrong label, type or isolation, not
// what only the real SDK knows. Add a declaration here when Prism's SwiftUI code uses a new one.
@_exported import Observation

@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}
extension Never: View { public var body: Never { fatalError() } }

@resultBuilder public struct ViewBuilder {
    public static func buildExpression<C: View>(_ c: C) -> C { c }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<C: View>(_ c: C) -> C { c }
    public static func buildBlock<each C: View>(_ c: repeat each C) -> TupleView<(repeat each C)> { TupleView() }
    public static func buildIf<C: View>(_ c: C?) -> C? { c }
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { fatalError() }
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { fatalError() }
}
extension Optional: View where Wrapped: View { public var body: Never { fatalError() } }
public struct _ConditionalContent<T, F>: View { public var body: Never { fatalError() } }
public struct EmptyView: View {
    nonisolated public init() {}
    public var body: Never { fatalError() }
}
public struct TupleView<T>: View {
    nonisolated public init() {}
    public var body: Never { fatalError() }
}
public struct Text: View {
    public init<S: StringProtocol>(_ content: S) {}
    public init(_ key: LocalizedStringKey) {}
    public var body: Never { fatalError() }
}
public struct LocalizedStringKey: ExpressibleByStringInterpolation {
    public init(stringLiteral: String) {}
    public init(stringInterpolation: DefaultStringInterpolation) {}
}
public struct ButtonRole: Equatable, Sendable {
    public static let destructive = ButtonRole()
    public static let cancel = ButtonRole()
}
public struct Button<Label: View>: View {
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public var body: Never { fatalError() }
}
extension Button where Label == Text {
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
    public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void) {}
    public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {}
    public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping @MainActor () -> Void) {}
}
public enum Visibility: Hashable, Sendable { case automatic, visible, hidden }
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)
    {}
    public var body: Never { fatalError() }
}
extension ForEach where ID == Data.Element.ID, Data.Element: Identifiable {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

@propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    @preconcurrency public init(
        @_inheritActorContext get: @escaping @isolated(any) @Sendable () -> Value,
        @_inheritActorContext set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) { fatalError() }
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError()
    }
}
@propertyWrapper @dynamicMemberLookup public struct Bindable<Value> {
    public var wrappedValue: Value
    public var projectedValue: Bindable<Value> { self }
    public init(wrappedValue: Value) where Value: AnyObject & Observable { self.wrappedValue = wrappedValue }
    public init(_ wrappedValue: Value) where Value: AnyObject & Observable { self.wrappedValue = wrappedValue }
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject>
    where Value: AnyObject { fatalError() }
}
@propertyWrapper public struct State<Value> {
    public init(wrappedValue: Value) { fatalError() }
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { fatalError() }
}

public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder @MainActor func body(content: Content) -> Body
}
public struct _ViewModifier_Content<M: ViewModifier>: View { public var body: Never { fatalError() } }
public struct ModifiedContent<Content, Modifier>: View { public var body: Never { fatalError() } }

public enum Edge: Int8, Hashable, Sendable { case top, leading, bottom, trailing }
public enum UnitPoint { case center }
public enum Anchor<T> { public enum Source { case bounds } }
public struct CGRectStub {}
public enum PopoverAttachmentAnchor {
    case rect(Anchor<CGRectStub>.Source)
    case point(UnitPoint)
}

extension View {
    public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { fatalError() }
    public func alert<A: View, M: View, T>(
        _ title: Text, isPresented: Binding<Bool>, presenting data: T?, @ViewBuilder actions: (T) -> A,
        @ViewBuilder message: (T) -> M
    ) -> some View { self }
    public func confirmationDialog<A: View, M: View, T>(
        _ title: Text, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic, presenting data: T?,
        @ViewBuilder actions: (T) -> A, @ViewBuilder message: (T) -> M
    ) -> some View { self }
    public func sheet<Item: Identifiable, Content: View>(
        item: Binding<Item?>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View { self }
    public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View { self }
    @available(macOS, unavailable)
    public func fullScreenCover<Item: Identifiable, Content: View>(
        item: Binding<Item?>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View { self }
    public func popover<Item: Identifiable, Content: View>(
        item: Binding<Item?>, attachmentAnchor: PopoverAttachmentAnchor = .rect(.bounds), arrowEdge: Edge = .top,
        @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View { self }
    public func navigationDestination<D: Hashable, C: View>(
        for data: D.Type, @ViewBuilder destination: @escaping (D) -> C
    ) -> some View { self }
    public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { self }
    public func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> some View { self }
    public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View { self }
}

public struct NavigationStack<Data, Root: View>: View {
    public init(path: Binding<Data>, @ViewBuilder root: () -> Root)
    where
        Data: MutableCollection, Data: RandomAccessCollection, Data: RangeReplaceableCollection, Data.Element: Hashable
    { fatalError() }
    public var body: Never { fatalError() }
}
public struct NavigationLink<Label: View, Destination: View>: View {
    public var body: Never { fatalError() }
}
extension NavigationLink where Destination == Never {
    public init<P: Hashable>(value: P?, @ViewBuilder label: () -> Label) { fatalError() }
}
public struct List<SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError() }
}
extension List where SelectionValue == Never {
    public init<Data: RandomAccessCollection, RowContent: View>(
        _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    )
    where Content == ForEach<Data, Data.Element.ID, RowContent>, Data.Element: Identifiable { fatalError() }
}
public struct HStack<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}
public struct VStack<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}
public struct Form<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}
public struct TextField<Label: View>: View { public var body: Never { fatalError() } }
extension TextField where Label == Text {
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) { fatalError() }
}
@MainActor @preconcurrency public protocol App {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
    init()
}
extension App { public static func main() {} }
@MainActor @preconcurrency public protocol Scene {}
@resultBuilder public struct SceneBuilder { public static func buildBlock<C: Scene>(_ c: C) -> C { c } }
public struct WindowGroup<Content: View>: Scene { public init(@ViewBuilder content: () -> Content) {} }
