import ResponderChain
import Testing

extension KeyCommandConflictReport {
    /// Records a test issue listing the conflicts, if there are any.
    ///
    /// - Parameter sourceLocation: Where a failure is reported.
    public func expectNoConflicts(sourceLocation: SourceLocation = #_sourceLocation) {
        let found = conflicts
        guard !found.isEmpty else { return }
        Issue.record(
            Comment(
                rawValue: "\(found.count) key-command conflicts:\n" + found.map { "  \($0)" }.joined(separator: "\n")),
            sourceLocation: sourceLocation)
    }
}
