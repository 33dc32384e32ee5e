# The result store and the keys of the checks.  Sourced (after
# scripts/lib.sh) by checks/run, checks/report, checks/store (the command
# line: get, list, forget, key) and scripts/verified (the pre-push hook).
#
# A result is reused only for exactly the input it judged: its key is the
# SHA-1 of a manifest that lists every input the check reads, one
# "name value" line each (store_inputs prints it):
#
#   checkpatch  the patch's bytes as checkpatch reads them (checkpatch_patch),
#               the commit's tree (checkpatch.pl, .checkpatch.conf and
#               what --root reads), perl's, python3's and git's versions,
#               the check script
#   build       the commit's tree and its (first) parent's tree (the W=1
#               delta compares with the parent), the config fragments and
#               scripts/kconfig, the arch file, the compiler's and make's
#               versions, the check scripts, the fork's test modules
#               (boot-tests/modules, built with the kernel)
#   sparse      as build, plus sparse's version and checks/sparse
#   boot        the tree, config, arch file and compiler (the image), the
#               tests.txt lines that can apply to the commit, the boot
#               scripts (boot, parse, initramfs) and test modules, the
#               guest init's source, its compiler's version and the C
#               library it links, the guest's programs (cyclictest and its
#               libraries, by content), QEMU's version, the accelerator (tcg or
#               kvm), and the environment that selects tests (controls),
#               the timeout or the firmware
#   every key   the engine: checks/run (which checks run, retries,
#               how a control's outcome is judged), checks/store.sh and the
#               parsers of branches.txt, configs.txt, tests.txt, mutants;
#               build, sparse and boot also binutils' version (the
#               arch's ld), boot the versions of the firmware packages
#               QEMU loads (FW_PKGS of the arch file: SeaBIOS, SLOF, VOF)
#   control-T   a boot of the topic's base (or tip) with test T selected
#   X@CONFIG    check X (build, sparse, boot) of another config of
#               boot-tests/configs.txt: as X, plus the config's line
#               (its boots) and its fragments in the config hash
#
# Layout: $RESULTS/v2/<arch>/<check>/<key> (check: build@debug...), one
# file per result, written
# to a temporary name and renamed (a reader never sees a torn record).
# Line 1 is the verdict line ("PASS build: ..."), then "field value"
# lines (status, check, arch, commit, key, date, seconds, log, tests),
# then "inputs:" and the manifest.  Statuses: PASS, FAIL, SKIP and FLAKY;
# ERROR (the infrastructure failed) is never stored, and a FLAKY record
# is shown but never reused as a verdict.
# shellcheck shell=sh

STORE=$RESULTS/v2
_TAB=$(printf '\t')
# what a boot check runs (paths without blanks)
_BOOT_SCRIPTS="$TOP/checks/boot $TOP/checks/build $TOP/boot-tests/boot $TOP/boot-tests/parse $TOP/boot-tests/ktap.awk
$TOP/boot-tests/initramfs $TOP/boot-tests/nvram $TOP/boot-tests/guest-root"
# the engine, in every key (see store_inputs)
_ENGINE="$TOP/checks/run $TOP/checks/store.sh $TOP/scripts/topics $TOP/scripts/configs $TOP/scripts/boottests $TOP/scripts/linefile.awk $TOP/scripts/mutants $TOP/scripts/reverts"
# the fork's own test modules, which a build builds and a boot packs
_FORK_MODULES="$TOP/boot-tests/modules/Kbuild $TOP/boot-tests/modules/fork_load.c"
# the config fragments (scripts/kconfig reads the same)
FRAGS=${FORK_CONFIGS:-$TOP/boot-tests/configs}

# The memos below set a variable ($_mv, $_hv, $_av) instead of printing:
# a value computed in a $(...) subshell would be lost to the next call.
# store_warm computes them once in the calling shell.

# _memo NAME CMD...: set $_mv to the first line of CMD's output, computed
# once per process ("missing" when CMD is not installed)
_memo() {
	_mn=$1
	shift
	eval "_mv=\${_MEMO_$_mn-}"
	if [ -z "$_mv" ]; then
		if command -v "$1" >/dev/null 2>&1; then
			_mv=$("$@" 2>&1 | sed -n '/./{p;q;}')
		else
			_mv="missing: $1"
		fi
		eval "_MEMO_$_mn=\$_mv"
	fi
}

