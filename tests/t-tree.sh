#!/bin/sh
# make tree: importing the tarball twice, into two directories (the
# project's tree and one of the test's), gives the same 'base' commit id; a
# second run on an existing tree does nothing.  One import of the test's
# own: a second one proved nothing the project's tree does not (about 37 s
# on 2 cores, 90 s in CI).
. "$(dirname "$0")/lib.sh"

need_ktree
id0=$(git -C "$KTREE" rev-parse base)
KTREE=$T/tree1 "$S/mktree" >"$T/log1" 2>&1 || { cat "$T/log1"; bad "import failed"; finish; }
id1=$(git -C "$T/tree1" rev-parse base)
[ "$id1" = "$id0" ] && ok "two imports, one id: $id1" || bad "imports differ: project tree $id0, new import $id1"
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
