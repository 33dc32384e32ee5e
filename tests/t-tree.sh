#!/bin/sh
# make tree: importing the tarball twice, into two directories, gives the
# same 'base' commit id; a second run on an existing tree does nothing.
. "$(dirname "$0")/lib.sh"

need_ktree
id0=$(git -C "$KTREE" rev-parse base)
for n in 1 2; do
	KTREE=$T/tree$n "$S/mktree" >"$T/log$n" 2>&1 || { cat "$T/log$n"; bad "import $n failed"; finish; }
	eval "id$n=\$(git -C \"\$T/tree$n\" rev-parse base)"
done
[ "$id1" = "$id2" ] && ok "two imports, one id: $id1" || bad "imports differ: $id1 $id2"
[ "$id1" = "$id0" ] && ok "same id as the project tree" || bad "project tree has $id0"
[ -z "$(git -C "$T/tree1" status --porcelain | head -n 1)" ] && ok "imported tree is clean" ||
	bad "imported tree is dirty: $(git -C "$T/tree1" status --porcelain | head -n 3)"
git -C "$T/tree1" ls-files --error-unmatch Makefile kernel/softirq.c >/dev/null &&
	ok "tree has the kernel files ($(git -C "$T/tree1" ls-files | wc -l) files)" || bad "files missing"
start=$(date +%s)
out=$(KTREE=$T/tree1 "$S/mktree" 2>&1)
secs=$(($(date +%s) - start))
case $out in
*"tree up to date"*) [ $secs -le 10 ] && ok "second run: up to date in ${secs}s" || bad "second run took ${secs}s" ;;
*) bad "second run did not see the tree: $out" ;;
esac
[ "$(git -C "$T/tree1" config core.hooksPath)" = "$TOP/.git-hooks" ] &&
	ok "hooks installed" || bad "core.hooksPath not set"
finish