# the compilers print their full version ("gcc version 12.2.0 (Debian
# 12.2.0-14+deb12u1)") with -v, on the last line
_ccver() { "$1" -v 2>&1 | tail -n 1; }
_sha() { sha1sum | cut -d' ' -f1; }
_fsha() { cat "$@" | _sha; }
# _hmemo NAME FILE...: set $_hv to the hash of FILEs, computed once per
# process
_hmemo() {
	_hn=$1
	shift
	eval "_hv=\${_HMEMO_$_hn-}"
	[ -n "$_hv" ] || { _hv=$(_fsha "$@" 2>/dev/null); eval "_HMEMO_$_hn=\$_hv"; }
}
# config_line NAME: set $_cl to the TSV line of config NAME (configs.txt,
# parsed once per process); 1 when there is none
config_line() {
	configs_load
	_cl=
	while IFS=$_TAB read -r _cln _clr; do
		[ "$_cln" != "$1" ] || { _cl="$_cln$_TAB$_clr"; return 0; }
	done <<EOC
$_CONFIGS
EOC
	return 1
}

# configs_load: the parsed configs.txt in $_CONFIGS, once per process
# (call it in the process itself: a $(...) subshell's memo is lost)
configs_load() {
	[ -n "${_CONFIGS:-}" ] || _CONFIGS=$("$TOP/scripts/configs") || die "$CONFIGS_TXT is not valid"
}

# config_runs RUNS BASE COMMIT TIP TOPIC CONFIG: does config CONFIG of
# configs.txt, which runs on RUNS (commits, tips, integration, tests), run
# on COMMIT of TOPIC, based on BASE ('*': the integration branch), whose
# tip is TIP?
config_runs() {
	case $1:$2 in
	commits:*) return 0 ;;
	tips:* | integration:\* | tests:\*) [ "$3" = "$4" ] ;;
	tests:*) [ "$3" = "$4" ] && [ -n "$(bound_tests "$5" "$6")" ] ;;
	*) return 1 ;;
	esac
}

# bound_tests TOPIC CONFIG: the names of TOPIC's boot tests bound to
# CONFIG (needs config:CONFIG)
bound_tests() {
	_boottests | awk -F'\t' -v t="$1" -v c="config:$2" \
		'$2 == t && index("," $3 ",", "," c ",") { print $1 }'
}

# test_config NEEDS: the config a test's needs bind it to ("" for none)
test_config() {
	case ,$1, in
	*,config:*) _tc=${1#*config:} _tc=${_tc%%,*} ;;
	*) _tc= ;;
	esac
	echo "$_tc"
}

# config_has_arch CONFIG ARCH: CONFIG is a config of configs.txt that
# runs on ARCH
config_has_arch() {
	config_line "$1" || return 1
	case ",$(printf '%s\n' "$_cl" | cut -f2)," in *",$2,"*) return 0 ;; esac
	return 1
}

# mutant_has_arch TOPIC CHECK ARCH: does mutant CHECK (mutant-<name>[@NAME])
# run on ARCH?  On every arch of its config, unless its patch's message
# names the arches where a test can show its bug: a line "Arches: A[,B]"
# (a bug only one arch's hardware model reaches)
mutant_has_arch() {
	_ma=$(sed -n '/^---$/q; s/^Arches: *//p' "${MUTANTS:-$TOP/mutants}/$1/${2#mutant-}.patch" 2>/dev/null)
	case ${_ma:-*} in '*') return 0 ;; esac
	case ",$_ma," in *",$3,"*) return 0 ;; esac
	return 1
}

# config_boot_arches: the arches of the boot config, comma-separated
config_boot_arches() {
	config_line boot && printf '%s\n' "$_cl" | cut -f2
}

# the parsed tests.txt, once per process
_boottests() {
	[ -n "${_BOOTTESTS:-}" ] || _BOOTTESTS=$("$TOP/scripts/boottests") || die "boot-tests/tests.txt is not valid"
	printf '%s\n' "$_BOOTTESTS"
}

# archvar ARCH VAR: set $_av to a variable of boot-tests/arch/ARCH.conf
archvar() {
	eval "_av=\${_AV_${1}_$2-}"
	if [ -z "$_av" ]; then
		[ -r "$TOP/boot-tests/arch/$1.conf" ] || die "unknown arch $1"
		_av=$(. "$TOP/boot-tests/arch/$1.conf" && eval "printf '%s' \"\$$2\"")
		eval "_AV_${1}_$2=\$_av"
	fi
}

# _defines TREE SYM: the tree has a Kconfig "config SYM" (memoised on
# disk per tree: a tree never changes)
_defines() {
	_df=$RESULTS/memo/kconfig/$1
	_dv=
	if [ -r "$_df" ]; then
		while read -r _ds _dw; do
			[ "$_ds" != "$2" ] || { _dv=$_dw; break; }
		done <"$_df"
	fi
	if [ -z "$_dv" ]; then
		if kgit grep -q -E "^[[:space:]]*(menu)?config[[:space:]]+$2[[:space:]]*\$" "$1" -- '*Kconfig*'; then
			_dv=yes
		else
			_dv=no
		fi
		mkdir -p "${_df%/*}" && printf '%s %s\n' "$2" "$_dv" >>"$_df"
	fi
	[ "$_dv" = yes ]
}

