# ktap.awk: read a guest console log, print its KTAP results as
#	RESULT <name> PASS|FAIL|SKIP <detail>
# one line per result line, at any depth (a subtest's results come before
# the result of the test they belong to), then, when the KTAP
# structure is broken, one line "KTAP-ERROR <what>" per problem, and last
# "KTAP-END <planned> <reported> <done> <running>": the top-level plan,
# the top-level results seen, 1 when the init said it was done (0 when
# not) and the test the init said it was running.
# With -v ktap=FILE it writes the KTAP lines themselves (prefix dropped)
# to FILE, for other KTAP parsers (the tree's kunit_tool).
#
# The log mixes the init's output with kernel messages, which may carry a
# prefix: the printk time "[    1.234567]" and, with CONFIG_PRINTK_CALLER,
# "[    T1]".  Nesting is by indentation (Documentation/dev-tools/ktap.rst):
# a version line opens a (sub)test list at its indentation; a result line
# closes the lists opened deeper, which are its subtests.  Lines that are
# neither version, plan, result nor "#" diagnostic are unknown lines and
# do not count.  A failed result without a detail of its own gets the
# failure's diagnostic printed before it (KUnit's "# case: EXPECTATION
# FAILED at file:line" and up to three lines of its message).
function indent(s) { match(s, /^ */); return RLENGTH }
function problem(what) { err[++nerr] = what }
# close the lists deeper than @d: they were the subtests of the result at @d
function close_below(d,    k) {
	for (k = 0; k <= 64; k++) {
		if (!(k in open) || k <= d)
			continue
		if (plan[k] >= 0 && plan[k] != count[k])
			problem(sprintf("%s: planned %d result(s), printed %d", label[k], plan[k], count[k]))
		delete open[k]
	}
}
{
	sub(/\r$/, "")
	line = $0
	sub(/^([[][^]]*[]] ?)*/, "", line)
	d = indent(line)
	body = substr(line, d + 1)
	if (body ~ /^(K?TAP) version [0-9]+$/) {
		close_below(d - 1)
		open[d] = 1; plan[d] = -1; count[d] = 0
		label[d] = (d == 0) ? "the init" : "a subtest"
	} else if (body ~ /^1\.\.[0-9]+$/) {
		if (!(d in open))
			next
		plan[d] = substr(body, 4) + 0
	} else if (body ~ /^# Subtest: /) {
		if (d in open)
			label[d] = "subtest " substr(body, 12)
	} else if (body ~ /^# fork-init: running /) {
		running = substr(body, 22)
	} else if (body == "# fork-init: done") {
		done = 1
	} else if (body ~ /^(not )?ok [0-9]+( |$)/) {
		if (!(d in open)) {
			# a result outside any list: the log lost its version line
			problem("result outside a KTAP list: " body)
			next
		}
		ok = body !~ /^not /
		rest = body
		sub(/^(not )?ok /, "", rest)
		num = rest + 0
		sub(/^[0-9]+ ?/, "", rest)
		name = rest; detail = ""
		if ((p = index(rest, " # ")) > 0) {
			name = substr(rest, 1, p - 1)
			detail = substr(rest, p + 3)
		} else if (rest ~ /^# /) {
			name = ""; detail = substr(rest, 3)
		}
		sub(/ +$/, "", name)
		if (name == "")
			name = "test" num
		st = ok ? "PASS" : "FAIL"
		if (detail ~ /^(SKIP|skip)( |$)/) {
			st = "SKIP"
			sub(/^(SKIP|skip) ?/, "", detail)
		}
		count[d]++
		if (num != count[d])
			problem(sprintf("%s: result %d numbered %d", label[d], count[d], num))
		close_below(d)
		if (st == "FAIL" && detail == "" && why != "" && index(why, name ": ") == 1)
			detail = substr(why, length(name) + 3, 240)
		why = ""
		printf "RESULT %s %s %s\n", name, st, detail
	} else if (body !~ /^#/) {
		# the lines of a failure's message that follow its diagnostic
		if (why != "" && whyl < 3 && body != "") {
			why = why " / " body; whyl++
		}
		next
	}
	if (body ~ /^# [^ ]+: .*FAILED/ && why == "") {
		# KUnit's "# case: EXPECTATION FAILED at file:line", then the
		# message: the detail of the case's "not ok" result
		why = substr(body, 3); whyl = 0
	}
	if (ktap != "")
		print line > ktap
}
END {
	# an incomplete run is the init's to explain (a hang or crash in the
	# test it was running): the lists it left open say nothing more
	if ((0 in plan) && count[0] >= plan[0])
		close_below(0)
	for (i = 1; i <= nerr; i++)
		print "KTAP-ERROR " err[i]
	printf "KTAP-END %d %d %d %s\n", (0 in plan) ? plan[0] : -1, count[0] + 0, done, running
}
