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
. "$TOP/checks/store.sh"

# Nothing from the caller's environment changes a verdict without being
# in its key: the kernel's build variables (a 'make check W=1' reaches
# the kernel's make through MAKEFLAGS) are dropped; FORK_CONFIG is the
# runner's (set per check from its name, build@debug), and the FORK_BOOT_*
# that select tests are in the boot key.
unset KCFLAGS KCPPFLAGS KAFLAGS KRUSTFLAGS CHECKFLAGS KBUILD_EXTRA_WARN KBUILD_CFLAGS \
	KBUILD_EXTRA_SYMBOLS KBUILD_OUTPUT KBUILD_SIGN_PIN KBUILD_ABS_SRCTREE LLVM LLVM_IAS \
	MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES GNUMAKEFLAGS MAKEFILES W C V

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

# touched COMMIT: the .c and .h files a commit changes (added or modified)
touched() {
	kgit diff-tree --no-commit-id --name-only -r --diff-filter=AM "$1" | grep -E '\.[ch]$'
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

# image_id: what a build in $OBJ is made of: the build check's manifest
# (store_inputs: tree, config, compilers, binutils, scripts) without the
# parent's tree (the W=1 baseline, not the image's).  checks/build writes
# it to $OBJ/.fork-built; checks/boot boots only an image whose id is the
# one its own inputs give, and rebuilds otherwise.
image_id() {
	_ik=build
	[ "$CONFIG" = boot ] || _ik=build@$CONFIG
	store_inputs "$_ik" "$COMMIT" "$ARCH" | grep -v '^parent-tree ' | _sha
}

# built_objects: every object of the build in $OBJ, relative to it: those
# its thin archives link (vmlinux.a, the lib.a of lib-y) and those of its
# modules (modules.order, and the parts of a module made of several).
# Known only when $OBJ holds the build of $COMMIT (checks/build marks
# it); returns 1 otherwise.  kbuild compiles any single object asked for,
# configured or not: a file the config leaves out (a feature switched
# off) would be judged as if it were built.
built_objects() {
	[ "$(cat "$OBJ/.fork-built" 2>/dev/null)" = "$(image_id)" ] || return 1
	(
		cd "$OBJ" || exit 1
		[ ! -f vmlinux.a ] || ar t vmlinux.a
		find . -name lib.a -printf '%P\n' | while read -r _l; do ar t "$_l"; done
		[ ! -f modules.order ] || sed 's/\.ko$/.o/' modules.order
		find . -name '*.mod' -printf '%P\n' | while read -r _m; do cat "$_m"; done
	) 2>/dev/null | sed 's|^\./||' | LC_ALL=C sort -u
}

# objects_of FILE...: the built objects ($LOGDIR/built) that compile FILEs:
# a .c file's own object; for a header, every object whose dependency
# list (.<obj>.cmd, fixdep) names it.  A .c file the build does not
# compile prints "unbuilt: FILE"; a header no built object includes,
# "unused: FILE".
objects_of() {
	for _f; do
		case $_f in
		*.c)
			if grep -qxF "${_f%.c}.o" "$LOGDIR/built"; then
				echo "${_f%.c}.o"
			else
				echo "unbuilt: $_f"
			fi ;;
		*.h)
			# (kernel paths: letters, digits and _ - , . + /)
			_re=$(printf '%s' "$SRC/$_f" | sed 's/[.+]/\\&/g')
			_o=$(cd "$OBJ" && grep -rlE --include='.*.o.cmd' -e " $_re( |\$)" . |
				sed -E 's|^\./||; s#(^|/)\.([^/]+)\.cmd$#\1\2#' | LC_ALL=C sort -u |
				LC_ALL=C comm -12 - "$LOGDIR/built" | while read -r _x; do
					# C objects only (an assembler file's object has no W=1 delta)
					[ ! -f "$SRC/${_x%.o}.c" ] || echo "$_x"
				done)
			if [ -n "$_o" ]; then printf '%s\n' "$_o"; else echo "unused: $_f"; fi ;;
		esac
	done
}

# diagnostics FLAGS OBJECT...: compile the OBJECTs (relative to $OBJ; .c
# sources only) again in one make with extra make FLAGS (W=1, C=2) and
# print their warnings and errors, the source tree's prefix and line and
# column numbers dropped, one per line, sorted, duplicates kept: a second
# identical warning (a header's, in every object that includes it) counts.
diagnostics() {
	_flags=$1
	shift
	[ $# -gt 0 ] || return 0
	# force a recompile so the warnings are printed again
	(cd "$OBJ" && rm -f "$@")
	kmake -k "$_flags" "$@" 2>&1 | grep -E '^[^ :]+:[0-9]+(:[0-9]+)?: (warning|error):' |
		sed -E "s|^$SRC/||; s|^\\./||; s/^([^ :]+):[0-9]+(:[0-9]+)?: /\\1: /" | LC_ALL=C sort
}

# diag_delta FLAGS: the warnings FLAGS gives on the objects $COMMIT
# rebuilds (its .c files' own, and every object that includes a header
# it changes) that the parent's versions of those files do not give,
# compiled in the same tree and config (so the build stays incremental).
# Prints the new ones; returns 1 if there are any.
diag_delta() {
	_files=$(touched "$COMMIT")
	[ -n "$_files" ] || { echo "no .c or .h file touched"; return 0; }
	built_objects >"$LOGDIR/built" ||
		die "$TARGET: $OBJ does not hold the build of $COMMIT: cannot tell which objects it compiles"
	# shellcheck disable=SC2086
	objects_of $_files >"$LOGDIR/objects"
	grep -E '^(unbuilt|unused): ' "$LOGDIR/objects" | sed 's/^/note: /'
	_objs=$(grep -vE '^(unbuilt|unused): ' "$LOGDIR/objects" | LC_ALL=C sort -u)
	echo "$(printf '%s\n' "$_files" | wc -l) file(s) touched: $(printf '%s' "$_objs" | grep -c .) object(s) to compile with $1"
	# shellcheck disable=SC2086
	diagnostics "$1" $_objs >"$LOGDIR/diag.new"
	# the parent's versions of the touched files (a file the commit adds
	# is absent), the same objects (those whose source the parent has)
	for _f in $_files; do
		if kgit cat-file -e "$COMMIT^:$_f" 2>/dev/null; then
			kgit show "$COMMIT^:$_f" >"$SRC/$_f"
		else
			rm -f "$SRC/$_f"
		fi
	done
	_pobjs=$(for _o in $_objs; do [ ! -f "$SRC/${_o%.o}.c" ] || echo "$_o"; done)
	# shellcheck disable=SC2086
	diagnostics "$1" $_pobjs >"$LOGDIR/diag.old"
	# shellcheck disable=SC2086
	git -C "$SRC" checkout -q "$COMMIT" -- $_files || die "cannot restore the files of $COMMIT in $SRC"
	# the parent's lines are only a baseline: keep what the commit adds
	# (comm on sorted lists with repeats: a multiset difference)
	LC_ALL=C comm -13 "$LOGDIR/diag.old" "$LOGDIR/diag.new" >"$LOGDIR/diag.added"
	_n=$(wc -l <"$LOGDIR/diag.added")
	echo "$(wc -l <"$LOGDIR/diag.new") diagnostic(s) on those objects, $_n new"
	sed 's/^/new: /' "$LOGDIR/diag.added"
	[ "$_n" = 0 ]
}
