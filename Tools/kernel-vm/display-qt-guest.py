#!/usr/bin/env python3
"""The guest side of Tools/display-perf-qt, as root: the kiosk example's graphical face and Qt 6's tiles app
(Tools/compare-qt/tiles.cpp on QT_QPA_PLATFORM=linuxfb with QT_QPA_FB_DRM=1, keys through Qt's evdev keyboard
plugin) each alone on virtio-gpu's DRM device, driven by the same uinput keyboard and timed by the guest kernel's
ftrace, not by either app:

- ftrace's clock is `mono` (CLOCK_MONOTONIC); each key press and each exec is stamped into the same buffer by a
  write to trace_marker just before it happens;
- "on the screen" is virtio-gpu's VIRTIO_GPU_CMD_RESOURCE_FLUSH (the `virtio_gpu_cmd_queue` event): the command
  the guest's driver queues to have the host show a framebuffer's pixels. Both apps show a frame the same way,
  copying what changed into the back one of two dumb buffers and calling drmModePageFlip (Qt 6.4's linuxfb DRM
  screen, QLinuxFbDrmScreen::doRedraw, then waits for the flip event; the kiosk's DRMNodeOutput does not wait), and
  virtio-gpu's plane update queues one RESOURCE_FLUSH per flip or mode set; `drm_vblank_event_delivered` (the flip's
  completion event sent to the app; the atomic helpers send one with no file for a mode set) is traced beside it, to
  tell a flip's flush from a mode set's. The console's
  frame buffer is unbound first (fbcon's blinking cursor flushes too), and a second with no app must have no flush;
- first frame: from the exec's marker to the flush of the first framebuffer holding the app's drawing. The kiosk's
  first frame is its mode set (drmModeSetCrtc with the frame drawn); Qt sets the mode with a cleared, black buffer
  before it draws (QLinuxFbDrmScreen::initialize), so its first flush is skipped and its first flip counts;
- key to flip: from a press's marker to the first flush after it, for Right and Left alternately (focus moving
  between the first two tiles) and for Tab and Shift+Tab alternately (into the menu and back);
- RSS: VmRSS after the keys, and VmHWM (the peak).

Before the keys, once the frames stop, it makes $VM_RUN/shown-APP and waits for the host's $VM_RUN/dumped-APP
(a screendump of each app's home screen, first round only). Prints `figure APP NAME VALUES...` lines and
`display-qt done`.

  display-qt-guest.py KEYS ROUNDS OURS QT ART
"""
import os, re, struct, subprocess, sys, threading, time

keys, rounds, ours, qt, art = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
run = os.environ["VM_RUN"]
here = os.path.dirname(os.path.abspath(__file__))
tracing = "/sys/kernel/tracing"
KEY_TAB, KEY_LEFTSHIFT, KEY_LEFT, KEY_RIGHT = 15, 42, 105, 106


def fail(why):
    print(f"FAIL display-qt: {why}", flush=True)
    sys.exit(1)


def write(path, text):
    with open(os.path.join(tracing, path), "w") as f:
        f.write(text)


# The console's frame buffer (fbcon on virtio-gpu's fbdev emulation) flushes too: its cursor blinks. Unbound, nothing
# but the app shows frames (checked below: no flush in a second of quiet).
for console in sorted(os.listdir("/sys/class/vtconsole")):
    with open(f"/sys/class/vtconsole/{console}/name") as f:
        if "frame buffer" in f.read():
            with open(f"/sys/class/vtconsole/{console}/bind", "w") as bind:
                bind.write("0")
if not os.path.exists(os.path.join(tracing, "trace")):
    subprocess.run(["mount", "-t", "tracefs", "nodev", tracing], check=True)
write("tracing_on", "0")
write("trace_clock", "mono")
write("buffer_size_kb", "8192")
for event in ("virtio_gpu/virtio_gpu_cmd_queue", "drm/drm_vblank_event_delivered"):
    if not os.path.exists(os.path.join(tracing, "events", event)):
        fail(f"the guest kernel has no {event} trace event")
    write(f"events/{event}/enable", "1")
write("trace", "")
write("tracing_on", "1")
marker = os.open(os.path.join(tracing, "trace_marker"), os.O_WRONLY)

# The trace, read as it comes: the flushes' and the flips' timestamps, and each marker's.
flush_times, flip_times, markers, lock = [], [], {}, threading.Lock()
line_format = re.compile(r"^\s*.+?-\d+\s+\[\d+\]\s+(?:\S+\s+)?(\d+\.\d+): ([\w:]+): (.*)$")


def is_flush(event, body):
    """VIRTIO_GPU_CMD_RESOURCE_FLUSH (0x0104) queued: the event prints the command's type in hex."""
    return event == "virtio_gpu_cmd_queue" and ("RESOURCE_FLUSH" in body or re.search(r"type=0x0*104\b", body))


def reader():
    with open(os.path.join(tracing, "trace_pipe"), errors="replace") as pipe:
        for line in pipe:
            match = line_format.match(line)
            if not match:
                continue
            ts, event, body = float(match.group(1)), match.group(2), match.group(3)
            with lock:
                if is_flush(event, body):
                    flush_times.append(ts)
                elif event == "drm_vblank_event_delivered" and not re.search(r"file=(0+|\(null\))\b", body):
                    # An event for an app (a flip it asked about); the atomic helpers send one with no file for
                    # every other commit too, a mode set's.
                    flip_times.append(ts)
                elif event == "tracing_mark_write":
                    markers[body.strip()] = ts


threading.Thread(target=reader, daemon=True).start()


def mark(text):
    os.write(marker, text.encode())


