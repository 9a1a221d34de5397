#!/usr/bin/env python3
"""The guest side of Tools/display-perf: the kiosk example (release) on virtio-gpu's DRM device as an
ordinary user through seatd, keys written into a uinput keyboard (evemu-device) and taps into a uinput
multitouch screen the display's size (read by the kiosk through libinput), every frame's flip read from the
kiosk's --frame-log (CLOCK_MONOTONIC, the clock the kernel stamps input with). Prints one
`figure NAME VALUE...` line per measure and `display-perf done` at the end.

  display-perf-guest.py KIOSK USER RUNDIR KEYS
"""
import os, struct, subprocess, sys, time

kiosk, user, rundir, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
here = os.path.dirname(os.path.abspath(__file__))
log_path = os.path.join(rundir, "frames.log")

def switches(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/status") as f:
            for line in f:
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
    return total

def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0

class FrameLog:
    """The kiosk's --frame-log, read as it grows: [(number, started, shown, rows copied)]."""
    def __init__(self, path):
        self.path, self.offset, self.frames, self.partial = path, 0, [], b""

    def poll(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return
        self.offset += len(data)
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            fields = line.decode().split()
            if len(fields) >= 6 and fields[0] == "frame":
                self.frames.append((int(fields[1]), float(fields[3]), float(fields[5]), int(fields[7])))

    def wait(self, predicate, limit):
        end = time.monotonic() + limit
        while time.monotonic() < end:
            self.poll()
            for frame in self.frames:
                if predicate(frame):
                    return frame
            time.sleep(0.0005)
        return None

def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]

# A uinput keyboard: evemu-device prints its node.
device = subprocess.Popen(["evemu-device", os.path.join(here, "kbd.evemu")], stdout=subprocess.PIPE, text=True)
node = None
end = time.monotonic() + 10
while node is None and time.monotonic() < end:
    line = device.stdout.readline()
    if "/dev/input/" in line:
        node = line.split()[-1]
if node is None:
    print("FAIL display-perf: evemu-device made no keyboard"); sys.exit(1)
events = os.open(node, os.O_WRONLY)

def key(code, value):
    os.write(events, struct.pack("llHHi", 0, 0, 1, code, value) + struct.pack("llHHi", 0, 0, 0, 0, 0))

# A uinput multitouch screen of the display's size.
sys.path.insert(0, here)
import uinput_touch  # noqa: E402
screen = uinput_touch.touchscreen("perf touchscreen")
subprocess.run(["udevadm", "settle", "--timeout=10"])


def touch(x, y, down):
    if down:
        uinput_touch.down(screen, [(0, x, y)], pause=0)
    else:
        uinput_touch.up(screen, [0], pause=0)

uid = int(subprocess.check_output(["id", "-u", user]))
gid = int(subprocess.check_output(["id", "-g", user]))
started = time.monotonic()
kiosk_process = subprocess.Popen(
    ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--init-groups", "env", f"HOME=/home/{user}",
     "LIBSEAT_BACKEND=seatd", "LANG=C.UTF-8", kiosk, "--display", "--cells", "--layout", "us", "--frame-log", log_path],
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(rundir, "kiosk.err"), "w"))
frames = FrameLog(log_path)
first = frames.wait(lambda f: f[0] == 1, 120)
if first is None:
    print("FAIL display-perf: no first frame"); print(open(os.path.join(rundir, "kiosk.err")).read()); sys.exit(1)
print(f"figure first-frame {(first[2] - started) * 1000:.1f}")
time.sleep(1.5)  # the keyboard's "connected" message, and anything else after start, drawn
frames.poll()

# Right and Left alternately on the home screen: each moves focus, each draws a frame.
latencies, missing, key_rows = [], 0, []
for i in range(count):
    code = 106 if i % 2 == 0 else 105
    seen = len(frames.frames)
    t = time.monotonic()
    key(code, 1)
    frame = frames.wait(lambda f: f[1] >= t, 2)
    if frame is None:
        missing += 1
    else:
        latencies.append((frame[2] - t) * 1000)
        key_rows.append(frame[3])
    key(code, 0)
    time.sleep(0.03)  # the release's frame (the "held" line), then quiet
    frames.poll()
print(f"figure key-to-flip {percentile(latencies, 50):.2f} {percentile(latencies, 99):.2f} {len(latencies)} {missing} {percentile(key_rows, 50)}")

# Taps on the Check in tile (the form opens) and on the sidebar's Home (home again), in turn: a tap activates
# when the finger lifts, so each is timed from writing the lift to the flip of the frame it causes.
touches, missing_touches, touch_rows = [], 0, []
for i in range(max(20, count // 4)):
    x, y = (385, 104) if i % 2 == 0 else (100, 66)
    touch(x, y, True)
    time.sleep(0.03)
    frames.poll()
    t = time.monotonic()
    touch(x, y, False)
    frame = frames.wait(lambda f: f[1] >= t, 2)
    if frame is None:
        missing_touches += 1
    else:
        touches.append((frame[2] - t) * 1000)
        touch_rows.append(frame[3])
    time.sleep(0.05)
    frames.poll()
print(f"figure touch-to-flip {percentile(touches, 50):.2f} {percentile(touches, 99):.2f} {len(touches)} {missing_touches} {percentile(touch_rows, 50)}")

time.sleep(1)
pid = kiosk_process.pid
before = switches(pid)
time.sleep(5)
print(f"figure idle-wakeups {switches(pid) - before}")
print(f"figure rss {status_kb(pid, 'VmHWM') / 1024:.1f}")
kiosk_process.terminate()
kiosk_process.wait()
device.terminate()
print("display-perf done")
