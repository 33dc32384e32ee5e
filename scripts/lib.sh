# Common helpers for the fork's scripts.  Sourced, never executed.
# shellcheck shell=sh

PROG=${0##*/}
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
KTREE=${KTREE:-$BUILD/linux}
SERIES=${SERIES:-$TOP/series}
BRANCHES_TXT=${BRANCHES_TXT:-$TOP/branches.txt}
# the boot tests of the topics of $BRANCHES_TXT (a fixture graph comes
# with its own)
TESTS_TXT=${TESTS_TXT:-$TOP/boot-tests/tests.txt}
CONFIGS_TXT=${CONFIGS_TXT:-$TOP/boot-tests/configs.txt}
NOTES=${NOTES:-$TOP/MAINTAINERS-notes}
RESULTS=${RESULTS:-$BUILD/results}

# paths given relative to the caller's directory work from anywhere
abspath() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s/%s\n' "$PWD" "$1" ;;
	esac
}
BUILD=$(abspath "$BUILD") KTREE=$(abspath "$KTREE") SERIES=$(abspath "$SERIES")
BRANCHES_TXT=$(abspath "$BRANCHES_TXT") TESTS_TXT=$(abspath "$TESTS_TXT") CONFIGS_TXT=$(abspath "$CONFIGS_TXT") NOTES=$(abspath "$NOTES") RESULTS=$(abspath "$RESULTS")

# The identity of the base import: commit ids depend only on the inputs.
FORK_NAME='Latency Fork Tooling'
FORK_EMAIL='tooling@latency-fork.invalid'

die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit 1
}

warn() {
	printf '%s: warning: %s\n' "$PROG" "$*" >&2
}

note() {
	printf '%s: %s\n' "$PROG" "$*" >&2
}

# git on the kernel tree
kgit() {
	git -C "$KTREE" "$@"
}

need_tree() {
	kgit rev-parse -q --verify refs/tags/base >/dev/null 2>&1 ||
		die "no kernel tree with a 'base' tag in $KTREE (run 'make tree')"
}

# fork_only TOPIC: print why TOPIC is fork-only and succeed when its notes
# in MAINTAINERS-notes (above the generated block) have a line
# "Fork-only: <why>": its series is exported and sent to the fork's list
# only, never To/Cc the mainline maintainers and lists it could not
# apply for (scripts/export, scripts/send)
fork_only() {
	[ -r "$NOTES" ] || return 1
	awk -v t="$1" '
		/^== .* ==$/ { in_t = ($0 == "== " t " ==") ; next }
		in_t && /^-- get_maintainer.pl/ { in_t = 0 }
		in_t && sub(/^Fork-only:[ \t]*/, "") { why = $0; found = 1 }
		END { if (found) print why; exit !found }' "$NOTES"
}

# The maintainer commits what the branches carry (git am, merges); only
# the base import is the tooling's.  Fixed identities and dates keep ids
# deterministic.
fork_committer() {
	GIT_COMMITTER_NAME=$FORK_MAINTAINER_NAME
	GIT_COMMITTER_EMAIL=$FORK_MAINTAINER_EMAIL
	export GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
}

# topics: print the validated topic graph (see scripts/topics)
topics() {
	"$TOP/scripts/topics" "$BRANCHES_TXT"
}

# arch_frag ARCH: set $_af to the arch's config fragment,
# boot-tests/arch/<arch>.config (in $FORK_CONFIGS when that is set: a
# directory of fragments that replaces boot-tests/configs and the arch's)
arch_frag() {
	if [ -n "${FORK_CONFIGS:-}" ]; then
		_af=$FORK_CONFIGS/$1.config
	else
		_af=$TOP/boot-tests/arch/$1.config
	fi
}

# the arches: one file each, boot-tests/arch/<arch>.conf (FORK_ARCHES, a
# blank-separated list, narrows them for fixtures)
fork_arches() {
	if [ -n "${FORK_ARCHES:-}" ]; then
		echo "$FORK_ARCHES"
		return 0
	fi
	for _f in "$TOP"/boot-tests/arch/*.conf; do
		[ -e "$_f" ] || continue
		_f=${_f##*/}
		printf '%s ' "${_f%.conf}"
	done
	echo
}

# the arches whose guests boot (their conf names the guest's packages,
# GUEST_PKGS); the others are only built (i386, the 32bit config)
boot_arches() {
	for _a in $(fork_arches); do
		# shellcheck disable=SC1090
		(. "$TOP/boot-tests/arch/$_a.conf" && [ -n "${GUEST_PKGS:-}" ]) &&
			printf '%s ' "$_a"
	done
	echo
}

# The patch files of a topic, in order, without the cover letter.
topic_patches() {
	for _p in "$SERIES/$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$_p" ] || continue
		case ${_p##*/} in
		0000-*) ;;
		*) printf '%s\n' "$_p" ;;
		esac
	done
}

