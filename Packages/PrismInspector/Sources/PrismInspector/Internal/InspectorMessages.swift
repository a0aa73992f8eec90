import PrismInspectorModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The WebSocket protocol between the inspector and its page: JSON text messages, each with a
// `type`. The page's side is in Resources/inspector.js; the DocC catalog lists every message.

/// Server → page, first: what the store is and what the page may do.
struct HelloMessage: Encodable {
    let type = "hello"
    let title: String
    let stateType: String
    let actionType: String
    let canSendActions: Bool
    let canExport: Bool
    let canLoad: Bool
    let historyLimit: Int
    let recording: Bool
    /// Whether the store is locked (its actions held), and how many it holds.
    let locked: Bool
    let held: Int
    /// Every store the page can switch to (several inspectors sharing one server), and this
    /// one's id among them.
    let stores: [StoreInfo]
    let store: Int
}

/// Server → page: the stores the page can switch to, after one joined or left.
struct StoresMessage: Encodable {
    let type = "stores"
    let stores: [StoreInfo]
}

/// Server → page: actions recorded since the last batch.
struct ActionsMessage: Encodable {
    let type = "actions"
    /// Whether the page should forget what it had (first batch, or a loaded recording).
    let reset: Bool
    let entries: [Entry]
    /// Actions recorded that the page will never see: evicted from the history before it
    /// could be sent (more actions than the history keeps, faster than the page reads).
    let dropped: Int
    /// The snapshot the store is at (after a jump, not the newest).
    let current: Int?
    /// Whether recording is on.
    let recording: Bool

    struct Entry: Encodable {
        /// The snapshot's number.
        let index: Int
        /// The snapshot this one follows; the page drops any it has between the two (recorded
        /// after a jump back, an action replaces the snapshots ahead).
        let parent: Int?
        /// When, in milliseconds since 1970.
        let time: Double
        /// How long the reduce took, in nanoseconds, when measured (while a page is open).
        let duration: Int64?
        /// The action's name (`rows.element.toggle`), or the marker's text.
        let name: String
        /// The action on one line, secrets redacted.
        let summary: String
        /// Whether this is not an action but a note (attached, state replaced, resumed, loaded).
        let marker: Bool
        /// Whether the action is skipped (its state and those after it recomputed without it).
        let skipped: Bool
        /// Whether an effect sent the action (rather than a `send`).
        let byEffect: Bool
    }
}

/// Server → page: the effects still running, by the action that started them.
struct EffectsMessage: Encodable {
    let type = "effects"
    let running: [Effect]

    struct Effect: Encodable {
        let index: Int
        let name: String
        /// When it started, in milliseconds since 1970.
        let since: Double
    }
}

/// Server → page: one snapshot, as the page asked (`select`).
struct StateMessage: Encodable {
    let type = "state"
    let index: Int
    let state: ValueNode
    let action: ValueNode?
    /// What the action changed from the snapshot before it (empty for the first one kept).
    let diff: [DiffLine]
    /// Whether there was a snapshot before it to compare with.
    let hasPrevious: Bool
    /// The action as JSON, to edit and send again (when the action type is `Codable`).
    let actionJSON: String?
    /// Where the action was sent (`Features/Settings.swift:42 in save()`), when a send noted it.
    let sentFrom: String?
}

/// Server → page: every skipped action, after one was skipped or turned on again (the states
/// after it changed: a page shows its selected snapshot again).
struct SkippedMessage: Encodable {
    let type = "skipped"
    let indices: [Int]
}

/// Server → page: whether the store is locked and how many actions it holds, when that changed.
struct LockMessage: Encodable, Equatable {
    let type = "lock"
    let locked: Bool
    let held: Int
}

/// Server → page: a Swift Testing test of the chosen actions, as the page asked (`test`).
struct TestMessage: Encodable {
    let type = "test"
    let fileName: String
    let source: String
    /// How many actions it replays.
    let actions: Int
    /// Whether values shown redacted are written in it, in clear.
    let containsSecrets: Bool
}

/// Server → page: the store is now at `index` (time travel).
struct JumpedMessage: Encodable {
    let type = "jumped"
    let index: Int
}

/// Server → page: a short note for the user, or an error.
struct NoticeMessage: Encodable {
    let type: String
    let message: String

    static func notice(_ message: String) -> Self { Self(type: "notice", message: message) }
    static func error(_ message: String) -> Self { Self(type: "error", message: message) }
}

/// Page → server: the `type`, and the fields that some messages have.
struct IncomingMessage: Decodable {
    /// `select`, `jump`, `record`, `skip`, `lock`, `test`, `export`, `load`, `send`.
    let type: String
    let index: Int?
    /// `test`: the last action of the range that starts at `index`.
    let through: Int?
    let on: Bool?
    /// `lock` with `on: false`: drop the held actions rather than release them.
    let drop: Bool?
}

/// Page → server: `send`, an action typed as JSON.
struct SendActionMessage<Action: Decodable>: Decodable {
    let action: Action
}

/// Page → server: `load`, a session recording's JSON under `data`.
struct LoadMessage<Recording: Decodable>: Decodable {
    let data: Recording
    let fileName: String?
}

extension Encodable {
    /// The value as JSON text (nil if it cannot be encoded, which the types above never do).
    var jsonText: String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(self)).flatMap { String(data: $0, encoding: .utf8) }
    }
}
