#!/bin/sh
# branches -> export -> branches: the same commit ids and byte-identical
# patch files; MAINTAINERS-notes blocks come from get_maintainer.pl.
. "$(dirname "$0")/lib.sh"

need_ktree
export BRANCHES_TXT=$FIX/branches.txt SERIES=$T/series NOTES=$T/notes
cp -r "$FIX/series" "$SERIES"
printf '# notes\n\n== fixture-a ==\nStatus: kept by hand\n' >"$NOTES"
clean_fixture_branches
expect_ok "$S/mkbranches"
ids=$(git -C "$KTREE" rev-parse fixture-a fixture-b fixture-next)
expect_ok "$S/export"
diff -r "$FIX/series" "$SERIES" >"$T/diff" && ok "export is byte-identical to the input series" ||
	{ bad "export differs:"; head -n 30 "$T/diff"; }
grep -q '^base-commit: '"$(git -C "$KTREE" rev-parse base)"'$' "$SERIES"/fixture-a/0000-*.patch &&
	ok "cover letter carries base-commit" || bad "no base-commit in the cover letter"
grep -q '^To: .*Peter Zijlstra' "$SERIES"/fixture-a/0000-*.patch && grep -q '^Cc: .*linux-kernel@vger.kernel.org' \
	"$SERIES"/fixture-a/0001-*.patch && ok "To/Cc from get_maintainer.pl" || bad "To/Cc missing"
grep -q '^Status: kept by hand$' "$NOTES" && grep -q '<akpm@linux-foundation.org> (maintainer:MEMORY MANAGEMENT)$' "$NOTES" &&
	ok "MAINTAINERS-notes: free notes kept, maintainers added" || { bad "MAINTAINERS-notes"; cat "$NOTES"; }
cp "$NOTES" "$T/notes1"
clean_fixture_branches
expect_ok "$S/mkbranches"
[ "$ids" = "$(git -C "$KTREE" rev-parse fixture-a fixture-b fixture-next)" ] &&
	ok "branches from the exported series: same commit ids" || bad "commit ids changed"
expect_ok "$S/export"
cmp -s "$NOTES" "$T/notes1" && ok "second export leaves MAINTAINERS-notes as it was" || bad "notes changed"
# a series that starts with someone else's patch (a backport): its From
# stays, the cover letter's is the maintainer's (b4 copies the first's)
clean_fixture_branches
sed -i 's/^From: .*/From: Paolo Abeni <pabeni@redhat.com>/' "$SERIES"/fixture-a/0001-*.patch
expect_ok "$S/mkbranches"
expect_ok "$S/export"
grep -q '^From: Paolo Abeni <pabeni@redhat.com>$' "$SERIES"/fixture-a/0001-*.patch &&
	ok "a backport keeps its author" || bad "the backport's author: $(grep '^From:' "$SERIES"/fixture-a/0001-*.patch)"
. "$TOP/fork.conf"
grep -q "^From: $FORK_MAINTAINER_NAME <$FORK_MAINTAINER_EMAIL>\$" "$SERIES"/fixture-a/0000-*.patch &&
	ok "the cover letter is the maintainer's" || bad "cover letter $(grep '^From:' "$SERIES"/fixture-a/0000-*.patch)"
clean_fixture_branches
finish
