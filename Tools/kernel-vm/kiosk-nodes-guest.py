#!/usr/bin/env python3
"""Tools/vm-test kiosk-nodes, in the guest, as root once seatd runs: the kiosk example's graphical face (its nodes,
DRMNodeOutput) straight on virtio-gpu's display, run as the seatd user with no terminal, driven by a uinput keyboard
(keys written to its event node) and a uinput touch screen the display's size (read through libinput).

English, with --on-screen-keyboard: the home screen; Return on Check in opens the form (focus in the name, the
keyboard under it), "Ada Lovelac" typed on the keyboard and the "e" tapped on the on-screen keyboard; Return, the PIN
4721, Return (the form asks for the consent), Space ticks it, Right to Check in, Return: the dialog; Escape closes it,
Ctrl+F opens the directory's search, "an" typed, Down to the results. Then the kiosk again with --rtl: the Hebrew face,
mirrored (its header's greeting has a Chinese word), Left moving focus to the next tile. Each time the touch screen is
plugged in once the kiosk shows its first frame, and unplugged before it ends. Before each screenshot it
waits for the frames to stop (the --frame-log quiet for 0.8 s), makes $VM_RUN/shot-NAME and waits for the host's
$VM_RUN/dumped-NAME (run-in-vm's `touch`, after QMP screendump). Prints what it saw and, when every check held,
`guest checks passed`; exits 1 with the reason when a step never came.

  kiosk-nodes-guest.py KIOSK USER
"""
import json, os, re, struct, subprocess, sys, time

kiosk, user = sys.argv[1], sys.argv[2]
run = os.environ["VM_RUN"]
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import uinput_touch  # noqa: E402

codes = {}
with open("/usr/include/linux/input-event-codes.h") as header:
    for line in header:
        match = re.match(r"#define (KEY_\w+)\s+(0x[0-9a-fA-F]+|\d+)\b", line)
        if match:
            codes[match.group(1)] = int(match.group(2), 0)


def fail(why):
    print(f"FAIL kiosk-nodes: {why}", flush=True)
    for name in ("kiosk.err", "kiosk-rtl.err"):
        path = os.path.join(run, name)
        if os.path.exists(path) and os.path.getsize(path):
            print(f"{name}:", open(path, errors="replace").read()[-1500:])
    sys.exit(1)


# The keyboard: evemu-device prints its node and lives as long as it runs.
device = subprocess.Popen(["evemu-device", os.path.join(here, "kbd.evemu")], stdout=subprocess.PIPE, text=True)
node, end = None, time.monotonic() + 10
while node is None and time.monotonic() < end:
    line = device.stdout.readline()
    if "/dev/input/" in line:
        node = line.split()[-1]
if node is None:
    fail("evemu-device made no keyboard")
keyboard = os.open(node, os.O_WRONLY)
screen = None


def key(name, value):
    os.write(keyboard, struct.pack("llHHi", 0, 0, 1, codes[name], value) + struct.pack("llHHi", 0, 0, 0, 0, 0))
    time.sleep(0.02)


def tap(*names):  # each key pressed and released; with more than one, held in order and released in reverse
    for name in names:
        key(name, 1)
    for name in reversed(names):
        key(name, 0)
    time.sleep(0.05)


def type_text(text):
    for character in text:
        if character == " ":
            tap("KEY_SPACE")
        elif character.isdigit():
            tap(f"KEY_{character}")
        elif character.isupper():
            tap("KEY_LEFTSHIFT", f"KEY_{character}")
        else:
            tap(f"KEY_{character.upper()}")


