#!/bin/sh
# One list of what the topics require (store_required) behind the runner,
# the report and the pre-push hook: with a PASS planted for every row,
# the report (markdown, TSV, KCIDB JSON) and scripts/verified pass; a FAIL
# planted in any one kind of row (checkpatch, build, sparse, boot, a
# config on every commit, on tips, on the tips of the topics whose tests
# are bound to it, a base control, a mutant, tip-tests) turns every report
# red and refuses the push.  The review's case: a config that runs on
# "tests" had no column in the report, so its FAIL was not shown.
# Fixture graph, no build, no boot.
. "$(dirname "$0")/lib.sh"

need_ktree
export BRANCHES_TXT=$FIX/branches.txt SERIES=$FIX/series NOTES=$T/notes RESULTS=$T/results
export MUTANTS=$T/mutants TESTS_TXT=$T/tests.txt CONFIGS_TXT=$T/configs.txt
{ cat "$FIX/configs.txt"
  echo 'nofeature  x86_64,ppc64le  commits  build  -  -'
  echo 'debug  x86_64  tips  build,boot  -  -'
  echo 'voluntary  x86_64,ppc64le  tests  build,boot  -  -'; } >"$CONFIGS_TXT"
{ cat "$FIX/tests.txt"
  echo 'fixture-t   fixture-a  -  smoke  -  smoke  base'
  echo 'fixture-tv  fixture-b  config:voluntary  smoke  -  smoke  base'; } >"$TESTS_TXT"
g() { git -C "$KTREE" "$@"; }
"$S/mkbranches" >"$T/mk" 2>&1 || { cat "$T/mk"; bad "mkbranches"; finish; }
# a mutant of fixture-a
W=$T/wt
g worktree add -q --detach "$W" fixture-a >/dev/null
printf '/* fixture mutant */\n' >>"$W/kernel/softirq.c"
git -C "$W" -c user.name=T -c user.email=t@example.org -c core.hooksPath=/dev/null commit -q -a -m 'softirq: Fixture mutant'
mkdir -p "$MUTANTS/fixture-a"
git -C "$W" format-patch -q -1 --stdout HEAD >"$MUTANTS/fixture-a/m.patch"
# and one whose bug only ppc64le can show ("Arches:" in its message)
git -C "$W" -c user.name=T -c user.email=t@example.org -c core.hooksPath=/dev/null commit -q --amend \
	-m 'softirq: Fixture mutant of one arch' -m 'Arches: ppc64le'
git -C "$W" format-patch -q -1 --stdout HEAD >"$MUTANTS/fixture-a/mp.patch"
g worktree remove --force "$W"
"$S/mutants" apply fixture-a >/dev/null 2>&1 || bad "mutants apply"
# the revert mutants: fixture-a's first patch must fail fixture-t, its
# second is declared none; fixture-b's must fail its bound test
g log --reverse --format='%s' base..fixture-a | awk 'NR == 1 { print $0 " => fixture-t" } NR == 2 { print $0 " => none: a comment" }' \
	>"$MUTANTS/fixture-a/reverts.txt"
mkdir -p "$MUTANTS/fixture-b"
g log --format='%s => fixture-tv' fixture-a..fixture-b >"$MUTANTS/fixture-b/reverts.txt"
"$S/reverts" apply fixture-a fixture-b >/dev/null 2>&1
"$S/reverts" check fixture-a fixture-b || bad "reverts check"

"$TOP/checks/store" required >"$T/req" || { bad "store required"; finish; }
"$S/boottests" >"$T/tests.tsv"
tab=$(printf '\t')
grep -q "^fixture-b$tab.*${tab}x86_64${tab}boot@voluntary$tab" "$T/req" &&
	grep -q "^fixture-next$tab.*${tab}ppc64le${tab}build@voluntary$tab" "$T/req" &&
	! grep -q "^fixture-a$tab.*@voluntary" "$T/req" &&
	ok "required: voluntary (runs on tests) on fixture-b's tip and the integration tip, not on fixture-a" ||
	{ bad "voluntary rows"; cat "$T/req"; }
grep -q "${tab}mutant-m${tab}" "$T/req" && grep -q "${tab}control-fixture-t${tab}" "$T/req" &&
	grep -q "${tab}revert-01-fixture-t${tab}" "$T/req" && ! grep -q "${tab}revert-02" "$T/req" &&
	grep -q "${tab}control-fixture-tv@voluntary${tab}" "$T/req" && grep -q "${tab}tip-tests${tab}" "$T/req" &&
	ok "required: controls, bound controls, mutants, reverts, tip-tests" || { bad "control rows"; cat "$T/req"; }
grep -q "${tab}ppc64le${tab}mutant-mp${tab}" "$T/req" && ! grep -q "${tab}x86_64${tab}mutant-mp${tab}" "$T/req" &&
	grep -q "${tab}x86_64${tab}mutant-m${tab}" "$T/req" &&
	"$TOP/checks/store" controls fixture-a x86_64 | grep -q '^mutant-m	' &&
	! "$TOP/checks/store" controls fixture-a x86_64 | grep -q '^mutant-mp	' &&
	ok "required: a mutant with 'Arches: ppc64le' runs on ppc64le only" || { bad "mutant arches"; cat "$T/req"; }

