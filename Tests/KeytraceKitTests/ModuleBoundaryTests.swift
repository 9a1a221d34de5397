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

    /// What may come before `import` on an import line, besides any attribute (`@preconcurrency`,
    /// `@_implementationOnly`, `@testable`).
    static let importPrefixes: Set<String> = ["internal", "public", "package", "private", "fileprivate"]

    /// The kinds a scoped import names (`import struct Glibc.stat`).
    static let importKinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]

    /// The module an import line imports: the word after `import` (and after a kind), before any `.`.
    static func module(of line: String) -> String? {
        let words = line.split(separator: "//").first?.split(separator: " ") ?? []
        guard let index = words.firstIndex(of: "import") else { return nil }
        var rest = words.dropFirst(index + 1)
        if let kind = rest.first, importKinds.contains(String(kind)) { rest = rest.dropFirst() }
        return rest.first.flatMap { $0.split(separator: ".").first }.map(String.init)
    }

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
                    words[..<index].allSatisfy({ $0.hasPrefix("@") || Self.importPrefixes.contains(String($0)) })
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
                let module = Self.module(of: line)
                #expect(module != nil && !Self.cModules.contains(module ?? ""), "\(file): \(line)")
            }
        }
    }

    /// The modules a terminal app must not link by using AppSpeech: the display stack, the devices and
    /// their C libraries.
    static let graphicalOrDevice: Set<String> = [
        "LinuxKeyboard", "XKBKeymap", "EvdevInput", "WaylandClient", "PixelCanvas", "DRMOutput", "LibinputInput",
        "Seat", "Udev", "CEvdev", "CUdev", "CXKBCommon", "CSeat", "CWayland", "CWaylandProtocols", "CDRM", "CInput",
        "CFontRendering",
    ]

    /// Each target's dependencies as Package.swift declares them: the quoted names in the
    /// `dependencies: [ … ]` after a `name: "…"`.
    static func packageDependencies() throws -> [String: [String]] {
        let manifest = try String(
            contentsOf: sources.deletingLastPathComponent().appendingPathComponent("Package.swift"), encoding: .utf8)
        var result: [String: [String]] = [:]
        for declaration in manifest.components(separatedBy: "name: \"").dropFirst() {
            guard let nameEnd = declaration.firstIndex(of: "\"") else { continue }
            let name = String(declaration[..<nameEnd])
            guard let list = declaration.range(of: "dependencies: [") else { continue }
            let inside = declaration[list.upperBound...].prefix { $0 != "]" }
            result[name] = inside.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map {
                String($0.element)
            }
        }
        return result
    }

    @Test("AppSpeech depends on nothing graphical or device-bound, directly or through its dependencies")
    func appSpeechLinksNoDisplayStack() throws {
        let dependencies = try Self.packageDependencies()
        let direct = try #require(dependencies["AppSpeech"], "Package.swift declares AppSpeech's dependencies")
        #expect(
            Set(direct) == [
                "AppRuntime", "Accessibility", "SpeechDispatcher", "ResponderChain", "EventLoop", "LinuxSystem",
            ])
        var reached: Set<String> = []
        var waiting = direct
        while let next = waiting.popLast() {
            guard reached.insert(next).inserted else { continue }
            waiting += dependencies[next] ?? []
        }
        #expect(reached.contains("TerminalIO"), "the walk follows AppRuntime's own dependencies: \(reached.sorted())")
        #expect(reached.isDisjoint(with: Self.graphicalOrDevice), "\(reached.intersection(Self.graphicalOrDevice))")
        for (file, line) in try Self.imports(under: "AppSpeech") {
            let module = try #require(Self.module(of: line))
            #expect(direct.contains(module), "\(file) imports \(module), which is not a dependency: \(line)")
        }
    }

    @Test(
        "every form of import is read: attributes, access, a scoped import's kind and symbol",
        arguments: [
            ("import Glibc", "Glibc"),
            ("@preconcurrency internal import Glibc  // why", "Glibc"),
            ("@_implementationOnly import CEvdev", "CEvdev"),
            ("import struct Glibc.stat", "Glibc"),
            ("internal import func Glibc.poll", "Glibc"),
            ("public import LinuxSystem", "LinuxSystem"),
        ])
    func importForms(line: String, module: String) throws {
        #expect(Self.module(of: line) == module)
    }
}
