#!/bin/sh
# A reworded commit (same tree, same parent, another message) re-runs
# checkpatch, which fails when its Signed-off-by is gone; the fixed
# message gets the first verdict back.  Real commits on the kernel tree.
. "$(dirname "$0")/lib.sh"

engine_fixture x86_64
run() { "$TOP/checks/run" --checks checkpatch >"$T/run" 2>&1; cat "$T/run"; }
short() { git -C "$KTREE" rev-parse --short=12 "$1"; }
run
ran "$T/run" checkpatch "$(short "$c1")" | grep -Eq 'PASS .*\([0-9]+s\)$' && ok "checkpatch runs and passes" ||
	bad "first run: no PASS"
run
ran "$T/run" checkpatch "$(short "$c1")" | grep -q 'PASS .*(cached)$' && ok "second run: cached" ||
	bad "second run: not cached"
# reworded: the same tree on the same parent, the Signed-off-by dropped
c2=$(git -C "$KTREE" log -1 --format=%B "$c1" | grep -v '^Signed-off-by:' |
	GIT_AUTHOR_NAME='A Developer' GIT_AUTHOR_EMAIL=dev@example.org GIT_AUTHOR_DATE='@1700000000 +0000' \
	GIT_COMMITTER_NAME='A Developer' GIT_COMMITTER_EMAIL=dev@example.org \
	git -C "$KTREE" commit-tree "$c1^{tree}" -p base)
[ "$(git -C "$KTREE" rev-parse "$c2^{tree}")" = "$(git -C "$KTREE" rev-parse "$c1^{tree}")" ] &&
	ok "reworded commit has the same tree" || bad "reword changed the tree"
git -C "$KTREE" update-ref refs/heads/fixture-e "$c2"
run
ran "$T/run" checkpatch "$(short "$c2")" | grep -Eq 'FAIL .*Signed-off-by.*\([0-9]+s\)$' &&
	ok "reworded commit: checkpatch re-run, FAIL: missing Signed-off-by" || bad "reworded commit not re-judged"
grep -q '^    again: make check TOPIC=fixture-e COMMIT=.* CHECKS=checkpatch RETEST=1' "$T/run" &&
	ok "the failure names its reproducer" || bad "no reproducer"
# the message fixed again: the first result is the verdict again
git -C "$KTREE" update-ref refs/heads/fixture-e "$c1"
run
ran "$T/run" checkpatch "$(short "$c1")" | grep -q 'PASS .*(cached)$' && ok "message fixed: PASS (cached)" ||
	bad "fixed message not PASS"
# RETEST re-runs what is stored; forget drops a commit's results
RETEST=1 run
ran "$T/run" checkpatch "$(short "$c1")" | grep -Eq 'PASS .*\([0-9]+s\)$' && ok "RETEST=1 re-runs" ||
	bad "RETEST=1 did not re-run"
"$TOP/checks/store" forget "$c1" 2>"$T/err"
grep -q 'forgot 1 result' "$T/err" && ok "forget: $(cat "$T/err")" || { bad "forget"; cat "$T/err"; }
run
ran "$T/run" checkpatch "$(short "$c1")" | grep -Eq 'PASS .*\([0-9]+s\)$' && ok "forgotten: re-run" ||
	bad "forgotten result still used"
git -C "$KTREE" branch -q -D fixture-e
finish
