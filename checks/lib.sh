# Common part of every check: checks/<name> COMMIT ARCH.  Sourced.
#
# FORK_CONFIG names the config of boot-tests/configs.txt the check builds
# or boots (default: boot, the config of every commit); its build
# directory is $BUILD/kbuild/<arch> for boot, <arch>-<config> otherwise.
#
# Contract: exit 0 pass, 1 fail, 77 skip; the full log on stdout/stderr
# (the runner keeps it); the last line printed is the one-line summary.
# Every check works on a clean checkout of COMMIT in the shared source
# work tree $SRC, never on a user's work tree.
# shellcheck shell=sh
. "$(dirname "$0")/../scripts/lib.sh"

# an error of the check itself (not a verdict on the commit): exit 2, so
# the runner reports ERROR and caches nothing
die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	echo "ERROR $PROG: $*"
	exit 2
}

SRC=$BUILD/work/src
LOGDIR=${LOGDIR:-$BUILD/work/check-tmp}
mkdir -p "$LOGDIR"
CHECK=$PROG

[ $# -ge 2 ] || die "usage: $CHECK COMMIT ARCH"
COMMIT=$(kgit rev-parse --verify -q "$1^{commit}") || die "unknown commit $1"
ARCH=$2
ARCHCONF=$TOP/boot-tests/arch/$ARCH.conf
if [ "$ARCH" != any ]; then
	[ -r "$ARCHCONF" ] || die "unknown arch $ARCH"
	. "$ARCHCONF"
fi
CONFIG=${FORK_CONFIG:-boot}
TARGET=$ARCH CFG_FRAGS= CFG_BOOTS=-
if [ "$CONFIG" != boot ] && [ "$ARCH" != any ]; then
	_cl=$("$TOP/scripts/configs" | awk -F'\t' -v c="$CONFIG" '$1 == c') ||
		die "boot-tests/configs.txt is not valid"
	[ -n "$_cl" ] || die "unknown config $CONFIG (not in boot-tests/configs.txt)"
	case ",$(printf '%s' "$_cl" | cut -f2)," in
	*",$ARCH,"*) ;;
	*) die "config $CONFIG is not built for $ARCH (boot-tests/configs.txt)" ;;
	esac
	TARGET=$ARCH/$CONFIG
	CFG_FRAGS=$(printf '%s' "$_cl" | cut -f5 | tr ',' ' ')
	[ "$CFG_FRAGS" != - ] || CFG_FRAGS=
	CFG_BOOTS=$(printf '%s' "$_cl" | cut -f6)
fi
OBJ=$BUILD/kbuild/$(echo "$TARGET" | tr / -)
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
# one kernel build at a time on this machine, whatever the BUILD directory
KBUILD_LOCK=${KBUILD_LOCK:-/tmp/fork-kbuild.lock}

# need_tool CMD PACKAGE: an ERROR (not a verdict) when CMD is missing
need_tool() {
	command -v "$1" >/dev/null 2>&1 ||
		die "$TARGET: $1 is not installed: run 'make deps' (Debian package $2)"
}

# infra LOG: an ERROR when LOG shows the machine, not the commit, failed
# (no space, out of memory, a compiler killed by a signal)
infra() {
	_i=$(grep -m 1 -E 'No space left on device|Cannot allocate memory|out of memory|Killed signal terminated program|internal compiler error: (Killed|Segmentation)|fatal error: .*: (Killed|Terminated)' "$1")
	[ -z "$_i" ] || die "$TARGET: the machine failed, not the commit: $_i (see $1)"
}

pass() { echo "PASS $CHECK: $*"; exit 0; }
fail() { echo "FAIL $CHECK: $*"; exit 1; }
skip() { echo "SKIP $CHECK: $*"; exit 77; }

# check out a commit in $SRC (created on first use), clean
checkout() {
	ensure_worktree "$SRC"
	git -C "$SRC" -c core.hooksPath=/dev/null checkout -q --force --detach "$1" ||
		die "cannot check out $1"
	git -C "$SRC" clean -q -f -d
}

