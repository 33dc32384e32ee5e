#!/bin/sh
# unit: needs no kernel tree and no build (make test-unit)
# checks/kcidb: the report TSV as KCIDB v5 JSON, validated against the
# stored upstream schema.  The fixture (tests/fixtures/report/report.tsv)
# has every status and every kind of check; its log paths use @FIX@
# (tests/fixtures) and @LOGS@ (logs made here in checks/boot's form from
# the captured console logs: sections, verdicts, a console tail, a second
# attempt).  Negative controls: reports the schema must refuse.
. "$(dirname "$0")/lib.sh"

K=$TOP/checks/kcidb
PY=/usr/bin/python3
$PY -c 'import jsonschema' 2>/dev/null || {
	echo "python3-jsonschema is not installed (scripts/deps tree)"; exit 77; }

# --- the schema is upstream's, byte for byte (checks/kcidb/ORIGIN)
want=$(sed -n 's/^sha256 \([0-9a-f]\{64\}\) .*schema-v05_03.json$/\1/p' "$K/ORIGIN")
got=$(sha256sum "$K/schema-v05_03.json" | cut -d' ' -f1)
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	ok "schema-v05_03.json has the sha256 ORIGIN records ($got)"
else
	bad "schema-v05_03.json sha256 $got, ORIGIN says '$want'"
fi

# --- logs as checks/boot writes them
L=$T/logs
mkdir -p "$L"
for f in checkpatch-A checkpatch-B build-A-x86_64 build-B-x86_64 build-A-ppc64le \
	build-B-ppc64le sparse-B-x86_64; do
	echo "$f: fixture log" >"$L/$f.log"
done
C=$FIX/console
cp "$C/preempt-timing-x86_64.log" "$T/pt.log"
sed 's/^\(.*\)    ok \([0-9]*\) preempt_timing_short /\1    not ok \2 preempt_timing_short /' "$T/pt.log" >"$T/pt-fail.log"
sed -e 's/^\(.*\)    ok \([0-9]* preempt_timing_[a-z_]*\) /\1    not ok \2 /' -e 's/^ok 1 preempt_timing$/not ok 1 preempt_timing/' \
	"$T/pt.log" >"$T/pt-base.log"
sed -e '/^\[[ 0-9.]*\]     /d' -e 's/^ok 1 preempt_timing$/ok 1 smoke # 6.1.192+ x86_64/' \
	-e 's/^# fork-init: running preempt_timing/# fork-init: running smoke/' "$T/pt.log" >"$T/smoke.log"
section() {	# section NAME CONSOLE-LOG EXPECTED...: one boot of checks/boot
	_n=$1 _l=$2
	shift 2
	echo "=== boot test $_n: guest tests x, cmdline ''"
	cat "$_l"
	echo "--- verdict"
	_v=$("$TOP/boot-tests/parse" "$_l" "$@")
	_ok=$?
	printf '%s\n' "$_v"
	[ $_ok = 0 ] || { echo "--- console tail"; tail -n 25 "$_l"; }
}
PTR="preempt_timing_report preempt_timing_cond_resched_lock preempt_timing_short"
# shellcheck disable=SC2086
{
	section preempt-timing "$T/pt.log" $PTR
	echo "tests: preempt-timing"
} >"$L/boot-A-x86_64.log"
# shellcheck disable=SC2086
{
	section preempt-timing "$T/pt-fail.log" $PTR
	echo "tests: preempt-timing"
	echo "=== second attempt"
	section preempt-timing "$T/pt.log" $PTR
	echo "tests: preempt-timing"
} >"$L/boot-B-x86_64.log"
# shellcheck disable=SC2086
{
	section smoke "$T/smoke.log" smoke
	section preempt-timing "$T/pt-base.log" $PTR
	echo "tests: smoke preempt-timing"
} >"$L/control-x86_64.log"
grep -q '^--- console tail' "$L/boot-B-x86_64.log" &&
	[ "$(grep -c preempt_timing_report "$L/boot-B-x86_64.log")" -ge 4 ] ||
	bad "the FLAKY boot log does not repeat its results (console, verdict, console tail)"

