"""A uinput type-B multitouch screen for the guest scripts (libinput-touch-guest.py, kiosk-touch.py, display-perf-guest.py):
the display's size (0-1279 x 0-799, 5 units/mm, INPUT_PROP_DIRECT), fingers down and up by slot. Python's standard library only."""
import fcntl, os, struct, time

UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_RELBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045566, 0x40045567, 0x4004556E
UI_DEV_SETUP, UI_ABS_SETUP, UI_DEV_CREATE, UI_DEV_DESTROY = 0x405C5503, 0x401C5504, 0x5501, 0x5502
EV_SYN, EV_KEY, EV_REL, EV_ABS = 0, 1, 2, 3
BTN_LEFT, BTN_TOUCH, INPUT_PROP_DIRECT = 0x110, 0x14A, 1
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0, 1, 0x2F, 0x35, 0x36, 0x39


def touchscreen(name="vm-test touchscreen"):
    """Makes the touch screen; returns its uinput descriptor."""
    fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
    fcntl.ioctl(fd, UI_SET_EVBIT, EV_KEY)
    fcntl.ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH)
    fcntl.ioctl(fd, UI_SET_EVBIT, EV_ABS)
    fcntl.ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT)
    for code, high in ((ABS_X, 1279), (ABS_Y, 799), (ABS_MT_SLOT, 9), (ABS_MT_POSITION_X, 1279),
                       (ABS_MT_POSITION_Y, 799), (ABS_MT_TRACKING_ID, 65535)):
        fcntl.ioctl(fd, UI_SET_ABSBIT, code)
        resolution = 5 if code in (ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y) else 0
        fcntl.ioctl(fd, UI_ABS_SETUP, struct.pack("H2xiiiiii", code, 0, 0, high, 0, 0, resolution))
    fcntl.ioctl(fd, UI_DEV_SETUP, struct.pack("HHHH80sI", 0x03, 0x1234, 0x5678, 1, name.encode(), 0))
    fcntl.ioctl(fd, UI_DEV_CREATE)
    return fd


def event(fd, kind, code, value):
    os.write(fd, struct.pack("qqHHi", 0, 0, kind, code, value))


def sync(fd, pause=0.15):
    event(fd, EV_SYN, 0, 0)
    time.sleep(pause)


_tracking = [100]


def down(fd, fingers, pause=0.15):
    """Fingers down in one frame: [(slot, x, y)]; the first also sets the single-touch axes."""
    for slot, x, y in fingers:
        _tracking[0] += 1
        event(fd, EV_ABS, ABS_MT_SLOT, slot)
        event(fd, EV_ABS, ABS_MT_TRACKING_ID, _tracking[0])
        event(fd, EV_ABS, ABS_MT_POSITION_X, x)
        event(fd, EV_ABS, ABS_MT_POSITION_Y, y)
    event(fd, EV_KEY, BTN_TOUCH, 1)
    event(fd, EV_ABS, ABS_X, fingers[0][1])
    event(fd, EV_ABS, ABS_Y, fingers[0][2])
    sync(fd, pause)


def up(fd, slots, pause=0.3):
    """The fingers in those slots lifted, in one frame."""
    for slot in slots:
        event(fd, EV_ABS, ABS_MT_SLOT, slot)
        event(fd, EV_ABS, ABS_MT_TRACKING_ID, -1)
    event(fd, EV_KEY, BTN_TOUCH, 0)
    sync(fd, pause)


def destroy(fd):
    fcntl.ioctl(fd, UI_DEV_DESTROY)
