#!/bin/sh
# Bugs the boot config cannot see (tests/fixtures/debug, x86_64): a
# might_sleep() under a spinlock and an AB-BA lock order inversion boot
# cleanly with the boot config and FAIL the debug config
# (boot-tests/configs/debug.config: DEBUG_ATOMIC_SLEEP, PROVE_LOCKING),
# each with its splat named in one line.
. "$(dirname "$0")/lib.sh"

need_ktree
D=$FIX/debug
export TESTS_TXT=$FIX/tests.txt BRANCHES_TXT=$D/branches.txt SERIES=$D/series NOTES=$T/notes
export CONFIGS_TXT=$D/configs.txt FORK_BOOT_TIMEOUT=90 RESULTS=$T/results
"$S/mkbranches" >"$T/mk" 2>&1 || { cat "$T/mk"; bad "mkbranches"; finish; }
"$TOP/checks/run" --checks "build boot @debug" >"$T/run" 2>&1
rc=$?
cat "$T/run"
[ $rc = 1 ] && ok "run exits 1" || bad "run exit code $rc"
line() { grep -E "^$1 +[0-9a-f]+ +x86_64 +$2 " "$T/run"; }
for t in bad-sleep bad-abba; do
	line $t boot | grep -q ' PASS ' && ok "$t: the boot config boots it" || bad "$t: boot: $(line $t boot)"
	line $t build@debug | grep -q ' PASS ' && ok "$t: the debug config builds" || bad "$t: build@debug: $(line $t build@debug)"
done
line bad-sleep boot@debug | grep -q 'FAIL .*kernel: BUG: sleeping function called from invalid context' &&
	ok "bad-sleep: $(line bad-sleep boot@debug | sed 's/.* FAIL //')" || bad "bad-sleep: boot@debug: $(line bad-sleep boot@debug)"
line bad-abba boot@debug | grep -q 'FAIL .*kernel: WARNING: possible circular locking dependency' &&
	ok "bad-abba: $(line bad-abba boot@debug | sed 's/.* FAIL //')" || bad "bad-abba: boot@debug: $(line bad-abba boot@debug)"
"$TOP/checks/report" --tsv "$T/r.tsv" --json "$T/r.json" >"$T/report" 2>&1
grep -q '^| bad-sleep | .* | x86_64 | MISS | PASS | MISS | PASS | FAIL |$' "$T/report" &&
	ok "report: a debug column, FAIL for bad-sleep" || { bad "report row"; cat "$T/report"; }
if python3 -c 'import jsonschema' 2>/dev/null; then
	expect_ok "$TOP/checks/kcidb/validate" "$T/r.json"
	python3 -c 'import json,sys; b=[x for x in json.load(open(sys.argv[1]))["builds"] if x.get("config_name") == "debug"]; sys.exit(0 if b else 1)' "$T/r.json" &&
		ok "KCIDB: a build with config_name debug" || bad "KCIDB: no debug build"
fi
for b in bad-sleep bad-abba; do git -C "$KTREE" branch -q -D $b; git -C "$KTREE" config --remove-section "branch.$b" 2>/dev/null; done
finish