# shellcheck source=../fork.conf
. "$TOP/fork.conf"

# sealed_git ARGS...: git on the kernel tree that reads no user or system
# configuration (GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM) and none of the
# repository's settings that change what format-patch writes
sealed_git() {
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_COUNT=0 \
		git -C "$KTREE" -c format.signOff=false -c format.from=false \
		-c format.numbered=false -c format.coverLetter=false \
		-c format.useAutoBase=false -c format.thread=false -c format.notes=false \
		-c format.signature= -c format.subjectPrefix=PATCH \
		-c diff.noprefix=false -c diff.mnemonicPrefix=false -c diff.relative=false \
		-c diff.renames=true -c diff.algorithm=default -c diff.orderFile=/dev/null \
		-c diff.context=3 -c diff.interHunkContext=0 -c core.abbrev=12 \
		-c log.showSignature=false -c i18n.logOutputEncoding=UTF-8 "$@"
}

# checkpatch_patch COMMIT: the patch of COMMIT exactly as checks/checkpatch
# gives it to checkpatch.pl (and its key hashes): format-patch of the
# commit against its parent, the same bytes whatever git configuration
# the user has
checkpatch_patch() {
	sealed_git format-patch -1 --stdout --no-signature --no-numbered \
		--no-thread --no-notes --no-base --no-add-header --no-from --no-to --no-cc \
		--subject-prefix=PATCH --src-prefix=a/ --dst-prefix=b/ "$1"
}

# ensure_worktree DIR: a detached work tree of the kernel tree at DIR
ensure_worktree() {
	[ ! -e "$1/.git" ] || return 0
	mkdir -p "${1%/*}"
	kgit worktree prune
	kgit worktree add -q --detach "$1" base >/dev/null ||
		die "cannot create the work tree $1"
}

# topic_commits TOPIC BASE: the commits a topic is checked by, oldest
# first: base..tip, or only the tip for the integration branch (BASE '*')
topic_commits() {
	if [ "$2" = '*' ]; then
		kgit rev-parse "refs/heads/$1"
	else
		kgit rev-list --reverse "$2..refs/heads/$1"
	fi
}

# _varname STRING: set $_vn to STRING with every character that cannot be
# in a shell variable's name replaced by "_"
_varname() {
	_vn='' _vr=$1
	while [ -n "$_vr" ]; do
		_vc=${_vr%"${_vr#?}"} _vr=${_vr#?}
		case $_vc in [A-Za-z0-9_]) _vn=$_vn$_vc ;; *) _vn=${_vn}_ ;; esac
	done
}

# topic_first TOPIC: set $_first to the topic's first commit (its tip
# when it has none); memoised per process
topic_first() {
	_varname "$1"
	_tv=_F_$_vn
	eval "_first=\${$_tv-}"
	[ -z "$_first" ] || return 0
	[ -n "${_GRAPH:-}" ] || _GRAPH=$(topics) || return 1
	_b=$(printf '%s\n' "$_GRAPH" | awk -F'\t' -v t="$1" '$1 == t { print $2 }')
	[ -n "$_b" ] || return 1
	_first=$(kgit rev-list --reverse "$_b..refs/heads/$1" 2>/dev/null | head -n 1)
	[ -n "$_first" ] || _first=$(kgit rev-parse -q --verify "refs/heads/$1") || return 1
	eval "$_tv=\$_first"
}

# qemu_accel ARCH KVM_ARGS: the accelerator the guests of ARCH run on: kvm
# where the arch has KVM arguments and a probe boot worked
# ($BUILD/kvm-ok.ARCH says "yes"), tcg otherwise
qemu_accel() {
	if [ -n "$2" ] && [ "$(cat "$BUILD/kvm-ok.$1" 2>/dev/null)" = yes ]; then
		echo kvm
	else
		echo tcg
	fi
}

# cmdline_words ITEMS: a kernel command line written without blanks, as
# boot-tests/tests.txt and configs.txt and FORK_BOOT_CMDLINE write them:
# ',' separates parameters, ';' stands for a ',' inside one
# (trace_options=nofunction-trace;latency-printk)
cmdline_words() {
	printf '%s\n' "$1" | sed 's/,/ /g; s/;/,/g'
}

# modules_of OBJ: the modules a build directory built, one path per line
# relative to OBJ (modules.order names their objects); nothing without
# CONFIG_MODULES
modules_of() {
	grep -q '^CONFIG_MODULES=y' "$1/.config" 2>/dev/null || return 0
	sed 's/\.o$/.ko/' "$1/modules.order"
	# the fork's own (checks/lib.sh build_boot)
	[ ! -f "$1/fork-modules/modules.order" ] ||
		sed 's|.*/||; s|^|fork-modules/|; s/\.o$/.ko/' "$1/fork-modules/modules.order"
}
