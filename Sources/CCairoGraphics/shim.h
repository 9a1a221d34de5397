// The C side of CairoGraphics: Cairo from its own header, and the few Pango, pangocairo, librsvg and GLib
// calls it uses, declared here by hand.
//
// Why by hand: Pango's and librsvg's headers need glib's include paths, and glib's pkg-config flags carry
// -pthread, which SwiftPM reports as a prohibited flag on every build (a warning nobody can silence, and
// unsafeFlags would make the package unusable as a dependency). Cairo's header needs no include path
// (<cairo/cairo.h> is found in /usr/include), so nothing here needs pkg-config and the build is quiet.
//
// Kept honest by Tools/check-shims (run by Tools/test): it compiles this file after the real headers
// (pkg-config --cflags pangocairo librsvg-2.0) with CCAIROGRAPHICS_CHECK defined, so that C rejects any
// declaration that differs from the library's (a parameter's type, a return type, an enum's underlying
// type), asserts every enum value below against the real enumerator and every mirrored struct's layout
// against the real struct.
//
// C types as glib defines them: gint and gboolean are int, guint unsigned int, gchar char, guint8
// unsigned char, gsize unsigned long (on the 64-bit Linux targets we build for), GQuark a 32-bit
// unsigned int. A C enum whose values are all non-negative has unsigned int as its compatible
// type, so parameters of Pango's enum types are declared unsigned int (the check fails if that changes).
#ifndef CCAIROGRAPHICS_SHIM_H
#define CCAIROGRAPHICS_SHIM_H

#include <cairo/cairo.h>
// fontconfig's header, like Cairo's, needs no include path: taken as it is (FcInit, to warm it early).
#include <fontconfig/fontconfig.h>

// GLib and GObject.
typedef char gchar;
typedef unsigned char guint8;
typedef unsigned long gsize;
typedef int gint;
typedef gint gboolean;
typedef unsigned int guint;
typedef double gdouble;
typedef void *gpointer;
typedef struct _GError GError;

void g_object_unref(gpointer object);
void g_error_free(GError *error);

// GError's fields (struct _GError in glib/gerror.h), under a name of our own: the real struct cannot be
// defined twice in one C file, so the check compares this one's layout with it instead.
#define CCAIROGRAPHICS_GERROR_FIELDS \
    unsigned int domain;             \
    int code;                        \
    char *message;
struct CCairoGraphicsErrorFields {
    CCAIROGRAPHICS_GERROR_FIELDS
};

/// The message of an error from GLib (librsvg's), or NULL.
static inline const char *ccairographics_error_message(const GError *error) {
    return error ? ((const struct CCairoGraphicsErrorFields *)(const void *)error)->message : (const char *)0;
}

// Pango.
typedef struct _PangoContext PangoContext;
typedef struct _PangoFontMap PangoFontMap;
typedef struct _PangoFontDescription PangoFontDescription;
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoLayoutLine PangoLayoutLine;
typedef struct _PangoLayoutIter PangoLayoutIter;

/// Pango units per device unit (PANGO_SCALE).
enum { CCairoGraphicsPangoScale = 1024 };

// PangoDirection, PangoStyle, PangoAlignment, PangoWrapMode, PangoEllipsizeMode: the values used.
enum {
    CCairoGraphicsPangoDirectionLTR = 0,
    CCairoGraphicsPangoDirectionRTL = 1,
    CCairoGraphicsPangoStyleNormal = 0,
    CCairoGraphicsPangoStyleItalic = 2,
    CCairoGraphicsPangoAlignLeft = 0,
    CCairoGraphicsPangoAlignCenter = 1,
    CCairoGraphicsPangoAlignRight = 2,
    CCairoGraphicsPangoWrapWordChar = 2,
    CCairoGraphicsPangoEllipsizeNone = 0,
    CCairoGraphicsPangoEllipsizeStart = 1,
    CCairoGraphicsPangoEllipsizeMiddle = 2,
    CCairoGraphicsPangoEllipsizeEnd = 3,
};