# lock_builds: hold the machine's build lock for the rest of the check, so
# that its builds and compiles do not queue one by one behind others
lock_builds() {
	exec 9>"$KBUILD_LOCK"
	flock 9
	FORK_LOCK_HELD=$$
}

# kmake ARGS...: make in $SRC for $ARCH into $OBJ, one build at a time
kmake() {
	if [ "${FORK_LOCK_HELD:-}" = $$ ]; then
		make -C "$SRC" O="$OBJ" ARCH="$KARCH" \
			CROSS_COMPILE="$CROSS_COMPILE" CC="ccache $KCC" -j"$(nproc)" "$@"
	else
		flock "$KBUILD_LOCK" make -C "$SRC" O="$OBJ" ARCH="$KARCH" \
			CROSS_COMPILE="$CROSS_COMPILE" CC="ccache $KCC" -j"$(nproc)" "$@"
	fi
}

# what a boot needs built in $OBJ: the image, and the modules (the KUnit
# suites, which boot-tests/boot packs) when the config has them
boot_targets() {
	if grep -q '^CONFIG_MODULES=y' "$OBJ/.config" 2>/dev/null; then
		echo "$KIMAGE_TARGET modules"
	else
		echo "$KIMAGE_TARGET"
	fi
}

# build_boot: build in $OBJ what a boot needs (boot_targets), then, when
# the config has modules, the fork's own test modules (boot-tests/modules,
# built out of tree in $OBJ/fork-modules)
build_boot() {
	# shellcheck disable=SC2046
	kmake -s $(boot_targets) || return 1
	grep -q '^CONFIG_MODULES=y' "$OBJ/.config" 2>/dev/null || return 0
	rm -rf "$OBJ/fork-modules" &&
		cp -R "$TOP/boot-tests/modules" "$OBJ/fork-modules" &&
		kmake -s M="$OBJ/fork-modules" modules
}

# copy_image OBJ DEST: what a boot needs of a build directory: the image,
# its .config and its modules (modules_of), with their modules.order
copy_image() {
	mkdir -p "$2/$(dirname "$KIMAGE")" && cp "$1/$KIMAGE" "$2/$KIMAGE" &&
		cp "$1/.config" "$2/.config" || return 1
	_mods=$(modules_of "$1")
	[ -n "$_mods" ] || return 0
	cp "$1/modules.order" "$2/modules.order" || return 1
	if [ -f "$1/fork-modules/modules.order" ]; then
		mkdir -p "$2/fork-modules" &&
			cp "$1/fork-modules/modules.order" "$2/fork-modules/" || return 1
	fi
	printf '%s\n' "$_mods" | while IFS= read -r _m; do
		mkdir -p "$2/$(dirname "$_m")" && cp "$1/$_m" "$2/$_m" || exit 1
	done
}

# the .c files a commit changes (added or modified)
touched_c() {
	kgit diff-tree --no-commit-id --name-only -r --diff-filter=AM "$1" | grep '\.c$'
}

# prepare COMMIT: take the build lock, check it out and configure $OBJ
# (only rewritten on change)
prepare() {
	for _t in make:make flex:flex bison:bison bc:bc perl:perl "$KCC:$KCC_PKG" ccache:ccache; do
		need_tool "${_t%%:*}" "${_t#*:}"
	done
	lock_builds
	checkout "$1"
	# shellcheck disable=SC2086
	if ! "$TOP/scripts/kconfig" "$ARCH" "$SRC" "$OBJ" $CFG_FRAGS >"$LOGDIR/kconfig.out" 2>&1; then
		cat "$LOGDIR/kconfig.out"
		infra "$LOGDIR/kconfig.out"
		fail "$TARGET: kconfig failed: $(grep -m 1 -E 'error|Error|not' "$LOGDIR/kconfig.out")"
	fi
	cat "$LOGDIR/kconfig.out"
}