sed -e "s|@FIX@|$FIX|g" -e "s|@LOGS@|$L|g" "$FIX/report/report.tsv" >"$T/report.tsv"
J=$T/report.json

# --- convert and validate
expect_ok "$K/report-json" "$T/report.tsv"
cp "$T/out" "$J"
expect_ok "$K/validate" "$J"
sed 's/^/    /' "$T/out"
"$K/report-json" <"$T/report.tsv" >"$T/stdin.json" && cmp -s "$J" "$T/stdin.json" &&
	"$K/report-json" "$T/report.tsv" >"$T/again.json" && cmp -s "$J" "$T/again.json" &&
	ok "deterministic: the same bytes twice, from a file and from stdin" ||
	bad "the output differs between runs or between file and stdin"

# has DESCRIPTION PYTHON-EXPRESSION: true of the report d (tests, builds,
# checkouts; T(path[, build]) the tests of a path, B(id) the build)
has() {
	if $PY - "$J" "$2" "$K/schema-v05_03.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
schema = json.load(open(sys.argv[3]))
tests, builds, checkouts = d["tests"], d["builds"], d["checkouts"]
A = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
Bc = "2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e"
D = "3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f"
E = "4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70"
BASE = "9f1c2e3d4b5a69788796a5b4c3d2e1f00f1e2d3c"
def bid(c, a):
    return f"latencyfork:build-{c}-{a}"
def T(path, build=None):
    return [t for t in tests if t["path"] == path and build in (None, t["build_id"])]
def B(i):
    return next(b for b in builds if b["id"] == i)
sys.exit(0 if eval("(" + sys.argv[2] + "\n)") else 1)
EOF
	then ok "$1"; else bad "$1: $2"; fi
}

has "version 5.3, the schema's highest minor" \
	'd["version"] == {"major": 5, "minor": schema["properties"]["version"]["properties"]["minor"]["maximum"]}'
has "one checkout per topic, at its tip (tip-tests row, else last commit)" \
	'[(c["id"], c["git_repository_branch"], c["git_commit_hash"]) for c in checkouts] == [
	 ("latencyfork:preempt-timing-" + Bc, "preempt-timing", Bc),
	 ("latencyfork:console-resched-" + D, "console-resched", D),
	 ("latencyfork:zap-resched-" + Bc, "zap-resched", Bc),
	 ("latencyfork:for-next-" + E, "for-next", E)]'
has "every TSV status but FLAKY comes out as itself; FLAKY nowhere" \
	'{x.get("status") for x in tests + builds} >= {"PASS", "FAIL", "SKIP", "ERROR", "MISS", "DONE"} and
	 all(x.get("status") != "FLAKY" for x in tests + builds)'
has "FLAKY boot: FAIL with misc.flaky and its reproducer" \
	'[(t["status"], t["misc"]["flaky"], "RETEST=1" in t["misc"]["reproducer"]) for t in T("boot", bid(Bc, "x86_64"))] == [("FAIL", True, True)]'
has "build statuses, duration, log_url and the commit subject" \
	'B(bid(A, "ppc64le"))["status"] == "FAIL" and B(bid(A, "ppc64le"))["duration"] == 270 and
	 B(bid(A, "ppc64le"))["misc"]["subject"] == "sched/preempt: add CONFIG_PREEMPT_TIMING" and
	 B(bid(A, "ppc64le"))["log_url"].startswith("file:///") and B(bid(A, "ppc64le"))["architecture"] == "ppc64le" and
	 B(bid(D, "x86_64"))["status"] == "MISS" and B(bid(E, "x86_64"))["status"] == "SKIP"'
