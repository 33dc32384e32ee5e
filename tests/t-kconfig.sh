#!/bin/sh
# scripts/kconfig on the kernel tree's work tree (base), x86_64, fragments
# from a temporary FORK_CONFIGS: the real fragments pass; a symbol the tree
# defines that does not end with the requested value fails, naming the
# arch and the symbol, and leaves the .config as it was; a symbol the tree
# does not define is ignored with a note.
. "$(dirname "$0")/lib.sh"

need_ktree
src=$KTREE
obj=$T/obj
real=$TOP/boot-tests/configs
st0=$(git -C "$src" status --porcelain | head -n 5)
frags() {	# frags DIR [LINE...]: the real fragments, LINEs added to x86_64's
	mkdir -p "$1"
	cp "$real/common.config" "$TOP/boot-tests/arch/x86_64.config" "$1/"
	_d=$1
	shift
	for _l; do printf '%s\n' "$_l" >>"$_d/x86_64.config"; done
}

frags "$T/real"
start=$(date +%s)
expect_ok env FORK_CONFIGS="$T/real" "$S/kconfig" x86_64 "$src" "$obj"
echo "    first run (host programs built): $(($(date +%s) - start))s"
sed 's/^/    /' "$T/err"
grep -qx 'CONFIG_ACPI=y' "$obj/.config" && grep -qx 'CONFIG_PANIC_TIMEOUT=-1' "$obj/.config" &&
	ok "the .config has the fragments' symbols" || bad "CONFIG_ACPI / CONFIG_PANIC_TIMEOUT missing from the .config"
cp "$obj/.config" "$T/config.good"

# X86_X2APIC depends on IRQ_REMAP || HYPERVISOR_GUEST, neither in the config;
# EXPERT (tinyconfig) selects DEBUG_KERNEL
frags "$T/nostick" CONFIG_X86_X2APIC=y '# CONFIG_DEBUG_KERNEL is not set'
start=$(date +%s)
expect_fail "x86_64: .*CONFIG_X86_X2APIC=y \\(final .config: not set\\)" \
	env FORK_CONFIGS="$T/nostick" "$S/kconfig" x86_64 "$src" "$obj"
echo "    second run: $(($(date +%s) - start))s"
grep -q "CONFIG_DEBUG_KERNEL=n (final .config: y)" "$T/err" &&
	ok "a 'not set' that does not stick is named too" || { bad "CONFIG_DEBUG_KERNEL not named:"; sed 's/^/    /' "$T/err"; }
cmp -s "$obj/.config" "$T/config.good" && ok "the failed run left the .config alone" ||
	bad "the failed run changed the .config"

frags "$T/undef" CONFIG_FORK_NO_SUCH=y
expect_ok env FORK_CONFIGS="$T/undef" "$S/kconfig" x86_64 "$src" "$obj"
grep -q "x86_64: not defined by this tree, ignored:.* CONFIG_FORK_NO_SUCH" "$T/err" &&
	ok "undefined symbol noted: $(cat "$T/err")" || { bad "no note for CONFIG_FORK_NO_SUCH:"; sed 's/^/    /' "$T/err"; }
cmp -s "$obj/.config" "$T/config.good" && ok "same .config as with the real fragments" ||
	bad "the .config differs from the real fragments' one"

expect_fail "cannot read the config fragment" env FORK_CONFIGS="$T/nosuch" "$S/kconfig" x86_64 "$src" "$obj"
[ "$(git -C "$src" status --porcelain | head -n 5)" = "$st0" ] && ok "source tree untouched" ||
	bad "the source tree changed: $(git -C "$src" status --porcelain | head -n 5)"
finish
