#!/bin/sh
# unit: needs no kernel tree and no build (make test-unit)
# boot-tests/parse and boot-tests/ktap.awk against captured console logs
# (tests/fixtures/console; preempt-timing-x86_64.log is a real boot of the
# preempt-timing tip, its 800 console-case lines cut to 3): a passing
# self-test, a panic, a hang, a WARN, a failed, a missing and a skipped
# result, a subtest that printed fewer results than it planned; splats
# anywhere on a line, the first problem as the reason, only the "ok"/"not
# ok" of a result line as its verdict; and the tree's own KTAP parser
# (tools/testing/kunit) reading the same KTAP as parse does.
. "$(dirname "$0")/lib.sh"

P=$TOP/boot-tests/parse
C=$FIX/console
PT=$C/preempt-timing-x86_64.log
ALL="preempt_timing_report preempt_timing_lock preempt_timing_cond_resched_lock preempt_timing_short preempt_timing_console"
verdict() {	# verdict LOG EXPECTED...: the last line parse prints
	cp "$1" "$T/log"; shift
	"$P" "$T/log" "$@" | tail -n 1
}
want() {	# want PATTERN VERDICT
	case $2 in $1) ok "$2" ;; *) bad "got '$2', want '$1'" ;; esac
}
# shellcheck disable=SC2086
want 'boot: PASS 6 result(s)' "$(verdict "$PT" $ALL preempt_timing)"
"$P" "$T/log" >"$T/out"
[ "$(grep -c '^RESULT ' "$T/out")" = 6 ] && grep -q '^RESULT preempt_timing_lock PASS reports=1 lost=0 duration_us=' "$T/out" &&
	grep -qx 'RESULT preempt_timing PASS ' "$T/out" && ok "a RESULT line per KTAP result, subtests first" ||
	bad "RESULT lines: $(cat "$T/out")"
want 'boot: FAIL test: no result line for nosuch' "$(verdict "$PT" nosuch)"
# the init's lines as /dev/kmsg records: printk time prefix (boot-tests/init)
sed 's/^\([^[]\)/[    1.000000] \1/' "$PT" >"$T/k.log"
# shellcheck disable=SC2086
want 'boot: PASS 6 result(s)' "$(verdict "$T/k.log" $ALL preempt_timing)"
want 'boot: FAIL kernel: Kernel panic - not syncing: fork fixture: deliberate panic' "$(verdict "$C/bad-panic-x86_64.log" smoke)"
want 'boot: FAIL hang: guest never reached /init (timeout after 45s)' "$(verdict "$C/bad-hang-x86_64.log" smoke)"

# a test that ends in the panic it declared (expect-panic): judged from the
# console (console-panic, x86_64, its floods cut to every 2000th record)
CP=$C/console-panic-x86_64.log
want 'boot: PASS 5 result(s)' "$(verdict "$CP" smoke console_panic)"
grep -v 'Kernel panic - not syncing' "$CP" >"$T/p1.log"
want 'boot: FAIL test: RESULT console_panic FAIL the expected panic (539f1beb) never reached the console' "$(verdict "$T/p1.log" console_panic)"
grep -v 'fork: last record before panic' "$CP" >"$T/p2.log"
want 'boot: FAIL test: RESULT console_panic FAIL the expected panic reached the console (line *), the record logged before it did not' "$(verdict "$T/p2.log" console_panic)"
sed 's/not syncing: fork: expected panic 539f1beb/not syncing: fork: expected panic 539f1bec/' "$CP" >"$T/p3.log"
want 'boot: FAIL kernel: Kernel panic - not syncing: fork: expected panic 539f1bec' "$(verdict "$T/p3.log" console_panic)"
# a test that ends in the reset it declared (expect-reset): the record
# logged before emergency_restart() must reach the console
CR=$C/console-reset-x86_64.log
want 'boot: PASS 1 result(s)' "$(verdict "$CR" console_reset)"
grep -v 'fork: last record before reset' "$CR" >"$T/r1.log"
want 'boot: FAIL test: RESULT console_reset FAIL the record logged before the reset (71a70d5f) never reached the console' "$(verdict "$T/r1.log" console_reset)"
# a panic in a test that declared a reset is a kernel problem
sed 's/^\(.*fork: last record before reset 71a70d5f\)$/\1\
[    1.007500] Kernel panic - not syncing: fork: expected panic 71a70d5f/' "$CR" >"$T/r2.log"
want 'boot: FAIL kernel: Kernel panic - not syncing: fork: expected panic 71a70d5f' "$(verdict "$T/r2.log" console_reset)"

