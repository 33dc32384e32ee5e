#!/bin/sh
# A boot that fails once and passes when booted again is FLAKY: shown as
# such, the run fails, and it is never reused as a verdict (the next run
# boots again).  The first boot is made to fail by a QEMU that stalls
# once, as a loaded host does.
. "$(dirname "$0")/lib.sh"

engine_fixture x86_64
mkdir -p "$T/bin"
q=$(command -v qemu-system-x86_64)
cat >"$T/bin/qemu-system-x86_64" <<EOS
#!/bin/sh
case "\$1" in --version) exec "$q" "\$@" ;; esac
if [ ! -e "$T/stalled" ]; then
	touch "$T/stalled"
	echo "fixture: the host stalled the guest"
	exit 0
fi
exec "$q" "\$@"
EOS
chmod +x "$T/bin/qemu-system-x86_64"
short=$(git -C "$KTREE" rev-parse --short=12 "$c1")
PATH=$T/bin:$PATH "$TOP/checks/run" --checks "build boot" >"$T/run" 2>&1
rc=$?
cat "$T/run"
[ $rc = 1 ] && ok "run exits 1" || bad "run exit code $rc"
ran "$T/run" boot "$short" | grep -q 'FLAKY boot: failed, then passed: first: FAIL boot: x86_64: smoke: .*never reached /init' &&
	ok "FLAKY, with the first failure" || bad "no FLAKY line"
grep -q '1 flaky' "$T/run" && ok "counted as flaky" || bad "not counted as flaky"
"$TOP/checks/store" get boot "$c1" x86_64 | grep -qx 'status FLAKY' && ok "stored as FLAKY (for the report)" ||
	bad "not stored as FLAKY"
"$TOP/checks/run" --checks "build boot" >"$T/run" 2>&1
cat "$T/run"
ran "$T/run" boot "$short" | grep -Eq 'PASS .*\([0-9]+s\)$' && ok "next run: booted again, PASS" ||
	bad "next run reused the FLAKY result"
"$TOP/checks/run" --checks "build boot" >"$T/run" 2>&1
ran "$T/run" boot "$short" | grep -q 'PASS .*(cached)$' && ok "then cached" || bad "PASS not cached"
git -C "$KTREE" branch -q -D fixture-e
finish