# the rows with their keys (one process)
"$TOP/checks/store" keys <"$T/req" >"$T/keyed" || { bad "store keys"; finish; }
# plant STATUS ROW: a record of that status for one row of the keyed list
plant() {
	printf '%s\n' "$2" | while IFS=$tab read -r t o c a k key env; do
		[ "$key" != - ] || continue
		mkdir -p "$RESULTS/v2/$a/$k"
		# a boot runs what its tree and config select, whatever the
		# topic (fixture-next's tree is fixture-b's): say every test ran
		tests=$(awk -F'\t' '$1 != "smoke" { printf " %s", $1 }' "$T/tests.tsv")
		printf '%s %s: planted\nstatus %s\ncheck %s\narch %s\ncommit %s\ntopic %s\nkey %s\nseconds 1\ntests smoke%s\n' \
			"$1" "$k" "$1" "$k" "$a" "$c" "$t" "$key" "$tests" >"$RESULTS/v2/$a/$k/$key"
	done
}
while IFS= read -r r; do plant PASS "$r"; done <"$T/keyed"
report() {
	"$TOP/checks/report" --tsv "$T/r.tsv" --json "$T/r.json" >"$T/report" 2>&1
}
if report; then ok "every row PASS: the report passes"; else bad "report red with every row PASS"; cat "$T/report"; fi
# every row the push requires is in the TSV
missing=$(while IFS=$tab read -r t o c a k env; do
	[ "$c" != - ] || c=$o
	awk -F'\t' -v t="$t" -v c="$c" -v a="$a" -v k="$k" \
		'$1 == t && $2 == c && $4 == a && $5 == k { f = 1 } END { exit !f }' "$T/r.tsv" ||
		printf '%s/%s/%s ' "$t" "$a" "$k"
done <"$T/req")
[ -z "$missing" ] && ok "TSV: every required row ($(wc -l <"$T/req"))" || bad "TSV lacks: $missing"
"$TOP/scripts/verified" base..fixture-next >"$T/v" 2>&1 && ok "verified: passes" || { bad "verified"; cat "$T/v"; }

# a FAIL in one row of each kind turns every report red
for kind in checkpatch build sparse boot build@nofeature boot@debug boot@voluntary \
	control-fixture-t control-fixture-tv@voluntary mutant-m revert-01-fixture-t \
	revert-01-fixture-tv@voluntary tip-tests; do
	# (tip-tests: fixture-a's, whose test runs in the boot config)
	r=$(awk -F'\t' -v k="$kind" '$5 == k && (k != "tip-tests" || $1 == "fixture-a")' "$T/keyed" | tail -n 1)
	[ -n "$r" ] || { bad "no row of kind $kind"; continue; }
	IFS=$tab read -r t o c a k key env <<EOF
$r
EOF
	if [ "$k" = tip-tests ]; then
		# the tip's boot did not run the topic's tests
		key=$(awk -F'\t' -v c="$c" -v a="$a" '$3 == c && $4 == a && $5 == "boot" { print $6; exit }' "$T/keyed")
		sk=boot
		cp "$RESULTS/v2/$a/boot/$key" "$T/keep"
		sed -i 's/^tests .*/tests smoke/' "$RESULTS/v2/$a/boot/$key"
	else
		sk=$k
		cp "$RESULTS/v2/$a/$k/$key" "$T/keep"
		plant FAIL "$r"
	fi
	what="$kind ($t $a)"
	report && bad "$what: FAIL planted, report exit 0"
	awk -F'\t' -v t="$t" -v a="$a" -v k="$k" '$1 == t && $4 == a && $5 == k && $6 == "FAIL"' "$T/r.tsv" | grep -q . ||
		bad "$what: no FAIL row in the TSV"
	if [ "$k" = checkpatch ]; then
		grep -Eq "^\| $t \| $(printf %.12s "$c") \|.*FAIL" "$T/report"
	else
		grep -Eq "^\| $t \|(.*\|)? $a \|.*FAIL" "$T/report"
	fi || bad "$what: no FAIL in the markdown"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(0 if any(x.get("status") == "FAIL" for x in d.get("builds", []) + d.get("tests", [])) else 1)' "$T/r.json" ||
		bad "$what: no FAIL in the KCIDB JSON"
	"$TOP/scripts/verified" base..fixture-next >"$T/v" 2>&1 && bad "$what: verified passes"
	cp "$T/keep" "$RESULTS/v2/$a/$sk/$key"
	ok "$what: FAIL in the markdown, the TSV and the JSON; push refused"
done
report && ok "restored: the report passes again" || { bad "restored: still red"; cat "$T/report"; }
clean_fixture_branches
finish