class Kiosk:
    """One run of the kiosk as the seatd user: its trace, its frame log and its standard error in $VM_RUN."""

    def __init__(self, name, *arguments):
        self.trace = os.path.join(run, f"{name}.jsonl")
        self.frames = os.path.join(run, f"{name}-frames.log")
        self.errors = os.path.join(run, f"{name}.err")
        ready = os.path.join(run, f"{name}-shown")
        uid = int(subprocess.check_output(["id", "-u", user]))
        gid = int(subprocess.check_output(["id", "-g", user]))
        self.process = subprocess.Popen(
            ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--init-groups", "env", f"HOME=/home/{user}",
             "LIBSEAT_BACKEND=seatd", "LANG=C.UTF-8", kiosk, "--display", "--layout", "us", "--trace", self.trace,
             "--frame-log", self.frames, "--ready-file", ready, *arguments],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(self.errors, "w"))
        self.name = name
        self.wait_file(ready, 120, "no first frame on the display")
        first = open(self.frames).readline().split()
        print(f"{name}: first frame on the display ({' '.join(first[6:])}), {self.uptime():.1f} s of guest uptime")
        self.saw('"change":"added".*"kernel-vm test keyboard"', "the keyboard added")
        # The touch screen is plugged in once the kiosk is up: its "Connected" is the message line's last news,
        # whichever order the kiosk opened its keyboards in.
        global screen
        screen = uinput_touch.touchscreen("kiosk-nodes touchscreen")
        self.saw('"change":"added".*"kiosk-nodes touchscreen"', "the touch screen plugged in, added")

    @staticmethod
    def uptime():
        return float(open("/proc/uptime").read().split()[0])

    def wait_file(self, path, seconds, why):
        end = time.monotonic() + seconds
        while not os.path.exists(path):
            if self.process.poll() is not None:
                fail(f"{why}: the kiosk ended with status {self.process.returncode}")
            if time.monotonic() > end:
                fail(why)
            time.sleep(0.05)

    def lines(self):
        try:
            return open(self.trace, errors="replace").read().splitlines()
        except FileNotFoundError:
            return []

    def saw(self, pattern, what, seconds=30):
        """Waits until a trace line matches the pattern (a regular expression); says what it shows."""
        expression = re.compile(pattern)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            found = next((line for line in self.lines() if expression.search(line)), None)
            if found:
                print(f"{self.name}: {what}")
                return json.loads(found)
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        lines = self.lines()
        print("the trace's devices and pointer events:", *[line for line in lines if '"event":"device"' in line
                                                          or '"event":"pointer"' in line], sep="\n  ")
        print("the trace ends:", *lines[-8:], sep="\n  ")
        fail(f"{self.name}: {what} never showed in the trace ({pattern})")

    def focus(self, to, what):
        return self.saw(f'"event":"focus".*"to":"{to}"', what)

    def shot(self, name):
        """Waits for the frames to stop, then for the host's screendump."""
        size, still = -1, time.monotonic()
        end = time.monotonic() + 30
        while time.monotonic() - still < 0.8:
            now = os.path.getsize(self.frames)
            if now != size:
                size, still = now, time.monotonic()
            if time.monotonic() > end:
                fail(f"the frames never stopped before the screen {name}")
            time.sleep(0.05)
        frames = open(self.frames).read().splitlines()
        print(f"screen {name}: after frame {frames[-1].split()[1]} ({' '.join(frames[-1].split()[6:])})")
        open(os.path.join(run, f"shot-{name}"), "w").close()
        self.wait_file(os.path.join(run, f"dumped-{name}"), 60, f"the host never took the screen {name}")

    def stop(self):
        uinput_touch.destroy(screen)
        self.process.terminate()
        status = self.process.wait(30)
        errors = open(self.errors, errors="replace").read().strip()
        print(f"{self.name}: exit status {status}" + (f"; its standard error:\n{errors}" if errors else ""))
        if status != 0:
            fail(f"{self.name} ended with status {status} after SIGTERM")


english = Kiosk("kiosk", "--on-screen-keyboard")
english.focus("tile-checkin", "focus on the Check in tile")
english.shot("home")
tap("KEY_ENTER")
english.focus("name", "Return on Check in: the form, focus in the name field")
type_text("Ada Lovelac")
english.saw('"phase":"down","key":"KeyC"', "\"Ada Lovelac\" typed on the uinput keyboard")
time.sleep(0.5)
uinput_touch.down(screen, [(0, 579, 448)], pause=0.1)  # the on-screen keyboard's "e" at 1280x800
uinput_touch.up(screen, [0], pause=0.1)
english.saw('"phase":"up","kind":"touch".*"item":"key-e","outcome":"key-e performed', "a tap on the on-screen keyboard's e typed it")
english.shot("checkin")
tap("KEY_ENTER")
english.focus("pin", "Return in the name: focus in the PIN")
type_text("4721")
tap("KEY_ENTER")
english.focus("consent", "Return in the PIN: the form asks for the consent")
tap("KEY_SPACE")
tap("KEY_RIGHT")
english.focus("submit", "Space ticked it, Right went to Check in")
tap("KEY_ENTER")
english.focus("confirm", "Return on Check in: the dialog, focus on Confirm")
english.saw('Check in as Ada Lovelace\\?', "the dialog asks \"Check in as Ada Lovelace?\" (the tapped e typed)")
english.shot("dialog")
tap("KEY_ESC")
english.saw('"event":"focus".*"from":"confirm","to":"submit"', "Escape closed the dialog, focus back on Check in")
tap("KEY_LEFTCTRL", "KEY_F")
english.focus("search", "Ctrl+F: the directory's search")
type_text("an")
tap("KEY_DOWN")
english.focus("row[0-9]*", "\"an\" typed, Down: focus on the first result")
english.shot("directory")
english.stop()

hebrew = Kiosk("kiosk-rtl", "--rtl")
hebrew.focus("tile-checkin", "the Hebrew face, focus on the Check in tile (on the right)")
tap("KEY_LEFT")
hebrew.focus("tile-find", "Left, right to left: focus on the next tile, Directory")
hebrew.shot("rtl")
hebrew.stop()
device.terminate()
print("guest checks passed")
