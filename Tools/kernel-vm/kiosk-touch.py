#!/usr/bin/env python3
"""Tools/vm-test's kiosk-touch steps, in the guest, as root: a uinput type-B multitouch screen the size of the
display (0-1279 x 0-799, INPUT_PROP_DIRECT, as shared/recipes/kiosk-stack-vm.md's uinput-touchscreen.py) touching
the kiosk example on virtio-gpu's 1280x800 display (cells of 10x19 pixels). Waits for $VM_RUN/ready, then, making
$VM_RUN/stepN after each step: 1 two fingers on the Check in and Directory tiles, lifted (nothing); 2 a finger down on
the Opening hours tile and the touch screen destroyed under it (cancelled: no dialog); then a second touch screen
(hot-plugged), and once $VM_RUN/again exists: 3 a tap on the Check in tile (its action opens the form); once
$VM_RUN/form exists, 4 a tap on the PIN field (it takes focus); the second screen stays until $VM_RUN/clicked.
Python's standard library only."""
import fcntl, os, struct, sys, time

UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045567, 0x4004556E
UI_DEV_SETUP, UI_ABS_SETUP, UI_DEV_CREATE, UI_DEV_DESTROY = 0x405C5503, 0x401C5504, 0x5501, 0x5502
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
BTN_TOUCH, INPUT_PROP_DIRECT = 0x14A, 1
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0, 1, 0x2F, 0x35, 0x36, 0x39
run = os.environ.get("VM_RUN", "/tmp")



def touchscreen(name):
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


fd = touchscreen("kiosk touchscreen")
print("kiosk-touch: made a touch screen", flush=True)

tracking = 100


def event(kind, code, value):
    os.write(fd, struct.pack("qqHHi", 0, 0, kind, code, value))


def sync(pause=0.2):
    event(EV_SYN, 0, 0)
    time.sleep(pause)


def down(fingers):  # [(slot, x, y)]
    global tracking
    for slot, x, y in fingers:
        tracking += 1
        event(EV_ABS, ABS_MT_SLOT, slot)
        event(EV_ABS, ABS_MT_TRACKING_ID, tracking)
        event(EV_ABS, ABS_MT_POSITION_X, x)
        event(EV_ABS, ABS_MT_POSITION_Y, y)
    event(EV_KEY, BTN_TOUCH, 1)
    event(EV_ABS, ABS_X, fingers[0][1])
    event(EV_ABS, ABS_Y, fingers[0][2])
    sync()


def up(slots):
    for slot in slots:
        event(EV_ABS, ABS_MT_SLOT, slot)
        event(EV_ABS, ABS_MT_TRACKING_ID, -1)
    event(EV_KEY, BTN_TOUCH, 0)
    sync(0.5)


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
fcntl.ioctl(fd, UI_DEV_DESTROY)                          # ... when the screen goes: cancelled
time.sleep(0.5)
step(2)
fd = touchscreen("kiosk touchscreen 2")                  # another one, plugged in
wait_for("again")
down([(0, 385, 104)]); up([0]); step(3)                  # the Check in tile (cells 22..55 x 3..8): the form
wait_for("form")
down([(0, 420, 123)]); up([0]); step(4)                  # the PIN field (cells 22..62 x 6): focus
print("kiosk-touch: done", flush=True)
wait_for("clicked", 120)                                 # the touch screen stays plugged in until the end
