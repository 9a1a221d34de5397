/* mkrep: a uinput keyboard (keys 1..127, as kbd.evemu) WITH EV_REP, so the input core autorepeats a held key
 * (kernel default 250 ms delay, 33 ms period). evemu-device 2.7 drops EV_REP from a description (checked:
 * libevdev_has_event_type(EV_REP) = 0 on the node it made), hence this. Prints "name: /dev/input/eventN", then
 * waits until killed (closing uinput destroys the device). */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/uinput.h>
int main(void) {
    int fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC); if (fd < 0) { perror("/dev/uinput"); return 1; }
    ioctl(fd, UI_SET_EVBIT, EV_KEY); ioctl(fd, UI_SET_EVBIT, EV_REP);
    for (int k = 1; k < 128; k++) ioctl(fd, UI_SET_KEYBIT, k);
    struct uinput_setup s; memset(&s, 0, sizeof s);
    s.id.bustype = BUS_USB; s.id.vendor = 0x1209; s.id.product = 0x0002; s.id.version = 1;
    strcpy(s.name, "keyboard-readers repeat keyboard");
    if (ioctl(fd, UI_DEV_SETUP, &s) || ioctl(fd, UI_DEV_CREATE)) { perror("uinput"); return 1; }
    char sys[64] = "", path[128]; ioctl(fd, UI_GET_SYSNAME(sizeof sys), sys);
    snprintf(path, sizeof path, "/sys/devices/virtual/input/%s", sys);
    for (int i = 0; i < 100; i++) {
        DIR *d = opendir(path); struct dirent *e; int found = 0;
        while (d && (e = readdir(d))) if (!strncmp(e->d_name, "event", 5)) { printf("%s: /dev/input/%s\n", s.name, e->d_name); found = 1; }
        if (d) closedir(d);
        if (found) break;
        usleep(20000);
    }
    fflush(stdout);
    pause();
    return 0;
}
