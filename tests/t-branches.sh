#!/bin/sh
# make branches on the fixture series: stable commit ids, dependency order,
# the integration merge; a patch that does not apply and a merge conflict
# are refused with the topic, the patch and the file named, and leave the
# branches as they were.
. "$(dirname "$0")/lib.sh"

need_ktree
export BRANCHES_TXT=$FIX/branches.txt SERIES=$T/series NOTES=$T/notes
cp -r "$FIX/series" "$SERIES"
clean_fixture_branches
expect_ok "$S/mkbranches"
g() { git -C "$KTREE" "$@"; }
[ "$(g rev-list --count base..fixture-a)" = 2 ] && [ "$(g rev-list --count fixture-a..fixture-b)" = 1 ] &&
	ok "fixture-a has 2 commits, fixture-b 1 on top" || bad "wrong commit counts"
g merge-base --is-ancestor fixture-b fixture-next && ok "fixture-next contains fixture-b" || bad "fixture-next"
ids=$(g rev-parse fixture-a fixture-b fixture-next)
# the ids recorded in the fixture patches' From lines are the ids we get
want=$(sed -n '1s/^From \([0-9a-f]*\) .*/\1/p' "$SERIES/fixture-a/0002-"*.patch)
[ "$want" = "$(g rev-parse fixture-a)" ] && ok "fixture-a tip is $want, as exported" ||
	bad "fixture-a tip $(g rev-parse fixture-a), exported as $want"
clean_fixture_branches
expect_ok "$S/mkbranches"
[ "$ids" = "$(g rev-parse fixture-a fixture-b fixture-next)" ] &&
	ok "re-applied from scratch: same commit ids" || bad "ids changed on re-apply"
[ "$(g config branch.fixture-a.b4-prep-cover-strategy)" = branch-description ] &&
	g config branch.fixture-a.b4-tracking | grep -q '"change-id": "fixture-a-' &&
	ok "cover letter imported as b4 branch description and tracking" || bad "no b4 tracking"

# a patch that does not apply
p=$(ls "$SERIES"/fixture-a/0002-*.patch)
sed -i 's/^-\( \* then we just disabled preemption\)/-\1 BROKEN/' "$p"
expect_fail "topic fixture-a: patch .*0002-.*\\.patch does not apply on base: kernel/sched/core.c" "$S/mkbranches"
grep -q "skipped, its base fixture-a failed" "$T/err" && ok "dependent topic skipped" || bad "dependent not skipped"
[ "$ids" = "$(g rev-parse fixture-a fixture-b fixture-next)" ] &&
	ok "branches untouched after the failure" || bad "a branch moved"
[ ! -d "$(git -C "$BUILD/work/apply" rev-parse --git-path rebase-apply)" ] &&
	ok "git am aborted" || bad "git am left in progress"
cp "$FIX"/series/fixture-a/* "$SERIES/fixture-a/"

# a merge conflict in the integration branch: fixture-c changes the same
# line as fixture-b, on base
mkdir -p "$SERIES/fixture-c"
sed -e 's/the loop early so the lock can be dropped/the loop early: the lock is dropped/' \
	"$SERIES"/fixture-b/0001-*.patch >"$SERIES/fixture-c/0001-conflict.patch"
sed -e 's/^fixture-next/fixture-c  base  x86_64  mm: conflicting fixture\nfixture-next/' \
	"$FIX/branches.txt" >"$T/branches.txt"
BRANCHES_TXT=$T/branches.txt
expect_fail "fixture-next: merge conflict between topics fixture-b and fixture-c in mm/memory.c" "$S/mkbranches"
[ "$(echo "$ids" | tail -n 1)" = "$(g rev-parse fixture-next)" ] &&
	ok "integration branch untouched after the conflict" || bad "fixture-next moved"
clean_fixture_branches
finish
