#!/bin/sh
# The keys of the result store (checks/store.sh), on real commits of the
# tree: changing any input a check declares changes that check's key, and
# only the keys of the checks that read it.  No build, no boot.
. "$(dirname "$0")/lib.sh"

need_ktree
export BRANCHES_TXT=$FIX/branches.txt TESTS_TXT=$T/tests.txt SERIES=$FIX/series NOTES=$T/notes RESULTS=$T/results
"$S/mkbranches" >"$T/mk" 2>&1 || { cat "$T/mk"; bad "mkbranches"; finish; }
g() { git -C "$KTREE" "$@"; }
# the tooling, copied: its files are inputs of the keys and get edited
R=$T/repo
mkdir -p "$R"
(cd "$TOP" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$R")
# fixture-never: a test of fixture-a that needs a symbol no tree defines
{ cat "$FIX/tests.txt"; echo 'fixture-never fixture-a CONFIG_FORK_FIXTURE_NEVER smoke - smoke -'; } >"$TESTS_TXT"
key() { "$R/checks/store" key "$@"; }	# key CHECK REV ARCH [ENV]
keys() {	# the four keys of REV, one line
	key checkpatch,build,sparse,boot "$1" x86_64 | tr '\n' ' '
}
# differ CHANGED WHAT BEFORE AFTER: which of the four keys changed is CHANGED
# (a word per key: checkpatch build sparse boot, '-' where it must not)
differ() {
	_got=$(echo "$3 $4" | awk '{ printf "%s %s %s %s", ($1 != $5) ? "checkpatch" : "-",
		($2 != $6) ? "build" : "-", ($3 != $7) ? "sparse" : "-", ($4 != $8) ? "boot" : "-" }')
	[ "$_got" = "$1" ] && ok "$2: changes [$1]" || bad "$2: changed [$_got], want [$1]"
}
tip=$(g rev-parse fixture-a)
k0=$(keys "$tip")
[ "$k0" = "$(keys "$tip")" ] && ok "keys are stable" || bad "keys change between two calls"

# a reworded commit: same tree, same parent, other message
W=$T/wt
g worktree add -q --detach "$W" "$tip" >/dev/null
wg() { git -C "$W" -c core.hooksPath=/dev/null -c user.name=T -c user.email=t@example.org "$@"; }
wg commit -q --amend -m "$(g log -1 --format=%B "$tip" | grep -v '^Signed-off-by:')"
# the keys are computed in the kernel tree: name the reworded commit there
re=$(wg rev-parse HEAD)
differ "checkpatch - - -" "reworded commit (Signed-off-by dropped)" "$k0" "$(keys "$re")"

# autosquash: X, then "fixup! X"; the squashed X' has the tree of the
# fixup and the parent of X
wg checkout -q --detach base
printf '/* fixture: X */\n' >>"$W/kernel/softirq.c"
wg commit -q -a -m 'softirq: Fixture X'
x=$(wg rev-parse HEAD)
printf '/* fixture: fixed */\n' >>"$W/kernel/softirq.c"
wg commit -q -a -m 'fixup! softirq: Fixture X'
y=$(wg rev-parse HEAD)
GIT_SEQUENCE_EDITOR=: wg rebase -q -i --autosquash base >/dev/null 2>&1
sq=$(wg rev-parse HEAD)
[ "$(g rev-parse "$sq^{tree}")" = "$(g rev-parse "$y^{tree}")" ] && [ "$(g rev-parse "$sq^")" = "$(g rev-parse base)" ] &&
	ok "autosquash: the squashed commit has the fixup's tree and X's parent" || bad "autosquash did not squash"
ky=$(keys "$y") ks=$(keys "$sq")
differ "checkpatch build sparse -" "squashed commit vs the fixup of the same tree" "$ky" "$ks"

# inputs of the tooling
edit() {	# edit FILE WHAT CHANGED: append a comment to FILE of the copy
	cp "$R/$1" "$T/saved"
	printf '\n# fixture edit\n' >>"$R/$1"
	differ "$3" "$2" "$k0" "$(keys "$tip")"
	cp "$T/saved" "$R/$1"
}
edit boot-tests/parse "boot-tests/parse" "- - - boot"
edit boot-tests/boot "boot-tests/boot" "- - - boot"
edit boot-tests/initramfs "boot-tests/initramfs" "- - - boot"
edit boot-tests/nvram "boot-tests/nvram" "- - - boot"
edit boot-tests/configs/debug.config "the debug config's fragment (not the boot config's)" "- - - -"
edit boot-tests/arch/x86_64.config "the x86_64 config fragment" "- build sparse boot"
edit boot-tests/arch/x86_64.conf "the arch file" "- build sparse boot"
edit scripts/kconfig "scripts/kconfig" "- build sparse boot"
edit checks/sparse "checks/sparse" "- - sparse -"
edit checks/checkpatch "checks/checkpatch" "checkpatch - - -"
edit checks/lib.sh "checks/lib.sh" "checkpatch build sparse boot"
# the engine: which checks run, retries, how a control's outcome is judged
edit checks/run "checks/run (the engine)" "checkpatch build sparse boot"
edit checks/store.sh "checks/store.sh" "checkpatch build sparse boot"
edit scripts/boottests "scripts/boottests (the tests.txt parser)" "checkpatch build sparse boot"
cp "$R/boot-tests/init/init.c" "$T/saved"
printf '/* fixture edit */\n' >>"$R/boot-tests/init/init.c"
differ "- - - boot" "the guest init's source" "$k0" "$(keys "$tip")"
cp "$T/saved" "$R/boot-tests/init/init.c"
# a tests.txt line that applies to the commit (smoke) and one that cannot
# (fixture-never: no tree defines its symbol)
cp "$TESTS_TXT" "$T/saved"
awk '$1 == "smoke" { $5 = "quiet" } 1' "$T/saved" >"$TESTS_TXT"
differ "- - - boot" "the smoke line of tests.txt" "$k0" "$(keys "$tip")"
cp "$T/saved" "$TESTS_TXT"
awk '$1 == "fixture-never" { $7 = "base" } 1' "$T/saved" >"$TESTS_TXT"
differ "- - - -" "the tests.txt line of a test that cannot apply" "$k0" "$(keys "$tip")"
cp "$T/saved" "$TESTS_TXT"

# the tools: a compiler that reports another version, QEMU, the accelerator
mkdir -p "$T/bin"
printf '#!/bin/sh\ncase "$*" in -v) /usr/bin/gcc -v 2>&1 | sed "\\$s/\\$/ fixture-rebuild/" ;; *) exec /usr/bin/gcc "$@" ;; esac\n' >"$T/bin/gcc"
printf '#!/bin/sh\ncase "$*" in --version) echo "QEMU emulator version 99.0 (fixture)" ;; *) exec /usr/bin/qemu-system-x86_64 "$@" ;; esac\n' >"$T/bin/qemu-system-x86_64"
chmod +x "$T/bin/gcc" "$T/bin/qemu-system-x86_64"
mv "$T/bin/qemu-system-x86_64" "$T/bin/q"
differ "- build sparse boot" "gcc -v reports another version" "$k0" "$(PATH=$T/bin:$PATH keys "$tip")"
mv "$T/bin/q" "$T/bin/qemu-system-x86_64"
rm "$T/bin/gcc"
differ "- - - boot" "QEMU reports another version" "$k0" "$(PATH=$T/bin:$PATH keys "$tip")"
printf '#!/bin/sh\ncase "$*" in --version) echo "sparse fixture" ;; esac\n' >"$T/bin/sparse"
chmod +x "$T/bin/sparse"
rm "$T/bin/qemu-system-x86_64"
differ "- - sparse -" "sparse reports another version" "$k0" "$(PATH=$T/bin:$PATH keys "$tip")"
rm "$T/bin/sparse"
# binutils (the arch's ld) and the firmware packages QEMU loads
printf '#!/bin/sh\ncase "$*" in --version) echo "GNU ld (fixture) 9.99" ;; *) exec /usr/bin/ld "$@" ;; esac\n' >"$T/bin/ld"
chmod +x "$T/bin/ld"
differ "- build sparse boot" "ld reports another binutils" "$k0" "$(PATH=$T/bin:$PATH keys "$tip")"
rm "$T/bin/ld"
printf '#!/bin/sh\n/usr/bin/dpkg-query "$@" | sed "s/seabios=[^ ]*/seabios=9.9-fixture/"\n' >"$T/bin/dpkg-query"
chmod +x "$T/bin/dpkg-query"
differ "- - - boot" "another seabios package" "$k0" "$(PATH=$T/bin:$PATH keys "$tip")"
rm "$T/bin/dpkg-query"
differ "- - - boot" "FORK_BOOT_TIMEOUT set" "$k0" "$(FORK_BOOT_TIMEOUT=45 keys "$tip")"
differ "- - - boot" "the slow firmware" "$k0" "$(FORK_BOOT_FIRMWARE=slow keys "$tip")"
# the accelerator: KVM once a probe boot said it works
k1=$(cd "$R" && BUILD=$T/kvm RESULTS=$T/results checks/store key boot "$tip" x86_64)
mkdir -p "$T/kvm" && echo yes >"$T/kvm/kvm-ok.x86_64"
k2=$(cd "$R" && BUILD=$T/kvm RESULTS=$T/results checks/store key boot "$tip" x86_64)
[ "$k1" != "$k2" ] && ok "boot key: tcg and kvm differ" || bad "boot key ignores the accelerator"
grep -q '^accel kvm$' <<EOF && ok "the manifest names the accelerator" || bad "no accel line"
$(cd "$R" && BUILD=$T/kvm checks/store inputs boot "$tip" x86_64)
EOF
# a control is a boot with other tests selected: its own key
kc=$(key boot base x86_64 "FORK_BOOT_TESTS=smoke,fixture-never")
[ "$kc" != "$(key boot base x86_64)" ] && ok "a control's key differs from the boot of the same tree" ||
	bad "control and boot share a key"
# a test bound to a config (needs config:NAME): in the key of that
# config's boot, not of the boot config's; its control is keyed in that
# config too
cp "$CONFIGS_TXT" "$T/configs.txt"
printf 'vol  *  tests  build,boot  voluntary  -\n' >>"$T/configs.txt"
kb=$(CONFIGS_TXT=$T/configs.txt key boot "$tip" x86_64)
kv=$(CONFIGS_TXT=$T/configs.txt key boot@vol "$tip" x86_64)
echo 'fixture-bound fixture-a topic:fixture-a,config:vol smoke - smoke base' >>"$TESTS_TXT"
[ "$kb" = "$(CONFIGS_TXT=$T/configs.txt key boot "$tip" x86_64)" ] &&
	ok "a test bound to another config: not in the boot key" || bad "a bound test changed the boot key"
[ "$kv" != "$(CONFIGS_TXT=$T/configs.txt key boot@vol "$tip" x86_64)" ] &&
	ok "a test bound to a config: in that config's boot key" || bad "a bound test left its config's boot key as it was"
(cd "$R" && CONFIGS_TXT=$T/configs.txt checks/store inputs boot@vol "$tip" x86_64) | grep -q '^test fixture-bound ' &&
	ok "the bound test's line in its config's manifest" || bad "no line of the bound test in boot@vol's inputs"
kcb=$(CONFIGS_TXT=$T/configs.txt key control-fixture-bound@vol base x86_64 "FORK_BOOT_TESTS=smoke,fixture-bound")
[ "$kcb" != "$(CONFIGS_TXT=$T/configs.txt key control-fixture-bound base x86_64 "FORK_BOOT_TESTS=smoke,fixture-bound")" ] &&
	ok "a bound control is keyed in its config" || bad "a bound control's key ignores its config"
g worktree remove --force "$W"
finish
