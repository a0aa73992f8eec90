/// A snapshot the inspector records that is not an action: where the recording starts again
/// from a state no action of the recording explains.
struct InspectorMarker: CustomStringConvertible, Sendable {
    /// The note shown in the action list, in parentheses.
    let description: String

    static let attached = InspectorMarker(description: "(inspector attached)")
    static let replaced = InspectorMarker(description: "(state replaced without an action)")

    static func resumed(skipping count: Int) -> InspectorMarker {
        InspectorMarker(
            description: count == 1
                ? "(recording resumed; 1 action was not recorded)"
                : "(recording resumed; \(count) actions were not recorded)")
    }

    static func loaded(_ count: Int, from fileName: String?) -> InspectorMarker {
        InspectorMarker(
            description: "(loaded \(fileName.map { "\"\($0)\"" } ?? "a recording"): \(count) actions, effects not run)")
    }
}
