#!/bin/sh
# boot-tests/configs.txt and its parser (scripts/configs): the project's
# file is valid; each kind of bad line is refused with FILE:LINE and the
# reason.  The keys of a config's checks: build@NAME differs from build
# and names the config's line and fragments; boot@NAME carries its boots.
. "$(dirname "$0")/lib.sh"

C=$TOP/scripts/configs
expect_ok "$C" "$TOP/boot-tests/configs.txt"
grep -q '^debug	' "$T/out" && grep -q '^nofeature	' "$T/out" && ok "debug and nofeature configs" ||
	bad "configs: $(cat "$T/out")"
try() {	# try PATTERN LINE...: a configs.txt of the boot line and LINEs is refused
	_p=$1; shift
	{ echo 'boot  *  commits  build,sparse,boot  -  -'; printf '%s\n' "$@"; } >"$T/c.txt"
	expect_fail "$_p" "$C" "$T/c.txt"
}
try 'c.txt:2: malformed line: expected 6 fields' 'debug  *  tips  build'
try 'c.txt:2: bad config name "Debug"' 'Debug  *  tips  build  debug  -'
try 'c.txt:2: duplicate config "boot"' 'boot  *  commits  build  -  -'
try 'c.txt:2: config "x": unknown arch "sparc"' 'x  sparc  tips  build  debug  -'
try 'c.txt:2: config "x": runs "often": commits, tips, integration or tests' 'x  *  often  build  debug  -'
try 'c.txt:2: config "x": unknown check "lint"' 'x  *  tips  build,lint  debug  -'
try 'c.txt:2: config "x": no build' 'x  *  tips  boot  debug  -'
try 'c.txt:2: config "x": no fragment boot-tests/configs/nosuch.config' 'x  *  tips  build  nosuch  -'
try 'c.txt:2: config "x": empty command line in boots' 'x  *  tips  build,boot  debug  a||b'
try 'c.txt:2: config "x": boots without the boot check' 'x  *  tips  build  debug  preempt=none'
printf 'debug  *  tips  build  debug  -\n' >"$T/c.txt"
expect_fail 'no "boot" config' "$C" "$T/c.txt"
printf 'boot  *  commits  build  debug  -\n' >"$T/c.txt"
expect_fail 'config "boot": the config of every commit has no fragments' "$C" "$T/c.txt"

# keys
need_ktree
export CONFIGS_TXT=$TOP/boot-tests/configs.txt
tip=$(git -C "$KTREE" rev-parse base)
key() { "$TOP/checks/store" key "$1" "$tip" x86_64; }
[ "$(key build)" != "$(key build@debug)" ] && ok "build@debug has its own key" || bad "build@debug: the key of build"
"$TOP/checks/store" inputs build@debug "$tip" x86_64 >"$T/in"
grep -q '^config-def debug	' "$T/in" && ok "the key names the config's line" || bad "no config line in the key"
"$TOP/checks/store" inputs boot@dynamic "$tip" x86_64 | grep -q 'preempt=none|preempt=voluntary|preempt=full' &&
	ok "boot@dynamic: its boots are in the key" || bad "boot@dynamic: no boots in the key"
[ "$("$TOP/checks/store" inputs build "$tip" x86_64 | grep -c '^config-def')" = 0 ] &&
	ok "the boot config's build has no config line" || bad "build names a config"
expect_fail 'check build@nosuch: no config nosuch' "$TOP/checks/store" key build@nosuch "$tip" x86_64
finish