# a failing case: its own line is the reason, not its parent's
sed 's/^\(.*\)    ok \([0-9]*\) preempt_timing_short /\1    not ok \2 preempt_timing_short /' "$PT" >"$T/f.log"
want 'boot: FAIL test: RESULT preempt_timing_short FAIL reports=0*' "$(verdict "$T/f.log" preempt_timing_short)"
# a KUnit case that failed without a detail: its diagnostic is the detail
sed -e 's/^\(.*\)    ok \([0-9]*\) preempt_timing_short .*/\1    # preempt_timing_short: EXPECTATION FAILED at lib\/x.c:9\
\1    Expected n == 1, but\
\1        n == 2 (0x2)\
\1    not ok \2 preempt_timing_short/' "$PT" >"$T/d.log"
want 'boot: FAIL test: RESULT preempt_timing_short FAIL EXPECTATION FAILED at lib/x.c:9 / Expected n == 1, but / n == 2 (0x2)' \
	"$(verdict "$T/d.log" preempt_timing_short)"
# a parent that failed without a failing subtest (the base: no trigger)
sed -e '/^\[[ 0-9.]*\]     /d' -e 's/^ok 1 preempt_timing$/not ok 1 preempt_timing # cannot trigger \/sys\/module\/test_preempt_timing\/parameters\/run: No such file or directory/' \
	"$PT" >"$T/b.log"
want 'boot: FAIL test: RESULT preempt_timing FAIL cannot trigger*' "$(verdict "$T/b.log" preempt_timing_report)"
sed '5a[    1.000000] WARNING: CPU: 0 PID: 1 at kernel/softirq.c:42 fixture+0x0/0x10' "$PT" >"$T/w.log"
want 'boot: FAIL kernel: WARNING: CPU: 0 PID: 1 at kernel/softirq.c:42*' "$(verdict "$T/w.log" preempt_timing_short)"
# a hang in the self-test: the plan is not complete
sed -e '/^# fork-init: done/d' -e '/^ok 1 preempt_timing$/d' -e '/ ok 5 preempt_timing_console /d' "$PT" >"$T/h.log"
want 'boot: FAIL hang or crash in test preempt_timing (0 of 1 test(s) reported)' "$(verdict "$T/h.log")"
# every result printed, but the init never said it was done (it hung or
# crashed after its last test)
sed -e '/^# fork-init: done/d' "$PT" >"$T/h.log"
want 'boot: FAIL hang or crash in test preempt_timing (1 of 1 test(s) reported)' "$(verdict "$T/h.log")"
# a subtest that printed fewer results than its plan, and out of order
sed '/ ok 4 preempt_timing_short /d' "$PT" >"$T/n.log"
want 'boot: FAIL ktap: subtest preempt_timing: result 4 numbered 5' "$(verdict "$T/n.log" preempt_timing_report)"
sed -e '/ ok 5 preempt_timing_console /d' "$PT" >"$T/n.log"
want 'boot: FAIL ktap: subtest preempt_timing: planned 5 result(s), printed 4' "$(verdict "$T/n.log" preempt_timing_report)"
# a skipped case: SKIP when it was expected, PASS when not
sed 's/ ok 5 preempt_timing_console # .*/ ok 5 preempt_timing_console # SKIP console_loglevel=4: the lines would not reach a console/' \
	"$PT" >"$T/k.log"
# shellcheck disable=SC2086
want 'boot: SKIP test: preempt_timing_console skipped: console_loglevel=4: the lines would not reach a console' \
	"$(verdict "$T/k.log" $ALL)"
cp "$T/k.log" "$T/log"
"$P" "$T/log" preempt_timing_console >/dev/null
[ $? = 77 ] && ok "SKIP exits 77" || bad "SKIP does not exit 77"
want 'boot: PASS 6 result(s)' "$(verdict "$T/k.log" preempt_timing_report)"
grep -q '^RESULT preempt_timing_console SKIP console_loglevel=4' "$T/log.results" && ok "the SKIP result keeps its reason" ||
	bad "SKIP result: $(grep console "$T/log.results")"

