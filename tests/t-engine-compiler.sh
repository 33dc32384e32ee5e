#!/bin/sh
# A compiler that reports another version re-builds: the build key holds
# 'gcc -v' (the full version, Debian revision included).  The version is
# changed by a wrapper that answers -v with one more word and compiles
# with the real gcc (so the kernel's own CONFIG_CC_VERSION_TEXT, from
# --version, stays: the rebuild stays incremental).
. "$(dirname "$0")/lib.sh"

engine_fixture x86_64
run() { "$TOP/checks/run" --checks build >"$T/run" 2>&1; cat "$T/run"; }
run
ran "$T/run" build "$short" | grep -Eq 'PASS .*\([0-9]+s\)$' && ok "built" || bad "first build did not pass"
run
ran "$T/run" build "$short" | grep -q 'PASS .*(cached)$' && ok "cached" || bad "not cached"
mkdir -p "$T/bin"
printf '#!/bin/sh\ncase "$*" in -v) /usr/bin/gcc -v 2>&1 | sed "\\$s/\\$/ (fixture rebuild)/" ;; *) exec /usr/bin/gcc "$@" ;; esac\n' >"$T/bin/gcc"
chmod +x "$T/bin/gcc"
PATH=$T/bin:$PATH run
ran "$T/run" build "$short" | grep -Eq 'PASS .*\([0-9]+s\)$' && ok "another compiler version: re-built" ||
	bad "another compiler version: taken from the cache"
PATH=$T/bin:$PATH "$TOP/checks/store" inputs build "$c1" x86_64 | grep -q '^tool cc gcc version .* (fixture rebuild)$' &&
	ok "the key names the compiler's version" || bad "no compiler version in the key"
run
ran "$T/run" build "$short" | grep -q 'PASS .*(cached)$' && ok "the first compiler again: cached" ||
	bad "the first compiler: not cached"
git -C "$KTREE" branch -q -D fixture-e
finish