# _contains COMMIT TOPIC: COMMIT contains the topic's first commit.  The
# first commit and every commit of the repository that descends from it,
# in one git call per topic and process (--ancestry-path over all refs:
# branches, mutants)
_contains() {
	_varname "$2"
	eval "_cd=\${_TD_$_vn-}"
	if [ -z "$_cd" ]; then
		topic_first "$2" || return 1
		_cd=" $_first $(kgit rev-list --ancestry-path "$_first.." --all 2>/dev/null | tr '\n' ' ')"
		eval "_TD_$_vn=\$_cd"
	fi
	case $_cd in *" $1 "*) return 0 ;; esac
	return 1
}

# boot_lines COMMIT TREE: the tests.txt lines that can apply to COMMIT
# in the config of the check being keyed ($_kc, store_inputs; none: boot),
# or those FORK_BOOT_TESTS selects when set, as the controls do
boot_lines() {
	[ -n "${_BOOTTESTS:-}" ] || _boottests >/dev/null
	while IFS=$_TAB read -r _n _t _needs _rest; do
		if [ -n "${FORK_BOOT_TESTS+x}" ]; then
			case ",$FORK_BOOT_TESTS," in *",$_n,"*) ;; *) continue ;; esac
		else
			_ok=1 _ifs=$IFS
			IFS=,
			for _nd in $_needs; do
				IFS=$_ifs
				case $_nd in
				-) ;;
				CONFIG_*) _defines "$2" "${_nd#CONFIG_}" || _ok= ;;
				config:*) [ "${_nd#config:}" = "${_kc:-boot}" ] || _ok= ;;
				topic:*) _contains "$1" "${_nd#topic:}" || _ok= ;;
				esac
			done
			IFS=$_ifs
			[ -n "$_ok" ] || continue
		fi
		printf 'test %s %s %s %s\n' "$_n" "$_t" "$_needs" "$_rest"
	done <<EOB
$_BOOTTESTS
EOB
}

# store_prime COMMIT...: look up, in one git call, the trees of COMMITs
# and of their first parents, for the keys
# computed later in this shell
store_prime() {
	[ $# -gt 0 ] || return 0
	_pf=$BUILD/.prime.$$
	mkdir -p "$BUILD" || return 1
	for _p; do
		printf '%s^{tree}\n%s^1^{tree}\n' "$_p" "$_p"
	done | kgit cat-file --batch-check='%(objectname)' | paste - - >"$_pf"
	for _p; do
		read -r _pt _pp || break
		case $_pp in *missing*) _pp=none ;; esac
		eval "_TR_$_p=\$_pt _PT_$_p=\$_pp"
	done <"$_pf"
	rm -f "$_pf"
}

# store_prime_patches COMMIT...: hash the patch of each commit exactly as
# checks/checkpatch gives it to checkpatch.pl (checkpatch_patch).  Only
# for the commits checkpatch judges: the diff of the base import is the
# whole kernel.
store_prime_patches() {
	for _p; do
		_ps=$(checkpatch_patch "$_p" | _sha) || return 1
		eval "_PS_$_p=\$_ps"
	done
}