has "reproducer on failing rows only" \
	'"reproducer" in B(bid(A, "ppc64le"))["misc"] and "reproducer" not in B(bid(A, "x86_64"))["misc"] and
	 all(("reproducer" in t.get("misc", {})) == (t["status"] in ("FAIL", "ERROR", "MISS"))
	     for t in tests if t["path"] in ("checkpatch", "sparse", "boot") or t["path"].startswith("tip-tests.") or t["path"].count(".") == 1 and t["path"].startswith("control."))'
has "checkpatch on a pseudo-build per commit: no architecture, no status" \
	'[t["status"] for t in T("checkpatch", bid(A, "any"))] == ["PASS"] and
	 [t["status"] for t in T("checkpatch", bid(Bc, "any"))] == ["FAIL"] and
	 B(bid(A, "any"))["misc"]["pseudo_build"] is True and
	 "architecture" not in B(bid(A, "any")) and "status" not in B(bid(A, "any"))'
has "every check kind: checkpatch sparse boot control tip-tests" \
	'all(T(p) for p in ("checkpatch", "sparse", "boot", "control.preempt-timing", "control.console-flood", "tip-tests.console-resched"))'
has "tip-tests per topic: two topics with one tip (zap-resched has no commits)" \
	'[t["status"] for t in T("tip-tests.preempt-timing", bid(Bc, "x86_64"))] == ["PASS"] and
	 [t["status"] for t in T("tip-tests.zap-resched", bid(Bc, "x86_64"))] == ["FAIL"] and
	 B(bid(Bc, "x86_64"))["checkout_id"] == "latencyfork:preempt-timing-" + Bc'
has "builds belong to the first topic listing the commit; a control's base gets one" \
	'B(bid(Bc, "x86_64"))["checkout_id"] == "latencyfork:preempt-timing-" + Bc and
	 B(bid(BASE, "x86_64"))["checkout_id"] == "latencyfork:preempt-timing-" + Bc and "status" not in B(bid(BASE, "x86_64"))'
has "preempt_timing_report duration_us=200103 -> 0.200103 s (raw console log)" \
	'[(t["status"], t["number"]) for t in T("boot.preempt_timing_report.duration_us", bid(Bc, "ppc64le"))] ==
	 [("DONE", {"value": 0.200103, "unit": "s", "prefix": "metric"})]'
has "held_ms=100 -> 0.1 s; one number per timed key only (reports=, lost= are not)" \
	'T("boot.preempt_timing_cond_resched_lock.held_ms", bid(Bc, "ppc64le"))[0]["number"]["value"] == 0.1 and
	 sum(1 for t in tests if "number" in t and t["build_id"] == bid(Bc, "ppc64le")) == 5'
has "RESULT sub-tests of a sectioned log: boot.<test>.<result>, verdict node, no repeats" \
	'[t["status"] for t in T("boot.preempt-timing", bid(A, "x86_64"))] == ["PASS"] and
	 [t["status"] for t in T("boot.preempt-timing.preempt_timing_report", bid(A, "x86_64"))] == ["PASS"] and
	 T("boot.preempt-timing.preempt_timing_report.duration_us", bid(A, "x86_64"))[0]["number"]["value"] == 0.200058'
has "FLAKY log: both attempts, console tail and verdict repeats not counted" \
	'[(t["status"], t.get("misc", {}).get("attempt")) for t in T("boot.preempt-timing.preempt_timing_short", bid(Bc, "x86_64"))] == [("FAIL", None), ("PASS", 2)] and
	 [t["status"] for t in T("boot.preempt-timing", bid(Bc, "x86_64"))] == ["FAIL", "PASS"] and
	 len({t["id"] for t in tests}) == len(tests)'
