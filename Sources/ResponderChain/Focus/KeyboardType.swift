/// Which on-screen keyboard a text field asks for (UIKit's `UIKeyboardType`): letters, or a pad
/// of digits for a PIN or a quantity. A hardware keyboard types anything whatever the type.
public enum KeyboardType: String, Hashable, Sendable, CaseIterable {
    /// Letters on the active layout, with shift, digits and symbols.
    case `default`
    /// Digits 0–9, backspace and return, in large keys.
    case numberPad
    /// Digits and the decimal separator.
    case decimalPad
    /// Letters, with `@` and `.` on the first page.
    case emailAddress
}
