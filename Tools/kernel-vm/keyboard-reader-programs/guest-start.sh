#!/bin/sh
# Guest side of Tools/keyboard-readers (run-in-vm --udev): start-up only. 10 alternating starts of each reader on
# the same keyboard, each exits as soon as it is ready (--run 0): exec->ready, its breakdown, CPU to ready, VmHWM.
# Environment: KR_BIN (the programs), KR_DEV (the .evemu descriptions), KR_OUT (the results, a share).
B=$KR_BIN; O=$KR_OUT; L=/tmp/keyboard-readers; mkdir -p $L
modprobe uinput; sleep 0.3
evemu-device $KR_DEV/kbd.evemu > $L/dev.txt 2>&1 & DEVPID=$!
i=0; while ! grep -q /dev/input $L/dev.txt && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
NODE=$(awk '{print $NF}' $L/dev.txt | grep /dev/input); udevadm settle -t 5
for r in $(seq 1 10); do for p in evread liread; do
  $B/tstamp $B/$p --out $L/start-$p-$r.log --run 0 $NODE
done; done
kill $DEVPID
cp $L/start-* $O/
echo guest done
