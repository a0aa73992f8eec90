// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// A stand-in for the part of AppKit's interface that Prism's macOS-only code uses (see
// SwiftUI.swift beside it): Tools/scripts/typecheck-swiftui.sh type-checks that code against it.
@MainActor public final class NSApplication {
    public enum ActivationPolicy: Int { case regular, accessory, prohibited }
    public static let shared = NSApplication()
    @discardableResult public func setActivationPolicy(_ activationPolicy: ActivationPolicy) -> Bool { true }
    public func activate() {}
}
