#!/bin/sh
# scripts/measure and scripts/figures refuse bad input with a clear
# error before any build: an unknown config variant, an unknown commit, an
# unknown table.  (Their real runs are kernel builds and boots: make figures.)
. "$(dirname "$0")/lib.sh"

need_ktree
expect_fail "no config variant nosuch" \
	"$S/measure" base x86_64 nosuch smoke
expect_fail "unknown commit nosuchcommit" "$S/measure" nosuchcommit x86_64 - smoke
expect_fail "usage: measure COMMIT ARCH VARIANT TESTS" "$S/measure" base x86_64
expect_fail "usage: figures .softirq.cost.icount.console.zap.zaptest.zapcost.all." "$S/figures" nosuch
# every variant names only symbols the tree knows
for f in "$TOP"/boot-tests/configs/variants/*.config; do
	for sym in $(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p; s/^\(CONFIG_[A-Z0-9_]*\)=.*/\1/p' "$f"); do
		k=${sym#CONFIG_}
		if git -C "$KTREE" grep -q -E "^(menu)?config $k\$" preempt-timing -- '*Kconfig*'; then
			ok "$(basename "$f"): $sym exists"
		else
			bad "$(basename "$f"): $sym is not a Kconfig symbol of preempt-timing"
		fi
	done
done
finish
