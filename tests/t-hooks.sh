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

# pre-push: results per tree id in $BUILD/results
export BUILD=$T/build
c=$(git -C "$KTREE" rev-parse base)
z=0000000000000000000000000000000000000000
git -C "$KTREE" worktree add -q --detach "$T/wt2" base
cd "$T/wt2" || exit 1
printf 'int fixture_z;\n' >>kernel/softirq.c
git -c core.hooksPath=/dev/null -c user.name=T -c user.email=t@example.org commit -q -a -m 'softirq: Fixture'
new=$(git rev-parse HEAD)
tree=$(git rev-parse HEAD^{tree})
echo "refs/heads/x $new refs/heads/x $z" >"$T/push"
expect_fail 'no check results' "$H/pre-push" origin url <"$T/push"
mkdir -p "$BUILD/results/$tree/x86_64"
echo 'FAIL build: error' >"$BUILD/results/$tree/x86_64/build"
expect_fail 'failed: x86_64/build' "$H/pre-push" origin url <"$T/push"
echo 'PASS build' >"$BUILD/results/$tree/x86_64/build"
expect_ok "$H/pre-push" origin url <"$T/push"
echo "refs/heads/x $z refs/heads/x $c" >"$T/del"
expect_ok "$H/pre-push" origin url <"$T/del"
cd "$TOP" || exit 1
finish
