#!/bin/sh
# Mutants (scripts/mutants): a patch on a topic's tip becomes the commit
# refs/mutants/<topic>/<name>, the same id on every run, remade when the
# tip or the patch changes; one that no longer applies is named by make
# branches, listed without a commit, and its check (mutant-<name>) FAILs
# loudly in checks/run, the report and pre-push.  A mutant <name>@CONFIG
# boots that config with the tests bound to it, on its arches only.
# checks/run --tips takes the tip alone.  No build, no boot.
. "$(dirname "$0")/lib.sh"

need_ktree
export BRANCHES_TXT=$FIX/branches.txt SERIES=$FIX/series NOTES=$T/notes RESULTS=$T/results
export MUTANTS=$T/mutants TESTS_TXT=$T/tests.txt CONFIGS_TXT=$T/configs.txt
# a config of x86_64 alone, for a test and a mutant bound to it
{ cat "$FIX/configs.txt"; echo 'dynamic  x86_64  integration  build,boot  -  -'; } >"$CONFIGS_TXT"
{ cat "$FIX/tests.txt"; echo 'fixture-t  fixture-a  -  smoke  -  smoke  -'
  echo 'fixture-tb fixture-a  config:dynamic  smoke  -  smoke  -'
  echo 'fixture-tc fixture-a  -  smoke  -  smoke  base'; } >"$TESTS_TXT"
g() { git -C "$KTREE" "$@"; }
"$S/mkbranches" >"$T/mk" 2>&1 || { cat "$T/mk"; bad "mkbranches"; finish; }
tip=$(g rev-parse fixture-a)
# a mutant that applies: one more comment line, as a mail
W=$T/wt
g worktree add -q --detach "$W" "$tip" >/dev/null
printf '/* fixture mutant */\n' >>"$W/kernel/softirq.c"
git -C "$W" -c user.name=T -c user.email=t@example.org -c core.hooksPath=/dev/null commit -q -a -m 'softirq: Fixture mutant'
mkdir -p "$MUTANTS/fixture-a"
git -C "$W" format-patch -q -1 --stdout HEAD >"$MUTANTS/fixture-a/good.patch"
# one for the tests bound to the dynamic config (x86_64 only)
cp "$MUTANTS/fixture-a/good.patch" "$MUTANTS/fixture-a/bound@dynamic.patch"
# one that does not: its context is not in the tree
sed 's/^ \(.*\)$/ \1 (not in the tree)/' "$MUTANTS/fixture-a/good.patch" >"$MUTANTS/fixture-a/stale.patch"
g worktree remove --force "$W"

"$S/mkbranches" >"$T/mk" 2>&1
grep -q 'stale.patch does not apply to the tip of fixture-a: update it with the series' "$T/mk" &&
	ok "make branches names the stale mutant" ||
	{ bad "no error for the stale mutant"; cat "$T/mk"; }
"$S/mutants" list fixture-a >"$T/list"
good=$(awk -F'\t' '$1 == "good" { print $2 }' "$T/list")
[ "$(g rev-parse "$good^")" = "$tip" ] && ok "good: a commit on the tip ($(g rev-parse --short "$good"))" ||
	bad "good: $(cat "$T/list")"
grep -qx 'stale	-' "$T/list" && ok "stale: no commit" || bad "stale: $(cat "$T/list")"
"$S/mutants" apply fixture-a >/dev/null 2>&1
[ "$(g rev-parse refs/mutants/fixture-a/good)" = "$good" ] && ok "applied again: the same id" || bad "the id changed"
printf '/* and one more */\n' >>"$MUTANTS/fixture-a/good.patch"
"$S/mutants" list fixture-a | grep -qx 'good	-' && ok "a changed patch: the old commit is not listed" ||
	bad "a changed patch still lists the old commit"
"$S/mutants" apply fixture-a >/dev/null 2>&1
"$TOP/checks/run" --topic fixture-a --arch x86_64 --checks mutant-stale >"$T/run" 2>&1
cat "$T/run"
grep -q '^fixture-a .* x86_64 *mutant-stale *FAIL the mutant does not apply to the tip' "$T/run" &&
	ok "checks/run: the stale mutant FAILs" || bad "checks/run: no FAIL for the stale mutant"
"$TOP/checks/report" --tsv "$T/r.tsv" --json "$T/r.json" >"$T/report" 2>&1
grep -q '| fixture-a | x86_64 | mutant-stale | .* | FAIL | the mutant does not apply' "$T/report" &&
	ok "report: the stale mutant FAILs" || { bad "report"; cat "$T/report"; }
"$TOP/scripts/verified" "base..fixture-a" >"$T/v" 2>&1
grep -q 'x86_64/fixture-a/mutant-stale:not-applied' "$T/v" && ok "pre-push: refused for the stale mutant" ||
	{ bad "pre-push"; cat "$T/v"; }
# the controls: a bound mutant boots its config with the bound tests, on
# that config's arches only; the others the boot config with all tests
"$TOP/checks/store" controls fixture-a x86_64 >"$T/ctl" 2>&1
bound=$(g rev-parse -q --verify "refs/mutants/fixture-a/bound@dynamic")
grep -qx "mutant-bound@dynamic	$bound	FORK_BOOT_TESTS=smoke,fixture-tb" "$T/ctl" &&
	grep -qx "mutant-stale	-	FORK_BOOT_TESTS=smoke.*,fixture-t,fixture-tb,fixture-tc" "$T/ctl" &&
	ok "controls: mutant-bound@dynamic boots the bound test, the others all" || { bad "controls on x86_64"; cat "$T/ctl"; }
"$TOP/checks/store" controls fixture-a ppc64le >"$T/ctl" 2>&1
! grep -q 'bound@dynamic' "$T/ctl" && grep -q '^mutant-stale' "$T/ctl" &&
	ok "controls: no mutant-bound@dynamic on ppc64le (dynamic is x86_64 only)" || { bad "controls on ppc64le"; cat "$T/ctl"; }
grep -q '^control-fixture-tc	[0-9a-f]\{40\}	FORK_BOOT_TESTS=smoke,fixture-tc$' "$T/ctl" &&
	ok "controls: a base control with its commit" || { bad "controls: the base control"; cat "$T/ctl"; }
# --tips: the tip alone (its checkpatch here: no build)
"$TOP/checks/run" --topic fixture-a --tips --checks checkpatch >"$T/run" 2>&1
[ "$(grep -c ' checkpatch ' "$T/run")" = 1 ] && grep -q "^fixture-a *$(g rev-parse --short=12 "$tip") any *checkpatch" "$T/run" &&
	ok "--tips: the tip only" || { bad "--tips"; cat "$T/run"; }
for r in good stale bound@dynamic; do g update-ref -d "refs/mutants/fixture-a/$r" 2>/dev/null; g config --remove-section "mutant.fixture-a/$r" 2>/dev/null; done
clean_fixture_branches
finish
