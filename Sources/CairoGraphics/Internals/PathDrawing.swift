internal import CCairoGraphics
internal import ResponderChain

/// The core's paths and gradients as Cairo's.
enum PathDrawing {
    /// Whether every coordinate is finite (Cairo would otherwise draw garbage or fail).
    static func isDrawable(_ path: Path) -> Bool {
        func finite(_ point: Point) -> Bool { point.x.isFinite && point.y.isFinite }
        for element in path.elements {
            switch element {
            case .move(let point), .line(let point):
                if !finite(point) { return false }
            case .curve(let point, let control1, let control2):
                if !finite(point) || !finite(control1) || !finite(control2) { return false }
            case .arc(let center, let radius, let start, let end):
                if !finite(center) || !radius.isFinite || !start.isFinite || !end.isFinite { return false }
            case .close: break
            }
        }
        return !path.elements.isEmpty
    }

    /// Replaces Cairo's current path with the path.
    ///
    /// Uses `cairo_move_to`, `cairo_line_to`, `cairo_curve_to`, `cairo_arc` (clockwise on screen, as
    /// `Path.Element.arc(center:radius:startAngle:endAngle:)`) and `cairo_close_path`.
    static func add(_ path: Path, to cairo: OpaquePointer) {
        cairo_new_path(cairo)
        for element in path.elements {
            switch element {
            case .move(let point): cairo_move_to(cairo, point.x, point.y)
            case .line(let point): cairo_line_to(cairo, point.x, point.y)
            case .curve(let point, let control1, let control2):
                cairo_curve_to(cairo, control1.x, control1.y, control2.x, control2.y, point.x, point.y)
            case .arc(let center, let radius, let start, let end):
                cairo_arc(cairo, center.x, center.y, max(0, radius), start, end)
            case .close: cairo_close_path(cairo)
            }
        }
    }

    /// The path moved by an offset.
    static func moved(_ path: Path, dx: Double, dy: Double) -> Path {
        func move(_ point: Point) -> Point { Point(x: point.x + dx, y: point.y + dy) }
        return Path(
            path.elements.map { element in
                switch element {
                case .move(let point): return .move(to: move(point))
                case .line(let point): return .line(to: move(point))
                case .curve(let point, let control1, let control2):
                    return .curve(to: move(point), control1: move(control1), control2: move(control2))
                case .arc(let center, let radius, let start, let end):
                    return .arc(center: move(center), radius: radius, startAngle: start, endAngle: end)
                case .close: return .close
                }
            })
    }

    /// A Cairo linear gradient (the caller destroys it); `nil` when it has no stop or a coordinate
    /// that is not finite. Stops are placed in order of location, clamped to 0…1.
    ///
    /// Uses `cairo_pattern_create_linear` and `cairo_pattern_add_color_stop_rgba`.
    static func pattern(_ gradient: LinearGradient) -> OpaquePointer? {
        let (start, end) = (gradient.start, gradient.end)
        guard !gradient.stops.isEmpty, start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite,
            let pattern = cairo_pattern_create_linear(start.x, start.y, end.x, end.y)
        else { return nil }
        for stop in gradient.stops.sorted(by: { $0.location < $1.location }) {
            let location = stop.location >= 0 ? min(stop.location, 1) : 0
            let color = stop.color
            cairo_pattern_add_color_stop_rgba(pattern, location, color.red, color.green, color.blue, color.alpha)
        }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        return pattern
    }

    /// The rectangle's corners through a matrix: their bounds.
    static func transformedBounds(
        _ rect: Rect, _ matrix: cairo_matrix_t
    ) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let corners = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)]
        var bounds = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for (x, y) in corners {
            let deviceX = matrix.xx * x + matrix.xy * y + matrix.x0
            let deviceY = matrix.yx * x + matrix.yy * y + matrix.y0
            bounds = (
                min(bounds.minX, deviceX), min(bounds.minY, deviceY), max(bounds.maxX, deviceX),
                max(bounds.maxY, deviceY)
            )
        }
        return bounds
    }
}
