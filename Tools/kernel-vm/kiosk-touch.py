#!/usr/bin/env python3
"""Tools/vm-test's kiosk-touch steps, in the guest, as root: a uinput type-B multitouch screen the size of the
display (0-1279 x 0-799, INPUT_PROP_DIRECT) touching
the kiosk example on virtio-gpu's 1280x800 display (cells of 10x19 pixels). Waits for $VM_RUN/ready, then, making
$VM_RUN/stepN after each step: 1 two fingers on the Check in and Directory tiles, lifted (nothing); 2 a finger down on
the Opening hours tile and the touch screen destroyed under it (cancelled: no dialog); then a second touch screen
(hot-plugged), and once $VM_RUN/again exists: 3 a tap on the Check in tile (its action opens the form); once
$VM_RUN/form exists, 4 a tap on the PIN field (it takes focus); the second screen stays until $VM_RUN/clicked.
Python's standard library only."""
import os, sys, time

import uinput_touch
from uinput_touch import touchscreen

run = os.environ.get("VM_RUN", "/tmp")
fd = touchscreen("kiosk touchscreen")
print("kiosk-touch: made a touch screen", flush=True)


def down(fingers):  # [(slot, x, y)]
    uinput_touch.down(fd, fingers, pause=0.2)


def up(slots):
    uinput_touch.up(fd, slots, pause=0.5)


def wait_for(name, seconds=60):
    end = time.time() + seconds
    while not os.path.exists(os.path.join(run, name)):
        if time.time() > end:
            sys.exit(f"kiosk-touch: {name} never appeared in {run}")
        time.sleep(0.05)


def step(number):
    open(os.path.join(run, f"step{number}"), "w").close()


wait_for("ready")
time.sleep(0.3)
down([(0, 385, 104), (1, 735, 104)]); up([0, 1]); step(1)  # two fingers: Check in and Directory (row 3..8)
down([(0, 1085, 104)])                                   # a finger on Opening hours ...
uinput_touch.destroy(fd)                                 # ... when the screen goes: cancelled
time.sleep(0.5)
step(2)
fd = touchscreen("kiosk touchscreen 2")                  # another one, plugged in
wait_for("again")
down([(0, 385, 104)]); up([0]); step(3)                  # the Check in tile (cells 22..55 x 3..8): the form
wait_for("form")
down([(0, 420, 123)]); up([0]); step(4)                  # the PIN field (cells 22..62 x 6): focus
print("kiosk-touch: done", flush=True)
wait_for("clicked", 120)                                 # the touch screen stays plugged in until the end
