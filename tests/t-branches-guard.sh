#!/bin/sh
# make branches does not overwrite what the maintainer changed on a topic
# branch: an amended commit or an edited cover letter / b4 revision is
# refused (topic named, edited commits listed, 'make export' advised),
# the branch left as it was, its dependents skipped; deleting the branch
# or exporting it lets the branches be made again.  b4's own tracking
# data (the history of sent revisions) survives a re-import.
. "$(dirname "$0")/lib.sh"

need_ktree
export BRANCHES_TXT=$FIX/branches.txt SERIES=$T/series NOTES=$T/notes
cp -r "$FIX/series" "$SERIES"
clean_fixture_branches
g() { git -C "$KTREE" "$@"; }
cover=$(ls "$SERIES"/fixture-a/0000-*.patch)
# touch_series WORD: a cover letter change: the series key changes, the
# commits do not
touch_series() {
	sed -i "s/^softirq: fixture topic with two patches and a cover letter.*/& $1/" "$cover"
}
# reword [BRANCH SUBJECT]: the tip of BRANCH (fixture-a) with another
# subject, author and date kept, as 'git commit --amend' would leave it
reword() {
	_b=${1:-fixture-a}
	_c=$(g show -s --format=%B "$_b" |
		sed "1s/.*/${2:-sched\/core: Say when preempt_latency_start() starts timing}/" |
		GIT_AUTHOR_NAME=$(g show -s --format=%an "$_b") GIT_AUTHOR_EMAIL=$(g show -s --format=%ae "$_b") \
		GIT_AUTHOR_DATE=$(g show -s --format=%ad --date=raw "$_b") \
		g commit-tree -p "$_b^" -F - "$_b^{tree}") || return 1
	g update-ref -m "amended by hand" "refs/heads/$_b" "$_c"
}

expect_ok "$S/mkbranches"
ids=$(g rev-parse fixture-a fixture-b fixture-next)
[ "$(g config branch.fixture-a.fork-applied)" = "$(g rev-parse fixture-a)" ] &&
	ok "the applied tip is recorded" || bad "branch.fixture-a.fork-applied not the tip"

# (a) an amended tip is not overwritten, with or without a series change
reword || bad "cannot reword fixture-a"
edited=$(g rev-parse fixture-a)
expect_fail "topic fixture-a: branch fixture-a was changed" "$S/mkbranches"
touch_series edited
expect_fail "topic fixture-a: branch fixture-a was changed since mkbranches made it" "$S/mkbranches"
grep -q "Say when preempt_latency_start() starts timing" "$T/err" &&
	ok "the edited commit is listed" || { bad "edited commit not listed"; sed 's/^/    /' "$T/err"; }
grep -q "make export TOPIC=fixture-a" "$T/err" && ok "advises make export TOPIC=fixture-a" ||
	bad "no make export advice"
[ "$(grep -c 'softirq: Document' "$T/err")" = 0 ] && ok "the unedited commit is not listed" ||
	bad "unedited commit listed"
grep -q "topic fixture-b: skipped, its base fixture-a failed" "$T/err" &&
	ok "fixture-b skipped" || bad "fixture-b not skipped"
grep -q "failed topics: fixture-a fixture-b (integration branch fixture-next not updated)" "$T/err" &&
	ok "fixture-next not updated" || bad "no failed-topics line"
[ "$(g rev-parse fixture-a)" = "$edited" ] && ok "fixture-a left as edited" || bad "fixture-a moved"
[ "$(g rev-parse fixture-b fixture-next)" = "$(echo "$ids" | tail -n 2)" ] &&
	ok "fixture-b, fixture-next untouched" || bad "fixture-b or fixture-next moved"

# (b) deleting the edited branch discards the edit
g branch -q -D fixture-a
expect_ok "$S/mkbranches"
[ "$(g rev-parse fixture-a fixture-b fixture-next)" = "$ids" ] &&
	ok "deleted branch rebuilt from series/: the same ids" || bad "ids after the rebuild"

# the advice works: export the edited branch, then the branches are made
reword
expect_ok "$S/export" fixture-a
grep -q "^Subject: .*Say when preempt_latency_start" "$SERIES"/fixture-a/0002-*.patch &&
	ok "export wrote the edit to series/" || bad "edit not exported"