# store_inputs CHECK COMMIT ARCH: the manifest of what CHECK reads
store_inputs() {
	_k=$1 _c=$2 _a=$3
	eval "_tree=\${_TR_$_c-}"
	[ -n "$_tree" ] || store_prime "$_c" || return 1
	eval "_tree=\${_TR_$_c-} _ptree=\${_PT_$_c-}"
	[ -n "$_tree" ] || return 1
	echo "check $_k"
	echo "arch $_a"
	_hmemo lib "$TOP/checks/lib.sh" "$TOP/scripts/lib.sh"
	_lib=$_hv
	# the engine: what decides which checks run, how often and how a
	# control's outcome becomes a verdict (checks/run), and the parsers
	# of the files it reads
	# shellcheck disable=SC2086
	_hmemo engine $_ENGINE
	echo "engine $_hv"
	case $_k in
	checkpatch)
		eval "_ps=\${_PS_$_c-}"
		[ -n "$_ps" ] || store_prime_patches "$_c" || return 1
		# the bytes checkpatch reads, and the tree it runs in (its
		# checkpatch.pl, .checkpatch.conf, MAINTAINERS, include/...)
		eval "echo \"patch \$_PS_$_c\""
		echo "tree $_tree"
		_memo perl perl -e 'print $^V'
		echo "tool perl $_mv"
		_memo python3 /usr/bin/python3 --version
		echo "tool python3 $_mv"
		_memo git /usr/bin/git --version
		echo "tool git $_mv"
		_hmemo checkpatch "$TOP/checks/checkpatch"
		echo "script $_hv lib $_lib"
		return 0
		;;
	esac
	# CHECK@CONFIG: a check of another config of configs.txt
	_kb=${_k%%@*} _kc=
	case $_k in *@*) _kc=${_k#*@} ;; esac
	case $_kb:$_kc in
	build:* | sparse:* | boot:* | control-*:* | mutant-*:* | revert-*:*) ;;
	*) die "unknown check $_k" ;;
	esac
	echo "tree $_tree"
	case $_kb in build | sparse) echo "parent-tree $_ptree" ;; esac
	if [ -n "$_kc" ]; then
		config_line "$_kc" || die "check $_k: no config $_kc in $CONFIGS_TXT"
		echo "config-def $_cl"
		_varname "$_kc"
		_ff=
		_x=${_cl#*"$_TAB"*"$_TAB"*"$_TAB"*"$_TAB"}
		_x=${_x%%"$_TAB"*}
		_ifs=$IFS
		IFS=,
		for _x in $_x; do
			[ "$_x" = - ] || _ff="$_ff $FRAGS/$_x.config"
		done
		IFS=$_ifs
		# shellcheck disable=SC2086
		arch_frag "$_a"
		_hmemo "cfg_${_a}_$_vn" "$FRAGS/common.config" "$_af" "$TOP/scripts/kconfig" $_ff
	else
		arch_frag "$_a"
		_hmemo "cfg_$_a" "$FRAGS/common.config" "$_af" "$TOP/scripts/kconfig"
	fi
	echo "config $_hv"
	_hmemo "ac_$_a" "$TOP/boot-tests/arch/$_a.conf"
	echo "arch-conf $_hv"
	archvar "$_a" KCC
	_memo "cc_$_a" _ccver "$_av"
	echo "tool cc $_mv"
	archvar "$_a" CROSS_COMPILE
	_memo "ld_$_a" "${_av}ld" --version
	echo "tool binutils $_mv"
	_memo make make --version
	echo "tool make $_mv"
	case $_kb in
	build | sparse)
		# shellcheck disable=SC2086
		_hmemo "$_kb" "$TOP/checks/$_kb" "$TOP/checks/build" $_FORK_MODULES
		echo "script $_hv lib $_lib"
		[ "$_kb" != sparse ] || { _memo sparse sparse --version; echo "tool sparse $_mv"; }
		;;
	*)
		archvar "$_a" INIT_CC
		_memo "icc_$_a" _ccver "$_av"
		echo "tool init-cc $_mv"
		_memo "libc_$_a" _libcsha "$_av"
		echo "init-libc $_mv"
		_hmemo init "$TOP/boot-tests/init/init.c"
		echo "init $_hv"
		_memo "groot_$_a" _groot "$_a"
		echo "guest-root $_mv"
		archvar "$_a" QEMU
		_memo "qemu_$_a" "$_av" --version
		echo "tool qemu $_mv"
		archvar "$_a" FW_PKGS
		_memo "fw_$_a" _pkgvers $_av
		echo "firmware $_mv"
		archvar "$_a" QEMU_KVM_ARGS
		_memo "accel_$_a" qemu_accel "$_a" "$_av"
		echo "accel $_mv"
		# shellcheck disable=SC2086
		_hmemo boot $_BOOT_SCRIPTS $_FORK_MODULES
		echo "script $_hv lib $_lib"
		echo "env FORK_BOOT_TESTS=${FORK_BOOT_TESTS-} FORK_BOOT_CMDLINE=${FORK_BOOT_CMDLINE-}" \
			"FORK_BOOT_TIMEOUT=${FORK_BOOT_TIMEOUT-} FORK_BOOT_FIRMWARE=${FORK_BOOT_FIRMWARE-}${FORK_BOOT_ACCEL:+ FORK_BOOT_ACCEL=$FORK_BOOT_ACCEL}${FORK_BOOT_MEM:+ FORK_BOOT_MEM=$FORK_BOOT_MEM}"
		boot_lines "$_c" "$_tree"
		;;
	esac
}

# _pkgvers PACKAGE...: their installed versions, on one line
_pkgvers() {
	dpkg-query -W -f='${Package}=${Version} ' "$@" 2>&1 | tr '\n' ' '
}

# the C library the guest init links statically
# _groot ARCH: the guest's programs (boot-tests/guest-root), by content:
# the packages they come from may be updated
_groot() {
	_gr=$("$TOP/boot-tests/guest-root" "$1") || { echo "missing guest root for $1"; return 0; }
	(cd "$_gr" && find . -type f | LC_ALL=C sort | xargs sha1sum | _sha)
}
_libcsha() {
	_lc=$("$1" -print-file-name=libc.a 2>/dev/null)
	if [ -r "$_lc" ]; then _fsha "$_lc"; else echo "missing libc.a for $1"; fi
}

