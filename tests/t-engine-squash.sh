#!/bin/sh
# W=1 and sparse judge a commit against its parent: after
# 'git rebase -i --autosquash' folds "fixup! X" into X, the squashed
# commit has the fixup's tree but another parent, and both checks run
# again (a changed compiler: t-engine-compiler.sh).
. "$(dirname "$0")/lib.sh"

need_ktree
export RESULTS=$T/results NOTES=$T/notes
W=$T/wt
git -C "$KTREE" worktree add -q --detach "$W" base >/dev/null || { bad "no work tree"; finish; }
wg() { git -C "$W" -c core.hooksPath=/dev/null -c user.name='A Developer' -c user.email=dev@example.org "$@"; }
printf '/* check engine fixture: X */\n' >>"$W/kernel/softirq.c"
wg commit -q -a -m 'softirq: Fixture X' -m 'Signed-off-by: A Developer <dev@example.org>'
x=$(wg rev-parse HEAD)
printf '/* check engine fixture: fixed */\n' >>"$W/kernel/softirq.c"
wg commit -q -a -m 'fixup! softirq: Fixture X'
y=$(wg rev-parse HEAD)
engine_topic fixture-e x86_64 "$y"
short() { git -C "$KTREE" rev-parse --short=12 "$1"; }
run() { "$TOP/checks/run" --arch x86_64 --checks "build sparse" >"$T/run" 2>&1; cat "$T/run"; }
run
for c in $x $y; do
	for k in build sparse; do
		ran "$T/run" $k "$(short $c)" | grep -Eq 'PASS .*\([0-9]+s\)$' && ok "$(short $c) $k: runs" ||
			bad "$(short $c) $k: did not run and pass"
	done
done
GIT_SEQUENCE_EDITOR=: wg rebase -q -i --autosquash base >/dev/null 2>&1
sq=$(wg rev-parse HEAD)
[ "$(wg rev-parse "$sq^{tree}")" = "$(wg rev-parse "$y^{tree}")" ] && [ "$(wg rev-parse "$sq^")" = "$(wg rev-parse base)" ] &&
	ok "autosquashed: the fixup's tree on X's parent" || bad "autosquash did not squash"
git -C "$KTREE" update-ref refs/heads/fixture-e "$sq"
run
for k in build sparse; do
	ran "$T/run" $k "$(short "$sq")" | grep -Eq 'PASS .*\([0-9]+s\)$' &&
		ok "squashed commit: $k re-run against its new parent" || bad "squashed commit: $k taken from the cache"
done
"$TOP/checks/store" inputs build "$sq" x86_64 | grep -qx "parent-tree $(wg rev-parse 'base^{tree}')" &&
	ok "its key names the parent's tree" || bad "no parent-tree in the key"
git -C "$KTREE" worktree remove --force "$W"
git -C "$KTREE" branch -q -D fixture-e
finish
