#!/bin/sh
# Guest side of Tools/keyboard-readers (run-in-vm --udev; PART=noudev without udevd): latency/CPU/start/RSS for
# evread (libevdev, our path) and liread (libinput path backend), alternating ABBA, as root and through seatd as an
# ordinary user; then the behaviour probes. Environment (set by Tools/keyboard-readers):
#   KR_BIN  the compiled programs; KR_DEV  the .evemu descriptions (Tools/kernel-vm); KR_OUT  the results (a share);
#   RUNS (default 2), N (keys per run, default 2000), PART (all | noudev).
B=$KR_BIN; V=$KR_DEV; O=$KR_OUT; cd $B
# logs are written to the guest's tmpfs (L) and copied to the 9p share (O) at the end: no 9p round trips while measuring
L=/tmp/keyboard-readers; mkdir -p $L; chmod 777 $L
RUNS=${RUNS:-2}; N=${N:-2000}
modprobe uinput; sleep 0.3
echo "guest: $(uname -r), $(nproc) vCPU, $(grep MemTotal /proc/meminfo), loadavg $(cat /proc/loadavg)"
newdev() {  # $1 evemu file (or mkrep), $2 tag -> sets NODE, DEVPID
  if [ $1 = mkrep ]; then $B/mkrep > $VM_RUN/dev-$2.txt 2>&1 & DEVPID=$!
  else evemu-device $V/$1 > $VM_RUN/dev-$2.txt 2>&1 & DEVPID=$!; fi
  i=0; while ! grep -q /dev/input $VM_RUN/dev-$2.txt && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
  NODE=$(awk '{print $NF}' $VM_RUN/dev-$2.txt | grep /dev/input)
  command -v udevadm >/dev/null && udevadm settle -t 5 2>/dev/null
  echo "device $1 -> $NODE"
}
waitready() { i=0; while [ ! -e $VM_RUN/ready ] && kill -0 $RPID 2>/dev/null && [ $i -lt 300 ]; do sleep 0.02; i=$((i+1)); done; [ -e $VM_RUN/ready ] || echo "reader not ready (exited?)"; }
# reader: $1 prog (evread|liread), $2 tag, rest = reader args; uses $AS (prefix for running as a user)
startreader() { p=$1; t=$2; shift 2; rm -f $VM_RUN/ready
  $AS $B/tstamp $B/$p --out $L/$t.log --ready $VM_RUN/ready "$@" & RPID=$!; waitready; }

if [ "${PART:-all}" != noudev ]; then
newdev kbd.evemu kbd
udevadm info -q property -n $NODE | grep -E 'ID_INPUT|LIBINPUT' > $O/udev-kbd.txt
# 1. typing (10-30 ms) and bursts, alternating ev/li, ABBA order
for r in $(seq 1 $RUNS); do
  if [ $((r % 2)) = 1 ]; then order="evread liread"; else order="liread evread"; fi
  for mode in type burst; do for p in $order; do
    startreader $p $mode-$p-root-$r --count $N --run 200 $NODE
    $B/kbdwrite $NODE $mode $N $L/$mode-$p-root-$r.stamps
    wait $RPID; echo "$mode $p run $r done (exit $?) load $(cat /proc/loadavg)"
  done; done
done
# 2. the same typing run as an ordinary user through seatd (user in 'video' only; the node is root 0600 here)
groupadd -f video; useradd -M responderchain-vm 2>/dev/null; usermod -G video responderchain-vm
ls -l $NODE
seatd -l info -g video > $O/seatd.log 2>&1 & SEATD=$!
i=0; while [ ! -S /run/seatd.sock ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
chmod 777 $VM_RUN
AS="setpriv --reuid=responderchain-vm --regid=$(id -g responderchain-vm) --init-groups env LIBSEAT_BACKEND=seatd HOME=/tmp"
for p in evread liread; do
  startreader $p type-$p-seat-1 --seat --count $N --run 200 $NODE
  $B/kbdwrite $NODE type $N $L/type-$p-seat-1.stamps
  wait $RPID; echo "seat type $p done (exit $?)"
done
# check that without seatd the user cannot open the node directly
$AS $B/evread --run 1 $NODE > $O/user-noseat-evread.log 2>&1; echo "user direct evread exit $?"
AS=""
kill $SEATD; wait $SEATD 2>/dev/null

# 3. behaviour: key held when the device is destroyed
for p in evread liread; do
  newdev kbd.evemu hold-$p
  startreader $p hold-$p --run 10 $NODE
  $B/kbdwrite $NODE hold 30; sleep 0.3
  kill $DEVPID; wait $DEVPID 2>/dev/null; wait $RPID; echo "hold $p done"
done
newdev kbd.evemu kbd2
# 4. flood: KEY_X pressed (seen), reader stopped (SIGSTOP), one write of 1000 keys + X up + C down (4004 events
#    into a 64-event client buffer) -> SYN_DROPPED; reader continued; 0.5 s later C up. What does each report?
for p in evread liread; do
  startreader $p flood-$p --run 4 $NODE
  $B/kbdwrite $NODE hold 45; sleep 0.3
  kill -STOP $RPID; $B/kbdwrite $NODE flood 1000 2>> $O/flood-writer.txt; kill -CONT $RPID
  sleep 0.5; $B/kbdwrite $NODE release 46
  wait $RPID; echo "flood $p done"
done
# 5. grab: reader grabs, a second plain libevdev reader on the same node counts what it still gets
for p in evread liread; do
  startreader $p grab-$p --grab --run 3 $NODE
  rm -f $VM_RUN/ready2; $B/evread --run 2 --out $L/grab-$p-bystander.log --ready $VM_RUN/ready2 $NODE & BY=$!
  i=0; while [ ! -e $VM_RUN/ready2 ] && [ $i -lt 200 ]; do sleep 0.02; i=$((i+1)); done
  $B/kbdwrite $NODE type 5 /dev/null; wait $BY; wait $RPID; echo "grab $p done"
done
kill $DEVPID
# 6. kernel autorepeat: EV_REP keyboard, key held 1 s
newdev mkrep rep
udevadm info -q property -n $NODE | grep -E 'ID_INPUT|LIBINPUT' > $O/udev-rep.txt
for p in evread liread; do
  startreader $p repeat-$p --run 3 $NODE
  $B/kbdwrite $NODE repeat 30 1000; wait $RPID; echo "repeat $p done"
done
kill $DEVPID
fi
# 7. remote (arrows/OK/Back) and gamepad (BTN_SOUTH ...): does each open it, does KEY_OK / BTN_SOUTH arrive?
sfx=${PART:-udev}
for dv in remote:352 gamepad:304; do d=${dv%%:*}; k=${dv##*:}
  newdev $d.evemu $d
  command -v udevadm >/dev/null && udevadm info -q property -n $NODE | grep -E 'ID_INPUT|LIBINPUT' > $O/udev-$d-$sfx.txt
  for p in evread liread; do
    startreader $p $d-$p-$sfx --run 3 $NODE
    $B/kbdwrite $NODE repeat $k 50; wait $RPID; echo "$d $p done"
  done
  kill $DEVPID
done
if [ "${PART:-all}" = noudev ]; then
  newdev kbd.evemu kbd
  for p in evread liread; do startreader $p kbd-$p-noudev --run 3 $NODE; $B/kbdwrite $NODE type 5 /dev/null; wait $RPID; done
  (perf stat -e instructions,task-clock true) > $O/perf-guest.txt 2>&1; echo "perf exit $?" >> $O/perf-guest.txt
fi
cp $L/* $O/
echo guest done
