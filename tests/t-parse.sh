#!/bin/sh
# boot-tests/parse against captured console logs (tests/fixtures/console):
# a passing self-test, a panic, a hang, a WARN, a failed and a missing result.
. "$(dirname "$0")/lib.sh"

P=$TOP/boot-tests/parse
C=$FIX/console
verdict() {	# verdict LOG EXPECTED...: the last line parse prints
	cp "$1" "$T/log"; shift
	"$P" "$T/log" "$@" | tail -n 1
}
want() {	# want PATTERN VERDICT
	case $2 in $1) ok "$2" ;; *) bad "got '$2', want '$1'" ;; esac
}
want 'boot: PASS*' "$(verdict "$C/preempt-timing-ppc64le.log" preempt_timing_report preempt_timing_cond_resched_lock preempt_timing_short)"
want 'boot: FAIL test: no PASS line for nosuch' "$(verdict "$C/preempt-timing-ppc64le.log" nosuch)"
want 'boot: FAIL kernel: Kernel panic - not syncing: fork fixture: deliberate panic' "$(verdict "$C/bad-panic-x86_64.log" smoke)"
want 'boot: FAIL hang: guest never reached /init (timeout after 45s)' "$(verdict "$C/bad-hang-x86_64.log" smoke)"
sed 's/^\(.*RESULT preempt_timing_short\) PASS/\1 FAIL/' "$C/preempt-timing-ppc64le.log" >"$T/f.log"
want 'boot: FAIL test: RESULT preempt_timing_short FAIL*' "$(verdict "$T/f.log" preempt_timing_short)"
sed '5a[    1.000000] WARNING: CPU: 0 PID: 1 at kernel/softirq.c:42 fixture+0x0/0x10' "$C/preempt-timing-ppc64le.log" >"$T/w.log"
want 'boot: FAIL kernel: WARNING: CPU: 0 PID: 1 at kernel/softirq.c:42*' "$(verdict "$T/w.log" preempt_timing_short)"
sed '/^fork-init: done/d' "$C/preempt-timing-ppc64le.log" >"$T/h.log"
want 'boot: FAIL hang or crash in test preempt_timing' "$(verdict "$T/h.log")"
finish
