# The common part of the parsers of the project's line files, branches.txt
# (scripts/topics) and boot-tests/tests.txt (scripts/boottests): each
# prepends it to its own awk program, with F (the file name) set by -v.
#
# Comment and blank lines are skipped.  err(LINE, MSG) reports
# "F:LINE: MSG" on stderr and sets bad.  dup(KIND, NAME) reports a NAME
# seen before and returns 1, or records line[NAME] = FNR and returns 0.
function err(l, msg) {
	printf "%s:%d: %s\n", F, l, msg > "/dev/stderr"
	bad = 1
}
function dup(kind, name) {
	if (name in line) {
		err(FNR, "duplicate " kind " \"" name "\" (first defined at line " line[name] ")")
		return 1
	}
	line[name] = FNR
	return 0
}
/^[ \t]*(#|$)/ { next }
