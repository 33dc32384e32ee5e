#!/bin/sh
# unit: needs no kernel tree and no build (make test-unit)
# boot-tests/boot's accelerator: a test whose command line says
# fork.icount boots under "-accel tcg -icount shift=N,sleep=off" with the
# arch's ICOUNT_SHIFT (fork.icount=SHIFT: that one), guest time, so that
# its latency limit does not depend on the host (zap-thp); every other
# boot with the arch's TCG arguments; FORK_BOOT_ACCEL wins over both.  A
# fake QEMU records its arguments.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/bin" "$T/obj/arch/x86/boot"
: >"$T/obj/arch/x86/boot/bzImage"
cat >"$T/bin/qemu-system-x86_64" <<EOS
#!/bin/sh
printf '%s\n' "\$*" >"$T/args"
EOS
chmod +x "$T/bin/qemu-system-x86_64"
# boot ARGS...: boot-tests/boot with the fake QEMU first in PATH
boot() {
	rm -f "$T/args"
	PATH=$T/bin:$PATH "$TOP/boot-tests/boot" x86_64 "$T/obj" "$T/log" smoke "$@" >"$T/out" 2>&1 ||
		{ bad "boot $*: $(cat "$T/out")"; return 1; }
}
boot "maxcpus=1 fork.icount=2 fork.lat_max_us=10000" &&
	grep -q -- '-accel tcg -icount shift=2,sleep=off ' "$T/args" && ! grep -q 'thread=single' "$T/args" &&
	ok "fork.icount=2: -icount shift=2,sleep=off" || bad "fork.icount=2 booted with: $(cat "$T/args")"
boot "fork.icount=0" && grep -q -- '-icount shift=0,sleep=off ' "$T/args" &&
	ok "fork.icount=0 alone on the line" || bad "fork.icount=0 booted with: $(cat "$T/args")"
sh=$(. "$TOP/boot-tests/arch/x86_64.conf" && echo "$ICOUNT_SHIFT")
boot "maxcpus=1 fork.icount fork.lat_max_us=10000" && grep -q -- "-icount shift=$sh,sleep=off " "$T/args" &&
	ok "fork.icount: the arch's ICOUNT_SHIFT ($sh)" || bad "fork.icount booted with: $(cat "$T/args")"
boot "maxcpus=1 fork.lat_max_us=10000" && grep -q -- '-accel tcg,thread=single ' "$T/args" &&
	! grep -q icount "$T/args" && ok "without it: the arch's TCG arguments" ||
	bad "plain boot with: $(cat "$T/args")"
FORK_BOOT_ACCEL='-accel tcg -icount shift=5,sleep=off' boot "fork.icount=2" &&
	grep -q -- 'shift=5' "$T/args" && ! grep -q 'shift=2' "$T/args" &&
	ok "FORK_BOOT_ACCEL wins" || bad "FORK_BOOT_ACCEL lost: $(cat "$T/args")"
# fork.steal: QEMU pinned to one host CPU beside a busy loop, which is
# gone when the boot ends
cat >"$T/bin/qemu-system-x86_64" <<EOS
#!/bin/sh
printf '%s\n' "\$*" >"$T/args"
grep Cpus_allowed_list /proc/self/status >"$T/cpus"
pgrep -f "done fork-steal-hog" >"$T/hog" || :
EOS
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
boot "fork.steal" && grep -qE "Cpus_allowed_list:[[:space:]]*$cpu\$" "$T/cpus" && [ -s "$T/hog" ] &&
	ok "fork.steal: QEMU on CPU $cpu with a busy loop" ||
	bad "fork.steal: QEMU $(cat "$T/cpus" 2>/dev/null), busy loop pid(s) $(cat "$T/hog" 2>/dev/null)"
left=$(cat "$T/hog" 2>/dev/null | while read -r p; do kill -0 "$p" 2>/dev/null && echo "$p"; done)
[ -z "$left" ] && ok "fork.steal: the busy loop ends with the boot" || bad "fork.steal: busy loop $left left running"
boot "maxcpus=1" && ! grep -qE "Cpus_allowed_list:[[:space:]]*$cpu\$" "$T/cpus" &&
	ok "without it: QEMU not pinned" || bad "without fork.steal: QEMU $(cat "$T/cpus")"
finish
