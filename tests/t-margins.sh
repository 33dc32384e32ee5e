#!/bin/sh
# unit: needs no kernel tree and no build (make test-unit)
# checks/margins: the margin of each time limit a stored boot judged, read
# from the logs of a report's TSV.  A figure of a topic's tip counts
# limit/measured, one of a negative control measured/limit, a boot's
# timeout always limit/measured; under 3x it is named.  Only the tip's
# boots and the controls are read; a MISS row is counted as not measured.
. "$(dirname "$0")/lib.sh"

M=$TOP/checks/margins
# console logs as the guest and boot-tests/boot write them
printf '[    5.1] # margin: zap_unmap measured=4000 limit=20000 us\n[    6.0] # margin: console_flood measured=15000 limit=40000 us\nboot: margin: timeout measured=50 limit=240 s\n' >"$T/tip.log"
printf '[    7.0] # margin: lat_load measured=140000 limit=100000 us\nboot: margin: timeout measured=100 limit=240 s\n' >"$T/ctl.log"
printf '[    5.1] # margin: zap_unmap measured=19000 limit=20000 us\n' >"$T/old.log"
printf '[    5.1] # margin: zap_unmap measured=0 limit=20000 us\n[    7.0] # margin: lat_load measured=700000 limit=100000 us\n' >"$T/ctl2.log"
tab=$(printf '\t')
{
	printf 'topic\tcommit\tsubject\tarch\tcheck\tstatus\tsummary\tduration_s\tlog\treproducer\n'
	printf 'z\ttip1\ts\tany\tcheckpatch\tPASS\t\t\t\t\n'
	printf 'z\told1\ts\tx86_64\tboot\tPASS\t\t1\t%s\t\n' "$T/old.log"
	printf 'z\ttip1\ts\tx86_64\tboot\tPASS\t\t1\t%s\t\n' "$T/tip.log"
	printf 'z\ttip1\ts\tx86_64\tboot@voluntary\tMISS\t\t\t\t\n'
	printf 'z\tbase\ts\tx86_64\tcontrol-zap-thp\tPASS\t\t1\t%s\t\n' "$T/ctl.log"
	printf 'y\tbase\ts\tx86_64\tcontrol-g\tPASS\t\t1\t%s\t\n' "$T/ctl2.log"
	printf 'z\ttip1\ts\tx86_64\ttip-tests\tPASS\t\t\t\t\n'
} >"$T/r.tsv"
expect_ok "$M" "$T/r.tsv"
o=$T/out
grep -q '^| z | x86_64 | boot | zap_unmap | 4000 us | 20000 us | 5.0x |$' "$o" && ok "tip: limit/measured" || bad "tip zap_unmap: $(cat "$o")"
grep -q '^| z | x86_64 | boot | console_flood | 15000 us | 40000 us | \*\*2.7x\*\* |$' "$o" && ok "tip under 3x marked" || bad "tip console_flood"
grep -q '^| z | x86_64 | boot | timeout | 50 s | 240 s | 4.8x |$' "$o" && ok "timeout: limit/measured" || bad "tip timeout"
grep -q '^| z | x86_64 | control-zap-thp | lat_load | 140000 us | 100000 us | \*\*1.4x\*\* |$' "$o" && ok "control: measured/limit, 1.4x marked" || bad "control lat_load"
grep -q '^| z | x86_64 | control-zap-thp | timeout | 100 s | 240 s | \*\*2.4x\*\* |$' "$o" && ok "control's timeout: limit/measured" || bad "control timeout"
grep -q '^| y | x86_64 | control-g | zap_unmap | 0 us | 20000 us | \*\*0.0x\*\* |$' "$o" && ok "a control that measured nothing: 0x" || bad "control 0: $(grep control-g "$o")"
grep -q '| y | x86_64 | control-g | lat_load | 700000 us | 100000 us | 7.0x |$' "$o" && ok "control with 7x" || bad "control 7x"
grep -q 'measured=19000\|19000 us' "$o" && bad "a boot of a commit other than the tip was read" || ok "only the tip's boots"
grep -q '^limits with less than 3x margin (4): z x86_64 boot console_flood (2.7x); z x86_64 control-zap-thp lat_load (1.4x); z x86_64 control-zap-thp timeout (2.4x); y x86_64 control-g zap_unmap (0.0x)$' "$o" &&
	ok "the short ones named" || bad "named: $(grep '^limits' "$o")"
grep -q '^not measured (no stored boot under the current key): 1 row(s)$' "$o" && ok "the MISS counted" || bad "MISS: $(tail -n 1 "$o")"
# nothing short: says so
grep -v 'ctl\|console_flood\|control' "$T/r.tsv" >"$T/g.tsv"
printf '[    5.1] # margin: zap_unmap measured=4000 limit=20000 us\n' >"$T/tip.log"
expect_ok "$M" "$T/g.tsv"
grep -q '^every limit measured has 3x margin$' "$o" && ok "all 3x: said" || bad "all 3x: $(cat "$o")"
expect_fail 'cannot read' "$M" "$T/none.tsv"
finish