has "control: PASS = failed as it must; its test DONE with the console status; smoke kept" \
	'[(t["status"], t["misc"]["negative_control"]) for t in T("control.preempt-timing", bid(BASE, "x86_64"))] == [("PASS", True)] and
	 [(t["status"], t["misc"]["console_status"]) for t in T("control.preempt-timing.preempt_timing_report", bid(BASE, "x86_64"))] == [("DONE", "FAIL")] and
	 [t["status"] for t in T("control.preempt-timing.smoke", bid(BASE, "x86_64"))] == ["PASS"] and
	 [t["status"] for t in T("control.preempt-timing.smoke.smoke", bid(BASE, "x86_64"))] == ["PASS"]'
has "log_url: file:// URL of the log" \
	'T("boot", bid(Bc, "ppc64le"))[0]["log_url"] == "file://'"$FIX"'/console/preempt-timing-ppc64le.log"'

# --- negative controls: the schema refuses what KCIDB v5.3 does not have
mutate() {	# mutate NAME PYTHON-STATEMENT: $T/NAME.json from the report
	$PY - "$J" "$T/$1.json" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
EOF
}
mutate flaky 'next(t for t in d["tests"] if t.get("misc", {}).get("flaky"))["status"] = "FLAKY"'
expect_fail "'FLAKY' is not one of" "$K/validate" "$T/flaky.json"
mutate noid 'del d["tests"][0]["id"]'
expect_fail "'id' is a required property" "$K/validate" "$T/noid.json"
mutate nobuild 'del d["tests"][3]["build_id"]'
expect_fail "'build_id' is a required property" "$K/validate" "$T/nobuild.json"
mutate uri 'd["builds"][0]["log_url"] = "/not/a/uri.log"'
expect_fail "is not a 'uri'" "$K/validate" "$T/uri.json"
mutate minor 'd["version"]["minor"] = 4'
expect_fail "4 is greater than the maximum of 3" "$K/validate" "$T/minor.json"
mutate path 'd["tests"][0]["path"] = "boot.a b"'
expect_fail "does not match" "$K/validate" "$T/path.json"
mutate number 'next(t for t in d["tests"] if "number" in t)["number"]["unit"] = 1'
expect_fail "1 is not of type 'string'" "$K/validate" "$T/number.json"
mutate dangling 'd["tests"][0]["build_id"] = "latencyfork:build-none"'
expect_fail "no build 'latencyfork:build-none'" "$K/validate" "$T/dangling.json"
mutate dup 'd["tests"].append(dict(d["tests"][0]))'
expect_fail "duplicate id" "$K/validate" "$T/dup.json"

# --- input the converter refuses
sed '2s/\tPASS\t/\tBOGUS\t/' "$T/report.tsv" >"$T/bogus.tsv"
expect_fail "unknown status 'BOGUS'" "$K/report-json" "$T/bogus.tsv"
sed '1s/reproducer/repro/' "$T/report.tsv" >"$T/hdr.tsv"
expect_fail "header is not" "$K/report-json" "$T/hdr.tsv"
sed '3s/\t[^\t]*$//' "$T/report.tsv" >"$T/short.tsv"
expect_fail ":3: 9 fields, want 10" "$K/report-json" "$T/short.tsv"
sed '2s/\t1a2b3c4d/\tXa2b3c4d/' "$T/report.tsv" >"$T/commit.tsv"
expect_fail "is not 40 hex digits" "$K/report-json" "$T/commit.tsv"
# the same row again, listed by another topic (before that topic's own rows)
awk -F'\t' 'NR == 2 { dup = $0; sub(/^preempt-timing/, "for-next", dup) }
	$1 == "for-next" && !done { print dup; done = 1 } { print }' "$T/report.tsv" >"$T/dup.tsv"
"$K/report-json" "$T/dup.tsv" >"$T/dup.json" && cmp -s "$J" "$T/dup.json" &&
	ok "a row repeated by another topic counts once" || bad "a repeated row changed the output"
{ cat "$T/report.tsv"; sed -n 2p "$T/report.tsv" | sed 's/\tPASS\t/\tFAIL\t/'; } >"$T/conflict.tsv"
expect_fail "differs from line 2" "$K/report-json" "$T/conflict.tsv"
finish
