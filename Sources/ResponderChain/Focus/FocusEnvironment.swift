/// Where a focus move heads.
public enum FocusHeading: String, Hashable, Sendable, CaseIterable {
    /// Tab: the next stop of the tab loop.
    case next
    /// Shift-Tab: the previous stop of the tab loop.
    case previous
    /// Up arrow.
    case up
    /// Down arrow.
    case down
    /// Left arrow.
    case left
    /// Right arrow.
    case right
    /// A move with no direction: a request, a first-responder change, a removal.
    case none
}

/// Why focus moved.
public enum FocusUpdateCause: String, CaseIterable, Hashable, Sendable {
    /// Tab.
    case tab
    /// Shift-Tab.
    case shiftTab
    /// An arrow key.
    case arrow
    /// A select key (or selection following focus).
    case select
    /// A focus request (``FocusSystem/requestFocus(on:)``, ``FocusSystem/setNeedsFocusUpdate(on:)``, initial focus).
    case request
    /// A responder became first responder and focus followed it.
    case firstResponder
    /// The focused item disappeared, became hidden or stopped being focusable.
    case removal
}

/// The automatic focus groups UIKit forms without an identifier.
public enum FocusGroupKind: String, Hashable, Sendable {
    /// No automatic group: the environment inherits its parent's group.
    case none
    /// A scrolling or list container: its content forms one group.
    case container
    /// A text input: a group of its own.
    case textInput
}

/// What an environment is to directional (arrow) navigation.
public enum FocusRole: Hashable, Sendable {
    /// An ordinary environment or item.
    case plain
    /// A focus guide: an invisible region that arrows can land on; it hands focus to its preferred
    /// environments. A disabled guide is ignored.
    case guide(isEnabled: Bool)
    /// A focus section: arrows from outside treat the whole container as one target and focus its
    /// focusable content nearest to where focus came from.
    case section
}

/// How keyboard focus may reach an item (SwiftUI's `FocusInteractions`).
public struct FocusInteractions: OptionSet, Hashable, Sendable {
    /// The bits.
    public var rawValue: UInt8

    /// Creates interactions from bits.
    ///
    /// - Parameter rawValue: The bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The item edits content (text fields): always focusable by keyboard.
    public static let edit = FocusInteractions(rawValue: 1 << 0)
    /// The item is activated (buttons, list rows): focusable by keyboard only when
    /// ``FocusSystem/fullKeyboardAccess`` is on.
    public static let activate = FocusInteractions(rawValue: 1 << 1)
    /// Both.
    public static let automatic: FocusInteractions = [.edit, .activate]
}

/// A focus group's priority for choosing its primary item: UIKit's `UIFocusGroupPriority`.
///
/// The effective priority of an item is the higher of its own and the system's: the system gives
/// the remembered (previously focused) item of a group ``previouslyFocused`` and the focused item
/// ``currentlyFocused``. An app priority can raise an item above those but never lower it.
public struct FocusGroupPriority: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The value.
    public var rawValue: Int

    /// Creates a priority.
    ///
    /// - Parameter rawValue: The value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// 0: no preference.
    public static let ignored = FocusGroupPriority(rawValue: 0)
    /// 1000: what the system gives the item last focused in a group.
    public static let previouslyFocused = FocusGroupPriority(rawValue: 1000)
    /// 2000: a priority apps give the item that should win over the remembered one.
    public static let prioritized = FocusGroupPriority(rawValue: 2000)
    /// `Int.max`: what the system gives the focused item.
    public static let currentlyFocused = FocusGroupPriority(rawValue: Int.max)

    /// Orders by value.
    public static func < (lhs: FocusGroupPriority, rhs: FocusGroupPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Adds to a priority, for example `.previouslyFocused + 10`.
    public static func + (lhs: FocusGroupPriority, rhs: Int) -> FocusGroupPriority {
        FocusGroupPriority(rawValue: lhs.rawValue &+ rhs)
    }

    /// The name of a constant, or the number.
    public var description: String {
        switch self {
        case .ignored: return "ignored"
        case .previouslyFocused: return "previouslyFocused"
        case .prioritized: return "prioritized"
        case .currentlyFocused: return "currentlyFocused"
        default: return String(rawValue)
        }
    }
}

/// Everything about one focus update, given to ``FocusEnvironment/shouldUpdateFocus(in:)`` and
/// ``FocusEnvironment/didUpdateFocus(in:)``.
public struct FocusUpdateContext {
    /// The item that had focus, if any.
    public let previouslyFocusedItem: (any FocusItem)?
    /// The item that gets focus, if any.
    public let nextFocusedItem: (any FocusItem)?
    /// Where the move heads.
    public let heading: FocusHeading
    /// Why focus moves.
    public let cause: FocusUpdateCause
    let previousGroupName: FocusGroupName?
    let nextGroupName: FocusGroupName?

    /// The focus group of the previous item.
    @MainActor public var previousGroup: String? { previousGroupName?.identifier }
    /// The focus group of the next item.
    @MainActor public var nextGroup: String? { nextGroupName?.identifier }

    /// Whether focus leaves one focus group for another.
    @MainActor public var groupChanged: Bool { !FocusGroupName.same(previousGroupName, nextGroupName) }
}

