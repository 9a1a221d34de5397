#!/usr/bin/env python3
"""Tools/vm-test's libinput-touch steps, in the guest, as root: a uinput type-B multitouch screen (0-1279 x 0-799,
INPUT_PROP_DIRECT, as shared/recipes/kiosk-stack-vm.md's uinput-touchscreen.py) and a uinput mouse. Waits for
$VM_RUN/ready, then: a tap at (300, 200) on the tile; a tap at (900, 600) on the field; two fingers on the tile, lifted;
a finger down on the tile and the touch screen destroyed (UI_DEV_DESTROY) under it; the mouse moved far up and left
(the cursor stops at the screen's corner, on the tile) and clicked; a press there and the mouse destroyed under it.
Makes $VM_RUN/done at the end. With the argument `vt`, instead: a finger down on the tile, $VM_RUN/held made, and once
the guest has switched VTs away and back ($VM_RUN/back) the finger lifted and the tile tapped again.
Python's standard library only."""
import fcntl, os, struct, sys, time

UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_RELBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045566, 0x40045567, 0x4004556E
UI_DEV_SETUP, UI_ABS_SETUP, UI_DEV_CREATE, UI_DEV_DESTROY = 0x405C5503, 0x401C5504, 0x5501, 0x5502
EV_SYN, EV_KEY, EV_REL, EV_ABS = 0, 1, 2, 3
BTN_LEFT, BTN_TOUCH, INPUT_PROP_DIRECT = 0x110, 0x14A, 1
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0, 1, 0x2F, 0x35, 0x36, 0x39
run = os.environ.get("VM_RUN", "/tmp")


def touchscreen():
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
    fcntl.ioctl(fd, UI_DEV_SETUP, struct.pack("HHHH80sI", 0x03, 0x1234, 0x5678, 1, b"vm-test touchscreen", 0))
    fcntl.ioctl(fd, UI_DEV_CREATE)
    return fd


def mouse():
    fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
    fcntl.ioctl(fd, UI_SET_EVBIT, EV_KEY)
    for button in (BTN_LEFT, BTN_LEFT + 1, BTN_LEFT + 2):
        fcntl.ioctl(fd, UI_SET_KEYBIT, button)
    fcntl.ioctl(fd, UI_SET_EVBIT, EV_REL)
    fcntl.ioctl(fd, UI_SET_RELBIT, 0)
    fcntl.ioctl(fd, UI_SET_RELBIT, 1)
    fcntl.ioctl(fd, UI_DEV_SETUP, struct.pack("HHHH80sI", 0x03, 0x1234, 0x5679, 1, b"vm-test mouse", 0))
    fcntl.ioctl(fd, UI_DEV_CREATE)
    return fd


def event(fd, kind, code, value):
    os.write(fd, struct.pack("qqHHi", 0, 0, kind, code, value))


def sync(fd, pause=0.15):
    event(fd, EV_SYN, 0, 0)
    time.sleep(pause)


tracking = 100


def down(fd, fingers):  # fingers: [(slot, x, y)]; the first also sets the single-touch axes
    global tracking
    for slot, x, y in fingers:
        tracking += 1
        event(fd, EV_ABS, ABS_MT_SLOT, slot)
        event(fd, EV_ABS, ABS_MT_TRACKING_ID, tracking)
        event(fd, EV_ABS, ABS_MT_POSITION_X, x)
        event(fd, EV_ABS, ABS_MT_POSITION_Y, y)
    event(fd, EV_KEY, BTN_TOUCH, 1)
    event(fd, EV_ABS, ABS_X, fingers[0][1])
    event(fd, EV_ABS, ABS_Y, fingers[0][2])
    sync(fd)


def up(fd, slots):
    for slot in slots:
        event(fd, EV_ABS, ABS_MT_SLOT, slot)
        event(fd, EV_ABS, ABS_MT_TRACKING_ID, -1)
    event(fd, EV_KEY, BTN_TOUCH, 0)
    sync(fd, 0.3)


def wait_for(name, seconds=30):
    end = time.time() + seconds
    while not os.path.exists(os.path.join(run, name)):
        if time.time() > end:
            sys.exit(f"uinput-touch: {name} never appeared in {run}")
        time.sleep(0.05)


screen, pointer = touchscreen(), mouse()
print("uinput-touch: made a touch screen and a mouse", flush=True)
wait_for("ready")
time.sleep(0.3)
if sys.argv[1:] == ["vt"]:
    down(screen, [(0, 300, 200)])                                    # held across the VT switch: cancelled
    open(os.path.join(run, "held"), "w").close()
    wait_for("back", 60)
    time.sleep(0.5)
    up(screen, [0])                                                  # its lift after the return: nothing
    down(screen, [(0, 300, 200)]); up(screen, [0])                   # a new tap: the action
    print("uinput-touch: done", flush=True)
    open(os.path.join(run, "done"), "w").close()
    sys.exit(0)
down(screen, [(0, 300, 200)]); up(screen, [0])                       # tap on the tile: its action
down(screen, [(0, 900, 600)]); up(screen, [0])                       # tap on the field: it takes focus
down(screen, [(0, 300, 200), (1, 400, 250)]); up(screen, [0, 1])     # two fingers: nothing
down(screen, [(0, 300, 200)])                                        # a finger down ...
fcntl.ioctl(screen, UI_DEV_DESTROY)                                  # ... when the screen goes: cancelled
time.sleep(0.5)
for _ in range(20):                                                  # far up and left: the corner, on the tile
    event(pointer, EV_REL, 0, -100)
    event(pointer, EV_REL, 1, -100)
    sync(pointer, 0.02)
time.sleep(0.2)
event(pointer, EV_KEY, BTN_LEFT, 1); sync(pointer)                   # a click: the action again
event(pointer, EV_KEY, BTN_LEFT, 0); sync(pointer, 0.3)
event(pointer, EV_KEY, BTN_LEFT, 1); sync(pointer, 0.3)              # a press ...
fcntl.ioctl(pointer, UI_DEV_DESTROY)                                 # ... when the mouse goes: no click
time.sleep(0.3)
print("uinput-touch: done", flush=True)
open(os.path.join(run, "done"), "w").close()
