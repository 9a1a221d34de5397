#!/usr/bin/env python3
"""analyze.py OUTDIR: the tables of Tools/keyboard-readers from the results of guest-measure.sh and guest-start.sh.
Latency / CPU / start / RSS from the reader logs (*.log: 'K' key lines, 'S' summary line, '#' log lines) and the
writer stamps (*.stamps, 'W' lines): events are matched in order and every (code, value) must agree. The behaviour
table is read from the probes' logs (hold-, flood-, repeat-, grab-, remote-, gamepad-, kbd-*-noudev, *-seat-).
Exit status 1 when there were no measured runs, or a key was lost or mismatched."""
import glob, os, re, statistics, sys
from collections import defaultdict
O = sys.argv[1]

def pct(xs, p):
    xs = sorted(xs)
    if not xs: return float("nan")
    k = (len(xs) - 1) * p / 100; f = int(k); c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)

def load(tag):
    W = [l.split() for l in open(f"{O}/{tag}.stamps") if l.startswith("W ")]
    K, S = [], {}
    for l in open(f"{O}/{tag}.log"):
        if l.startswith("K "): K.append(l.split())
        elif l.startswith("S "): S = dict(kv.split("=") for kv in l.split()[1:])
    return W, K, S

rows = defaultdict(lambda: defaultdict(list))   # (mode, cond, prog) -> metric -> values (pooled over runs)
per_run = []
for st in sorted(glob.glob(f"{O}/*-*-*-*.stamps")):
    tag = os.path.basename(st)[:-7]
    mode, prog, cond, run = tag.split("-")
    if not os.path.exists(f"{O}/{tag}.log"): continue
    W, K, S = load(tag)
    n = min(len(W), len(K)); bad = sum(1 for i in range(n) if (W[i][2], W[i][3]) != (K[i][1], K[i][2]))
    wh, kh, wk = [], [], []
    for i in range(n):
        if W[i][3] != "1": continue                          # presses only: "key -> handler"
        tw, th, tk = int(W[i][4]), int(K[i][3]), int(K[i][4])
        wh.append((th - tw) / 1e3); kh.append((th - tk) / 1e3); wk.append((tk - tw) / 1e3)
    r = rows[(mode, cond, prog)]
    r["wh"] += wh; r["kh"] += kh; r["wk"] += wk
    keys = int(S.get("keys", 0)); cpu = int(S.get("cpu_ns", 0))
    r["cpu_us_per_key"].append(cpu / 1e3 / max(1, (keys - 1) / 2))   # per key = press + release
    r["ready_ms"].append(int(S.get("ready_ns", 0)) / 1e6); r["main_ready_ms"].append(int(S.get("main_ready_ns", 0)) / 1e6)
    r["cpu_ready_ms"].append(int(S.get("cpu_ready_ns", 0)) / 1e6); r["hwm_kb"].append(int(S.get("hwm_kb", 0)))
    r["runs"].append(1); r["mismatch"].append(bad); r["missing"].append(len(W) - len(K))
    per_run.append((tag, len(W), len(K), bad, pct(wh, 50), pct(wh, 99), cpu / 1e3 / max(1, (keys - 1) / 2)))


name = {"evread": "libevdev (ours)", "liread": "libinput path"}
who = {"root": "root", "seat": "user via seatd"}
mname = {"type": "typing", "burst": "burst"}
fmt = lambda x: f"{x:,.0f}"

