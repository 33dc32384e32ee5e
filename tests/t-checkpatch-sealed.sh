#!/bin/sh
# checkpatch cannot be turned green by anything but the commit: a
# ~/.checkpatch.conf that ignores MISSING_SIGN_OFF, git's format.signOff
# with the maintainer identity, a .checkpatch.conf in the kernel tree's
# work tree; a commit's own bad .checkpatch.conf (checkpatch prints its
# usage) is an ERROR, not "PASS 0 errors".  Reproductions of the tooling
# review of issue 26, on real commits of the kernel tree.
. "$(dirname "$0")/lib.sh"

need_ktree
export RESULTS=$T/results NOTES=$T/notes
# an unsigned commit by the maintainer identity
unsigned=$(mkcommit base 'softirq: Note the sealed checkpatch fixture' kernel/softirq.c \
	'/* sealed checkpatch fixture */' 'No sign-off here.')
engine_topic fixture-e x86_64 "$unsigned"
run() { "$TOP/checks/run" --checks checkpatch "$@" >"$T/run" 2>&1; cat "$T/run"; }
short=$(git -C "$KTREE" rev-parse --short=12 "$unsigned")
key() { "$TOP/checks/store" key checkpatch "$unsigned" any; }

run
ran "$T/run" checkpatch "$short" | grep -q 'FAIL .*MISSING_SIGN_OFF' &&
	ok "unsigned commit: FAIL" || bad "unsigned commit not FAIL"
k0=$(key)

# a user's ~/.checkpatch.conf and global git configuration
mkdir -p "$T/home"
printf -- '--ignore MISSING_SIGN_OFF\n' >"$T/home/.checkpatch.conf"
cat >"$T/home/.gitconfig" <<EOF
[user]
	name = $FORK_MAINTAINER_NAME
	email = $FORK_MAINTAINER_EMAIL
[format]
	signOff = true
	headers = "X-Fixture: 1"
EOF
[ "$(HOME=$T/home key)" = "$k0" ] && ok "the key ignores HOME's git and checkpatch configuration" ||
	bad "the key changed with HOME's configuration"
HOME=$T/home run --retest
ran "$T/run" checkpatch "$short" | grep -q 'FAIL .*MISSING_SIGN_OFF' &&
	ok "~/.checkpatch.conf --ignore MISSING_SIGN_OFF, format.signOff=true: still FAIL" ||
	bad "HOME's configuration turned the FAIL into: $(ran "$T/run" checkpatch "$short")"

# a .checkpatch.conf in the kernel tree's own work tree is not the commit's
printf -- '--ignore MISSING_SIGN_OFF\n' >"$KTREE/.checkpatch.conf"
run --retest
rm -f "$KTREE/.checkpatch.conf"
ran "$T/run" checkpatch "$short" | grep -q 'FAIL .*MISSING_SIGN_OFF' &&
	ok "a .checkpatch.conf in the kernel work tree is not read" ||
	bad "the kernel work tree's .checkpatch.conf was read: $(ran "$T/run" checkpatch "$short")"

# a commit whose own .checkpatch.conf has an unknown option: checkpatch
# prints its usage and exits 1 without a report: ERROR, nothing stored
badconf=$(mkcommit "$unsigned" 'checkpatch: Add a configuration' .checkpatch.conf '--no-such-option')
engine_topic fixture-e x86_64 "$badconf"
run
sb=$(git -C "$KTREE" rev-parse --short=12 "$badconf")
ran "$T/run" checkpatch "$sb" | grep -q 'ERROR .*exited 1 and reported nothing' &&
	ok "checkpatch printing its usage: ERROR" || bad "bad option judged as: $(ran "$T/run" checkpatch "$sb")"
"$TOP/checks/store" key checkpatch "$badconf" any >"$T/kb" &&
	[ -z "$(find "$T/results" -type f -name "$(cat "$T/kb")")" ] &&
	ok "the ERROR is not stored" || bad "the ERROR was stored"
git -C "$KTREE" branch -q -D fixture-e
finish
