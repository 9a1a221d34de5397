/// Why a scene description could not be loaded: where (file, line, column, field) and what to fix.
public struct SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name (or the name given for text that is not a file).
    public var file: String
    /// The 1-based line of the offending value.
    public var line: Int
    /// The 1-based column of the offending value.
    public var column: Int
    /// The field path, for example `root.children[2].frame`; empty for syntax errors.
    public var field: String
    /// What is wrong and how to fix it.
    public var message: String

    /// Creates a scene error.
    ///
    /// - Parameters:
    ///   - file: The file name.
    ///   - line: The line.
    ///   - column: The column.
    ///   - field: The field path.
    ///   - message: What is wrong.
    public init(file: String, line: Int, column: Int, field: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.message = message
    }

    /// `file:line:column: field: message`, the form compilers use, so editors can jump to it.
    /// Control characters from the file (its name, a quoted bad value) are escaped
    /// (`String.escapingControlCharacters(keepingNewlines:)`): the description is one line, safe to print.
    public var description: String {
        ("\(file):\(line):\(column): " + (field.isEmpty ? "" : "\(field): ") + message).escapingControlCharacters()
    }
}
