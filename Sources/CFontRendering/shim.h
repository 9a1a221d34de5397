// Text for PixelCanvas without Pango (whose pkg-config flags carry glib's -pthread): fontconfig finds
// the faces, FreeType loads them, HarfBuzz shapes, Cairo rasterizes. The package's pkg-config name is
// cairo-ft (cairo's and FreeType's include paths); HarfBuzz and fontconfig are included by their
// directory, so no other include path is needed.
#include <ft2build.h>
#include <freetype/freetype.h>
#include <freetype/ftmodapi.h>
#include <fontconfig/fontconfig.h>
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ft.h>
#include <cairo.h>
#include <cairo-ft.h>
