#!/bin/sh
# unit: needs no kernel tree and no build (make test-unit)
# tests.txt parser (scripts/boottests): the real file parses into seven
# tab-separated fields per test; every kind of bad line is refused with
# file:line and the reason; nothing is printed for a bad file.
. "$(dirname "$0")/lib.sh"

B=$S/boottests
expect_ok env BRANCHES_TXT="$TOP/branches.txt" "$B" "$TOP/boot-tests/tests.txt"
n=$(grep -cEv '^[[:space:]]*(#|$)' "$TOP/boot-tests/tests.txt")
[ "$(wc -l <"$T/out")" = "$n" ] && ok "real tests.txt: $n tests" || bad "real tests.txt: $(wc -l <"$T/out") lines for $n tests"
awk -F'\t' 'NF != 7 { exit 1 }' "$T/out" && ok "seven fields per test" || bad "not seven fields: $(head -n 2 "$T/out")"
[ "$(head -n 1 "$T/out")" = "$(printf 'smoke\t-\t-\tsmoke\t-\tsmoke\t-')" ] && ok "smoke line as written" ||
	bad "smoke line: $(head -n 1 "$T/out")"

# a fixture graph: a, b on a, the integration topic all
export BRANCHES_TXT=$T/branches.txt
printf 'a  base  x86_64  d\nb  a  x86_64  d\nall  *  x86_64  merge\n' >"$BRANCHES_TXT"
# and configs: boot, and voluntary, to which a test can be bound
export CONFIGS_TXT=$T/configs.txt
printf 'boot  *  commits  build,sparse,boot  -  -\nvoluntary  *  tests  build,boot  voluntary  -\n' >"$CONFIGS_TXT"
good='smoke  -  -  smoke  -  smoke  -
# a comment

t-a   a    CONFIG_FOO_1   ga,gb  x=1,y=2  ra,rb  base
t-b   b    topic:a        gb     -        rb     tip:fork.x=2,y=3
t-all all  -              gc     -        rc     -
t-v   a    config:voluntary,topic:a  gv  -  rv  base'
printf '%s\n' "$good" >"$T/good"
expect_ok "$B" "$T/good"
[ "$(cut -f1 "$T/out" | tr '\n' ' ')" = "smoke t-a t-b t-all t-v " ] && ok "file order, comments skipped" ||
	bad "names: $(cut -f1 "$T/out" | tr '\n' ' ')"
[ "$(sed -n 3p "$T/out")" = "$(printf 't-b\tb\ttopic:a\tgb\t-\trb\ttip:fork.x=2,y=3')" ] &&
	ok "fields as written" || bad "t-b: $(sed -n 3p "$T/out")"
mv "$T/out" "$T/out.good"
expect_ok env TESTS_TXT="$T/good" "$B"
cmp -s "$T/out" "$T/out.good" && ok "no FILE: \$TESTS_TXT" || bad "\$TESTS_TXT not read by default"

# refuse NAME PATTERN LINE: a file of the good lines and LINE is refused
# with file:line PATTERN, and prints nothing
refuse() {
	printf '%s\n%s\n' "$good" "$3" >"$T/$1"
	expect_fail "^$T/$1:8: $2" "$B" "$T/$1"
	[ ! -s "$T/out" ] || bad "$1: printed something: $(head -n 1 "$T/out")"
}
refuse six "malformed line: expected 7 fields .*, got 6" 'x  a  -  g  -  r'
refuse eight "malformed line: expected 7 fields .*, got 8" 'x  a  -  g  -  r  base  extra'
refuse dup 'duplicate test "t-a" \(first defined at line 4\)' 't-a  a  -  g  -  r  base'
refuse name 'bad test name "X!"' 'X!  a  -  g  -  r  base'
refuse topic 'test "x": unknown topic "nosuch"' 'x  nosuch  -  g  -  r  base'
refuse needs-cfg 'test "x": bad needs "CONFIG_foo"' 'x  a  CONFIG_foo  g  -  r  base'
refuse needs-word 'test "x": bad needs "always"' 'x  a  always  g  -  r  base'
refuse needs-topic 'test "x": needs an unknown topic "c"' 'x  a  topic:c  g  -  r  base'
refuse needs-config 'test "x": needs an unknown config "nosuch"' 'x  a  config:nosuch  g  -  r  base'
refuse needs-config-boot 'test "x": needs an unknown config "boot"' 'x  a  config:boot  g  -  r  base'
refuse needs-configs 'test "x": more than one config: in its needs' 'x  a  config:voluntary,config:voluntary  g  -  r  base'
refuse results-dash 'test "x": empty result in "-"' 'x  a  -  g  -  -  base'
refuse results-item 'test "x": empty result in "r,,s"' 'x  a  -  g  -  r,,s  base'
refuse results-end 'test "x": empty result in "r,"' 'x  a  -  g  -  r,  base'
refuse guest 'test "x": empty guest test in ",g"' 'x  a  -  ,g  -  r  base'
refuse control 'test "x": bad control "head"' 'x  a  -  g  -  r  head'
refuse control-tip 'test "x": bad control "tip:"' 'x  a  -  g  -  r  tip:'
refuse control-any 'test "x": control "base" on a test of every kernel' 'x  -  -  g  -  r  base'

# every error of a file is listed, each with its line
printf 'x  nosuch  -  g  -  r  base\ny  a  -  g  -  r\n' >"$T/two"
"$B" "$T/two" >/dev/null 2>"$T/err"
grep -q "two:1: .*unknown topic" "$T/err" && grep -q "two:2: malformed line" "$T/err" &&
	ok "both errors reported" || { bad "not both errors:"; sed 's/^/    /' "$T/err"; }
# the topics come from $BRANCHES_TXT: the real file does not know "a"
expect_fail "good:4: test \"t-a\": unknown topic \"a\"" env BRANCHES_TXT="$TOP/branches.txt" "$B" "$T/good"
printf 'a  nope  x86_64  d\n' >"$T/badgraph"
expect_fail "badgraph:1: unknown base" env BRANCHES_TXT="$T/badgraph" "$B" "$T/good"
expect_fail "cannot read $T/nosuch" "$B" "$T/nosuch"
finish