print("Per run (mode-reader-as-run): events written, handled, mismatched; key→handler p50 / p99 µs; CPU µs per key")
for t in per_run: print("  %-26s %5d %5d %3d  %8.1f %8.1f  %7.1f" % t)
print()
print("| mode | reader | as | runs | presses | key→handler p50 / p99 (µs) | kernel time→handler p50 / p99 (µs) | CPU per key (µs) | exec→ready (ms) | VmHWM (kB) | lost / mismatched |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for (mode, cond, prog), r in sorted(rows.items(), key=lambda kv: (kv[0][1] != "root", kv[0][0] != "type", kv[0][0], kv[0][2])):
    m = lambda k, r=r: sum(r[k]) / len(r[k])
    cpu = m("cpu_us_per_key"); extra = ""
    ours = rows.get((mode, cond, "evread"))
    if prog == "liread" and ours:
        base = sum(ours["cpu_us_per_key"]) / len(ours["cpu_us_per_key"])
        if base > 0: extra = f" ({(cpu / base - 1) * 100:+.0f} %)"
    b = "**" if prog == "evread" else ""
    print(f"| {mname.get(mode, mode)} | {b}{name[prog]}{b} | {who.get(cond, cond)} | {len(r['runs'])} | {fmt(len(r['wh']))} | "
          f"{fmt(pct(r['wh'],50))} / {fmt(pct(r['wh'],99))} | {fmt(pct(r['kh'],50))} / {fmt(pct(r['kh'],99))} | "
          f"{fmt(cpu)}{extra} | {m('ready_ms'):.0f} | {fmt(max(r['hwm_kb']))} | {sum(r['missing'])} / {sum(r['mismatch'])} |")

def text(path):
    try: return open(path).read()
    except OSError: return None

def keys(t):
    return [tuple(int(x) for x in l.split()[1:3]) for l in t.splitlines() if l.startswith("K ")]

def logt(line):
    m = re.match(r"# \[([0-9.]+)\]", line); return float(m.group(1)) if m else None

def summary(t):
    for l in t.splitlines():
        if l.startswith("S "): return dict(kv.split("=") for kv in l.split()[1:])
    return {}

# start-up (guest-start.sh)
st = defaultdict(lambda: defaultdict(list))
for f in sorted(glob.glob(f"{O}/start-*-*.log")):
    prog = os.path.basename(f).split("-")[1]; t = text(f); S = summary(t)
    if not S or int(S.get("ready_ns", -1)) < 0: st[prog]["failed"].append(1); continue
    st[prog]["ready"].append(int(S["ready_ns"]) / 1e6); st[prog]["main"].append(int(S["main_ready_ns"]) / 1e6)
    st[prog]["cpu"].append(int(S["cpu_ready_ns"]) / 1e6); st[prog]["hwm"].append(int(S["hwm_kb"]))
    for l in t.splitlines():
        for k in ("libevdev_new_from_fd", "libinput_path_create_context", "libinput_path_add_device"):
            m = re.search(k + r" ([0-9.]+) ms", l)
            if m: st[prog][k].append(float(m.group(1)))
if st:
    print()
    print("Start-up (guest-start.sh: alternating starts, each exits when ready):")
    print()
    print("| | starts | exec→ready median (min–max) | main()→ready median | of which (min–max) | process CPU to ready median | VmHWM |")
    print("|---|---|---|---|---|---|---|")
    for prog in ("evread", "liread"):
        r = st.get(prog)
        if not r or not r["ready"]: print(f"| {name[prog]} | 0 | failed | | | | |"); continue
        med = statistics.median
        parts = ", ".join(f"`{k}` {min(v):.1f}–{max(v):.1f} ms" for k, v in r.items()
                          if k.startswith("lib") and v)
        print(f"| {name[prog]} | {len(r['ready'])} | {med(r['ready']):.0f} ms ({min(r['ready']):.0f}–{max(r['ready']):.0f}) | "
              f"{med(r['main']):.0f} ms | {parts} | {med(r['cpu']):.0f} ms | {min(r['hwm'])/1000:.1f}–{max(r['hwm'])/1000:.1f} MB |")

# behaviour (guest-measure.sh's probes)
def cell_hold(p, t):
    if t is None: return "not run"
    k = keys(t); pressed = (30, 1) in k or any(v == 1 for _, v in k); rel = any(v == 0 for _, v in k)
    if p == "evread":
        kf = "kernel-made frame (SYN_REPORT 1)" in t; gone = "ENODEV" in t
        if pressed and rel and kf:
            return ("release in a **`SYN_REPORT` value 1** frame" + (", then `ENODEV`" if gone else "") +
                    ": `EvdevDecoder` makes it `cancelKey`, the press ends **cancelled**")
        return f"press {pressed}, release {rel}, kernel frame {kf}: unexpected"
    d = {}
    for l in t.splitlines():
        m = re.search(r"dispatch #(\d+): (KEYBOARD_KEY \d+ released|DEVICE_REMOVED)", l)
        if m: d.setdefault("rel" if "released" in m.group(2) else "rem", (int(m.group(1)), logt(l)))
    if "rel" in d and "rem" in d:
        same = d["rel"][0] == d["rem"][0]
        return (f"plain release in dispatch #{d['rel'][0]}, `DEVICE_REMOVED` in dispatch #{d['rem'][0]}" +
                ("" if same else f", {(d['rem'][1] - d['rel'][1]) * 1e3:.0f} ms later") +
                ": indistinguishable from a real release, the press would end **ended**")
    return f"dispatches seen: {d}: unexpected"

def cell_flood(p, t):
    if t is None: return "not run"
    k = keys(t); after = ", ".join(f"{c} {'pressed' if v == 1 else 'released' if v == 0 else 'repeat'}" for c, v in k[1:])
    if p == "evread":
        m = re.search(r"sync complete: keys held now: ([^(]*)", t)
        if "SYN_DROPPED (#" in t and m:
            return (f"`SYN_DROPPED` → libevdev sync mode → held: {m.group(1).strip()}; `EvdevDecoder.resynchronize` "
                    f"ends a press found released **cancelled** and records a held key **without `began`**; "
                    f"key events after the first: {after or 'none'}")
        return f"no SYN_DROPPED seen (keys after the first: {after or 'none'})"
    logged = "SYN_DROPPED event" in t
    ds = sorted({int(x) for x in re.findall(r"dispatch #(\d+): KEYBOARD_KEY", t)})
    return ((f"`SYN_DROPPED` only in the log handler; " if logged else "no `SYN_DROPPED` logged; ") +
            f"the application gets plain events: {after or 'none'} (dispatches {', '.join(f'#{x}' for x in ds[1:]) or 'none'} after the first press)")

def cell_repeat(p, t):
    if t is None: return "not run"
    k = keys(t); n2 = sum(1 for _, v in k if v == 2)
    m = re.findall(r"dispatch #(\d+): KEYBOARD_KEY \d+ released", t)
    s = f"{n2} value-2 (repeat) events, {sum(1 for _, v in k if v != 2)} press/release"
    if p == "evread": return s + (": `RepeatMode.kernel` works" if n2 else "")
    return s + (": **kernel repeat dropped**" if n2 == 0 else "") + (f"; the release came in dispatch #{m[-1]}" if m else "")

def cell_grab(p, t, by):
    if t is None: return "not run"
    m = re.search(r"(libevdev_grab|EVIOCGRAB)[^>]*-> ?(-?\d+)", t)
    g = (f"`libevdev_grab` → {m.group(2)}" if p == "evread" else f"`EVIOCGRAB` in `open_restricted` (no libinput API) → {m.group(2)}") if m else "no grab result"
    bk = len(keys(by)) if by is not None else None
    return g + (f"; the bystander got **{bk}** of {len(keys(t))} events" if bk is not None else "; no bystander log")

def cell_open(p, t, code):
    if t is None: return "not run"
    k = keys(t); got = [c for c, v in k if c == code]
    if "returned NULL" in t:
        why = "ignored as a joystick or gamepad" if "joystick or a gamepad" in t else \
              "udev device never initialized" if "never initialized" in t else "refused"
        lt = [logt(l) for l in t.splitlines() if "returned NULL" in l]
        return f"`libinput_path_add_device` → **NULL** after {lt[0]:.1f} s ({why})"
    return f"opened; {len(got)} events of code {code} read" + ("" if got else " (**none**)")

def cell_seat(p, t, direct):
    if t is None: return "not run"
    S = summary(t); ok = "libseat_open_device(" in t and "-> id" in t
    s = (f"fd through `libseat_open_device`; " if ok else "no libseat fd; ") + f"{S.get('keys', 0)} key events read"
    if p == "evread" and direct is not None:
        s += "; opening the node directly: " + ("`Permission denied`" if "Permission denied" in direct else direct.strip()[:80])
    return s

R = lambda tag: text(f"{O}/{tag}.log")
cases = [
    ("key held when the device is destroyed (`hold-*`)", lambda p: cell_hold(p, R(f"hold-{p}"))),
    ("`SYN_DROPPED` (`flood-*`: one key held, reader stopped, 1,000 keys + X up + C down written, reader continued)", lambda p: cell_flood(p, R(f"flood-{p}"))),
    ("kernel auto-repeat (`repeat-*`: EV_REP keyboard, A held 1 s)", lambda p: cell_repeat(p, R(f"repeat-{p}"))),
    ("`EVIOCGRAB` (`grab-*` + a bystander libevdev reader)", lambda p: cell_grab(p, R(f"grab-{p}"), R(f"grab-{p}-bystander"))),
    ("remote (`remote.evemu`, with udevd)", lambda p: cell_open(p, R(f"remote-{p}-udev"), 352)),
    ("gamepad (`gamepad.evemu`, with udevd)", lambda p: cell_open(p, R(f"gamepad-{p}-udev"), 304)),
    ("keyboard without udevd", lambda p: cell_open(p, R(f"kbd-{p}-noudev"), None) if R(f"kbd-{p}-noudev") is None or "returned NULL" in R(f"kbd-{p}-noudev")
        else f"opened; {len(keys(R(f'kbd-{p}-noudev')))} key events read"),
    ("remote without udevd", lambda p: cell_open(p, R(f"remote-{p}-noudev"), 352)),
    ("gamepad without udevd", lambda p: cell_open(p, R(f"gamepad-{p}-noudev"), 304)),
    ("ordinary user through seatd (`type-*-seat-1`)", lambda p: cell_seat(p, R(f"type-{p}-seat-1"), text(f"{O}/user-noseat-evread.log"))),
]
print()
print("Behaviour:")
print()
print("| case | ours (libevdev, `evread`) | libinput path (`liread`) |")
print("|---|---|---|")
for c, f in cases:
    print(f"| {c} | {f('evread')} | {f('liread')} |")

sys.exit(0 if per_run and all(t[1] == t[2] and t[3] == 0 for t in per_run) else 1)
