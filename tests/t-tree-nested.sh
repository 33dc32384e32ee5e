#!/bin/sh
# unit: needs no kernel tree and no build (make test-unit)
# make tree with KTREE an empty directory inside another git repository:
# the import lands in KTREE, a repository of its own, and the enclosing
# repository (config, tags, HEAD) is left alone, even when it has a 'base'
# tag recording the same tarball.  A tiny fake tarball keeps it fast.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/src/linux-fake"
printf 'VERSION = 6\nPATCHLEVEL = 1\nkernelversion:\n\t@echo 6.1.0-fake\n' >"$T/src/linux-fake/Makefile"
printf 'hello\n' >"$T/src/linux-fake/README"
tar -cJf "$T/fake.tar.xz" -C "$T/src" linux-fake
export TARBALL=$T/fake.tar.xz
sum=$(sha256sum "$TARBALL" | cut -d' ' -f1)

# outer: a repository with one commit; its config, refs and HEAD must not move
outer=$T/outer
git init -q -b main "$outer"
git -C "$outer" -c user.name=t -c user.email=t@t commit -q --allow-empty -m outer
snapshot() {
	{ cat "$outer/.git/config"; git -C "$outer" show-ref; git -C "$outer" rev-parse HEAD; } >"$1"
}
snapshot "$T/outer.before"

mkdir "$outer/ktree"
KTREE=$outer/ktree "$S/mktree" >"$T/log" 2>&1 && ok "import into an empty nested KTREE" ||
	{ bad "mktree failed:"; sed 's/^/    /' "$T/log"; }
snapshot "$T/outer.after"
cmp -s "$T/outer.before" "$T/outer.after" && ok "enclosing repository untouched" ||
	{ bad "enclosing repository changed:"; diff "$T/outer.before" "$T/outer.after" | sed 's/^/    /'; }
[ "$(git -C "$outer/ktree" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$outer/ktree" && pwd -P)" ] &&
	ok "KTREE is a repository of its own" || bad "KTREE is not its own repository"
[ "$(ls -A "$outer/ktree" | tr '\n' ' ')" = ".git Makefile README " ] && ok "the tree is in KTREE itself" || bad "KTREE holds: $(ls -A "$outer/ktree" | tr '\n' ' ')"
git -C "$outer/ktree" log -1 --format=%B base 2>/dev/null | grep -q "^Tarball-SHA256: $sum\$" &&
	ok "KTREE has base from the tarball" || bad "no base with the tarball's checksum in KTREE"
[ "$(git config -f "$outer/ktree/.git/config" core.hooksPath)" = "$TOP/.git-hooks" ] &&
	ok "hooks installed in KTREE" || bad "core.hooksPath not set in KTREE"
out=$(KTREE=$outer/ktree "$S/mktree" 2>&1)
case $out in
*"tree up to date"*) ok "second run: up to date" ;;
*) bad "second run: $out" ;;
esac

# the enclosing repository has a 'base' tag recording this very tarball: an
# empty KTREE below it is still imported, not taken for that repository
git -C "$outer" -c user.name=t -c user.email=t@t commit -q --allow-empty \
	-m "fake base" -m "Tarball-SHA256: $sum"
git -C "$outer" tag base
snapshot "$T/outer.before"
mkdir "$outer/ktree2"
KTREE=$outer/ktree2 "$S/mktree" >"$T/log" 2>&1 || { bad "mktree failed:"; sed 's/^/    /' "$T/log"; }
snapshot "$T/outer.after"
cmp -s "$T/outer.before" "$T/outer.after" &&
	ok "enclosing repository with a matching 'base' untouched" ||
	{ bad "enclosing repository changed:"; diff "$T/outer.before" "$T/outer.after" | sed 's/^/    /'; }
grep -q "tree up to date" "$T/log" && bad "the enclosing repository was taken for KTREE"
[ -d "$outer/ktree2/.git" ] && ok "imported into ktree2" || bad "ktree2 has no repository"

# a non-empty directory that is not a tree of its own is refused
mkdir "$outer/other" && echo x >"$outer/other/file"
expect_fail "other exists but is not a tree with a 'base' tag" env KTREE="$outer/other" "$S/mktree"
snapshot "$T/outer.after"
cmp -s "$T/outer.before" "$T/outer.after" && ok "refused without touching the enclosing repository" ||
	bad "enclosing repository changed by the refusal"
finish
