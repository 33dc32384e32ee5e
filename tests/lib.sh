# Helpers for tests/t-*.sh.  Sourced.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
S=$TOP/scripts
FIX=$TOP/tests/fixtures
BUILD=${BUILD:-$TOP/build}
KTREE=${KTREE:-$BUILD/linux}
export KTREE
failures=0
T=$(mktemp -d "${TMPDIR:-/tmp}/forktest.XXXXXX")
trap 'rm -rf "$T"; git -C "$KTREE" worktree prune 2>/dev/null' EXIT

ok() { printf 'ok: %s\n' "$*"; }
bad() { printf 'NOT OK: %s\n' "$*"; failures=$((failures + 1)); }

# expect_fail PATTERN CMD...: CMD fails and its stderr matches PATTERN
expect_fail() {
	_pat=$1; shift
	if "$@" >"$T/out" 2>"$T/err"; then
		bad "expected failure: $*"
	elif grep -Eq -- "$_pat" "$T/err"; then
		ok "refused as expected: $(grep -E -- "$_pat" "$T/err" | head -n 1)"
	else
		bad "wrong message for: $* (want /$_pat/):"; sed 's/^/    /' "$T/err"
	fi
}

# expect_ok CMD...
expect_ok() {
	if "$@" >"$T/out" 2>"$T/err"; then
		ok "$*"
	else
		bad "failed: $*"; sed 's/^/    /' "$T/err"
	fi
}

# the real kernel tree, made once (make tree)
need_ktree() {
	"$S/mktree" >/dev/null 2>&1 || { echo "make tree failed"; exit 1; }
}

# drop the fixture topics from the shared kernel tree
clean_fixture_branches() {
	for _b in fixture-a fixture-b fixture-next fixture-c; do
		git -C "$KTREE" branch -D "$_b" >/dev/null 2>&1
		git -C "$KTREE" config --remove-section "branch.$_b" 2>/dev/null
	done
}

finish() {
	[ "$failures" = 0 ] || { echo "$failures check(s) failed"; exit 1; }
	exit 0
}