/// Something that takes part in focus: a container, or (as ``FocusItem``) something that can be
/// focused. UIKit's `UIFocusEnvironment`.
///
/// Adopt it for an app's own widget tree, or content drawn by a custom renderer; ``FocusNode`` is
/// a ready-made adopter that is also a ``Responder``. Every requirement except the tree links has
/// a default.
@MainActor
public protocol FocusEnvironment: AccessibilityElement {
    /// The parent environment, or `nil` at the root.
    var parentFocusEnvironment: (any FocusEnvironment)? { get }
    /// The child environments.
    var childFocusEnvironments: [any FocusEnvironment] { get }
    /// Where focus should go inside this environment, in order of preference. Empty by default:
    /// the focus system then takes the first focusable item in reading order.
    var preferredFocusEnvironments: [any FocusEnvironment] { get }
    /// The focus group this environment declares, or `nil` to inherit its parent's.
    var focusGroupIdentifier: String? { get }
    /// The automatic group this environment forms (a scrolling container, a text input).
    var focusGroupKind: FocusGroupKind { get }
    /// The app's place for this environment in the tab loop, where reading order is not what the
    /// screen means: Flutter's `NumericFocusOrder`, Qt's `setTabOrder`. `nil` by default: reading order.
    ///
    /// It orders the blocks of one group, the group this environment sits in: blocks with an order
    /// come first, smaller first; ties and blocks without one follow in reading order. An
    /// environment that declares a group (``focusGroupIdentifier``, an automatic group) orders that
    /// group among its siblings; a focusable item in no group orders its own single-item group. An
    /// item inside a group also orders its group's own stop among the group's child groups (the
    /// smallest order of the members counts) and breaks priority ties when the group picks its
    /// primary item. On other environments it has no effect (the focus debugger lists them).
    /// NaN counts as no order. Arrows stay geometric.
    ///
    /// Give the order to the groups: for plate field, pay buttons, keyboard, `1` on the plate
    /// field, `2` on the pay buttons' group, `3` on the keyboard's group. An adopter that changes
    /// it calls ``FocusSystem/invalidateLayout(of:changes:)`` with ``FocusLayoutChanges/structure``.
    var focusTraversalOrder: Double? { get }
    /// Guide, section or plain.
    var focusRole: FocusRole { get }
    /// The reading direction of this subtree, or `nil` to inherit.
    var layoutDirection: LayoutDirection? { get }
    /// The frame in the window's coordinate space; the union of the children's frames by default.
    var focusFrame: Rect { get }
    /// Whether this environment and its subtree are hidden.
    var isHiddenFromFocus: Bool { get }
    /// Whether items in this container select when focused; `nil` to inherit. Items may override.
    var selectionFollowsFocus: Bool? { get }
    /// A name for traces and the focus debugger.
    var focusDebugName: String { get }

    /// Whether this environment lets a focus update happen. `true` by default.
    ///
    /// - Parameter context: The update.
    /// - Returns: `false` to veto it.
    func shouldUpdateFocus(in context: FocusUpdateContext) -> Bool

    /// Focus moved into, out of or within this environment. Does nothing by default.
    ///
    /// - Parameter context: The update.
    func didUpdateFocus(in context: FocusUpdateContext)
}

/// An environment that can be focused: UIKit's `UIFocusItem`.
public protocol FocusItem: FocusEnvironment {
    /// Whether the item can be focused at all (visibility and size are checked separately).
    var canBecomeFocused: Bool { get }
    /// How keyboard focus may reach the item.
    var focusInteractions: FocusInteractions { get }
    /// The item's priority for becoming its group's primary item.
    var focusGroupPriority: FocusGroupPriority { get }
    /// The action the select key sends to the focused item, if any.
    var primaryAction: Action? { get }
}

extension FocusEnvironment {
    /// Empty.
    public var preferredFocusEnvironments: [any FocusEnvironment] { [] }
    /// `nil`: inherit.
    public var focusGroupIdentifier: String? { nil }
    /// ``FocusGroupKind/none``.
    public var focusGroupKind: FocusGroupKind { .none }
    /// `nil`: reading order.
    public var focusTraversalOrder: Double? { nil }
    /// ``FocusRole/plain``.
    public var focusRole: FocusRole { .plain }
    /// `nil`: inherit.
    public var layoutDirection: LayoutDirection? { nil }
    /// The union of the children's frames.
    public var focusFrame: Rect {
        childFocusEnvironments.reduce(Rect.zero) { $0.union($1.focusFrame) }
    }
    /// `false`.
    public var isHiddenFromFocus: Bool { false }
    /// `nil`: inherit.
    public var selectionFollowsFocus: Bool? { nil }
    /// The type name.
    public var focusDebugName: String { String(describing: type(of: self)) }
    /// `true`.
    public func shouldUpdateFocus(in context: FocusUpdateContext) -> Bool { true }
    /// Does nothing.
    public func didUpdateFocus(in context: FocusUpdateContext) {}
}

extension FocusItem {
    /// ``FocusInteractions/automatic``.
    public var focusInteractions: FocusInteractions { .automatic }
    /// ``FocusGroupPriority/ignored``.
    public var focusGroupPriority: FocusGroupPriority { .ignored }
    /// `nil`.
    public var primaryAction: Action? { nil }
}