def stamp(text):
    """The marker's own timestamp: waits until the reader saw it."""
    end = time.monotonic() + 5
    while time.monotonic() < end:
        with lock:
            if text in markers:
                return markers[text]
        time.sleep(0.001)
    fail(f"the marker {text!r} never came out of the trace")


def flushes(after, before=float("inf")):
    with lock:
        return sorted(ts for ts in flush_times[-4000:] if after < ts < before)


def flips(after, before=float("inf")):
    with lock:
        return [ts for ts in flip_times if after < ts < before]


def wait_flush(after, count=1, limit=2.0):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        with lock:
            found = sorted(ts for ts in flush_times[-64:] if ts > after)
        if len(found) >= count:
            return found[count - 1]
        time.sleep(0.001)
    return None


def quiet(seconds=1.0, limit=30):
    """Waits until no flush came for `seconds`."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        with lock:
            last = flush_times[-1] if flush_times else 0
        if time.clock_gettime(time.CLOCK_MONOTONIC) - last >= seconds:
            return
        time.sleep(0.05)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


time.sleep(1)
quiet_start = time.clock_gettime(time.CLOCK_MONOTONIC)
time.sleep(1)
if flushes(quiet_start):
    fail(f"{len(flushes(quiet_start))} flushes in a second with no app: something else draws on the display")

# The keyboard both apps read: evemu-device prints its node.
device = subprocess.Popen(["evemu-device", os.path.join(here, "kbd.evemu")], stdout=subprocess.PIPE, text=True)
node, end = None, time.monotonic() + 10
while node is None and time.monotonic() < end:
    line = device.stdout.readline()
    if "/dev/input/" in line:
        node = line.split()[-1]
if node is None:
    fail("evemu-device made no keyboard")
keyboard = os.open(node, os.O_WRONLY)
subprocess.run(["udevadm", "settle", "--timeout=10"])


def key(code, value):
    os.write(keyboard, struct.pack("llHHi", 0, 0, 1, code, value) + struct.pack("llHHi", 0, 0, 0, 0, 0))


runtime = "/tmp/qt-runtime"
os.makedirs(runtime, mode=0o700, exist_ok=True)
apps = {
    "ours": ([ours, "--display", "--layout", "us"], {}, 1),
    # Qt's linuxfb on DRM dumb buffers, its evdev keyboard plugin (not libinput), one pixel per pixel as ours at
    # scale 1 (QEMU's EDID says 100 dpi: Qt 6 would scale by 100/96).
    "qt": ([qt, art], {"QT_QPA_PLATFORM": "linuxfb", "QT_QPA_FB_DRM": "1", "QT_QPA_FB_NO_LIBINPUT": "1",
                       "QT_ENABLE_HIGHDPI_SCALING": "0", "XDG_RUNTIME_DIR": runtime}, 2),
}


def measure(name, round_number):
    command, extra, first_flush = apps[name]
    environment = dict(os.environ, LANG="C.UTF-8", **extra)
    label = f"rc-exec {name} {round_number}"
    errors = open(os.path.join(run, f"{name}-{round_number}.err"), "w")
    mark(label)
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors,
                               env=environment)
    started = stamp(label)
    shown = wait_flush(started, first_flush, 120)
    if shown is None:
        process.kill()
        fail(f"{name}: no frame on the display in 120 s: {open(errors.name).read()[-800:]}")
    def how(flush):  # a flip's event follows its flush at once; a mode set (drmModeSetCrtc) sends none
        next_flush = min([ts for ts in flushes(flush)] or [flush + 0.5])
        return "flip" if flips(flush, next_flush) else "modeset"
    first = wait_flush(started)
    print(f"figure {name} first-frame {(shown - started) * 1000:.1f} {how(shown)} {(first - started) * 1000:.1f} "
          f"{how(first)}", flush=True)
    quiet()
    if round_number == 1:
        open(os.path.join(run, f"shown-{name}"), "w").close()
        end = time.monotonic() + 60
        while not os.path.exists(os.path.join(run, f"dumped-{name}")) and time.monotonic() < end:
            time.sleep(0.05)
    for kind in ("arrows", "tab"):
        latencies, missing, frames, presses = [], 0, [], []
        for i in range(keys):
            code = (KEY_RIGHT if i % 2 == 0 else KEY_LEFT) if kind == "arrows" else KEY_TAB
            shifted = kind == "tab" and i % 2 == 1
            if shifted:
                key(KEY_LEFTSHIFT, 1)
            text = f"rc-key {name} {round_number} {kind} {i}"
            mark(text)
            key(code, 1)
            pressed = stamp(text)
            presses.append(pressed)
            flush = wait_flush(pressed)
            if flush is None:
                missing += 1
            else:
                latencies.append((flush - pressed) * 1000)
            key(code, 0)
            if shifted:
                key(KEY_LEFTSHIFT, 0)
            time.sleep(0.06)
        quiet(0.5)
        now = time.clock_gettime(time.CLOCK_MONOTONIC)
        for index, pressed in enumerate(presses):
            following = presses[index + 1] if index + 1 < len(presses) else now
            frames.append(len(flushes(pressed, following)))
        flipped = len(flips(presses[0], now))
        print(f"figure {name} {kind} {percentile(latencies, 50):.2f} {percentile(latencies, 99):.2f} "
              f"{len(latencies)} {missing} {sum(frames) / len(frames):.2f} {flipped}", flush=True)
    print(f"figure {name} rss {status_kb(process.pid, 'VmRSS') / 1024:.1f} {status_kb(process.pid, 'VmHWM') / 1024:.1f}",
          flush=True)
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    quiet(0.5)


order = ["ours", "qt"]
for round_number in range(1, rounds + 1):
    for name in order if round_number % 2 == 1 else list(reversed(order)):
        measure(name, round_number)
device.terminate()
write("tracing_on", "0")
print("display-qt done", flush=True)