expect_ok "$S/mkbranches"
[ "$(g log -1 --format=%s fixture-a)" = "sched/core: Say when preempt_latency_start() starts timing" ] &&
	g merge-base --is-ancestor fixture-a fixture-next && ok "after export: accepted, the edit kept" ||
	bad "exported edit not accepted"
cp -r "$FIX/series/." "$SERIES/"
rm -f "$SERIES"/fixture-a/0002-sched-core-say-*.patch
g branch -q -D fixture-a
expect_ok "$S/mkbranches"

# an edited cover letter (b4 prep --edit-cover) or b4 revision (b4 send)
g config branch.fixture-a.description "$(printf 'fixture: edited by hand\n\nNew text.\n')"
touch_series cover
expect_fail "topic fixture-a: its cover letter was changed.*branch description" "$S/mkbranches"
grep -q "make export TOPIC=fixture-a" "$T/err" && ok "advises make export" || bad "no advice"
[ "$(g config branch.fixture-a.description | head -n 1)" = "fixture: edited by hand" ] &&
	ok "edited description kept" || bad "description overwritten"
g branch -q -D fixture-a
expect_ok "$S/mkbranches"
g config branch.fixture-a.b4-tracking "$(g config branch.fixture-a.b4-tracking | sed 's/"revision": 1/"revision": 2/')"
touch_series revision
expect_fail 'topic fixture-a: its cover letter was changed.*b4 revision is 2, the cover letter has 1' "$S/mkbranches"

# (c) b4's own tracking keys survive a re-import
cp -r "$FIX/series/." "$SERIES/"
g branch -q -D fixture-a
expect_ok "$S/mkbranches"
changeid=$(sed -n 's/^change-id: //p' "$cover")
g config branch.fixture-a.b4-tracking "$(g config branch.fixture-a.b4-tracking |
	sed 's/}}$/, "history": {"v1": ["x"]}}, "mine": {"history": {"v1": ["x"]}}}/')"
touch_series again
expect_ok "$S/mkbranches"
g config branch.fixture-a.description | grep -q "cover letter again$" &&
	ok "cover letter re-imported" || bad "cover letter not re-imported"
tr=$(g config branch.fixture-a.b4-tracking)
if python3 - "$tr" "$changeid" <<'EOF'
import json, sys
t = json.loads(sys.argv[1])
s = t['series']
assert s['history'] == {'v1': ['x']}, s
assert t['mine'] == {'history': {'v1': ['x']}}, t
assert s['change-id'] == sys.argv[2], s
assert s['revision'] == 1 and s['base-branch'] == 'base' and s['prefixes'] == [], s
EOF
then
	ok "b4 tracking merged: history and other keys kept, change-id $changeid"
else
	bad "b4 tracking: $tr"
fi

# a base topic re-applied (its ids change): the dependent as mkbranches
# made it is rebuilt on it; an edited dependent is refused with only its
# own commit named
p1=$(ls "$SERIES"/fixture-a/0001-*.patch)
sed -i 's/^\(This is a test fixture\)/\1 (re-applied)/' "$p1"
old_a=$(g rev-parse fixture-a)
expect_ok "$S/mkbranches"
[ "$(g rev-parse fixture-a)" != "$old_a" ] && [ "$(g rev-parse fixture-b^)" = "$(g rev-parse fixture-a)" ] &&
	ok "fixture-a re-applied, fixture-b rebuilt on it" || bad "fixture-b not rebuilt on the new fixture-a"
reword fixture-b "mm\/memory: Edited by hand"
edited=$(g rev-parse fixture-b)
sed -i 's/^\(This is a test fixture\)/\1 (again)/' "$p1"
expect_fail "topic fixture-b: branch fixture-b was changed" "$S/mkbranches"
grep -q "^    [0-9a-f]* mm/memory: Edited by hand" "$T/err" && [ "$(grep -c '^    [0-9a-f]* ' "$T/err")" = 1 ] &&
	ok "only fixture-b's edited commit listed" || { bad "wrong commits listed"; sed 's/^/    /' "$T/err"; }
[ "$(g rev-parse fixture-b)" = "$edited" ] && [ "$(g rev-parse fixture-a)" != "$old_a" ] &&
	ok "fixture-a re-applied, edited fixture-b left as it was" || bad "fixture-a/fixture-b"
clean_fixture_branches
finish