# in_build OBJECT: is OBJECT (a .o path) part of the build in $OBJ, linked
# into the kernel (its directory's thin archive lists it) or a module?
# kbuild compiles any single object asked for, configured or not: a file
# the config leaves out (a feature switched off) would fail to compile
# and be judged as if it were built.  Known only when $OBJ holds the
# build of $COMMIT (checks/build marks it); otherwise assumed built.
in_build() {
	[ "$(cat "$OBJ/.fork-built" 2>/dev/null)" = "$(kgit rev-parse "$COMMIT^{tree}")" ] ||
		return 0
	_d=$(dirname "$1")
	# a thin archive's member names come out relative to the cwd
	if [ -f "$OBJ/$_d/built-in.a" ] &&
		(cd "$OBJ" && ar t "$_d/built-in.a") 2>/dev/null | grep -qxF "$1"; then
		return 0
	fi
	[ -f "$OBJ/modules.order" ] &&
		grep -qxF -e "$1" -e "${1%.o}.ko" "$OBJ/modules.order" && return 0
	# an object of a module made of several
	grep -qxF "$1" "$OBJ/$_d"/*.mod 2>/dev/null
}

# diagnostics FLAGS FILE...: compile FILEs (.c) with extra make FLAGS
# (W=1, C=2) and print their warnings and errors, line and column numbers
# dropped, one per line, sorted.  A file the config does not build prints
# "unbuilt: FILE".
diagnostics() {
	_flags=$1
	shift
	for _f; do
		_o=${_f%.c}.o
		if ! in_build "$_o"; then
			echo "unbuilt: $_f"
			continue
		fi
		# force a recompile so the warnings are printed again
		rm -f "$OBJ/$_o"
		_out=$(kmake "$_flags" "$_o" 2>&1)
		if printf '%s\n' "$_out" | grep -q "No rule to make target '$_o'"; then
			echo "unbuilt: $_f"
			continue
		fi
		printf '%s\n' "$_out" | grep -E '^[^ :]+:[0-9]+(:[0-9]+)?: (warning|error):' |
			sed -E 's/^([^ :]+):[0-9]+(:[0-9]+)?: /\1: /'
	done | sort -u
}

# diag_delta FLAGS: the warnings FLAGS gives on the .c files $COMMIT
# touches that the parent's version of those files does not give, compiled
# in the same tree and config (so the build stays incremental).  Prints the
# new ones; returns 1 if there are any.
diag_delta() {
	_files=$(touched_c "$COMMIT")
	[ -n "$_files" ] || { echo "no .c file touched"; return 0; }
	# shellcheck disable=SC2086
	diagnostics "$1" $_files >"$LOGDIR/diag.new"
	for _f in $_files; do
		if kgit cat-file -e "$COMMIT^:$_f" 2>/dev/null; then
			cp "$SRC/$_f" "$LOGDIR/keep.c"
			kgit show "$COMMIT^:$_f" >"$SRC/$_f"
			diagnostics "$1" "$_f"
			cp "$LOGDIR/keep.c" "$SRC/$_f"
		fi
	done >"$LOGDIR/diag.old"
	rm -f "$LOGDIR/keep.c"
	# the parent's lines are only a baseline: keep what the commit adds
	grep -v '^unbuilt: ' "$LOGDIR/diag.new" | sort -u >"$LOGDIR/diag.new.s"
	grep -v '^unbuilt: ' "$LOGDIR/diag.old" | sort -u >"$LOGDIR/diag.old.s"
	grep '^unbuilt: ' "$LOGDIR/diag.new" | sed 's/^/note: /'
	comm -13 "$LOGDIR/diag.old.s" "$LOGDIR/diag.new.s" >"$LOGDIR/diag.added"
	_n=$(wc -l <"$LOGDIR/diag.added")
	echo "$(wc -l <"$LOGDIR/diag.new.s") diagnostic(s) on the touched files, $_n new"
	sed 's/^/new: /' "$LOGDIR/diag.added"
	[ "$_n" = 0 ]
}
