#!/bin/sh
# unit: needs no kernel tree and no build (make test-unit)
# branches.txt parser: the real file and the fixture parse; every kind of
# bad line is refused with file:line and the reason.
. "$(dirname "$0")/lib.sh"

expect_ok "$S/topics" "$TOP/branches.txt"
order=$("$S/topics" "$TOP/branches.txt" | cut -f1 | tr '\n' ' ')
[ "$order" = "preempt-timing console-resched zap-resched softirq-arch softirq-defer for-next " ] &&
	ok "real topic order: $order" || bad "real topic order: $order"

# a topic listed before its base is applied after it
printf 'b  a  x86_64  desc b\na  base  x86_64  desc a\nall  *  x86_64  merge\n' >"$T/fwd"
order=$("$S/topics" "$T/fwd" | cut -f1 | tr '\n' ' ')
[ "$order" = "a b all " ] && ok "dependency order: $order" || bad "dependency order: $order"

printf 'a  b  x86_64  d\nb  a  x86_64  d\n' >"$T/cycle"
expect_fail "cycle:1: cycle in topic bases: a -> b -> a" "$S/topics" "$T/cycle"
printf 'a  base  x86_64  d\nb  nope  x86_64  d\n' >"$T/unknown"
expect_fail "unknown:2: unknown base \"nope\"" "$S/topics" "$T/unknown"
printf 'a  base  x86_64  d\n# comment\na  base  x86_64  d\n' >"$T/dup"
expect_fail "dup:3: duplicate topic \"a\" \\(first defined at line 1\\)" "$S/topics" "$T/dup"
printf 'a  base  x86_64\n' >"$T/short"
expect_fail "short:1: malformed line" "$S/topics" "$T/short"
printf 'a  base  arm64  d\n' >"$T/arch"
expect_fail "arch:1: unknown arch \"arm64\"" "$S/topics" "$T/arch"
printf 'A!  base  x86_64  d\n' >"$T/name"
expect_fail "name:1: bad topic name" "$S/topics" "$T/name"
printf 'm  *  x86_64  d\nn  *  x86_64  d\n' >"$T/integ"
expect_fail "integ:2: second integration topic" "$S/topics" "$T/integ"
printf 'm  *  x86_64  d\nn  m  x86_64  d\n' >"$T/onint"
expect_fail "onint:2: .* based on the integration topic" "$S/topics" "$T/onint"
finish
