/// What kind of element something is, and what state it is in, for a screen reader: UIKit's
/// `UIAccessibilityTraits`. A narrator speaks them after the label and value ("Check in, button",
/// "PIN, secure text field, 4 characters", "Home, button, selected").
public struct AccessibilityTraits: OptionSet, Hashable, Sendable {
    /// The bits.
    public var rawValue: UInt32

    /// Creates traits from bits.
    ///
    /// - Parameter rawValue: The bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Runs an action when chosen: spoken "button". A ``FocusNode`` with a primary action has it
    /// unless its traits are set.
    public static let button = AccessibilityTraits(rawValue: 1 << 0)
    /// Opens something elsewhere: spoken "link".
    public static let link = AccessibilityTraits(rawValue: 1 << 1)
    /// A heading over content: spoken "heading".
    public static let header = AccessibilityTraits(rawValue: 1 << 2)
    /// Text that does not change by itself and cannot be edited.
    public static let staticText = AccessibilityTraits(rawValue: 1 << 3)
    /// A picture: spoken "image".
    public static let image = AccessibilityTraits(rawValue: 1 << 4)
    /// Edits text: spoken "text field" (``TextInputNode`` has it; "secure text field" when its entry
    /// is secure).
    public static let textField = AccessibilityTraits(rawValue: 1 << 5)
    /// A text field that searches: spoken "search field".
    public static let searchField = AccessibilityTraits(rawValue: 1 << 6)
    /// Chosen among others (the current screen's menu entry, a selected row): spoken "selected".
    public static let selected = AccessibilityTraits(rawValue: 1 << 7)
    /// Shown but unavailable: spoken "dimmed", as VoiceOver says.
    public static let notEnabled = AccessibilityTraits(rawValue: 1 << 8)
    /// Changes its value with up and down (a stepper, a slider): spoken "adjustable".
    public static let adjustable = AccessibilityTraits(rawValue: 1 << 9)
    /// Turns something on and off (a check box, a switch): spoken "toggle"; its value says which.
    public static let toggle = AccessibilityTraits(rawValue: 1 << 10)
    /// A dialog: a modal scope with this trait is spoken "dialog" after its label when presented
    /// (``FocusSystem/presentModal(_:)``).
    public static let modal = AccessibilityTraits(rawValue: 1 << 11)
    /// Its value changes by itself (a clock, a progress figure): a narrator does not speak every
    /// change.
    public static let updatesFrequently = AccessibilityTraits(rawValue: 1 << 12)
}

/// Something an app or a widget tells assistive technology: UIKit's
/// `UIAccessibility.post(notification:argument:)`. Post it with
/// ``Window/postAccessibilityNotification(_:)``; a narrator (the Accessibility module's) speaks it.
public enum AccessibilityNotification: Sendable, Equatable {
    /// Text to speak now, whatever has focus: "Checked in. Please take a seat." UIKit's
    /// `.announcement`.
    case announcement(String)
    /// The text of a field changed by an edit the user made (typing, deleting, cutting, pasting):
    /// a narrator echoes it. ``TextInputNode`` posts it.
    case textEdited(TextEdit)
    /// A dialog came or went: ``FocusSystem/presentModal(_:)`` and ``FocusSystem/dismissModal(_:)``
    /// post it after their focus update. UIKit's `.screenChanged`, which presenting a view
    /// controller posts. A narrator speaks a dialog whose presentation moved no focus (presented
    /// around the focused item, or with nothing inside that can be focused), which no focus update
    /// would tell it of. Never posted during a focus update: a scope presented from inside one is
    /// told of when focus has moved into it.
    case screenChanged
}

/// One edit of a text field, as ``AccessibilityNotification/textEdited(_:)`` reports it.
public struct TextEdit: Sendable, Equatable {
    /// The field's identifier (its `Responder/identifier`).
    public var field: String?
    /// What went in (empty for a deletion).
    public var inserted: String
    /// What went out (empty for an insertion at the cursor).
    public var removed: String
    /// Whether the field's entry is secure: then `inserted` and `removed` hold one `•` per character,
    /// never the characters.
    public var isSecure: Bool

