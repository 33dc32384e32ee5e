#!/bin/sh
# An interrupted check run records nothing for the check it interrupted and
# leaves no build or guest running.
. "$(dirname "$0")/lib.sh"

need_ktree
export TESTS_TXT=$FIX/tests.txt BRANCHES_TXT=$FIX/branches.txt SERIES=$FIX/series NOTES=$T/notes RESULTS=$T/results
"$S/mkbranches" >/dev/null 2>&1 || { bad "mkbranches"; finish; }
"$TOP/checks/run" --topic fixture-a --arch x86_64 --checks "build" >"$T/run" 2>&1 &
pid=$!
# wait until the build check is running, then interrupt the runner
first=$(git -C "$KTREE" rev-list --reverse base..fixture-a | head -n 1)
i=0
while [ $i -lt 60 ] && ! pgrep -f "checks/build $first" >/dev/null; do sleep 1; i=$((i + 1)); done
sleep 3
# the check runs in its own session: everything it started shares its sid
sid=$(ps -o sid= -p "$(pgrep -f "checks/build $first" | head -n 1)" 2>/dev/null | tr -d ' ')
kill -TERM $pid	# (an & job ignores SIGINT; Ctrl-C takes the same trap)
wait $pid
rc=$?
cat "$T/run"
[ $rc = 130 ] && ok "runner exits 130 when interrupted" || bad "runner exit code $rc"
grep -q 'interrupted, nothing recorded' "$T/run" && ok "says nothing was recorded" || bad "no interrupt message"
sleep 2
if [ -z "$sid" ]; then
	bad "the build check never started"
elif [ -n "$(ps -eo sid= | tr -d ' ' | grep -x "$sid")" ]; then
	bad "processes of the interrupted check (session $sid) still run"
else
	ok "nothing of the interrupted check (session $sid) left running"
fi
n=$("$TOP/checks/store" list | awk -F'\t' '$2 == "build"' | wc -l)
got=$(grep -c ' build .*PASS\| build .*FAIL' "$T/run")
[ "$n" = "$got" ] && ok "$n build result(s) recorded, all of them finished checks" ||
	bad "$n build results recorded, $got checks finished"
finish