# store_key CHECK COMMIT ARCH
store_key() {
	_ski=$(store_inputs "$@") || return 1
	printf '%s\n' "$_ski" | _sha
}

# store_get ARCH CHECK KEY: print the record; 1 when there is none
store_get() {
	cat "$STORE/$1/$2/$3" 2>/dev/null
}

# store_put ARCH CHECK KEY: the record on stdin, stored atomically; a
# status other than PASS, FAIL, SKIP or FLAKY is refused
store_put() {
	_d=$STORE/$1/$2
	mkdir -p "$_d" || return 1
	cat >"$_d/.tmp.$$" || { rm -f "$_d/.tmp.$$"; return 1; }
	case $(sed -n 's/^status //p' "$_d/.tmp.$$") in
	PASS | FAIL | SKIP | FLAKY) mv "$_d/.tmp.$$" "$_d/$3" ;;
	*) rm -f "$_d/.tmp.$$"; return 1 ;;
	esac
}

# store_read ARCH CHECK KEY: set $_line and $_st to the verdict line and
# the status of the record (both empty when there is none)
store_read() {
	_line= _st=
	[ -r "$STORE/$1/$2/$3" ] || return 1
	{
		read -r _line
		while read -r _rf _rv; do
			case $_rf in
			status) _st=$_rv; break ;;
			inputs:) break ;;
			esac
		done
	} <"$STORE/$1/$2/$3"
}

# store_field FIELD: a field of the record on stdin
store_field() {
	sed -n "s/^$1 //p" | head -n 1
}

# store_list: every record, TSV: arch check key status commit date
store_list() {
	[ -d "$STORE" ] || return 0
	find "$STORE" -type f ! -name '.tmp.*' | sort | while read -r _f; do
		_r=${_f#"$STORE"/}
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "${_r%%/*}" "$(echo "$_r" | cut -d/ -f2)" "${_r##*/}" \
			"$(store_field status <"$_f")" "$(store_field commit <"$_f")" "$(store_field date <"$_f")"
	done
}

# store_forget COMMIT: drop every record COMMIT produced; prints how many
store_forget() {
	[ -d "$STORE" ] || { echo 0; return 0; }
	grep -rlx --exclude='.tmp.*' "commit $1" "$STORE" 2>/dev/null | tee "$BUILD/.forget.$$" | xargs -r rm -f
	wc -l <"$BUILD/.forget.$$"
	rm -f "$BUILD/.forget.$$"
}

# store_log ARCH CHECK KEY: set $_log to where the log of that check
# run goes
store_log() {
	_log=$BUILD/logs/$1/$2/$3.log
}

# store_warm ARCH...: compute the tool versions once, in this shell, so
# that the subshells computing keys inherit them
store_warm() {
	_memo perl perl -e 'print $^V'
	_memo python3 /usr/bin/python3 --version
	_memo git /usr/bin/git --version
	_memo make make --version
	_memo sparse sparse --version
	for _wa; do
		[ "$_wa" != any ] || continue
		archvar "$_wa" KCC
		_memo "cc_$_wa" _ccver "$_av"
		archvar "$_wa" INIT_CC
		_memo "icc_$_wa" _ccver "$_av"
		_memo "libc_$_wa" _libcsha "$_av"
		_memo "groot_$_wa" _groot "$_wa"
		archvar "$_wa" QEMU
		_memo "qemu_$_wa" "$_av" --version
		archvar "$_wa" CROSS_COMPILE
		_memo "ld_$_wa" "${_av}ld" --version
		archvar "$_wa" FW_PKGS
		# shellcheck disable=SC2086
		_memo "fw_$_wa" _pkgvers $_av
		archvar "$_wa" QEMU_KVM_ARGS
		arch_frag "$_wa"
		_hmemo "cfg_$_wa" "$FRAGS/common.config" "$_af" "$TOP/scripts/kconfig"
		_hmemo "ac_$_wa" "$TOP/boot-tests/arch/$_wa.conf"
	done
	[ -n "${_GRAPH:-}" ] || _GRAPH=$(topics)
	for _wt in $(printf '%s\n' "$_GRAPH" | cut -f1); do
		topic_first "$_wt"
	done
	_boottests >/dev/null
	config_line boot
	_hmemo lib "$TOP/checks/lib.sh" "$TOP/scripts/lib.sh"
	# shellcheck disable=SC2086
	_hmemo engine $_ENGINE
	_hmemo checkpatch "$TOP/checks/checkpatch"
	# the same lists as store_inputs: a memo is kept by name
	# shellcheck disable=SC2086
	_hmemo build "$TOP/checks/build" "$TOP/checks/build" $_FORK_MODULES
	# shellcheck disable=SC2086
	_hmemo sparse "$TOP/checks/sparse" "$TOP/checks/build" $_FORK_MODULES
	_hmemo init "$TOP/boot-tests/init/init.c"
	# shellcheck disable=SC2086
	_hmemo boot $_BOOT_SCRIPTS $_FORK_MODULES
}

# store_lookup CHECK COMMIT ARCH [ENV]: the record under the current key
# (ENV: "VAR=value ..." the check runs with, as the controls do)
store_lookup() {
	# shellcheck disable=SC2086
	_lk=$(if [ -n "${4:-}" ]; then export $4; fi; store_key "$1" "$2" "$3") || return 1
	store_get "$3" "$1" "$_lk"
}

# tip_tests_missing TOPIC ARCH: the topic's boot tests its tip's boot
# record does not list as run ("?" when the tip has no boot record)
tip_tests_missing() {
	_tt=$(store_lookup boot "$(kgit rev-parse "refs/heads/$1")" "$2" | store_field tests)
	[ -n "$_tt" ] || { echo '?'; return 0; }
	_boottests | awk -F'\t' -v t="$1" -v ran=" $_tt " \
		'$2 == t && $3 !~ /(^|,)config:/ && index(ran, " " $1 " ") == 0 { print $1 }'
	# a test bound to a config: in that config's boot of the tip, on the
	# arches of the config
	_boottests | awk -F'\t' -v t="$1" '$2 == t && $3 ~ /(^|,)config:/ { print $1 "\t" $3 }' |
		while IFS=$_TAB read -r _tn _tnd; do
			_tc=$(test_config "$_tnd")
			config_has_arch "$_tc" "$2" || continue
			_tt=$(store_lookup "boot@$_tc" "$(kgit rev-parse "refs/heads/$1")" "$2" | store_field tests)
			[ -n "$_tt" ] || { echo '?'; continue; }
			case " $_tt " in *" $_tn "*) ;; *) echo "$_tn" ;; esac
		done
}

