#!/bin/sh
# Revert mutants (scripts/reverts): make branches makes, for each patch of
# a topic, the tip without it (drop: the later patches re-applied on the
# commit before it; before: the commit before it when they depend on it),
# the same ids on every run; mutants/<topic>/reverts.txt declares what
# each must fail.  A patch without a declaration is a FAIL in checks/run
# and the report, and refuses the push; "none: reason" declares no check;
# a declared test is a check of the revert, revert-NN-TEST; the report
# shows the table.  No build, no boot.
. "$(dirname "$0")/lib.sh"

need_ktree
export BRANCHES_TXT=$FIX/branches.txt SERIES=$FIX/series NOTES=$T/notes RESULTS=$T/results
export MUTANTS=$T/mutants TESTS_TXT=$T/tests.txt
{ cat "$FIX/tests.txt"; echo 'fixture-t  fixture-a  -  smoke  -  smoke  -'; } >"$TESTS_TXT"
g() { git -C "$KTREE" "$@"; }
mkdir -p "$MUTANTS/fixture-a"
"$S/mkbranches" >"$T/mk" 2>&1 || { cat "$T/mk"; bad "mkbranches"; finish; }
"$S/reverts" list fixture-a >"$T/list"
cat "$T/list"
p1=$(g rev-parse fixture-a~1) p2=$(g rev-parse fixture-a)
# patch 01 is dropped: patch 02 re-applied on base; patch 02 is the last:
# the commit before it
r1=$(awk -F'\t' '$1 == "01" { print $2 }' "$T/list")
r2=$(awk -F'\t' '$1 == "02" { print $2 }' "$T/list")
[ "$(g rev-parse "$r1^")" = "$(g rev-parse base)" ] && [ "$(awk -F'\t' '$1 == "01" { print $3 }' "$T/list")" = drop ] &&
	[ -z "$(g diff "$p2" "$r1" -- kernel/sched/core.c)" ] && [ -n "$(g diff "$p2" "$r1")" ] &&
	ok "01: dropped, patch 02 re-applied on base" || bad "01: $(grep '^01' "$T/list")"
[ "$r2" = "$p1" ] && ok "02 (the last): the commit before it" || bad "02: $(grep '^02' "$T/list")"
"$S/reverts" apply fixture-a >/dev/null 2>&1
[ "$(g rev-parse refs/reverts/fixture-a/01)" = "$r1" ] && ok "made again: the same id" || bad "the id changed"
# nothing declared: check names both patches; run, report and pre-push fail
"$S/reverts" check fixture-a >"$T/check" 2>&1 && bad "check passes without declarations"
[ "$(grep -c 'not declared in mutants/fixture-a/reverts.txt' "$T/check")" = 2 ] &&
	ok "check: both patches undeclared" || { bad "check"; cat "$T/check"; }
"$TOP/checks/run" --topic fixture-a --arch x86_64 --checks revert >"$T/run" 2>&1
cat "$T/run"
grep -q '^fixture-a .* x86_64 *revert-01-undeclared *FAIL patch 01 of fixture-a is not declared' "$T/run" &&
	ok "checks/run: an undeclared patch FAILs" || bad "checks/run: no FAIL for the undeclared patch"
"$TOP/checks/report" --tsv "$T/r.tsv" --json "$T/r.json" >"$T/report" 2>&1 && bad "report passes with undeclared patches"
grep -q '| fixture-a | 01 | .* | drop | - | \*\*undeclared\*\* |' "$T/report" &&
	ok "report: the revert table shows the undeclared patch" || { bad "report: revert table"; cat "$T/report"; }
"$TOP/scripts/verified" base..fixture-a >"$T/v" 2>&1 && bad "pre-push passes with undeclared patches"
grep -q 'x86_64/fixture-a/revert-01-undeclared:undeclared' "$T/v" && ok "pre-push: refused" || { bad "pre-push"; cat "$T/v"; }
# declared: 01 must fail fixture-t, 02 is documentation
s1=$(g log -1 --format=%s "$p1") s2=$(g log -1 --format=%s "$p2")
printf '# fixture\n%s => fixture-t\n%s => none: a comment only\n' "$s1" "$s2" >"$MUTANTS/fixture-a/reverts.txt"
"$S/reverts" check fixture-a >"$T/check" 2>&1 && ok "check: declared" || { bad "check"; cat "$T/check"; }
"$TOP/checks/store" required fixture-a >"$T/req"
grep -q "	$r1	x86_64	revert-01-fixture-t	FORK_BOOT_TESTS=smoke,fixture-t\$" "$T/req" &&
	! grep -q 'revert-02' "$T/req" && ok "required: revert-01-fixture-t on the revert, nothing for 'none'" ||
	{ bad "required rows"; grep revert "$T/req"; }
"$TOP/checks/report" --tsv "$T/r.tsv" --json "$T/r.json" >"$T/report" 2>&1
grep -q '| fixture-a | 02 | .* | none: a comment only | - |' "$T/report" &&
	grep -q '| fixture-a | 01 | .* | fixture-t | fixture-t x86_64: MISS; fixture-t ppc64le: MISS |' "$T/report" &&
	ok "report: the table, none: with its reason, the declared test not checked yet" || { bad "report table"; cat "$T/report"; }
# a declaration of no patch, an unknown test
printf '%s => no-such-test\nsoftirq: No such patch => fixture-t\n%s => none: x\n' "$s1" "$s2" >"$MUTANTS/fixture-a/reverts.txt"
"$S/reverts" check fixture-a >"$T/check" 2>&1 && bad "check passes a bad declaration"
grep -q 'no-such-test is not a test of boot-tests/tests.txt' "$T/check" &&
	grep -q "declares 'softirq: No such patch', which is no patch of the topic" "$T/check" &&
	ok "check: an unknown test and a declaration of no patch are named" || { bad "check"; cat "$T/check"; }
clean_fixture_branches
finish
