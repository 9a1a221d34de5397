import Foundation
import Testing

/// keytrace's library and its front end call no C library themselves: libc belongs to LinuxSystem
/// (and each device library to its module), which exposes what keytrace needs with `package` access.
@Suite struct ModuleBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// The C modules a Swift file could import: Glibc and the package's own system-library targets.
    static let cModules = [
        "Glibc", "CEvdev", "CUdev", "CXKBCommon", "CSeat", "CWayland", "CWaylandProtocols", "CLinuxEvents", "CDRM",
        "CInput", "CFontRendering",
    ]

    /// What may come before `import` on an import line.
    static let importPrefixes: Set<String> = [
        "@preconcurrency", "@testable", "internal", "public", "package", "private", "fileprivate",
    ]

    /// Every `import` line of the Swift files under a folder of Sources, with its file.
    static func imports(under folder: String) throws -> [(file: String, line: String)] {
        let root = sources.appendingPathComponent(folder)
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
        var found: [(String, String)] = []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: "//").first?.split(separator: " ") ?? []
                guard let index = words.firstIndex(of: "import"),
                    words[..<index].allSatisfy({ Self.importPrefixes.contains(String($0)) })
                else { continue }
                found.append((folder + "/" + file, String(line)))
            }
        }
        return found
    }

    @Test("KeytraceKit and keytrace import no C module: libc calls and errno values come from LinuxSystem")
    func noCModule() throws {
        for folder in ["KeytraceKit", "keytrace"] {
            let lines = try Self.imports(under: folder)
            #expect(!lines.isEmpty, "\(folder) has Swift files with imports")
            for (file, line) in lines {
                // `@preconcurrency internal import Glibc  // why`: the word after `import`.
                let words = line.split(separator: "//").first?.split(separator: " ") ?? []
                let module = words.firstIndex(of: "import").flatMap { words.dropFirst($0 + 1).first }.map(String.init)
                #expect(module != nil && !Self.cModules.contains(module ?? ""), "\(file): \(line)")
            }
        }
    }
}
