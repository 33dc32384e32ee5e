# Helpers for tests/t-*.sh.  Sourced.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
S=$TOP/scripts
FIX=$TOP/tests/fixtures
BUILD=${BUILD:-$TOP/build}
KTREE=${KTREE:-$BUILD/linux}
# the boot config only, unless a test says otherwise
CONFIGS_TXT=${FORK_TEST_CONFIGS_TXT:-$FIX/configs.txt}
export KTREE CONFIGS_TXT
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

# mkcommit PARENT SUBJECT FILE TEXT [BODY]: a commit on PARENT that appends
# TEXT to FILE, made with plumbing (no work tree); prints its id.  The
# message carries a Signed-off-by unless BODY is given.
mkcommit() {
	_idx=$T/mkcommit.index
	GIT_INDEX_FILE=$_idx git -C "$KTREE" read-tree "$1" || return 1
	_blob=$({ git -C "$KTREE" show "$1:$3" 2>/dev/null; printf '%s\n' "$4"; } | git -C "$KTREE" hash-object -w --stdin)
	GIT_INDEX_FILE=$_idx git -C "$KTREE" update-index --add --cacheinfo "100644,$_blob,$3" || return 1
	_tree=$(GIT_INDEX_FILE=$_idx git -C "$KTREE" write-tree)
	rm -f "$_idx"
	printf '%s\n\n%s\n' "$2" "${5:-Signed-off-by: A Developer <dev@example.org>}" |
		GIT_AUTHOR_NAME='A Developer' GIT_AUTHOR_EMAIL=dev@example.org GIT_AUTHOR_DATE='@1700000000 +0000' \
		GIT_COMMITTER_NAME='A Developer' GIT_COMMITTER_EMAIL=dev@example.org \
		GIT_COMMITTER_DATE='@1700000000 +0000' git -C "$KTREE" commit-tree "$_tree" -p "$1"
}

# engine_topic NAME ARCHES COMMIT: a one-topic branches.txt in $T for the
# check engine's tests, the branch NAME at COMMIT (on base)
engine_topic() {
	git -C "$KTREE" update-ref "refs/heads/$1" "$3"
	printf '%s  base  %s  softirq: check engine fixture\n' "$1" "$2" >"$T/branches.txt"
	BRANCHES_TXT=$T/branches.txt TESTS_TXT=$FIX/tests.txt MUTANTS=$T/mutants
	export BRANCHES_TXT TESTS_TXT MUTANTS
	# its patches declared: a fixture proves nothing (mutants/<topic>/reverts.txt)
	mkdir -p "$MUTANTS/$1"
	git -C "$KTREE" log --format='%s => none: a check engine fixture' "base..$3" >"$MUTANTS/$1/reverts.txt"
}

# engine_fixture ARCH: the check engine's fixture, topic fixture-e on
# ARCH with one commit ($c1, $short its 12-digit id), a result store and
# notes of the test's own
engine_fixture() {
	need_ktree
	RESULTS=$T/results NOTES=$T/notes
	export RESULTS NOTES
	c1=$(mkcommit base 'softirq: Note the check engine fixture' kernel/softirq.c '/* check engine fixture */')
	engine_topic fixture-e "$1" "$c1"
	short=$(git -C "$KTREE" rev-parse --short=12 "$c1")
}

# ran LOG CHECK SHORT: the line of CHECK on commit SHORT in a run's output
ran() {
	grep -E "^[^ ]+ +$3[0-9a-f]* +[a-z0-9_]+ +$2 " "$1"
}
