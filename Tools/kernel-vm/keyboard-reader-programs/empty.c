/* empty.c: the start-up cost of linking libinput. Built three ways (by Tools/keyboard-readers):
 *   empty-plain   : links nothing extra
 *   empty-evdev   : links libevdev (as our path) and creates nothing
 *   empty-li      : links libinput (--no-as-needed) and creates nothing
 *   empty-li-ctx  : links libinput and creates + frees a path context (loads the quirks) */
#ifdef CTX
#include <libinput.h>
static int o(const char *p, int f, void *d) { (void)p; (void)f; (void)d; return -1; }
static void c(int fd, void *d) { (void)fd; (void)d; }
static const struct libinput_interface i = { o, c };
#endif
int main(void) {
#ifdef CTX
    struct libinput *li = libinput_path_create_context(&i, 0); libinput_unref(li);
#endif
    return 0;
}
