#!/usr/bin/env python3
"""Tools/vm-test's libinput-touch steps, in the guest, as root: a uinput type-B multitouch screen (0-1279 x 0-799,
INPUT_PROP_DIRECT) and a uinput mouse. Waits for
$VM_RUN/ready, then: a tap at (300, 200) on the tile; a tap at (900, 600) on the field; two fingers on the tile, lifted;
a finger down on the tile and the touch screen destroyed (UI_DEV_DESTROY) under it; the mouse moved far up and left
(the cursor stops at the screen's corner, on the tile) and clicked; a press there and the mouse destroyed under it.
Makes $VM_RUN/done at the end. With the argument `vt`, instead: a finger down on the tile, $VM_RUN/held made, and once
the guest has switched VTs away and back ($VM_RUN/back) the finger lifted and the tile tapped again.
Python's standard library only."""
import fcntl, os, struct, sys, time

from uinput_touch import (BTN_LEFT, EV_KEY, EV_REL, UI_DEV_CREATE, UI_DEV_DESTROY, UI_DEV_SETUP, UI_SET_EVBIT,
                          UI_SET_KEYBIT, UI_SET_RELBIT, down, event, sync, touchscreen, up)

run = os.environ.get("VM_RUN", "/tmp")


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


def wait_for(name, seconds=30):
    end = time.time() + seconds
    while not os.path.exists(os.path.join(run, name)):
        if time.time() > end:
            sys.exit(f"libinput-touch-guest: {name} never appeared in {run}")
        time.sleep(0.05)


screen, pointer = touchscreen(), mouse()
print("libinput-touch-guest: made a touch screen and a mouse", flush=True)
wait_for("ready")
time.sleep(0.3)
if sys.argv[1:] == ["vt"]:
    down(screen, [(0, 300, 200)])                                    # held across the VT switch: cancelled
    open(os.path.join(run, "held"), "w").close()
    wait_for("back", 60)
    time.sleep(0.5)
    up(screen, [0])                                                  # its lift after the return: nothing
    down(screen, [(0, 300, 200)]); up(screen, [0])                   # a new tap: the action
    print("libinput-touch-guest: done", flush=True)
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
print("libinput-touch-guest: done", flush=True)
open(os.path.join(run, "done"), "w").close()
