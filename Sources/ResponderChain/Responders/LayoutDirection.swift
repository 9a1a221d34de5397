/// The direction text and reading order run in.
public enum LayoutDirection: String, Hashable, Sendable {
    /// Left to right (English, German).
    case leftToRight
    /// Right to left (Arabic, Hebrew): leading is on the right, and key commands that allow
    /// automatic mirroring swap left and right arrows and brackets.
    case rightToLeft
}
