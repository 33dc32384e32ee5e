#!/bin/sh
# boot-tests/parse against captured console logs (tests/fixtures/console):
# a passing self-test, a panic, a hang, a WARN, a failed and a missing
# result; splats anywhere on a line (after a printk caller id, after other
# output), the first problem as the reason, and only the third word of a
# RESULT line as its verdict.
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

# splat LINE PATTERN: the passing log with LINE added before the tests run
# is judged PATTERN
splat() {
	sed "5a$1" "$C/preempt-timing-ppc64le.log" >"$T/s.log"
	want "$2" "$(verdict "$T/s.log" preempt_timing_short)"
}
# anywhere on a line: after the printk caller id (CONFIG_PRINTK_CALLER) or
# after other output
splat '[   22.100000][    C0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [swapper/0:1]' \
	'boot: FAIL kernel: BUG: soft lockup - CPU#0 stuck for 22s! \[swapper/0:1\]'
splat 'fork-init: waiting[  120.000000] INFO: task kworker/0:1:12 blocked for more than 120 seconds.' \
	'boot: FAIL kernel: INFO: task kworker/0:1:12 blocked for more than 120 seconds.'
splat '[    1.200000][    T1] general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] PREEMPT SMP' \
	'boot: FAIL kernel: general protection fault, probably for non-canonical address*'
splat 'xx[    1.200000] general protection fault: 0000 [#1] PREEMPT SMP' \
	'boot: FAIL kernel: general protection fault: 0000*'
# the debug splats
splat '[    1.200000][    T1] BUG: sleeping function called from invalid context at kernel/softirq.c:42' \
	'boot: FAIL kernel: BUG: sleeping function called from invalid context at kernel/softirq.c:42'
splat '[    1.200000][    T1] BUG: scheduling while atomic: swapper/0/1/0x00000002' \
	'boot: FAIL kernel: BUG: scheduling while atomic: swapper/0/1/0x00000002'
splat 'fork-init: x[    1.200000] WARNING: possible circular locking dependency detected' \
	'boot: FAIL kernel: WARNING: possible circular locking dependency detected'
splat '[    1.200000][    T1] WARNING: suspicious RCU usage' 'boot: FAIL kernel: WARNING: suspicious RCU usage'
splat '[    1.000000][    T1] WARNING: CPU: 0 PID: 1 at kernel/softirq.c:42 fixture+0x0/0x10' \
	'boot: FAIL kernel: WARNING: CPU: 0 PID: 1 at kernel/softirq.c:42*'
# the first problem in the log is the reason, not the panic it led to
sed '5a[   22.100000] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [kworker/1:1:30]\
[   22.200000] Kernel panic - not syncing: softlockup: hung tasks' "$C/preempt-timing-ppc64le.log" >"$T/p.log"
want 'boot: FAIL kernel: BUG: soft lockup - CPU#1 stuck*' "$(verdict "$T/p.log")"
# BUG:/WARNING: in general count at the start of a line only
splat 'fork-init: the test prints BUG: and WARNING: in its help text' 'boot: PASS*'

# only the third word of a RESULT line is its verdict
sed 's/^\(.*RESULT preempt_timing_short PASS.*\)$/\1 (base would FAIL)/' "$C/preempt-timing-ppc64le.log" >"$T/d.log"
grep -q 'preempt_timing_short PASS .*(base would FAIL)$' "$T/d.log" || bad "d.log not made"
want 'boot: PASS 3 result(s)' "$(verdict "$T/d.log" preempt_timing_report preempt_timing_short)"
splat 'RESULT FAILOVER PASS detail' 'boot: PASS 4 result(s)'
splat 'RESULT console_flood PASS longest 3 ms (base would FAIL)' 'boot: PASS 4 result(s)'
sed 's/^\[\([ 0-9.]*\)\] \(RESULT preempt_timing_short\) PASS/[\1][    T1] \2 FAIL/' \
	"$C/preempt-timing-ppc64le.log" >"$T/c.log"
want 'boot: FAIL test: RESULT preempt_timing_short FAIL*' "$(verdict "$T/c.log")"
# an expected name is matched whole, and needs PASS as the verdict
want 'boot: FAIL test: no PASS line for preempt_timing' "$(verdict "$C/preempt-timing-ppc64le.log" preempt_timing)"
sed '5aRESULT smoke SKIP (base would PASS)' "$C/preempt-timing-ppc64le.log" >"$T/k.log"
want 'boot: FAIL test: no PASS line for smoke' "$(verdict "$T/k.log" smoke)"
finish