# store_controls TOPIC [ARCH]: the topic's negative controls, TSV: check
# name, commit, environment of the boot.  control-<test>: the test on the
# base (or the tip with a command line); mutant-<name>: the topic's tests
# on a mutant of the tip (scripts/mutants).  A test bound to a config
# (needs config:NAME) has its control on that config, control-<test>@NAME;
# a mutant named <name>@NAME (mutants/<topic>/<name>@NAME.patch) boots
# NAME with the topic's tests bound to it, another mutant the boot config
# with all the topic's tests (a bound one does not apply there).  With
# ARCH: only the controls that run on ARCH (a config's arches; a mutant's
# "Arches:" line, mutant_has_arch)
store_controls() {
	[ -n "${_GRAPH:-}" ] || _GRAPH=$(topics)
	_cb=$(printf '%s\n' "$_GRAPH" | awk -F'\t' -v t="$1" '$1 == t { print $2 }')
	[ "$_cb" != '*' ] || _cb=base
	# parsed once, here: the subshells below inherit it
	_boottests >/dev/null
	_BFILE=$BUILD/.boottests.$$
	mkdir -p "$BUILD" && printf '%s\n' "$_BOOTTESTS" >"$_BFILE" || return 1
	_cbc=$(kgit rev-parse "$_cb") _ctip=$(kgit rev-parse "refs/heads/$1")
	{
		_boottests | while IFS=$(printf '\t') read -r _n _t _nds _x _x _x _ctl; do
			[ "$_t" = "$1" ] || continue
			# a test bound to a config: its control boots that config
			_cs=$(test_config "$_nds")
			_cs=${_cs:+@$_cs}
			case $_ctl in
			base) printf 'control-%s%s\t%s\tFORK_BOOT_TESTS=smoke,%s\n' "$_n" "$_cs" "$_cbc" "$_n" ;;
			tip:*) printf 'control-%s%s\t%s\tFORK_BOOT_TESTS=smoke,%s FORK_BOOT_CMDLINE=%s\n' "$_n" "$_cs" \
				"$_ctip" "$_n" "${_ctl#tip:}" ;;
			esac
		done
		# the mutants: the topic's tests on its tip with a bug put in
		# (commit '-' when the mutant does not apply to the tip)
		# <name>@NAME: the tests bound to NAME; else all (one awk: the
		# boot tests, then the mutants)
		[ ! -d "${MUTANTS:-$TOP/mutants}/$1" ] ||
			"$TOP/scripts/mutants" list "$1" | awk -F'\t' -v t="$1" '
				FNR == NR { if ($2 == t) { nt++; tn[nt] = $1; tc[nt] = $3 } next }
				{
					b = $1; c = b; sub(/^[^@]*@/, "", c); mt = ""
					for (i = 1; i <= nt; i++)
						if (b == c || index("," tc[i] ",", ",config:" c ","))
							mt = mt "," tn[i]
					if (mt != "") printf "mutant-%s\t%s\tFORK_BOOT_TESTS=smoke%s\n", b, $2, mt
				}' "$_BFILE" -
	} | while IFS=$_TAB read -r _k _c _e; do
		case ${2:-}:$_k in
		?*:control-*@* | ?*:mutant-*@*) config_has_arch "${_k#*@}" "$2" || continue ;;
		esac
		case ${2:-}:$_k in
		?*:mutant-*) mutant_has_arch "$1" "$_k" "$2" || continue ;;
		esac
		printf '%s\t%s\t%s\n' "$_k" "$_c" "$_e"
	done
	rm -f "$_BFILE"
}