    /// Creates an edit.
    ///
    /// - Parameters:
    ///   - field: The field's identifier.
    ///   - inserted: What went in.
    ///   - removed: What went out.
    ///   - isSecure: Whether the field's entry is secure (pass `•` for each character then).
    public init(field: String?, inserted: String, removed: String, isSecure: Bool) {
        self.field = field
        self.inserted = inserted
        self.removed = removed
        self.isSecure = isSecure
    }
}

/// What a screen reader says about a focus environment: UIKit's `UIAccessibility` informal
/// protocol, with every property defaulted here (``FocusNode`` stores them and chooses better
/// defaults). An app's own ``FocusEnvironment`` adopts them by implementing the properties.
@MainActor
public protocol AccessibilityElement: AnyObject {
    /// A short name: "Check in", "PIN". `nil` by default: a narrator then speaks the environment's
    /// `focusDebugName`, so that a missing label is heard while testing.
    var accessibilityLabel: String? { get }
    /// The current value: a field's text, a check box's "checked". `nil` by default.
    var accessibilityValue: String? { get }
    /// What choosing it does, spoken last: "Opens the check-in form". `nil` by default.
    var accessibilityHint: String? { get }
    /// What kind of element it is and its state. Empty by default.
    var accessibilityTraits: AccessibilityTraits { get }
    /// Whether a narrator speaks it when it gains focus, and counts it in "3 of 6". By default,
    /// whether it is a focus item that can be focused.
    var isAccessibilityElement: Bool { get }
    /// The language of its label and value (a BCP 47 tag such as `de`), when it differs from the
    /// app's. `nil` by default.
    var accessibilityLanguage: String? { get }
}

extension AccessibilityElement {
    /// `nil`.
    public var accessibilityLabel: String? { nil }
    /// `nil`.
    public var accessibilityValue: String? { nil }
    /// `nil`.
    public var accessibilityHint: String? { nil }
    /// Empty.
    public var accessibilityTraits: AccessibilityTraits { [] }
    /// Whether it is a focus item that can be focused.
    public var isAccessibilityElement: Bool { (self as? any FocusItem)?.canBecomeFocused ?? false }
    /// `nil`.
    public var accessibilityLanguage: String? { nil }
}

/// A ``FocusNode``'s accessibility properties, kept out of the node until one is set: a tree of
/// 100,000 nodes that sets none carries one pointer each.
@MainActor
final class AccessibilityStorage {
    var label: String?
    var value: String?
    var hint: String?
    var traits: AccessibilityTraits?
    var isElement: Bool?
    var language: String?
}

extension Window {
    /// Tells every accessibility observer (a narrator) something: an announcement to speak, an
    /// edit to echo. Costs nothing when nobody observes.
    ///
    /// ```swift
    /// window.postAccessibilityNotification(.announcement("Checked in. Please take a seat."))
    /// ```
    ///
    /// - Parameter notification: What to tell.
    public func postAccessibilityNotification(_ notification: AccessibilityNotification) {
        guard !accessibilityObservers.isEmpty else { return }
        // Each observer is looked up again before it is called: one removed by an earlier one (its
        // narrator gone) is not called.
        for (id, _) in accessibilityObservers {
            guard let observer = accessibilityObservers.first(where: { $0.id == id }) else { continue }
            observer.body(notification)
        }
    }

    /// Registers a closure called with every posted ``AccessibilityNotification``.
    ///
    /// - Parameter body: The observer.
    /// - Returns: A token for ``removeAccessibilityObserver(_:)``.
    @discardableResult
    public func addAccessibilityObserver(_ body: @escaping (AccessibilityNotification) -> Void) -> UInt64 {
        nextAccessibilityObserver += 1
        accessibilityObservers.append((nextAccessibilityObserver, body))
        return nextAccessibilityObserver
    }

    /// Removes an observer ``addAccessibilityObserver(_:)`` registered.
    ///
    /// - Parameter token: Its token.
    public func removeAccessibilityObserver(_ token: UInt64) {
        // Taken out, then dropped after the array's access has ended: the closure may own an object
        // whose deinit removes another observer.
        guard let position = accessibilityObservers.firstIndex(where: { $0.id == token }) else { return }
        let removed = accessibilityObservers.remove(at: position)
        withExtendedLifetime(removed) {}
    }

    /// Whether anything observes accessibility notifications: a widget skips building one when not.
    public var hasAccessibilityObservers: Bool { !accessibilityObservers.isEmpty }
}
