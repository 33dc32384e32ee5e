#!/bin/sh
# The build directory's image is identified by everything it is built
# from, not by its tree: after a compiler change (a gcc that reports
# another version), the boot check rebuilds instead of booting the old
# image under the new key.  And the caller's kernel build variables
# (KCFLAGS, MAKEFLAGS from 'make check W=1') do not reach the build: they
# are in no key.
. "$(dirname "$0")/lib.sh"

need_ktree
export RESULTS=$T/results NOTES=$T/notes
c1=$(mkcommit base 'softirq: Note the check engine fixture' kernel/softirq.c '/* check engine fixture */')
engine_topic fixture-e x86_64 "$c1"
short=$(git -C "$KTREE" rev-parse --short=12 "$c1")
"$TOP/checks/run" --checks build >"$T/run" 2>&1
cat "$T/run"
ran "$T/run" build "$short" | grep -q PASS && ok "built" || { bad "build"; finish; }
# a KCFLAGS that breaks every compile, and W=1 through MAKEFLAGS
KCFLAGS='-include /nonexistent/fork-fixture.h' MAKEFLAGS='W=1' "$TOP/checks/run" --checks build --retest >"$T/run" 2>&1
cat "$T/run"
ran "$T/run" build "$short" | grep -q 'PASS' && ok "KCFLAGS and MAKEFLAGS from the caller do not reach the build" ||
	bad "the caller's build variables changed the verdict: $(ran "$T/run" build "$short")"
# a compiler that reports another version: a new key, and an image that
# is not the build of it
mkdir -p "$T/bin"
printf '#!/bin/sh\ncase "$*" in -v) /usr/bin/gcc -v 2>&1 | sed "\\$s/\\$/ fixture-rebuild/" ;; *) exec /usr/bin/gcc "$@" ;; esac\n' >"$T/bin/gcc"
chmod +x "$T/bin/gcc"
PATH=$T/bin:$PATH "$TOP/checks/run" --checks boot >"$T/run" 2>&1
cat "$T/run"
ran "$T/run" boot "$short" | grep -q PASS && ok "boot under the new compiler: PASS" || bad "boot: $(ran "$T/run" boot "$short")"
log=$(PATH=$T/bin:$PATH "$TOP/checks/store" get boot "$c1" x86_64 | sed -n 's/^log //p')
grep -q 'does not hold the build of these inputs' "$log" && ok "the boot rebuilt the image for its inputs" ||
	bad "the boot took the image of another compiler"
git -C "$KTREE" branch -q -D fixture-e
finish