# store_required [TOPIC]: what the topics require, the one list that
# checks/run runs, checks/report shows, scripts/verified (pre-push) and
# scripts/send (SEND=1) demand.  TSV, in the order the runner checks:
#
#   topic  owner  commit  arch  check  env
#
# owner: the topic commit that owes the row (the tip for the controls,
# mutants and tip-tests); commit: what is checked ('-' for a mutant that
# does not apply to the tip); check: checkpatch (arch any), build,
# sparse, boot, CHECK@CONFIG, control-<test>[@CONFIG], mutant-<name>,
# revert-<NN>-<test>[@CONFIG] (the tip without patch NN, scripts/reverts),
# tip-tests (the tip's boot ran every test of its topic); env: the
# environment the check runs with (controls and mutants).
#
# Every commit: checkpatch (single-parent commits of a topic based on
# base or another topic), and on each arch of its topic that the boot
# config builds: build, sparse, boot.  A topic's tip, per arch: the
# negative controls and mutants of its tests, tip-tests.  The other
# configs of configs.txt: their checks on every commit or on the tips, as
# each says (scripts/configs).  A topic with no commits of its own (it
# guards behaviour 6.1 has) is checked at its tip.  The integration
# branch ('*'): its tip only.
store_required() {
	[ -n "${_GRAPH:-}" ] || _GRAPH=$(topics) || return 1
	configs_load
	_rqba=$(config_boot_arches)
	_boottests >/dev/null
	while IFS=$_TAB read -r _rqt _rqb _rqa _rqd; do
		[ -z "${1:-}" ] || [ "$1" = "$_rqt" ] || continue
		_rqtip=$(kgit rev-parse -q --verify "refs/heads/$_rqt") ||
			die "no branch $_rqt (make branches)"
		_rqhas=
		! printf '%s\n' "$_BOOTTESTS" | cut -f2 | grep -qx "$_rqt" || _rqhas=1
		# commit and its parents, oldest first
		if [ "$_rqb" = '*' ]; then
			_rqcs=$(kgit rev-list --parents -n 1 "$_rqtip")
		else
			_rqcs=$(kgit rev-list --reverse --parents "$_rqb..$_rqtip")
		fi
		if [ -z "$_rqcs" ]; then
			[ -n "$_rqhas" ] || continue
			_rqcs=$(kgit rev-list --parents -n 1 "$_rqtip")
		fi
		if [ "$_rqb" != '*' ]; then
			printf '%s\n' "$_rqcs" | while read -r _c _p1 _p2; do
				[ -n "$_p1" ] && [ -z "$_p2" ] || continue
				printf '%s\t%s\t%s\tany\tcheckpatch\t\n' "$_rqt" "$_c" "$_c"
			done
		fi
		_rqctl=$(store_controls "$_rqt")
		# the revert mutants: the tip without each patch (scripts/reverts,
		# mutants/<topic>/reverts.txt), arch first
		_rqrev=
		[ "$_rqb" = '*' ] || _rqrev=$("$TOP/scripts/reverts" rows "$_rqt")
		for _a in $(echo "$_rqa" | tr ',' ' '); do
			case ",$_rqba," in
			*",$_a,"*)
				printf '%s\n' "$_rqcs" | while read -r _c _x; do
					for _k in build sparse boot; do
						printf '%s\t%s\t%s\t%s\t%s\t\n' "$_rqt" "$_c" "$_c" "$_a" "$_k"
					done
				done
				[ -z "$_rqhas" ] ||
					printf '%s\t%s\t%s\t%s\ttip-tests\t\n' "$_rqt" "$_rqtip" "$_rqtip" "$_a"
				{
					printf '%s\n' "$_rqctl"
					printf '%s\n' "$_rqrev" | awk -F'\t' -v OFS='\t' -v a="$_a" \
						'$1 == "*" || $1 == a { print $2, $3, $4 }'
				} | while IFS=$_TAB read -r _k _c _e; do
					[ -n "$_k" ] || continue
					case $_k in
					control-*@* | mutant-*@* | revert-*@*) config_has_arch "${_k#*@}" "$_a" || continue ;;
					esac
					case $_k in
					mutant-*) mutant_has_arch "$_rqt" "$_k" "$_a" || continue ;;
					esac
					printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$_rqt" "$_rqtip" "$_c" "$_a" "$_k" "$_e"
				done ;;
			esac
			printf '%s\n' "$_CONFIGS" | while IFS=$_TAB read -r _cn _carches _cruns _cchecks _x; do
				[ "$_cn" != boot ] || continue
				case ",$_carches," in *",$_a,"*) ;; *) continue ;; esac
				printf '%s\n' "$_rqcs" | while read -r _c _x; do
					config_runs "$_cruns" "$_rqb" "$_c" "$_rqtip" "$_rqt" "$_cn" || continue
					for _k in $(echo "$_cchecks" | tr ',' ' '); do
						printf '%s\t%s\t%s\t%s\t%s\t\n' "$_rqt" "$_c" "$_c" "$_a" "$_k@$_cn"
					done
				done
			done
		done
	done <<EOR
