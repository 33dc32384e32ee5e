#!/bin/sh
# make send with an empty git and b4 configuration: the dry run writes the
# cover letter and the patches, addressed, to build/send/<topic>/ and
# changes nothing in the kernel tree; SEND=1 is refused with the
# placeholder identity and without a sending setup.  Nothing is sent.
. "$(dirname "$0")/lib.sh"

. "$TOP/fork.conf"
need_ktree
export BRANCHES_TXT=$FIX/branches.txt SERIES=$T/series NOTES=$T/notes
cp -r "$FIX/series" "$SERIES"
clean_fixture_branches
expect_ok "$S/mkbranches"
# a fresh machine: no ~/.gitconfig, no /etc/gitconfig, no b4 config
mkdir -p "$T/home"
export HOME=$T/home XDG_CONFIG_HOME=$T/home/.config GIT_CONFIG_NOSYSTEM=1
unset GIT_CONFIG_COUNT
exec </dev/null
g() { git -C "$KTREE" "$@"; }
state() {
	g for-each-ref --format='%(refname) %(objectname)' refs/heads/fixture-* refs/heads/send-dry-run refs/tags
	g config --get-regexp '^branch\.(fixture-|send-dry-run/)'
	git -C "$BUILD/work/export" symbolic-ref -q HEAD
}
state >"$T/before"
out=$BUILD/send/fixture-a

expect_ok "$S/send" fixture-a
grep -q "3 message(s) in $out " "$T/err" && ok "says where the messages are" || bad "no path printed"
[ "$(ls "$out" | wc -l)" = 3 ] && ok "3 messages written" || bad "messages: $(ls "$out")"
n=0
for s in '0/2' '1/2' '2/2'; do
	m=$(ls "$out"/000"${s%/*}"-*.eml)
	grep -q "^Subject: \\[PATCH $s\\] " "$m" && grep -q '^To: ' "$m" && grep -q '^Cc: ' "$m" &&
		grep -q "^From: $FORK_MAINTAINER_NAME <$FORK_MAINTAINER_EMAIL>\$" "$m" && n=$((n + 1))
done
[ $n = 3 ] && ok "[PATCH 0/2] .. [PATCH 2/2], From the maintainer, To and Cc on each" ||
	{ bad "wrong headers:"; grep -h '^Subject\|^From:\|^To:\|^Cc:' "$out"/*.eml; }
grep -q "^base-commit: $(g rev-parse base)\$" "$out"/0000-*.eml &&
	ok "base-commit is the base" || bad "base-commit: $(grep -h '^base-commit' "$out"/0000-*.eml)"
grep -q 'Running in OFFLINE mode' "$BUILD/send/fixture-a.log" && ok "b4 ran offline" || bad "b4 not offline"
state | diff "$T/before" - >"$T/diff" && ok "branches, their config and the work tree unchanged" ||
	{ bad "the dry run changed the tree:"; cat "$T/diff"; }

# a fork-only topic (its notes say "Fork-only: <why>"): every message To
# the fork's list alone, no Cc, neither get_maintainer.pl's addresses nor
# the patches' trailers; export writes the same
printf '== fixture-a ==\nFork-only: a fixture nobody upstream could apply\n\n' >"$NOTES"
expect_ok "$S/send" fixture-a
n=0
for m in "$out"/*.eml; do
	[ "$(grep -c '^To: \|^Cc: ' "$m")" = 1 ] && grep -q "^To: $FORK_MAINTAINER_EMAIL\$" "$m" && n=$((n + 1))
done
[ $n = 3 ] && grep -q 'fork-only (a fixture nobody upstream could apply)' "$T/err" &&
	ok "fork-only: the 3 messages To the fork's list alone, no Cc" ||
	{ bad "fork-only topic addressed:"; grep -h '^To:\|^Cc:' "$out"/*.eml; cat "$T/err"; }
expect_ok "$S/export" fixture-a
n=0
for m in "$SERIES"/fixture-a/*.patch; do
	[ "$(grep -c '^To: \|^Cc: ' "$m")" = 1 ] && grep -q "^To: $FORK_MAINTAINER_NAME <$FORK_MAINTAINER_EMAIL>\$" "$m" && n=$((n + 1))
done
[ $n = 3 ] && ok "fork-only: export addresses the fork's list alone" ||
	{ bad "fork-only export addressed:"; grep -h '^To:\|^Cc:' "$SERIES"/fixture-a/*.patch; }
rm -f "$NOTES"
cp "$FIX"/series/fixture-a/* "$SERIES/fixture-a/"
state | diff "$T/before" - >"$T/diff" && ok "unchanged after the fork-only send and export" ||
	{ bad "the fork-only runs changed the tree:"; cat "$T/diff"; }

# b4 failing: the topic and the log are named, the tree is as it was
expect_fail "topic fixture-a: b4 failed, see $BUILD/send/fixture-a.log" env GIT_CONFIG_COUNT=1 \
	GIT_CONFIG_KEY_0=b4.prep-cover-template GIT_CONFIG_VALUE_0="$T/none" "$S/send" fixture-a
state | diff "$T/before" - >"$T/diff" && ok "unchanged after the failure" ||
	{ bad "the failed dry run changed the tree:"; cat "$T/diff"; }

# SEND=1: never with the placeholder identity, never without a way to send
expect_fail "placeholder.*set FORK_MAINTAINER_NAME and FORK_MAINTAINER_EMAIL, and .*sendemail\\.smtpserver" \
	env SEND=1 "$S/send" fixture-a
expect_fail "no way to send\\): set git's sendemail\\.smtpserver .*b4\\.send-endpoint-web" env SEND=1 \
	FORK_MAINTAINER_NAME='Jane Doe' FORK_MAINTAINER_EMAIL=jane@example.org "$S/send" fixture-a
grep -q FORK_MAINTAINER "$T/err" && bad "a real identity is not refused: $(cat "$T/err")"
# with a way to send but no results: refused, naming what is missing
expect_fail "topic fixture-a: not sending: the commits above lack a PASS" env SEND=1 \
	FORK_MAINTAINER_NAME='Jane Doe' FORK_MAINTAINER_EMAIL=jane@example.org RESULTS="$T/empty-results" TESTS_TXT="$FIX/tests.txt" \
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=sendemail.smtpserver GIT_CONFIG_VALUE_0=/bin/false "$S/send" fixture-a
grep -q 'no PASS for: any/checkpatch:none x86_64/build:none' "$T/err" && ok "SEND=1 names the missing checks" ||
	{ bad "SEND=1 does not name what is missing"; cat "$T/err"; }
state | diff "$T/before" - >"$T/diff" && ok "unchanged after the refusals" ||
	{ bad "a refused send changed the tree:"; cat "$T/diff"; }
rm -rf "$out" "$BUILD/send/fixture-a.log"
clean_fixture_branches
finish
