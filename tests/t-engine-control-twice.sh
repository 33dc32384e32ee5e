#!/bin/sh
# A negative control counts as caught only when its test fails twice: one
# failed boot (a stalled host) followed by a pass is FLAKY, never a PASS
# of the control, and is not reused.  Before, a control caught once by
# luck was stored as caught.
. "$(dirname "$0")/lib.sh"

engine_fixture x86_64
# a test of the topic whose control boots base: smoke, which passes there
{ cat "$FIX/tests.txt"; echo 'fixture-c  fixture-e  -  smoke  -  smoke  base'; } >"$T/tests.txt"
export TESTS_TXT=$T/tests.txt
mkdir -p "$T/bin"
q=$(command -v qemu-system-x86_64)
# the second boot of all (the control's first attempt: smoke, then
# fixture-c) stalls, as a loaded host does; every other boot is real
cat >"$T/bin/qemu-system-x86_64" <<EOS
#!/bin/sh
case "\$1" in --version) exec "$q" "\$@" ;; esac
n=\$(cat "$T/boots" 2>/dev/null || echo 0)
n=\$((n + 1))
echo \$n >"$T/boots"
if [ \$n = 2 ]; then
	echo "fixture: the host stalled the guest"
	exit 0
fi
exec "$q" "\$@"
EOS
chmod +x "$T/bin/qemu-system-x86_64"
PATH=$T/bin:$PATH "$TOP/checks/run" --checks "build control-fixture-c" >"$T/run" 2>&1
rc=$?
cat "$T/run"
[ $rc = 1 ] && ok "run exits 1" || bad "run exit code $rc"
bshort=$(git -C "$KTREE" rev-parse --short=12 base)
ran "$T/run" control-fixture-c "$bshort" | grep -q 'FLAKY control-fixture-c: caught once, then not' &&
	ok "caught once, then not: FLAKY" || bad "no FLAKY line for the control"
[ "$(cat "$T/boots")" = 4 ] && ok "two attempts of two boots each" || bad "boots: $(cat "$T/boots")"
"$TOP/checks/store" get control-fixture-c base x86_64 'FORK_BOOT_TESTS=smoke,fixture-c' |
	grep -qx 'status FLAKY' && ok "stored as FLAKY" || bad "not stored as FLAKY"
# without the stall: the test passes on base both times: the control FAILs
rm -f "$T/boots"
echo 10 >"$T/boots"
PATH=$T/bin:$PATH "$TOP/checks/run" --checks "control-fixture-c" >"$T/run" 2>&1
cat "$T/run"
ran "$T/run" control-fixture-c "$bshort" | grep -q 'FAIL control: the test PASSES without its feature' &&
	ok "next run: booted again, the control FAILs" || bad "next run: $(ran "$T/run" control-fixture-c "$bshort")"
git -C "$KTREE" branch -q -D fixture-e
finish
