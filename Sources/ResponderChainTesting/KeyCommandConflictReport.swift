import ResponderChain
import Testing

extension KeyCommandConflictReport {
    /// Records a test issue listing the conflicts, if there are any.
    ///
    /// - Parameter sourceLocation: Where a failure is reported.
    public func expectNoConflicts(sourceLocation: SourceLocation = #_sourceLocation) {
        if let failure = conflictsFailure { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
    }

    /// What ``expectNoConflicts(sourceLocation:)`` records: `nil` without conflicts, else the list.
    package var conflictsFailure: String? {
        let found = conflicts
        guard !found.isEmpty else { return nil }
        return "\(found.count) key-command conflicts:\n" + found.map { "  \($0)" }.joined(separator: "\n")
    }
}

extension PointerTargetReport {
    /// Records a test issue listing the items no tap can reach, if there are any.
    ///
    /// - Parameter sourceLocation: Where a failure is reported.
    public func expectNoConflicts(sourceLocation: SourceLocation = #_sourceLocation) {
        let found = conflicts
        guard !found.isEmpty else { return }
        let failure = "\(found.count) items no tap can reach:\n" + found.map { "  \($0)" }.joined(separator: "\n")
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }

    /// Records a test issue listing the items smaller than the window's minimum target size (44
    /// by 44 points by default on a screen: WCAG 2.5.5), if there are any.
    ///
    /// - Parameter sourceLocation: Where a failure is reported.
    public func expectTargetsLargeEnough(sourceLocation: SourceLocation = #_sourceLocation) {
        let found = tooSmall
        guard !found.isEmpty else { return }
        let size = minimumTargetSize.map { Size(width: $0, height: $0).description } ?? ""
        let failure =
            "\(found.count) items smaller than \(size) for a finger:\n"
            + found.map { "  \($0)" }.joined(separator: "\n")
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}
