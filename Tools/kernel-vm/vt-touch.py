#!/usr/bin/env python3
"""Tools/vm-test's kiosk-display touch steps, in the guest, as root: a uinput touch screen ("vt touchscreen A") made
at once; when $VM_RUN/swap appears (the kiosk's seat is away on VT 2) it is destroyed and another one ("vt touchscreen
B") made, then $VM_RUN/swapped; when $VM_RUN/tap appears, B taps the Check in tile (385, 104), then $VM_RUN/tapped.
Exits when $VM_RUN/end appears. Python's standard library only."""
import os, sys, time

import uinput_touch

run = os.environ.get("VM_RUN", "/tmp")


def wait_for(name, seconds=120):
    end = time.time() + seconds
    while not os.path.exists(os.path.join(run, name)):
        if time.time() > end:
            sys.exit(f"vt-touch: {name} never appeared in {run}")
        time.sleep(0.05)


def mark(name):
    open(os.path.join(run, name), "w").close()


screen = uinput_touch.touchscreen("vt touchscreen A")
print("vt-touch: made A", flush=True)
wait_for("swap")
uinput_touch.destroy(screen)
screen = uinput_touch.touchscreen("vt touchscreen B")
mark("swapped")
wait_for("tap")
uinput_touch.down(screen, [(0, 385, 104)], pause=0.2)
uinput_touch.up(screen, [0], pause=0.5)
mark("tapped")
wait_for("end")
