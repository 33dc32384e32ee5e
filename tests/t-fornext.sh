#!/bin/sh
# The integration branch on each of its arches: build, sparse and boot with every
# boot test its kernel carries (CI checks the for-next tip, not every
# commit: see docs/checks.md).  Uses the shared result cache.
. "$(dirname "$0")/lib.sh"

need_ktree
"$S/mkbranches" >"$T/mk" 2>&1 || { cat "$T/mk"; bad "make branches"; finish; }
if "$TOP/checks/run" --topic for-next >"$T/run" 2>&1; then
	ok "for-next passes on every arch"
else
	bad "for-next fails"
fi
cat "$T/run"
for a in $(printf '%s\n' "$("$S/topics")" | awk -F'\t' '$2 == "*" { print $3 }' | tr ',' ' '); do
	grep -Eq "^for-next +[0-9a-f]+ +$a +boot +PASS" "$T/run" && ok "$a: boot passes" || bad "$a: no passing boot"
done
finish
