/// Observe and set which item has focus through a value, like SwiftUI's `@FocusState`.
///
/// Bind items to values; ``value`` is the value of the focused item, or `nil` when focus is on
/// none of them. Setting it moves focus to the item bound to that value; setting `nil` removes
/// focus from the bound items.
///
/// ```swift
/// enum Field: Hashable { case name, email }
/// let focusedField = FocusBinding<Field>(focusSystem)
/// focusedField.bind(nameField, to: .name)
/// focusedField.bind(emailField, to: .email)
/// focusedField.value = .email                     // focus moves to emailField
/// focusedField.onChange = { print("now \($0.map(String.init(describing:)) ?? "nothing")") }
/// ```
@MainActor
public final class FocusBinding<Value: Hashable> {
    /// The focus system the binding reads and moves.
    public let focusSystem: FocusSystem
    /// Called after focus moves onto, off or between bound items, with the new value.
    public var onChange: ((Value?) -> Void)?

    private var bindings: [(value: Value, item: any FocusItem)] = []
    private var observation: UInt64?

    /// Creates a binding with no items.
    ///
    /// - Parameter focusSystem: The focus system.
    public init(_ focusSystem: FocusSystem) {
        self.focusSystem = focusSystem
        observation = focusSystem.addObserver { [unowned self] context in
            let old = context.previouslyFocusedItem.flatMap { self.value(of: $0) }
            let new = context.nextFocusedItem.flatMap { self.value(of: $0) }
            if old != new { self.onChange?(new) }
        }
    }

    isolated deinit {
        if let observation { focusSystem.removeObserver(observation) }
    }

    /// Binds an item to a value; an item bound before to another value is rebound.
    ///
    /// - Parameters:
    ///   - item: The item.
    ///   - value: Its value.
    public func bind(_ item: any FocusItem, to value: Value) {
        bindings.removeAll { $0.item === item }
        bindings.append((value, item))
    }

    private func value(of item: any FocusItem) -> Value? {
        bindings.first { $0.item === item }?.value
    }

    /// The value of the focused item, or `nil` when focus is on none of the bound items. Setting
    /// it requests focus on the bound item (which may be refused by a veto); setting `nil` clears
    /// focus if a bound item has it.
    public var value: Value? {
        get { focusSystem.focusedItem.flatMap { value(of: $0) } }
        set {
            guard let newValue else {
                if get() != nil { focusSystem.clearFocus() }
                return
            }
            guard let target = bindings.first(where: { $0.value == newValue })?.item else { return }
            focusSystem.requestFocus(on: target)
        }
    }

    private func get() -> Value? { value }
}
