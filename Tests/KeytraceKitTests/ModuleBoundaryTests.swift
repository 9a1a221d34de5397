import Foundation
import Testing

/// keytrace's library and its front end call no C library themselves: libc belongs to LinuxSystem
/// (and each device library to its module), which exposes what keytrace needs with `package` access.
/// The tests keep to the modules too: a test target per module, named for it (issue 36).
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

    /// Test targets of no one module: the built programs run as a user runs them, and every input a
    /// fuzzer crashed on, read again through the path it crashed.
    static let testTargetsOfNoModule: Set<String> = ["EndToEndTests", "FuzzRegressionTests"]

    /// A test file that may import another module than its target's `@testable`: the kiosk example's own
    /// tree, by ear.
    static let testableElsewhere = ["AccessibilityTests/KioskNarrationTests.swift": "KioskExample"]

    /// The names of the test targets Package.swift declares.
    static func testTargets() throws -> [String] {
        let manifest = try String(
            contentsOf: sources.deletingLastPathComponent().appendingPathComponent("Package.swift"), encoding: .utf8)
        return manifest.components(separatedBy: ".testTarget(").dropFirst().compactMap { declaration in
            guard let name = declaration.components(separatedBy: "name: \"").dropFirst().first else { return nil }
            return name.components(separatedBy: "\"").first
        }
    }

    /// The names of the types a Swift file declares (a suite is a type).
    static func typeNames(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: "//").first?.split(whereSeparator: { " :{<(".contains($0) }) ?? []
            guard let index = words.firstIndex(where: { ["struct", "class", "enum", "actor"].contains($0) }),
                index + 1 < words.count
            else { return nil }
            return String(words[index + 1])
        }
    }

    @Test("every test target is <Module>Tests for a module of Sources; no test file or type is named as another target")
    func testLayout() throws {
        let files = FileManager.default
        let tests = Self.sources.deletingLastPathComponent().appendingPathComponent("Tests")
        let targets = try Self.testTargets()
        let modules = Set(try files.contentsOfDirectory(atPath: Self.sources.path))
        let folders = try files.contentsOfDirectory(atPath: tests.path).filter { $0 != "TestSupport" }
        #expect(Set(folders) == Set(targets), "one folder of Tests per test target, and TestSupport")
        for target in targets where !Self.testTargetsOfNoModule.contains(target) {
            #expect(
                target.hasSuffix("Tests") && modules.contains(String(target.dropLast(5))),
                "\(target) is named for no module of Sources: a test target is <Module>Tests, for the module it tests")
        }
        for target in targets {
            let module = String(target.dropLast(5)).replacingOccurrences(of: "-", with: "_")
            let folder = tests.appendingPathComponent(target)
            let paths = try #require(files.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            for path in paths where path.hasSuffix(".swift") {
                let place = "\(target)/\(path)"
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                let name = String(path.split(separator: "/").last?.dropLast(".swift".count) ?? "")
                #expect(
                    name == target || !targets.contains(name),
                    "\(place) is named as the test target \(name): name it for what it tests")
                for type in Self.typeNames(in: text) where type != target && targets.contains(type) {
                    #expect(
                        Bool(false), "\(place) declares \(type), the name of a test target: name it for what it tests")
                }
                for line in text.split(separator: "\n") where line.hasPrefix("@testable import ") {
                    let imported = Self.module(of: String(line)) ?? ""
                    #expect(
                        imported == module || Self.testableElsewhere[place] == imported,
                        "\(place) tests \(imported) (@testable import): it belongs in \(imported)Tests")
                }
            }
        }
    }

    @Test("LinuxSystem imports nothing but libc and the standard library's modules: it depends on no module")
    func linuxSystemStandsAlone() throws {
        #expect(try Self.packageDependencies()["LinuxSystem"] == [], "Package.swift declares none")
        let lines = try Self.imports(under: "LinuxSystem")
        #expect(!lines.isEmpty)
        for (file, line) in lines {
            #expect(["Glibc", "Synchronization"].contains(Self.module(of: line) ?? ""), "\(file): \(line)")
        }
    }

    @Test("EvdevInput reaches udev through the Udev module alone: its only C modules are libevdev and libc")
    func evdevInputOnUdev() throws {
        let modules = try Self.imports(under: "EvdevInput").compactMap { Self.module(of: $0.line) }
        #expect(modules.contains("Udev"))
        #expect(!modules.contains("CUdev"))
        #expect(Set(modules.filter { Self.cModules.contains($0) }).isSubset(of: ["CEvdev", "Glibc"]))
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
