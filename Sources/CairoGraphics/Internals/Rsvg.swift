internal import CCairoGraphics
// dlopen and dlsym only: synchronous calls with no shared state of ours.
@preconcurrency internal import Glibc

/// librsvg, opened the first time an SVG is parsed and kept open: an app whose SVGs all come from the
/// rendered-SVG cache (``SVGDiskCache``) never maps it. librsvg is 11 MB of library, some 6 MB of it
/// resident once loaded, with libxml2 and ICU behind it; Cairo, Pango and GLib are linked as before.
// @unchecked Sendable: four C function pointers, set once and never changed; librsvg's functions take their own
// handles, which a renderer keeps on its one thread.
struct Rsvg: @unchecked Sendable {
    /// The soname looked up: the runtime package's (`librsvg2-2` on Debian), whose ABI is librsvg 2's.
    static let libraryName = "librsvg-2.so.2"

    let newFromFile: CCairoGraphicsRsvgNewFromFile
    let newFromData: CCairoGraphicsRsvgNewFromData
    let intrinsicSizeInPixels: CCairoGraphicsRsvgGetIntrinsicSizeInPixels
    let renderDocument: CCairoGraphicsRsvgRenderDocument

    /// The library, opened once for the process (a thread-safe lazy global), or why it cannot be.
    static let shared: Result<Rsvg, RsvgUnavailable> = open(libraryName)

    /// Opens a library by name and looks up the four functions.
    ///
    /// Uses `dlopen` (`RTLD_NOW | RTLD_LOCAL`: its symbols stay its own) and `dlsym`.
    static func open(_ name: String) -> Result<Rsvg, RsvgUnavailable> {
        guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(RsvgUnavailable(library: name, reason: reason))
        }
        func symbol<Function>(_ symbol: String, as type: Function.Type) -> Function? {
            guard let address = dlsym(library, symbol) else { return nil }
            return unsafeBitCast(address, to: type)
        }
        guard
            let newFromFile = symbol("rsvg_handle_new_from_file", as: CCairoGraphicsRsvgNewFromFile.self),
            let newFromData = symbol("rsvg_handle_new_from_data", as: CCairoGraphicsRsvgNewFromData.self),
            let size = symbol(
                "rsvg_handle_get_intrinsic_size_in_pixels", as: CCairoGraphicsRsvgGetIntrinsicSizeInPixels.self),
            let render = symbol("rsvg_handle_render_document", as: CCairoGraphicsRsvgRenderDocument.self)
        else {
            return .failure(
                RsvgUnavailable(library: name, reason: "it lacks a function of librsvg 2.52's API (too old?)"))
        }
        return .success(
            Rsvg(
                newFromFile: newFromFile, newFromData: newFromData, intrinsicSizeInPixels: size, renderDocument: render)
        )
    }
}

/// librsvg could not be opened: the SVG is drawn as a placeholder and reported.
struct RsvgUnavailable: Error, Hashable {
    let library: String
    let reason: String

    /// What to tell a person: the library, why, and the package to install.
    var message: String { "\(library) cannot be opened (\(reason)); install librsvg2-2 to draw SVG images" }
}
