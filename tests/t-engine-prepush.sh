#!/bin/sh
# pre-push (scripts/verified) on real commits: a topic whose every commit
# passed every check of its arches is pushed; the same topic with an arch
# that has no results is refused, naming the arch and the check.  The
# integration branch: its tip needs its own results, the merges below it
# are covered by their topics.  make report: the matrix, the first
# unchecked commit, and KCIDB JSON that validates against the schema.
. "$(dirname "$0")/lib.sh"

H=$TOP/.git-hooks/pre-push
z=0000000000000000000000000000000000000000
engine_fixture x86_64
"$TOP/checks/run" >"$T/run" 2>&1
cat "$T/run"
grep -q '^run: 4 passed, 0 failed' "$T/run" && ok "fixture-e checked: checkpatch, build, sparse, boot" ||
	bad "fixture-e did not pass"
push() { echo "refs/heads/$1 $(git -C "$KTREE" rev-parse "$1") refs/heads/$1 $z" >"$T/push"; }
push fixture-e
expect_ok sh -c 'cd "$1" && "$2" origin url <"$3"' sh "$KTREE" "$H" "$T/push"
printf 'fixture-e  base  x86_64,ppc64le  softirq: check engine fixture\n' >"$T/branches2.txt"
BRANCHES_TXT=$T/branches2.txt expect_fail 'refusing refs/heads/fixture-e' \
	sh -c 'cd "$1" && "$2" origin url <"$3"' sh "$KTREE" "$H" "$T/push"
grep -q "no PASS for: ppc64le/build:none ppc64le/sparse:none ppc64le/boot:none" "$T/err" &&
	ok "names the arch and the checks: $(grep -o 'no PASS for.*' "$T/err")" || { bad "wrong refusal"; cat "$T/err"; }
# a failed result is named with its status
key=$("$TOP/checks/store" key sparse "$c1" x86_64)
f=$RESULTS/v2/x86_64/sparse/$key
cp "$f" "$T/saved"
sed -i 's/^status PASS$/status FAIL/' "$f"
expect_fail 'x86_64/sparse:FAIL' sh -c '"$1" base..fixture-e >&2' sh "$TOP/scripts/verified"
cp "$T/saved" "$f"

# the integration branch: fixture-n merges fixture-e and fixture-f; the
# merge of fixture-e alone is not checked on its own, the tip is
c3=$(mkcommit base 'mm: Note the check engine fixture' mm/memory.c '/* check engine fixture */')
m1=$(git -C "$KTREE" commit-tree "$c1^{tree}" -p base -p "$c1" -m "Merge branch 'fixture-e' into fixture-n")
t2=$(git -C "$KTREE" rev-parse "$(mkcommit "$c1" x mm/memory.c '/* check engine fixture */')^{tree}")
m2=$(git -C "$KTREE" commit-tree "$t2" -p "$m1" -p "$c3" -m "Merge branch 'fixture-f' into fixture-n")
git -C "$KTREE" update-ref refs/heads/fixture-f "$c3"
git -C "$KTREE" update-ref refs/heads/fixture-n "$m2"
printf 'fixture-e  base  x86_64  e\nfixture-f  base  x86_64  f\nfixture-n  *  x86_64  n\n' >"$T/branches3.txt"
export BRANCHES_TXT=$T/branches3.txt
"$TOP/scripts/verified" base..fixture-n >"$T/v" 2>&1
cat "$T/v"
grep -q "^$(git -C "$KTREE" rev-parse --short=12 "$c3") .*(fixture-f): no PASS for: any/checkpatch:none x86_64/build:none" "$T/v" &&
	ok "the unchecked topic's commit is named" || bad "fixture-f not named"
grep -q "(fixture-n): no PASS for: x86_64/build:none x86_64/sparse:none x86_64/boot:none" "$T/v" &&
	ok "the integration tip needs its own results" || bad "integration tip not required"
! grep -q "^$(git -C "$KTREE" rev-parse --short=12 "$m1") " "$T/v" && ok "the merge below the tip is not required" ||
	bad "intermediate merge required"
"$TOP/checks/report" --tsv "$T/report.tsv" --json "$T/report.json" >"$T/report" 2>&1
cat "$T/report"
grep -q "^- fixture-f x86_64: first commit not checked under the current keys $(git -C "$KTREE" rev-parse --short=12 "$c3")" "$T/report" &&
	ok "report: first unchecked commit of fixture-f" || bad "report: no first unchecked commit"
grep -q '^| fixture-e | .* | PASS | PASS | PASS | PASS |$' "$T/report" && ok "report: fixture-e all PASS" ||
	bad "report: fixture-e row"
if python3 -c 'import jsonschema' 2>/dev/null; then
	expect_ok "$TOP/checks/kcidb/validate" "$T/report.json"
else
	bad "python3-jsonschema missing (make deps)"
fi
for b in fixture-e fixture-f fixture-n; do git -C "$KTREE" branch -q -D $b; done
finish
