#!/bin/sh
# .git-hooks: each hook refuses bad input and passes good input.
. "$(dirname "$0")/lib.sh"

H=$TOP/.git-hooks
msg() { printf '%s\n' "$@" >"$T/msg"; }
sob='Signed-off-by: A Developer <dev@example.org>'

msg 'sched/core: Report long sections' '' 'Why.' '' "$sob"
expect_ok "$H/commit-msg" "$T/msg"
msg 'mm, memory: Note the PTE lock' '' "$sob"
expect_ok "$H/commit-msg" "$T/msg"
msg 'Report long sections' '' "$sob"
expect_fail 'subject is not "subsys: Summary"' "$H/commit-msg" "$T/msg"
msg 'sched/core: Report long sections.' '' "$sob"
expect_fail 'ends with a period' "$H/commit-msg" "$T/msg"
msg 'sched/core: Report long non-preemptible sections and much more text in one subject' '' "$sob"
expect_fail 'characters long, at most 75' "$H/commit-msg" "$T/msg"
msg 'sched/core: Report long sections' '' 'No sign-off.'
expect_fail 'no "Signed-off-by' "$H/commit-msg" "$T/msg"

need_ktree
W=$T/wt
git -C "$KTREE" worktree add -q --detach "$W" base || { bad "no work tree"; finish; }
cd "$W" || exit 1
printf 'int fixture_x;\n' >>kernel/softirq.c
git add kernel/softirq.c
expect_ok "$H/pre-commit"
git reset -q --hard
printf 'int fixture_y = 0;  \n' >>kernel/softirq.c	# trailing whitespace, initialised global
git add kernel/softirq.c
expect_fail 'checkpatch found errors' "$H/pre-commit"
grep -q 'ERROR:TRAILING_WHITESPACE' "$T/err" && ok "checkpatch error shown" || bad "no checkpatch output"
git reset -q --hard
cd "$TOP" || exit 1

# pre-push: tests/t-engine-prepush.sh; deleting a ref needs no results
z=0000000000000000000000000000000000000000
echo "refs/heads/x $z refs/heads/x $(git -C "$KTREE" rev-parse base)" >"$T/del"
expect_ok "$H/pre-push" origin url <"$T/del"
finish
