#!/bin/sh
# The real series/: every topic applies (make branches) and exports back
# byte-identical (make export), and MAINTAINERS-notes is current.
. "$(dirname "$0")/lib.sh"

need_ktree
export SERIES=$T/series NOTES=$T/notes
cp -r "$TOP/series" "$SERIES"
cp "$TOP/MAINTAINERS-notes" "$NOTES"
expect_ok "$S/mkbranches"
for t in $("$S/topics" | cut -f1); do
	git -C "$KTREE" rev-parse -q --verify "refs/heads/$t" >/dev/null &&
		ok "branch $t: $(git -C "$KTREE" rev-list --count base.."$t") commit(s) on base" || bad "no branch $t"
done
expect_ok "$S/export"
diff -r "$TOP/series" "$SERIES" >"$T/diff" && ok "series/ round-trips byte-identical" ||
	{ bad "make export changes series/:"; head -n 40 "$T/diff"; }
diff "$TOP/MAINTAINERS-notes" "$NOTES" >"$T/diff" && ok "MAINTAINERS-notes is current" ||
	{ bad "make export changes MAINTAINERS-notes:"; cat "$T/diff"; }
finish