PangoFontMap *pango_cairo_font_map_new(void);
PangoContext *pango_font_map_create_context(PangoFontMap *fontmap);
void pango_cairo_update_context(cairo_t *cr, PangoContext *context);
void pango_cairo_context_set_font_options(PangoContext *context, const cairo_font_options_t *options);
void pango_context_set_base_dir(PangoContext *context, unsigned int direction);
void pango_context_set_round_glyph_positions(PangoContext *context, gboolean round_positions);

PangoFontDescription *pango_font_description_new(void);
void pango_font_description_free(PangoFontDescription *desc);
void pango_font_description_set_family(PangoFontDescription *desc, const char *family);
void pango_font_description_set_absolute_size(PangoFontDescription *desc, double size);
void pango_font_description_set_weight(PangoFontDescription *desc, unsigned int weight);
void pango_font_description_set_style(PangoFontDescription *desc, unsigned int style);

PangoLayout *pango_layout_new(PangoContext *context);
void pango_layout_set_text(PangoLayout *layout, const char *text, int length);
void pango_layout_set_font_description(PangoLayout *layout, const PangoFontDescription *desc);
void pango_layout_set_width(PangoLayout *layout, int width);
void pango_layout_set_height(PangoLayout *layout, int height);
void pango_layout_set_wrap(PangoLayout *layout, unsigned int wrap);
void pango_layout_set_ellipsize(PangoLayout *layout, unsigned int ellipsize);
void pango_layout_set_alignment(PangoLayout *layout, unsigned int alignment);
void pango_layout_set_auto_dir(PangoLayout *layout, gboolean auto_dir);
void pango_layout_get_size(PangoLayout *layout, int *width, int *height);
int pango_layout_get_line_count(PangoLayout *layout);
gboolean pango_layout_is_ellipsized(PangoLayout *layout);
int pango_layout_get_unknown_glyphs_count(PangoLayout *layout);
PangoLayoutLine *pango_layout_get_line_readonly(PangoLayout *layout, int line);
unsigned int pango_layout_line_get_resolved_direction(PangoLayoutLine *line);
PangoLayoutIter *pango_layout_get_iter(PangoLayout *layout);
gboolean pango_layout_iter_next_line(PangoLayoutIter *iter);
int pango_layout_iter_get_index(PangoLayoutIter *iter);
void pango_layout_iter_get_line_yrange(PangoLayoutIter *iter, int *y0_, int *y1_);
void pango_layout_iter_free(PangoLayoutIter *iter);
void pango_cairo_show_layout(cairo_t *cr, PangoLayout *layout);

// librsvg.
typedef struct _RsvgHandle RsvgHandle;
typedef struct _RsvgRectangle RsvgRectangle;

// RsvgRectangle's fields (struct _RsvgRectangle in librsvg/rsvg.h); the check compares the layout.
#define CCAIROGRAPHICS_RSVG_RECTANGLE_FIELDS \
    double x;                                \
    double y;                                \
    double width;                            \
    double height;
#ifndef CCAIROGRAPHICS_CHECK
struct _RsvgRectangle {
    CCAIROGRAPHICS_RSVG_RECTANGLE_FIELDS
};
#endif

// librsvg is not linked: CairoGraphics opens it (dlopen) when it first parses an SVG, so an app whose SVGs
// come from the rendered-SVG cache never maps it (11 MB of library, 6 MB of it resident once loaded). These
// are the types of the four functions it looks up; the check compares them with librsvg's own.
typedef RsvgHandle *(*CCairoGraphicsRsvgNewFromFile)(const gchar *filename, GError **error);
typedef RsvgHandle *(*CCairoGraphicsRsvgNewFromData)(const guint8 *data, gsize data_len, GError **error);
typedef gboolean (*CCairoGraphicsRsvgGetIntrinsicSizeInPixels)(
    RsvgHandle *handle, gdouble *out_width, gdouble *out_height);
typedef gboolean (*CCairoGraphicsRsvgRenderDocument)(
    RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);

