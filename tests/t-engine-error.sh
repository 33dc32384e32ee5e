#!/bin/sh
# Infrastructure errors are not verdicts: a missing cross compiler gives
# ERROR, says what to install and stores nothing.  A second check run on
# the same build directory is refused while the first runs.
. "$(dirname "$0")/lib.sh"

export BUILD=$T/build
engine_fixture ppc64le
# a PATH with every command of this machine but the ppc64el cross tools
mkdir -p "$T/bin"
for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
	[ -d "$d" ] || continue
	for f in "$d"/*; do
		case ${f##*/} in powerpc64le-linux-gnu-*) continue ;; esac
		[ -e "$T/bin/${f##*/}" ] || ln -s "$f" "$T/bin/${f##*/}"
	done
done
PATH=$T/bin "$TOP/checks/run" --checks "build sparse boot" >"$T/run" 2>&1
rc=$?
cat "$T/run"
[ $rc = 1 ] && ok "run exits 1" || bad "run exit code $rc"
grep -Eq "^fixture-e .* build +ERROR build: ppc64le: powerpc64le-linux-gnu-gcc is not installed: run 'make deps' \\(Debian package gcc-powerpc64le-linux-gnu\\)" "$T/run" &&
	ok "ERROR names the missing compiler and its package" || bad "no ERROR line for the missing compiler"
grep -q '0 failed, 0 flaky, 1 error(s)' "$T/run" && ok "counted as an error, not a failure" || bad "wrong counts"
[ -z "$("$TOP/checks/store" list)" ] && ok "nothing stored" || { bad "something was stored:"; "$TOP/checks/store" list; }
# one run per build directory
mkdir -p "$BUILD"
flock "$BUILD/.check-run.lock" sleep 60 &
holder=$!
sleep 1
expect_fail 'another check run is using .*: wait for it, or use another BUILD=' "$TOP/checks/run" --checks checkpatch
kill $holder 2>/dev/null
wait $holder 2>/dev/null
# the store refuses a record without a verdict it may keep
(. "$TOP/scripts/lib.sh" 2>/dev/null; . "$TOP/checks/store.sh"
 printf 'ERROR x\nstatus ERROR\n' | store_put x86_64 build 0000) 2>/dev/null
[ -z "$("$TOP/checks/store" list)" ] && ok "store_put refuses an ERROR record" || bad "an ERROR record was stored"
git -C "$KTREE" branch -q -D fixture-e
finish
