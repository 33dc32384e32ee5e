#!/bin/sh
# The build directory's image is identified by everything it is built
# from, not by its tree: after a change of the configuration step (as
# after a fragment or compiler change), the boot check rebuilds instead of
# booting the old image under the new key.  And the caller's kernel build variables
# (KCFLAGS, MAKEFLAGS from 'make check W=1') do not reach the build: they
# are in no key.
. "$(dirname "$0")/lib.sh"

engine_fixture x86_64
"$TOP/checks/run" --checks build >"$T/run" 2>&1
cat "$T/run"
ran "$T/run" build "$short" | grep -q PASS && ok "built" || { bad "build"; finish; }
# a KCFLAGS that breaks every compile, and W=1 through MAKEFLAGS
KCFLAGS='-include /nonexistent/fork-fixture.h' MAKEFLAGS='W=1' "$TOP/checks/run" --checks build --retest >"$T/run" 2>&1
cat "$T/run"
ran "$T/run" build "$short" | grep -q 'PASS' && ok "KCFLAGS and MAKEFLAGS from the caller do not reach the build" ||
	bad "the caller's build variables changed the verdict: $(ran "$T/run" build "$short")"
# the configuration step changed (scripts/kconfig, an input of the
# config hash like a fragment): a new key, and an image that is not the
# build of it.  From a copy of the tooling, in the same build directory;
# the .config it writes is the same, so the rebuild links nothing new.
R=$T/repo
mkdir -p "$R"
(cd "$TOP" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$R")
printf '\n# fixture edit\n' >>"$R/scripts/kconfig"
"$R/checks/run" --checks boot >"$T/run" 2>&1
cat "$T/run"
ran "$T/run" boot "$short" | grep -q PASS && ok "boot after the change: PASS" || bad "boot: $(ran "$T/run" boot "$short")"
log=$("$R/checks/store" get boot "$c1" x86_64 | sed -n 's/^log //p')
grep -q 'does not hold the build of these inputs' "$log" && ok "the boot rebuilt the image for its inputs" ||
	bad "the boot took the image built by another configuration step"
git -C "$KTREE" branch -q -D fixture-e
finish