# splat LINE PATTERN: the passing log with LINE added before the tests run
# is judged PATTERN
splat() {
	sed "5a$1" "$PT" >"$T/s.log"
	want "$2" "$(verdict "$T/s.log" preempt_timing_short)"
}
# anywhere on a line: after the printk caller id (CONFIG_PRINTK_CALLER) or
# after other output
splat '[   22.100000][    C0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [swapper/0:1]' \
	'boot: FAIL kernel: BUG: soft lockup - CPU#0 stuck for 22s! \[swapper/0:1\]'
splat '# fork-init: waiting[  120.000000] INFO: task kworker/0:1:12 blocked for more than 120 seconds.' \
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
splat '# fork-init: x[    1.200000] WARNING: possible circular locking dependency detected' \
	'boot: FAIL kernel: WARNING: possible circular locking dependency detected'
splat '[    1.200000][    T1] WARNING: suspicious RCU usage' 'boot: FAIL kernel: WARNING: suspicious RCU usage'
splat '[    1.000000][    T1] WARNING: CPU: 0 PID: 1 at kernel/softirq.c:42 fixture+0x0/0x10' \
	'boot: FAIL kernel: WARNING: CPU: 0 PID: 1 at kernel/softirq.c:42*'
# the first problem in the log is the reason, not the panic it led to
sed '5a[   22.100000] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [kworker/1:1:30]\
[   22.200000] Kernel panic - not syncing: softlockup: hung tasks' "$PT" >"$T/p.log"
want 'boot: FAIL kernel: BUG: soft lockup - CPU#1 stuck*' "$(verdict "$T/p.log")"
# BUG:/WARNING: in general count at the start of a line only
splat '# fork-init: the test prints BUG: and WARNING: in its help text' 'boot: PASS*'

# only "ok"/"not ok" is a verdict: not a detail that says FAIL, nor a
# kernel line that is not KTAP
sed 's/^\(.* ok 4 preempt_timing_short # .*\)$/\1 (base would FAIL)/' "$PT" >"$T/d.log"
grep -q 'preempt_timing_short # .*(base would FAIL)$' "$T/d.log" || bad "d.log not made"
want 'boot: PASS 6 result(s)' "$(verdict "$T/d.log" preempt_timing_report preempt_timing_short)"
splat '[    1.000000] RESULT preempt_timing_short FAIL an old-style line' 'boot: PASS 6 result(s)'
splat '[    1.000000] not ok to be a test result: a kernel message' 'boot: PASS 6 result(s)'
# the printk caller id as a prefix of a KTAP line
sed 's/^\[\([ 0-9.]*\)\]     ok 4 preempt_timing_short /[\1][    T1]     not ok 4 preempt_timing_short /' \
	"$PT" >"$T/c.log"
want 'boot: FAIL test: RESULT preempt_timing_short FAIL*' "$(verdict "$T/c.log")"
# an expected name is matched whole
want 'boot: FAIL test: no result line for preempt_timing_repo' "$(verdict "$PT" preempt_timing_repo)"

# the tree's kunit_tool reads the KTAP parse extracted, and agrees
K=$KTREE/tools/testing/kunit/kunit.py
if [ -r "$K" ] && command -v python3 >/dev/null; then
	cp "$PT" "$T/log"
	"$P" "$T/log" >/dev/null
	python3 "$K" parse "$T/log.ktap" >"$T/kunit.out" 2>&1 &&
		grep -q 'Testing complete. Ran 5 tests: passed: 5$' "$T/kunit.out" &&
		ok "kunit_tool: 5 tests passed, no error" || bad "kunit_tool: $(tail -n 3 "$T/kunit.out")"
	cp "$T/f.log" "$T/log"
	"$P" "$T/log" >/dev/null
	python3 "$K" parse "$T/log.ktap" >"$T/kunit.out" 2>&1 &&
		bad "kunit_tool passes the failing log" ||
		{ grep -q 'Ran 5 tests: passed: 4, failed: 1$' "$T/kunit.out" &&
			ok "kunit_tool: the failing case failed" || bad "kunit_tool: $(tail -n 3 "$T/kunit.out")"; }
else
	ok "# SKIP no $K (no kernel tree) or no python3: kunit_tool not compared"
fi
finish