$_GRAPH
EOR
}

# store_keyed DIR: the rows of store_required on stdin, each with its key,
# on stdout: topic owner commit arch check key env (key '-' for tip-tests
# and a mutant that does not apply).  The manifest of row N (from 1) is
# left in DIR/N for the runner to store with the result.  The manifests
# are computed in this shell (memos kept; a subshell only to export a
# row's environment) and hashed by one sha1sum: a key costs no process.
store_keyed() {
	_kd=$1
	mkdir -p "$_kd" || return 1
	cat >"$_kd/in" || return 1
	# shellcheck disable=SC2046
	store_prime $(cut -f3 "$_kd/in" | grep -vx -- - | sort -u) || return 1
	# shellcheck disable=SC2046
	store_prime_patches $(awk -F'\t' '$5 == "checkpatch" { print $3 }' "$_kd/in") || return 1
	_kn=0
	: >"$_kd/rows"
	while IFS=$_TAB read -r _qt _qo _qc _qa _qk _qe; do
		_kn=$((_kn + 1))
		case $_qk:$_qc in
		tip-tests:* | *:-) : >"$_kd/$_kn"; _qh=- ;;
		*)
			if [ -n "$_qe" ]; then
				# shellcheck disable=SC2086
				(export $_qe; store_inputs "$_qk" "$_qc" "$_qa") >"$_kd/$_kn" || return 1
			else
				store_inputs "$_qk" "$_qc" "$_qa" >"$_kd/$_kn" || return 1
			fi
			_qh=+ ;;
		esac
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$_qt" "$_qo" "$_qc" "$_qa" "$_qk" "$_qh" "$_qe" >>"$_kd/rows"
	done <"$_kd/in"
	[ "$_kn" -gt 0 ] || return 0
	(cd "$_kd" && seq 1 "$_kn" | xargs sha1sum) | cut -d' ' -f1 >"$_kd/sums" || return 1
	paste "$_kd/sums" "$_kd/rows" | awk -F'\t' -v OFS='\t' '
		{ k = ($7 == "-") ? "-" : $1; print $2, $3, $4, $5, $6, k, $8 }'
}

# unmade TOPIC CHECK: why a required row has no commit to check
unmade() {
	case $2 in
	revert-*-undeclared)
		_nn=${2#revert-} _nn=${_nn%%-*}
		echo "patch $_nn of $1 is not declared: say in mutants/$1/reverts.txt which tests its revert must fail, or none: <reason>" ;;
	revert-*) echo "the revert mutant was not made for the current tip (make branches)" ;;
	*) echo "the mutant does not apply to the tip: update mutants/$1/${2#mutant-}.patch (make branches says why)" ;;
	esac
}

# reproducer TOPIC COMMIT ARCH CHECK: the command that re-runs exactly
# that check (from the top of the repository)
reproducer() {
	case $4 in
	control-* | mutant-* | revert-* | tip-tests) printf 'make check TOPIC=%s ARCH=%s CHECKS=%s RETEST=1\n' "$1" "$3" \
		"$([ "$4" = tip-tests ] && echo boot || echo "$4")" ;;
	checkpatch) printf 'make check TOPIC=%s COMMIT=%s CHECKS=checkpatch RETEST=1\n' "$1" "$2" ;;
	*) printf 'make check TOPIC=%s COMMIT=%s ARCH=%s CHECKS=%s RETEST=1\n' "$1" "$2" "$3" "$4" ;;
	esac
}