#ifdef CCAIROGRAPHICS_CHECK
// Compiled by Tools/check-shims after the real headers: each value and each mirrored field must be the library's.
#include <stddef.h>
#define CCAIROGRAPHICS_SAME_VALUE(mine, real) _Static_assert((long)(mine) == (long)(real), #real " changed")
#define CCAIROGRAPHICS_SAME_FIELD(Real, Mirror, field)                                                         \
    _Static_assert(offsetof(Real, field) == offsetof(Mirror, field), #Real "." #field " moved");              \
    _Static_assert(                                                                                          \
        __builtin_types_compatible_p(__typeof__(((Real *)0)->field), __typeof__(((Mirror *)0)->field)),      \
        #Real "." #field " changed type")
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoScale, PANGO_SCALE);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoDirectionLTR, PANGO_DIRECTION_LTR);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoDirectionRTL, PANGO_DIRECTION_RTL);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoStyleNormal, PANGO_STYLE_NORMAL);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoStyleItalic, PANGO_STYLE_ITALIC);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoAlignLeft, PANGO_ALIGN_LEFT);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoAlignCenter, PANGO_ALIGN_CENTER);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoAlignRight, PANGO_ALIGN_RIGHT);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoWrapWordChar, PANGO_WRAP_WORD_CHAR);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoEllipsizeNone, PANGO_ELLIPSIZE_NONE);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoEllipsizeStart, PANGO_ELLIPSIZE_START);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoEllipsizeMiddle, PANGO_ELLIPSIZE_MIDDLE);
CCAIROGRAPHICS_SAME_VALUE(CCairoGraphicsPangoEllipsizeEnd, PANGO_ELLIPSIZE_END);
// Pango's weights are CSS's numbers, which CairoGraphics passes straight through.
_Static_assert(PANGO_WEIGHT_THIN == 100 && PANGO_WEIGHT_NORMAL == 400 && PANGO_WEIGHT_HEAVY == 900, "PangoWeight");

_Static_assert(sizeof(struct CCairoGraphicsErrorFields) == sizeof(GError), "GError's size");
CCAIROGRAPHICS_SAME_FIELD(GError, struct CCairoGraphicsErrorFields, domain);
CCAIROGRAPHICS_SAME_FIELD(GError, struct CCairoGraphicsErrorFields, code);
CCAIROGRAPHICS_SAME_FIELD(GError, struct CCairoGraphicsErrorFields, message);

#define CCAIROGRAPHICS_SAME_FUNCTION(Pointer, function) \
    _Static_assert(__builtin_types_compatible_p(Pointer, __typeof__(&function)), #function " changed")
CCAIROGRAPHICS_SAME_FUNCTION(CCairoGraphicsRsvgNewFromFile, rsvg_handle_new_from_file);
CCAIROGRAPHICS_SAME_FUNCTION(CCairoGraphicsRsvgNewFromData, rsvg_handle_new_from_data);
CCAIROGRAPHICS_SAME_FUNCTION(CCairoGraphicsRsvgGetIntrinsicSizeInPixels, rsvg_handle_get_intrinsic_size_in_pixels);
CCAIROGRAPHICS_SAME_FUNCTION(CCairoGraphicsRsvgRenderDocument, rsvg_handle_render_document);

struct CCairoGraphicsRsvgRectangleCheck {
    CCAIROGRAPHICS_RSVG_RECTANGLE_FIELDS
};
_Static_assert(sizeof(struct CCairoGraphicsRsvgRectangleCheck) == sizeof(RsvgRectangle), "RsvgRectangle's size");
CCAIROGRAPHICS_SAME_FIELD(RsvgRectangle, struct CCairoGraphicsRsvgRectangleCheck, x);
CCAIROGRAPHICS_SAME_FIELD(RsvgRectangle, struct CCairoGraphicsRsvgRectangleCheck, y);
CCAIROGRAPHICS_SAME_FIELD(RsvgRectangle, struct CCairoGraphicsRsvgRectangleCheck, width);
CCAIROGRAPHICS_SAME_FIELD(RsvgRectangle, struct CCairoGraphicsRsvgRectangleCheck, height);
#endif

#endif
