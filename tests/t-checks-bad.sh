#!/bin/sh
# The check engine on deliberately bad commits (tests/fixtures/bad, x86_64):
# a compile error, a new sparse warning, a checkpatch error, a kernel that
# panics and a guest that hangs are each reported as FAIL with a one-line
# reason, the run goes on with the others, and no PASS is cached for them;
# a commit touching a file the config does not build passes.  The W=1
# delta: a header-only commit is judged on the objects that include the
# header (it passed unread), and a second identical warning in the same
# file is new (sort -u hid it).
. "$(dirname "$0")/lib.sh"

need_ktree
export TESTS_TXT=$FIX/tests.txt BRANCHES_TXT=$FIX/bad/branches.txt SERIES=$FIX/bad/series NOTES=$T/notes
# the fixture kernel reaches /init in about 1 s and its smoke boot takes
# 2-3 s on 2 cores (about 7 s on CI's slower machine): 25 s is over 3x
# that, and bad-hang, booted twice, waits for it twice
export FORK_BOOT_TIMEOUT=25 RESULTS=$T/results
"$S/mkbranches" >"$T/mk" 2>&1 || { cat "$T/mk"; bad "mkbranches"; finish; }
"$TOP/checks/run" --arch x86_64 >"$T/run" 2>&1
rc=$?
cat "$T/run"
[ $rc = 1 ] && ok "run exits 1" || bad "run exit code $rc"
want() {	# want TOPIC CHECK PATTERN
	if grep -E "^$1 +[0-9a-f]+ +[a-z0-9_]+ +$2 +FAIL .*$3" "$T/run" >/dev/null; then
		ok "$1: $2 FAIL: $(grep -E "^$1 +[0-9a-f]+ +[a-z0-9_]+ +$2 +FAIL" "$T/run" | sed 's/.* FAIL //')"
	else
		bad "$1: no '$2 FAIL .*$3' line"
	fi
}
want bad-compile build 'build failed: .*softirq.c.*error'
want bad-sparse sparse "new sparse warning.*fixture_undeclared"
want bad-checkpatch checkpatch '1 error'
want bad-panic boot 'Kernel panic - not syncing: fork fixture: deliberate panic'
want bad-hang boot 'guest never reached /init'
want bad-header build "new W=1 warning.*kernel/sched/sched.h: warning: .fork_fixture_unused_in_header. defined but not used"
dup2=$(git -C "$KTREE" rev-parse --short=12 bad-dup)
if grep -Eq "^bad-dup +$dup2 +x86_64 +build +FAIL .*new W=1 warning.*unused variable .fork_fixture_unused." "$T/run"; then
	ok "bad-dup: the second identical warning is new: build FAIL"
else
	bad "bad-dup: its second commit should FAIL build: $(grep -E "^bad-dup +$dup2 .* build " "$T/run")"
fi
# every bad commit but bad-compile builds: its x86_64 build check line says PASS
for t in bad-sparse bad-checkpatch bad-panic bad-hang; do
	if grep -Eq "^$t +[0-9a-f]+ +x86_64 +build +PASS( |\$)" "$T/run"; then
		ok "$t: builds"
	else
		bad "$t: should build (no '$t ... x86_64 build PASS' line)"
	fi
done
# a touched file the config leaves out is noted, not compiled and failed
for k in build sparse; do
	if grep -Eq "^ok-unbuilt +[0-9a-f]+ +x86_64 +$k +PASS( |\$)" "$T/run"; then
		ok "ok-unbuilt: $k PASS"
	else
		bad "ok-unbuilt: $k should PASS: $(grep -E "^ok-unbuilt .* $k " "$T/run")"
	fi
done
log=$("$TOP/checks/store" get build ok-unbuilt x86_64 2>/dev/null | sed -n 's/^log //p')
grep -q 'note: unbuilt: kernel/fixture_unbuilt.c' "$log" 2>/dev/null &&
	ok "ok-unbuilt: its build log notes the file as unbuilt" ||
	bad "ok-unbuilt: no 'unbuilt' note in its build log ${log:-(none stored)}"
# nothing stored as PASS for the failing checks
for t in bad-compile:build:x86_64 bad-sparse:sparse:x86_64 bad-checkpatch:checkpatch:any \
	bad-panic:boot:x86_64 bad-hang:boot:x86_64; do
	b=${t%%:*} k=$(echo "$t" | cut -d: -f2) a=${t##*:}
	st=$("$TOP/checks/store" get "$k" "$b" "$a" 2>/dev/null | sed -n 's/^status //p')
	if [ "$st" = FAIL ]; then
		ok "$b: $k stored as FAIL"
	else
		bad "$b: $k stored as '${st:-nothing}', want FAIL"
	fi
done
"$TOP/checks/run" --arch x86_64 >"$T/run2" 2>&1
grep -q '(cached)' "$T/run2" && ! grep -Eq '\([0-9]+s\)$' "$T/run2" &&
	ok "second run: everything from the cache" || { bad "second run re-ran checks"; cat "$T/run2"; }
finish
