// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's /init: mount the pseudo filesystems, run the tests named by
 * "fork.tests=a,b,c" on the kernel command line, then reboot.  It speaks
 * KTAP (Documentation/dev-tools/ktap.rst) in the kernel log, and so on the
 * console (see out()): one document, one test per guest test, whose
 * results are its subtests:
 *
 *	KTAP version 1
 *	1..2
 *	# fork-init: running smoke
 *	ok 1 smoke # 6.1.192 x86_64
 *	# fork-init: running preemptoff_kunit
 *	    KTAP version 1		(KUnit's, from the kernel log)
 *	    # Subtest: preemptoff
 *	    1..5
 *	    ok 1 preemptoff_report
 *	    ...
 *	ok 2 preemptoff
 *	# fork-init: done
 *
 * A guest test either checks from userspace and prints its result, or its
 * subtest of several (see tests[]), or triggers a kernel self-test, which prints
 * the subtest (indented as KUnit indents a suite) and fails the write when
 * a case failed, or loads a KUnit suite built as a module (kunit_module()).
 * A case that cannot judge is "ok N name # SKIP reason".
 * Static, no libc beyond what glibc-static links: cross-compiled per arch.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>

static char cmdline[4096];

/*
 * The init's output goes into the kernel log, one record per line, through
 * /dev/kmsg (printk.devkmsg=on, boot-tests/boot): a line written to the
 * console tty drains asynchronously, and a printk() of the test it then
 * triggers, or of any other context, could land in the middle of it and
 * break the KTAP line.  Kernel log records reach the console whole, in
 * the order they were logged; the console prefixes them with the printk
 * time, which the host's parser drops.  Standard output until /dev/kmsg
 * can be opened.
 */
static int out_fd = -1;

static void out(const char *fmt, ...)
{
	char buf[1024], rec[1040], *line, *nl;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if (out_fd < 0)
		out_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (out_fd < 0) {
		write(1, buf, strlen(buf));
		return;
	}
	for (line = buf; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		/* level 5 (notice): shown at any console_loglevel above it */
		n = snprintf(rec, sizeof(rec), "<5>%.*s", (int)(nl - line), line);
		write(out_fd, rec, n);
		if (!*nl)
			break;
	}
}

/* the guest test running: its subtest, printed as results come */
static struct {
	const char *name;
	int plan;		/* results the init prints; 0: the kernel does */
	int top;		/* its number in the init's test list */
	int nr, failed, skipped;
	int kernel_err;		/* a kernel self-test's write: -errno */
	char why[200];		/* why the kernel self-test could not run */
	char detail[400];	/* what the test adds to a passing self-test */
} cur;

enum { FAIL, PASS, SKIP };

static void vresult(const char *name, int verdict, const char *fmt, va_list ap)
{
	char detail[400], *h;
	const char *indent;
	int nr;

	vsnprintf(detail, sizeof(detail), fmt, ap);
	/* a '#' would start a directive or diagnostic of its own */
	for (h = detail; (h = strchr(h, '#')); )
		*h = '_';
	cur.failed += verdict == FAIL;
	cur.skipped += verdict == SKIP;
	/* a test of one result is that result: no subtest */
	if (cur.plan == 1) {
		if (cur.nr++)
			return;
		indent = "";
		nr = cur.top;
	} else {
		if (!cur.nr++)
			out("    KTAP version 1\n    # Subtest: %s\n    1..%d\n",
			    cur.name, cur.plan);
		indent = "    ";
		nr = cur.nr;
	}
	out("%s%s %d %s # %s%s\n", indent, verdict == FAIL ? "not ok" : "ok",
	    nr, name, verdict == SKIP ? "SKIP " : "", detail);
}

/* one result of the guest test: a subtest "ok|not ok N name # detail" */
static void result(const char *name, int pass, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vresult(name, pass ? PASS : FAIL, fmt, ap);
	va_end(ap);
}

/*
 * A figure judged against a limit, for the margins of the report
 * (checks/margins): "# margin: NAME measured=X limit=Y us".  A limit
 * needs 3x over what the feature's kernel measures, and its control
 * 3x over the limit.
 */
static void margin(const char *name, long measured_us, long limit_us)
{
	out("# margin: %s measured=%ld limit=%ld us\n", name, measured_us, limit_us);
}

/* a result that cannot judge: "ok N name # SKIP reason" */
static void skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vresult(name, SKIP, fmt, ap);
	va_end(ap);
}

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

/* all of a file that may take several reads (seq_file: a page each) */
static int read_whole(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	size_t got = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	close(fd);
	if (n < 0)
		return -1;
	buf[got] = '\0';
	return (int)got;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* write_file() of a number */
static int write_long(const char *path, long v)
{
	char s[24];

	snprintf(s, sizeof(s), "%ld", v);
	return write_file(path, s);
}

/* value of "key=" on the kernel command line, or NULL */
static const char *param(const char *key, char *val, size_t len)
{
	size_t kl = strlen(key);
	const char *p = cmdline, *found = NULL;

	/* the last one wins, as for the kernel's own parameters */
	while ((p = strstr(p, key))) {
		if ((p == cmdline || p[-1] == ' ') && p[kl] == '=')
			found = p;
		p += kl;
	}
	if (found) {
		size_t n = strcspn(found + kl + 1, " \n");

		if (n >= len)
			n = len - 1;
		memcpy(val, found + kl + 1, n);
		val[n] = '\0';
		return val;
	}
	return NULL;
}

/* the guest booted and runs userspace: every boot has it */
static void test_smoke(void)
{
	struct utsname u;

	uname(&u);
	result("smoke", 1, "%s %s", u.release, u.machine);
}

/*
 * Run an in-kernel self-test through its sysfs trigger: the kernel prints
 * the subtest and fails the write (EIO) when a case failed.  A kernel
 * without the trigger fails the test.
 */
static void kernel_test(const char *path, const char *val)
{
	int err = write_file(path, val);

	cur.kernel_err = err;
	if (err == -ENOENT)
		snprintf(cur.why, sizeof(cur.why), "cannot trigger %s: %s",
			 path, strerror(-err));
	else if (err)
		snprintf(cur.why, sizeof(cur.why), "%s: %s", path,
			 strerror(-err));
}

/* the kernel log from now on: a /dev/kmsg reader positioned at its end */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * The text of the next kernel record (facility 0: not the init's own
 * lines) of a non-blocking /dev/kmsg reader, after its "6,seq,time,-;"
 * prefix, read into @rec; NULL when there is none left.  Records
 * overwritten before they were read are counted in @lost.
 */
static const char *kmsg_next(int fd, char *rec, size_t size, int *lost)
{
	const char *msg;
	ssize_t len;

	for (;;) {
		len = read(fd, rec, size - 1);
		if (len < 0 && errno == EPIPE) {
			(*lost)++;
			continue;
		}
		if (len <= 0)
			return NULL;
		rec[len] = '\0';
		msg = strchr(rec, ';');
		if (!(atoi(rec) >> 3) && msg)
			return msg + 1;
	}
}

/*
 * Print one line of KUnit's subtest (a kernel record's text: a result,
 * the plan or a diagnostic) and count it; the record's continuation
 * lines (an expectation's "\x0a\x09Expected ...") are joined into one.
 */
static void kunit_line(const char *msg, int *plan, int *cases, int *failed,
		       int *skipped)
{
	char line[1024];
	size_t n = 0;

	for (; *msg && *msg != '\n' && n < sizeof(line) - 1; msg++) {
		if (!strncmp(msg, "\\x0a", 4) || !strncmp(msg, "\\x09", 4)) {
			msg += 3;
			line[n++] = ' ';
			continue;
		}
		line[n++] = *msg;
	}
	line[n] = '\0';
	out("%s\n", line);
	if (!strncmp(line, "    1..", 7))
		*plan = atoi(line + 7);
	else if (!strncmp(line, "    ok ", 7))
		*skipped += !!strstr(line, "# SKIP"), ++*cases;
	else
		*failed += !strncmp(line, "    not ok ", 11);
}

/*
 * A KUnit suite built as a module (/lib/modules/MODULE.ko, packed by
 * boot-tests/boot from the build's modules.order): load it, which runs
 * the suite, then print the suite's subtest (its indented lines) from the
 * kernel log records of the load, read through /dev/kmsg.  Not from
 * debugfs: 6.1 keeps 512 bytes of each case's log there (KUNIT_LOG_SIZE),
 * and a failing case's expectation text pushes its "not ok" line out.  A
 * suite that logs more than the log buffer holds (log_buf_len=) loses
 * records, which fails the test.  The console loglevel hides KUnit's
 * info-level lines during the load (its top-level "ok 1 suite" would
 * break our numbering); what a suite must show on the console it prints
 * at notice or above, as the reports do.
 */
/*
 * The module's parameters on the kernel command line ("MODULE.name=value"),
 * which the kernel leaves to modprobe, as modprobe passes them: "name=value"
 * separated by spaces, the last one of a name winning.
 */
static void module_params(const char *module, char *buf, size_t len)
{
	size_t ml = strlen(module), n = 0, w;
	const char *p = cmdline;

	buf[0] = '\0';
	for (; *p; p += strcspn(p, " \n"), p += strspn(p, " \n")) {
		w = strcspn(p, " \n");
		if (w <= ml + 1 || strncmp(p, module, ml) || p[ml] != '.' ||
		    n + w - ml + 1 > len)
			continue;
		n += snprintf(buf + n, len - n, "%s%.*s", n ? " " : "",
			      (int)(w - ml - 1), p + ml + 1);
	}
}

static void kunit_module(const char *module, const char *suite)
{
	char path[128], rec[2048], args[512];
	const char *msg;
	int fd, kfd, err = 0, failed = 0, cases = 0, skipped = 0, plan = -1;
	int lost = 0, in_suite = 0;

	snprintf(path, sizeof(path), "/lib/modules/%s.ko", module);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	kfd = kmsg_open();
	if (fd < 0 || kfd < 0) {
		cur.kernel_err = -errno;
		snprintf(cur.why, sizeof(cur.why), "no %s: %s",
			 fd < 0 ? path : "/dev/kmsg", strerror(errno));
		goto out;
	}
	/* console_loglevel 6: KERN_INFO and below stay off the console */
	syscall(SYS_syslog, 8, NULL, 6);
	module_params(module, args, sizeof(args));
	if (*args)
		out("# fork-init: %s: %s\n", module, args);
	if (syscall(SYS_finit_module, fd, args, 0))
		err = -errno;
	syscall(SYS_syslog, 8, NULL, 7);
	if (err) {
		cur.kernel_err = err;
		snprintf(cur.why, sizeof(cur.why), "loading %s: %s", path,
			 strerror(-err));
		goto out;
	}
	/* the kernel's records from "# Subtest: suite" on */
	while ((msg = kmsg_next(kfd, rec, sizeof(rec), &lost))) {
		if (!in_suite) {
			in_suite = !strncmp(msg, "    # Subtest: ", 15) &&
				   !strncmp(msg + 15, suite, strlen(suite)) &&
				   msg[15 + strlen(suite)] == '\n';
			if (in_suite)
				out("    KTAP version 1\n");
		}
		if (in_suite && (!strncmp(msg, "    ok ", 7) ||
				 !strncmp(msg, "    not ok ", 11) ||
				 !strncmp(msg, "    1..", 7) ||
				 !strncmp(msg, "    # ", 6)))
			kunit_line(msg, &plan, &cases, &failed, &skipped);
	}
	if (plan < 0) {
		cur.kernel_err = -EIO;
		snprintf(cur.why, sizeof(cur.why),
			 "no \"# Subtest: %s\" in the kernel log of the load%s",
			 suite, lost ? " (records were lost)" : "");
	} else if (lost || failed + cases != plan) {
		cur.kernel_err = -EIO;
		snprintf(cur.why, sizeof(cur.why),
			 "the kernel log of the load has %d of the suite's %d results%s",
			 failed + cases, plan,
			 lost ? ", records were lost (log_buf_len= too small)" : "");
	} else if (failed || !cases) {
		cur.kernel_err = -EIO;
	} else if (skipped == cases) {
		snprintf(cur.detail, sizeof(cur.detail), "SKIP every case skipped");
	}
out:
	if (fd >= 0)
		close(fd);
	if (kfd >= 0)
		close(kfd);
}

/*
 * preempt-timing v5: the KUnit suite of the preemptoff tracer's reports
 * (kernel/trace/trace_preemptoff_kunit.c), which needs the tracer armed
 * on the command line (ftrace=preemptoff tracing_thresh=<us>).
 */
static void test_preemptoff_kunit(void)
{
	kunit_module("trace_preemptoff_kunit", "preemptoff");
}

/*
 * preempt-timing v6: the KUnit suite of the latency tracers' kernel-log
 * report (kernel/trace/trace_latency_report_test.c): no tracer or boot
 * parameter needed.
 */
static void test_latency_report_kunit(void)
{
	kunit_module("trace_latency_report_test", "latency_report");
}

/* softirq-arch v3: the KUnit suite of where softirqs run */
static void test_softirq_kunit(void)
{
	kunit_module("softirq_context_test", "softirq_context");
}

#define TR "/sys/kernel/tracing/"

/* tracefs, mounted on first use; 0 when the kernel has it */
static int tracefs(void)
{
	static int mounted;

	if (!mounted) {
		mkdir("/sys/kernel/tracing", 0755);
		mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
		mounted = 1;
	}
	return access(TR "current_tracer", F_OK) ? -errno : 0;
}

/* is the preemptoff tracer the current one (ftrace=preemptoff)? */
static int preemptoff_current(void)
{
	char t[32] = "";

	return !tracefs() && read_file(TR "current_tracer", t, sizeof(t)) > 0 &&
	       !strcmp(t, "preemptoff\n");
}

/*
 * does the part of @line from @start on ("start: ... end: ..." of a
 * report, "start=... end=..." of an event) name one of @attr's words?
 */
static int attributed_at(const char *line, const char *start,
			 const char *attr)
{
	const char *st = strstr(line, start);
	char words[256], *w, *save;

	if (!st)
		return 0;
	snprintf(words, sizeof(words), "%s", attr);
	for (w = strtok_r(words, "|", &save); w; w = strtok_r(NULL, "|", &save))
		if (strstr(st, w))
			return 1;
	return 0;
}

/* whether the symbol after @key in @line (up to a space) is in @attr */
static int token_attributed(const char *line, const char *key, const char *attr)
{
	const char *st = strstr(line, key);
	char tok[160];

	if (!st)
		return 0;
	st += strlen(key);
	snprintf(tok, sizeof(tok), "%.*s", (int)strcspn(st, " "), st);
	return attributed_at(tok, "", attr);
}

static int attributed(const char *report, const char *attr)
{
	return attributed_at(report, "start: ", attr);
}

/*
 * Read the records logged since kmsg_open(); count the reports of the
 * preemptoff tracer (trace option latency-printk), and those attributed
 * to @attr (the first copied to @hit).
 */
static int kmsg_reports(int fd, const char *attr, int *total, char *hit,
			size_t hitlen)
{
	char rec[2048];
	const char *msg;
	int n = 0, lost = 0;	/* overwritten records: go on */

	*total = 0;
	if (fd < 0)
		return -1;
	while ((msg = kmsg_next(fd, rec, sizeof(rec), &lost))) {
		if (!strstr(msg, "non-preemptible critical section"))
			continue;
		(*total)++;
		if (attributed(msg, attr) && !n++)
			snprintf(hit, hitlen, "%.*s", (int)strcspn(msg, "\n"), msg);
	}
	close(fd);
	return n;
}

/*
 * The kernel-log reporter of the irqsoff tracers (trace option
 * latency-printk): after preemptoff_kunit in the same boot, the whole
 * kernel log must hold a report of the suite's 10x-threshold section,
 * start and end in pt_hold(), printed from outside the section.
 */
static void test_preemptoff_printk(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK), total = 0, n;
	char hit[256] = "";

	/* from the start of the log: the suite ran before this test */
	n = kmsg_reports(fd, "start: pt_hold+", &total, hit, sizeof(hit));
	result("preemptoff_printk", n > 0 && strstr(hit, "end: pt_hold+"),
	       "%d of %d report(s) in the log name pt_hold%s%s", n, total,
	       n ? ": " : "", hit);
}

/* the symbol after @key in the latency trace's header, into @sym */
static void header_sym(const char *hdr, const char *key, char *sym, size_t len)
{
	const char *p = strstr(hdr, key);

	snprintf(sym, len, "?");
	if (!p)
		return;
	for (p += strlen(key); *p == ' '; p++)
		;
	snprintf(sym, len, "%.*s", (int)strcspn(p, " \n"), p);
}

/*
 * The preemptoff tracer's longest section since tracing_max_latency was
 * last reset (max mode: tracing_thresh 0), as one line "N us
 * non-preemptible critical section, start: S end: E" ("" if none): its
 * length from tracing_max_latency, its ends from the header of the
 * latency trace.
 */
static void read_max(char *max, size_t len)
{
	static char hdr[4096];
	char us[32] = "", st[96], en[96];

	max[0] = '\0';
	if (read_file(TR "tracing_max_latency", us, sizeof(us)) < 0 || !atol(us))
		return;
	if (read_file(TR "trace", hdr, sizeof(hdr)) < 0)
		hdr[0] = '\0';
	header_sym(hdr, "=> started at:", st, sizeof(st));
	header_sym(hdr, "=> ended at:", en, sizeof(en));
	snprintf(max, len, "%ld us non-preemptible critical section, start: %s end: %s",
		 atol(us), st, en);
}

/* the tracer in max mode, its maximum reset: 0, or why not (in @why) */
static int max_mode(char *why, size_t len)
{
	if (!preemptoff_current()) {
		snprintf(why, len, "the preemptoff tracer is not current (boot with ftrace=preemptoff)");
		return -1;
	}
	if (write_file(TR "tracing_thresh", "0") ||
	    write_file(TR "tracing_max_latency", "0")) {
		snprintf(why, len, "cannot reset %stracing_thresh and tracing_max_latency", TR);
		return -1;
	}
	return 0;
}

/* fault in every page of @p */
static void touch_pages(char *p, size_t sz)
{
	for (size_t i = 0; i < sz; i += 4096)
		p[i] = 1;
}

static long param_long(const char *key, long def)
{
	char v[32];

	return param(key, v, sizeof(v)) ? atol(v) : def;
}

/*
 * A guard counts the sections over its threshold that the preemptoff
 * tracer times inside the windows of its work (window_open() ..
 * window_close()), from the tracer's event preemptirq:critical_timing
 * recorded with a filter (delta > threshold) in a trace instance of the
 * guard's own (the tracer swaps the main buffer on a new maximum); and,
 * for the record, the longest section of each window (the tracer in max
 * mode).  The windows hold only the guarded work: a long section while
 * the guard sets its work up (a page fault under TCG) is not counted.
 */
#define GI TR "instances/fork_guard/"

static const char *guard_attr;
static char window_hit[300], guard_hit[400];
static long window_us, guard_max_us;
static int guard_n, guard_total;
/*
 * guard_escape: judge only the sections that start in @attr's code and
 * end outside it (guard_inside counts those that end in it too)
 */
static int guard_escape, guard_inside;
static long guard_inside_max_us;

/* the guard's instance, recording the sections over @thresh_us: 0 or -errno */
static int guard_events(long thresh_us)
{
	char f[64];
	int err;

	if (mkdir(GI, 0755) && errno != EEXIST)
		return -errno;
	snprintf(f, sizeof(f), "delta > %ld", thresh_us * 1000);
	err = write_file(GI "events/preemptirq/critical_timing/filter", f);
	return err ?: write_file(GI "events/preemptirq/critical_timing/enable", "1");
}

/* a guard's counts reset, judging the sections attributed to @attr */
static void guard_reset(const char *attr)
{
	guard_attr = attr;
	window_us = guard_max_us = 0;
	guard_n = guard_total = 0;
	guard_escape = guard_inside = 0;
	guard_inside_max_us = 0;
	window_hit[0] = guard_hit[0] = '\0';
}

static void window_open(void)
{
	int fd = open(GI "trace", O_WRONLY | O_TRUNC);	/* clears it */

	if (fd >= 0)
		close(fd);
	write_file(TR "tracing_max_latency", "0");
}

/* one line of the guard instance's trace: a section to judge */
static void window_line(const char *l)
{
	long us = strstr(l, "delta=") ? atol(strstr(l, "delta=") + 6) / 1000 : 0;

	if (!strstr(l, "critical_timing:"))
		return;
	guard_total++;
	if (!guard_attr || !attributed_at(l, "start=", guard_attr))
		return;
	if (guard_escape && (!token_attributed(l, "start=", guard_attr) ||
			     token_attributed(l, "end=", guard_attr))) {
		guard_inside++;
		if (token_attributed(l, "start=", guard_attr) && us > guard_inside_max_us)
			guard_inside_max_us = us;
		return;
	}
	if (us > guard_max_us)
		guard_max_us = us;
	if (!guard_n++)	/* the task, its CPU and the event */
		snprintf(guard_hit, sizeof(guard_hit), "%s", l + strspn(l, " "));
}

/*
 * The window's sections: the whole trace of the guard's instance, read a
 * chunk at a time (a window of a TCG guest can hold more than any fixed
 * buffer: the ticks' irqs-off sections alone), every line judged.
 */
static void window_close(void)
{
	char max[300], buf[8192], *l, *nl;
	size_t have = 0;
	ssize_t n;
	int fd;

	read_max(max, sizeof(max));
	if (guard_attr && attributed(max, guard_attr) && atol(max) > window_us) {
		window_us = atol(max);
		snprintf(window_hit, sizeof(window_hit), "%s", max);
	}
	fd = open(GI "trace", O_RDONLY);
	if (fd < 0)
		return;
	while ((n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
		have += n;
		buf[have] = '\0';
		for (l = buf; (nl = strchr(l, '\n')); l = nl + 1) {
			*nl = '\0';
			window_line(l);
		}
		have -= l - buf;
		memmove(buf, l, have);
		if (have == sizeof(buf) - 1)	/* a line longer than buf */
			have = 0;
	}
	if (have) {
		buf[have] = '\0';
		window_line(buf);
	}
	close(fd);
}

/*
 * A guard test's frame, on the preemptoff tracer (ftrace=preemptoff,
 * trace_options=nofunction-trace, and trace_console_latency for the console
 * guard): max mode, the guard's instance armed, run @fn, whose windows
 * are judged.  PASS when no section in a window over @thresh_us is
 * attributed to @attr; the longest attributed section of the windows is
 * printed for the record.
 */
static void guard(const char *name, const char *attr, long thresh_us,
		  void (*fn)(char *what, size_t len))
{
	char what[200] = "", why[128];
	int err;

	if (max_mode(why, sizeof(why))) {
		result(name, 0, "%s", why);
		return;
	}
	err = guard_events(thresh_us);
	if (err) {
		result(name, 0, "cannot record preemptirq:critical_timing in %s: %s",
		       GI, strerror(-err));
		return;
	}
	guard_reset(attr);
	fn(what, sizeof(what));
	margin(name, window_us > guard_max_us ? window_us : guard_max_us, thresh_us);
	if (guard_n)
		result(name, 0, "%s: %d of %d section(s) over %ld us in the windows are in the guarded code: %s%s%s",
		       what, guard_n, guard_total, thresh_us, guard_hit,
		       window_us ? "; longest attributed: " : "",
		       window_us ? window_hit : "");
	else
		result(name, 1, "%s: no section over %ld us in the windows is in the guarded code (%d other); longest attributed: %s",
		       what, thresh_us, guard_total,
		       window_us ? window_hit : "none");
}

/* map, touch and unmap a large mapping: anonymous, THP and file-backed */
static void zap_work(char *what, size_t len)
{
	size_t sz = (size_t)param_long("fork.zap_mib", 256) << 20;
	int kinds = 0, fd;
	char *p;

	for (int thp = 0; thp < 2; thp++) {
		p = mmap(NULL, sz, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			continue;
		if (madvise(p, sz, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE)) {
			/* the kind would not be what it says */
			munmap(p, sz);
			continue;
		}
		touch_pages(p, sz);
		window_open();
		munmap(p, sz);
		window_close();
		kinds++;
	}
	mkdir("/tmp", 01777);
	mount("tmpfs", "/tmp", "tmpfs", 0, "size=80%");
	fd = open("/tmp/zap", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0 && !ftruncate(fd, sz)) {
		p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p != MAP_FAILED) {
			touch_pages(p, sz);
			window_open();
			munmap(p, sz);
			close(fd);
			fd = -1;
			unlink("/tmp/zap");
			window_close();
			kinds++;
		}
	}
	if (fd >= 0) {
		close(fd);
		unlink("/tmp/zap");
	}
	/* and the exit of a task with such a mapping (exit_mmap()) */
	int ready[2], go[2];
	char c = 0;

	if (!pipe(ready) && !pipe(go)) {
		pid_t pid = fork();

		if (pid == 0) {
			p = mmap(NULL, sz, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				_exit(1);
			touch_pages(p, sz);
			if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
				_exit(1);
			_exit(0);
		}
		if (pid > 0 && read(ready[0], &c, 1) == 1) {
			int st;

			window_open();
			if (write(go[1], &c, 1) == 1 && waitpid(pid, &st, 0) == pid &&
			    WIFEXITED(st) && !WEXITSTATUS(st))
				kinds++;
			window_close();
		} else if (pid > 0) {
			waitpid(pid, NULL, 0);
		}
		close(ready[0]);
		close(ready[1]);
		close(go[0]);
		close(go[1]);
	}
	snprintf(what, len, "%d of 4 (munmap of anon, anon THP, shmem; exit with anon) of %zu MiB",
		 kinds, sz >> 20);
}

/* zap-resched: unmapping a large mapping holds no long section */
static void test_zap_unmap(void)
{
	guard("zap_unmap", "zap_|unmap_|tlb_|free_pgtables|exit_mmap|release_pages|free_pages|free_unref_page|free_pcppages|page_remove_rmap|shmem_|truncate",
	      param_long("fork.zap_thresh_us", 20000), zap_work);
}

/*
 * Thousands of lines through /dev/kmsg and so through the console, one
 * writer per online CPU at once: printk() hands the console over from one
 * writer to the next, as under a real logging storm.
 */
static void flood_writer(int cpu, long lines)
{
	int fd = open("/dev/kmsg", O_WRONLY);
	cpu_set_t set;
	char line[128];
	long i;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; fd >= 0 && i < lines; i++) {
		int n = snprintf(line, sizeof(line),
				 "<6>fork-init: console flood cpu %d line %ld of %ld, padding to make it long\n",
				 cpu, i + 1, lines);
		if (write(fd, line, n) < 0)
			break;
	}
	_exit(i == lines ? 0 : 1);
}

/*
 * The fork's test module (boot-tests/modules/fork_load.c, packed as
 * /lib/modules/fork_load.ko): loaded once; 0 or -errno.
 */
static int fork_load(void)
{
	int fd, err = 0;

	if (!access("/sys/module/fork_load", F_OK))
		return 0;
	fd = open("/lib/modules/fork_load.ko", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0))
		err = -errno;
	close(fd);
	return err;
}

/* the function tracer off, where it is built: 0 or -errno */
static int nofunction(void)
{
	return access(TR "options/function-trace", F_OK) ? 0 :
	       write_file(TR "options/function-trace", "0");
}

#define HOLD "/sys/module/fork_load/parameters/hold_ms"
#define HOLD_LOCK "/sys/module/fork_load/parameters/hold_lock_ms"
#define HOLD_IRQ_NMI "/sys/module/fork_load/parameters/hold_irq_nmi_ms"

static double now_ms(void);

/*
 * A child on @cpu holds preemption off for @ms by writing it to fork_load's
 * @param (hold_ms, hold_lock_ms: timed by the clocksource); its pid, or -1.
 * With @ready >= 0 it writes a byte there just before the hold.
 */
static pid_t hold_param(const char *param, int cpu, int ms, int ready)
{
	pid_t pid = fork();

	if (!pid) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		_exit(sched_setaffinity(0, sizeof(set), &set) ||
		      (ready >= 0 && write(ready, "x", 1) != 1) ||
		      write_long(param, ms) ? 1 : 0);
	}
	return pid;
}

static pid_t hold_start(int cpu, int ms)
{
	return hold_param(HOLD, cpu, ms, -1);
}

/* 0 when the child's hold ran */
static int hold_wait(pid_t pid)
{
	int st;

	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       !WEXITSTATUS(st) ? 0 : -1;
}

static long max_us(void)
{
	char us[32] = "";

	return read_file(TR "tracing_max_latency", us, sizeof(us)) < 0 ? -1 :
	       atol(us);
}

/*
 * A hold of @ms on CPU 1 while this process, on CPU 0, switches trace_clock
 * to @clock halfway through: 0, or -1 (@why says why) when it could not
 * judge (the hold had ended before the switch).
 */
static int hold_across(int ms, const char *clock, char *why, size_t len)
{
	int p[2], err;
	double t0, sw;
	pid_t pid;
	char c;

	/* the child says when it starts the hold: the switch is inside it */
	if (pipe(p)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = hold_param(HOLD, 1, ms, p[1]);
	close(p[1]);
	if (pid < 0 || read(p[0], &c, 1) != 1) {
		close(p[0]);
		hold_wait(pid);
		snprintf(why, len, "the holder did not start");
		return -1;
	}
	close(p[0]);
	t0 = now_ms();
	usleep(ms * 1000 / 2);
	sw = now_ms() - t0;
	err = write_file(TR "trace_clock", clock);
	if (hold_wait(pid) || err) {
		snprintf(why, len, "the hold or the switch to %s failed", clock);
		return -1;
	}
	if (now_ms() - t0 <= sw + 1) {
		snprintf(why, len, "the hold had ended when the clock changed");
		return -1;
	}
	return 0;
}

/*
 * preempt-timing v6: a section open across a change of the trace clock
 * has no length.  The preemptoff tracer, armed here in max mode with the
 * "local" clock (and latency-printk where the kernel has it).  Three
 * holds of preemption on CPU 1, by fork_load's hold_ms:
 *   A: across local -> counter: ends on a clock of a few thousand counts,
 *      before it began; as a length, a maximum of about 2^64 ns (6.1);
 *   B: across counter -> local: ends "uptime" later; as a length, a
 *      maximum of the uptime (seconds);
 * A and B must leave no maximum of a third of the hold (the other
 * sections of the window are a few ms; 22 ms seen on ppc64le).
 *   C: on local alone: a real section, which must still be recorded.
 * Where the tracer reports (latency-printk set and C's maximum reported:
 * the option exists one commit before the tracers use it), the log must
 * count the sections of A and B as spanning a change of the trace clock,
 * and not the many that begin while the buffers are reset after it.
 */
static void test_latency_clock(void)
{
	const int ms = param_long("fork.clock_hold_ms", 600);
	/*
	 * A change (3: the setup's, A's, B's) can find one section open on
	 * each CPU, and one may begin in its two stores: 2 per CPU each,
	 * with a margin of 3 (4-5 seen on 2 CPUs)
	 */
	const long spans = 3 * 2 * 3 * sysconf(_SC_NPROCESSORS_ONLN);
	long a, b, c, back = 0;
	double t0;
	char why[128] = "", rec[1024];
	const char *msg;
	int err, printk, kfd, lost = 0, reports = 0;

	if (tracefs() || write_file(TR "current_tracer", "preemptoff")) {
		skip("latency_clock", "no preemptoff tracer");
		return;
	}
	err = fork_load();
	if (err || access(HOLD, F_OK)) {
		result("latency_clock", 0, "fork_load: %s", err ? strerror(-err) :
		       "no hold_ms parameter");
		return;
	}
	printk = !write_file(TR "options/latency-printk", "1");
	kfd = kmsg_open();
	if (nofunction() ||
	    write_file(TR "trace_clock", "local") ||
	    write_file(TR "tracing_thresh", "0") ||
	    write_file(TR "tracing_max_latency", "0")) {
		result("latency_clock", 0, "cannot arm the preemptoff tracer in max mode");
		return;
	}
	if (hold_across(ms, "counter", why, sizeof(why)))
		goto cannot;
	a = max_us();
	if (hold_across(ms, "local", why, sizeof(why)))
		goto cannot;
	b = max_us();
	/*
	 * In max mode, a section that another CPU's new maximum overtook
	 * while it was open is dropped (critical_sequence): C must beat a
	 * floor that the other CPUs' sections of a few ms do not reach.
	 */
	if (write_long(TR "tracing_max_latency", ms * 1000L / 6)) {
		snprintf(why, sizeof(why), "cannot set tracing_max_latency");
		goto cannot;
	}
	if (hold_wait(hold_start(1, ms / 2))) {
		snprintf(why, sizeof(why), "the last hold failed");
		goto cannot;
	}
	c = max_us();
	write_file(TR "current_tracer", "nop");

	/*
	 * the reporter prints later: wait for C's report and the counts, up
	 * to 3 ratelimit intervals of 5 s (a count held back by the
	 * ratelimit comes at the end of the interval of the boot's first
	 * report, up to 5 s after C)
	 */
	t0 = now_ms();
	while (kfd >= 0) {
		msg = kmsg_next(kfd, rec, sizeof(rec), &lost);
		if (msg && strstr(msg, " section(s) spanned a change of the trace clock"))
			back += atol(msg);
		else if (msg && strstr(msg, " us non-preemptible critical section on CPU "))
			reports++;
		else if (!msg && (!printk || (reports && back >= 2) || now_ms() - t0 > 15000))
			break;
		else if (!msg)
			usleep(20000);
	}
	if (kfd >= 0)
		close(kfd);
	margin("latency_clock", b, ms * 1000L / 3);
	result("latency_clock",
	       a >= 0 && a < ms * 1000L / 3 && b < ms * 1000L / 3 &&
	       c > ms * 1000 / 6 &&
	       (!printk || !reports || (back >= 2 && back <= spans)),
	       "max after a hold of %d ms across local->counter: %ld us, across counter->local: %ld us, after %d ms on local: %ld us (limits: under %d ms, then over %d ms)%s%d report(s), %ld section(s) counted as spanning a clock change (2 to %ld)",
	       ms, a, b, ms / 2, c, ms / 3, ms / 6,
	       printk ? "; latency-printk: " : "; no latency-printk option; ",
	       reports, back, spans);
	return;
cannot:
	write_file(TR "current_tracer", "nop");
	skip("latency_clock", "%s", why);
}

/* the records logged since @fd was opened that contain @needle: count, first in @hit */
static int kmsg_grep(int fd, const char *needle, char *hit, size_t len)
{
	char rec[2048];
	const char *msg;
	int n = 0, lost = 0;

	while (fd >= 0 && (msg = kmsg_next(fd, rec, sizeof(rec), &lost))) {
		if (!strstr(msg, needle))
			continue;
		if (!n++ && hit)
			snprintf(hit, len, "%.*s", (int)strcspn(msg, "\n"), msg);
	}
	return n;
}

/* the pid of the latency reporter's thread (latency_report), 0 if none */
static int reporter_pid(void)
{
	char path[64], comm[32];
	DIR *d = opendir("/proc");
	struct dirent *e;
	int pid = 0;

	while (d && !pid && (e = readdir(d))) {
		pid = atoi(e->d_name);
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		if (pid <= 0 || read_file(path, comm, sizeof(comm)) <= 0 ||
		    strcmp(comm, "latency_report\n"))
			pid = 0;
	}
	if (d)
		closedir(d);
	return pid;
}

/*
 * preempt-timing v6: the kernel-log report of the preemptoff tracer's hits
 * (trace option latency-printk), the tracer armed here through tracefs
 * with tracing_thresh fork.printk_thresh_us (50 ms).  A hold on CPU 1 of a
 * third of the threshold must not be reported; one of 6 times the
 * threshold must be, once, as a non-preemptible section on CPU 1 that
 * starts and ends in fork_load's hold_set(); the same hold with the
 * option off must not be; the same hold under a spinlock must be reported
 * in hold_lock_set(), the lock's caller, not in the lock functions.  The option is one file of
 * the trace array, also in an instance, and takes 0 and 1 however many
 * latency tracers are built: no "Could not create tracefs" in the log.
 * The reporter's thread (latency_report) is made when the option is first
 * set: none before, one after.
 */
static void test_latency_printk(void)
{
	const long thresh = param_long("fork.printk_thresh_us", 50000);
	char hit[512] = "", lhit[512] = "", opt[8] = "", err[256] = "";
	int kfd, n_off, n_short, n_long, n_lock, e, errs;

	if (tracefs() || write_file(TR "current_tracer", "preemptoff")) {
		skip("latency_printk", "no preemptoff tracer");
		return;
	}
	e = fork_load();
	if (e || access(HOLD, F_OK)) {
		result("latency_printk", 0, "fork_load: %s", e ? strerror(-e) :
		       "no hold_ms parameter");
		return;
	}
	mkdir(TR "instances/fork_printk", 0755);
	if (nofunction() ||
	    write_long(TR "tracing_thresh", thresh)) {
		result("latency_printk", 0, "cannot arm the preemptoff tracer");
		goto out;
	}
	/* made when the option is first set: a kernel that never does has none */
	if (reporter_pid()) {
		result("latency_printk", 0, "the reporter's thread runs before latency-printk was ever set");
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		e = write_file(TR "options/latency-printk", i ? "1" : "0");
		if (e || read_file(TR "options/latency-printk", opt, sizeof(opt)) < 0 ||
		    opt[0] != '0' + i) {
			result("latency_printk", 0, "options/latency-printk: writing %d: %s, read back \"%.*s\"",
			       i, e ? strerror(-e) : "ok", (int)strcspn(opt, "\n"), opt);
			goto out;
		}
	}
	if (!reporter_pid()) {
		result("latency_printk", 0, "no reporter's thread once latency-printk was set");
		goto out;
	}
	if (access(TR "instances/fork_printk/options/latency-printk", F_OK)) {
		result("latency_printk", 0, "an instance has no options/latency-printk: %s",
		       strerror(errno));
		goto out;
	}

	kfd = kmsg_open();
	/* the option off: a long hold is no report */
	write_file(TR "options/latency-printk", "0");
	hold_wait(hold_start(1, thresh * 6 / 1000));
	usleep(500 * 1000);	/* the report is printed by the reporter's thread */
	n_off = kmsg_grep(kfd, "start: hold_set+", NULL, 0);
	write_file(TR "options/latency-printk", "1");
	hold_wait(hold_start(1, thresh / 3000));
	usleep(500 * 1000);
	n_short = kmsg_grep(kfd, "start: hold_set+", NULL, 0);
	hold_wait(hold_start(1, thresh * 6 / 1000));
	usleep(500 * 1000);
	n_long = kmsg_grep(kfd, "start: hold_set+", hit, sizeof(hit));
	hold_wait(hold_param(HOLD_LOCK, 1, thresh * 6 / 1000, -1));
	usleep(500 * 1000);
	n_lock = kmsg_grep(kfd, "start: hold_lock_set+", lhit, sizeof(lhit));
	if (kfd >= 0)
		close(kfd);
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);	/* the whole log */
	errs = kmsg_grep(kfd, "Could not create tracefs", err, sizeof(err));
	if (kfd >= 0)
		close(kfd);

	result("latency_printk",
	       !n_off && !n_short && n_long == 1 &&
	       strstr(hit, "us non-preemptible critical section on CPU 1 ") &&
	       strstr(hit, "end: hold_set+") && n_lock == 1 &&
	       strstr(lhit, "end: hold_lock_set+") && !errs,
	       "the option off, a hold of %ld ms: %d report(s); on, a hold of %ld ms: %d report(s); of %ld ms: %d report(s)%s%s; under a spinlock: %d report(s)%s%s; %d \"Could not create tracefs\" line(s)%s%s",
	       thresh * 6 / 1000, n_off, thresh / 3000, n_short,
	       thresh * 6 / 1000, n_long, n_long ? ": " : "", hit,
	       n_lock, n_lock ? ": " : "", lhit, errs, errs ? ": " : "", err);
out:
	write_file(TR "options/latency-printk", "0");
	write_file(TR "current_tracer", "nop");
	rmdir(TR "instances/fork_printk");
}

/*
 * One phase of latency_pause: a hold of @ms on CPU 1 while a reader of
 * "trace" is open (pause-on-trace stops tracing), then the same hold with
 * the reader closed.  The reports of hold_set() in the log for each into
 * @n_open, @n_closed; tracing_max_latency after each into @max_open,
 * @max_closed.  0, or -1 when "trace" cannot be opened.
 */
static int pause_phase(int ms, int *n_open, int *n_closed, long *max_open,
		       long *max_closed, char *hit, size_t len)
{
	int kfd = kmsg_open(), fd = open(TR "trace", O_RDONLY);

	if (fd < 0) {
		if (kfd >= 0)
			close(kfd);
		return -1;
	}
	hold_wait(hold_start(1, ms));
	usleep(500 * 1000);	/* the report is printed by the reporter's thread */
	*max_open = max_us();
	*n_open = kmsg_grep(kfd, "start: hold_set+", NULL, 0);
	close(fd);
	hold_wait(hold_start(1, ms));
	usleep(500 * 1000);
	*max_closed = max_us();
	*n_closed = kmsg_grep(kfd, "start: hold_set+", hit, len);
	if (kfd >= 0)
		close(kfd);
	return 0;
}

/*
 * preempt-timing v6: armed from the command line alone, as the cover and
 * the documentation show it (ftrace=preemptoff tracing_thresh=50000
 * trace_options=nofunction-trace,latency-printk): the option is applied
 * before kthreads can start, and the reporter's thread must start in the
 * early initcall.  The thread runs, the option reads 1, and a hold of
 * 300 ms on CPU 1 is reported, at once: the boot must not have used up
 * the ratelimit (10 reports in 5 s).  Under TCG the trace clock switches
 * to "global" in a late initcall, and every section open across it, and
 * all those of the drains that print their count, are counted: counts
 * wait for a hit or the end of the interval.
 */
static void test_latency_cmdline(void)
{
	char opt[8] = "", cur[32] = "", hit[512] = "";
	int kfd, n, e, boot, pid = reporter_pid();

	if (tracefs()) {
		result("latency_cmdline", 0, "cannot mount tracefs");
		return;
	}
	read_file(TR "options/latency-printk", opt, sizeof(opt));
	read_file(TR "current_tracer", cur, sizeof(cur));
	if (strcmp(cur, "preemptoff\n") || opt[0] != '1') {
		result("latency_cmdline", 0, "not armed from the command line: current_tracer \"%.*s\", latency-printk \"%.*s\"",
		       (int)strcspn(cur, "\n"), cur, (int)strcspn(opt, "\n"), opt);
		return;
	}
	e = fork_load();
	if (e || access(HOLD, F_OK)) {
		result("latency_cmdline", 0, "fork_load: %s", e ? strerror(-e) : "no hold_ms parameter");
		return;
	}
	/*
	 * what the reporter printed during the boot, from the start: hits
	 * and summaries (under TCG the trace clock switches to "global" in a
	 * late initcall, and the sections across it are counted)
	 */
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	boot = kmsg_grep(kfd, " critical section on CPU ", NULL, 0);
	if (kfd >= 0)
		close(kfd);
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	boot += kmsg_grep(kfd, " section(s) ", NULL, 0);
	if (kfd >= 0)
		close(kfd);
	kfd = kmsg_open();
	hold_wait(hold_start(1, 300));
	usleep(500 * 1000);	/* the report is printed by the reporter's thread */
	n = kmsg_grep(kfd, "start: hold_set+", hit, sizeof(hit));
	if (kfd >= 0)
		close(kfd);
	result("latency_cmdline", pid > 0 && boot < 10 && n == 1,
	       "the reporter's thread %s; %d report(s) and summaries during the boot (10 use up the ratelimit's burst); a hold of 300 ms: %d report(s)%s%s",
	       pid > 0 ? "runs" : "does not run", boot, n, n ? ": " : "", hit);
}

/*
 * preempt-timing v6: a hit is what the tracer records, and with
 * pause-on-trace (the tracer sets it) a reader of "trace" stops tracing.
 * Max mode (tracing_thresh 0): the maximum set to a third of the hold, so
 * that only the hold can be a new one, a hold of fork.pause_hold_ms on
 * CPU 1 while the reader is open must be neither the maximum nor
 * reported; the same hold after it closed must be both.  Threshold mode
 * (tracing_thresh a third of the hold): not reported while the reader is
 * open, reported after.
 */
static void test_latency_pause(void)
{
	const int ms = param_long("fork.pause_hold_ms", 300);
	char v[32], hit[512] = "", hit2[512] = "";
	int n_open, n_closed, t_open, t_closed, e;
	long max_open, max_closed, t_max_open, t_max_closed;

	if (tracefs() || write_file(TR "current_tracer", "preemptoff")) {
		skip("latency_pause", "no preemptoff tracer");
		return;
	}
	e = fork_load();
	if (e || access(HOLD, F_OK)) {
		result("latency_pause", 0, "fork_load: %s", e ? strerror(-e) :
		       "no hold_ms parameter");
		return;
	}
	snprintf(v, sizeof(v), "%d", ms * 1000 / 3);
	if (nofunction() ||
	    write_file(TR "options/pause-on-trace", "1") ||
	    write_file(TR "options/latency-printk", "1") ||
	    write_file(TR "tracing_thresh", "0") ||
	    write_file(TR "tracing_max_latency", v) ||
	    pause_phase(ms, &n_open, &n_closed, &max_open, &max_closed,
			hit, sizeof(hit)) ||
	    write_file(TR "tracing_thresh", v) ||
	    pause_phase(ms, &t_open, &t_closed, &t_max_open, &t_max_closed,
			hit2, sizeof(hit2))) {
		result("latency_pause", 0, "cannot arm the preemptoff tracer with latency-printk, or open %strace",
		       TR);
		goto out;
	}
	result("latency_pause",
	       !n_open && max_open == ms * 1000 / 3 && n_closed == 1 &&
	       max_closed > ms * 1000 / 3 && !t_open && t_closed == 1,
	       "max mode from %d us, a hold of %d ms with \"trace\" open: max %ld us, %d report(s); closed: max %ld us, %d report(s)%s%s; threshold %d us: open %d report(s), closed %d",
	       ms * 1000 / 3, ms, max_open, n_open, max_closed, n_closed,
	       n_closed ? ": " : "", hit, ms * 1000 / 3, t_open, t_closed);
out:
	write_file(TR "tracing_thresh", "0");
	write_file(TR "options/latency-printk", "0");
	write_file(TR "current_tracer", "nop");
}

#define BACKLOG "/sys/module/fork_load/parameters/console_backlog"
#define FLOOD "/sys/module/fork_load/parameters/console_"

/*
 * Two windows.  First a backlog left to a printk() caller: a console_lock()
 * holder logs "fork.backlog_records=" records and a kthread's printk() on
 * another CPU takes the console over to write them (the fork_load module
 * fails the write with EAGAIN when it did not), which is where a printk()
 * caller writes for long.  Then the flood of "fork.flood_lines=" lines from
 * "fork.flood_writers=" writers (default: one per CPU).
 */
static void flood_work(char *what, size_t len)
{
	long records = param_long("fork.backlog_records", 2000);
	long lines = param_long("fork.flood_lines", 3000);
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN), ok = 0, st, err;
	char n[24], res[400] = "";
	int writers;

	if (cpus < 1)
		cpus = 1;
	writers = (int)param_long("fork.flood_writers", cpus);
	snprintf(n, sizeof(n), "%ld", records);
	err = fork_load();
	if (!err) {
		window_open();
		err = write_file(BACKLOG, n);
		window_close();
	}
	read_file(FLOOD "result", res, sizeof(res));
	res[strcspn(res, "\n")] = '\0';
	if (err == -EAGAIN)
		result("console_backlog", 0, "%ld records: neither taken over by a printk() caller nor written with the printer thread: the load did not happen: %s",
		       records, res);
	else if (err == -ENODEV)
		skip("console_backlog", "needs a second online CPU");
	else if (err)
		result("console_backlog", 0, "cannot make a backlog through %s: %s",
		       BACKLOG, strerror(-err));
	else
		result("console_backlog", 1, "%ld records written: %s", records, res);

	window_open();
	for (int w = 0; w < writers; w++)
		if (fork() == 0)
			flood_writer(w % cpus, lines);
	while (wait(&st) > 0)
		ok += WIFEXITED(st) && !WEXITSTATUS(st);
	window_close();
	snprintf(what, len, "backlog of %ld records, then %d writer(s) of %ld lines, %d complete",
		 records, writers, lines, ok);
}

/*
 * The console code, by the symbols a section starts or ends in: the
 * printer thread's (printer_emit_one(), printk_printer()) whether or not
 * the compiler inlines one into the other
 */
#define CONSOLE_CODE "console|printk|printer|serial|uart|8250|hvc|vt_|devkmsg"

/*
 * Did the kernel take @name from its command line?  It passes the ones it
 * does not know to the init, and says so in the log.
 */
static int kernel_param_unknown(const char *name)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK), lost = 0, found = 0;
	char rec[2048];
	const char *msg;

	while (fd >= 0 && (msg = kmsg_next(fd, rec, sizeof(rec), &lost)))
		if (strstr(msg, "Unknown kernel command line parameters") &&
		    strstr(msg, name))
			found = 1;
	if (fd >= 0)
		close(fd);
	return found;
}

/*
 * preempt-timing v6: booted with trace_console_latency, the preemptoff
 * tracer (ftrace=preemptoff) times the console output of printk(): the
 * backlog of fork.backlog_records records that a console_lock() holder
 * leaves to a printk() caller (fork_load's console_backlog) is written by
 * that caller with preemption disabled, a section in the console code over
 * fork.console_thresh_us (25 ms).  Without the option (the control:
 * trace_console_latency=0) the driver calls are left out of the sections
 * and none is seen.
 */
static void test_latency_console(void)
{
	long thresh = param_long("fork.console_thresh_us", 25000);
	long records = param_long("fork.backlog_records", 4000);
	char n[24], why[128], res[400] = "";
	int err;

	if (kernel_param_unknown("trace_console_latency")) {
		result("latency_console", 0, "this kernel has no trace_console_latency");
		return;
	}
	if (max_mode(why, sizeof(why))) {
		result("latency_console", 0, "%s", why);
		return;
	}
	err = guard_events(thresh);
	if (err) {
		result("latency_console", 0, "cannot record preemptirq:critical_timing in %s: %s",
		       GI, strerror(-err));
		return;
	}
	guard_reset(CONSOLE_CODE);
	snprintf(n, sizeof(n), "%ld", records);
	err = fork_load();
	if (!err) {
		window_open();
		err = write_file(BACKLOG, n);
		window_close();
	}
	read_file(FLOOD "result", res, sizeof(res));
	res[strcspn(res, "\n")] = '\0';
	if (err == -ENODEV) {
		skip("latency_console", "needs a second online CPU");
		return;
	}
	if (err) {
		result("latency_console", 0, "%ld records: not taken over by a printk() caller, the load did not happen (%s): %s",
		       records, strerror(-err), res);
		return;
	}
	result("latency_console", guard_n > 0,
	       "%ld records left to a printk() caller (%s): %d of %d section(s) over %ld us in the console code%s%s",
	       records, res, guard_n, guard_total, thresh,
	       guard_n ? ": " : "", guard_hit);
}

/*
 * preempt-timing v6: the latency reports are logged at KERN_DEBUG, and no
 * console writes them at the default loglevel: booted with
 * trace_console_latency, a report written to a slow console would be a
 * section that reports itself.  The preemptoff tracer armed here
 * (tracing_thresh fork.output_thresh_us, 20 ms, latency-printk), a
 * console that takes 200 ms per record (fork_load's console_slow_us), a
 * hold of 300 ms on CPU 1: its report must be logged, every record of it
 * at level 7 (/dev/kmsg), and no section of the reporter's thread
 * (latency_report) reported.  Then the same with the console loglevel
 * raised to 8, so that the console writes the report, 200 ms a record,
 * timed: the reporter's own sections are not reported one by one (they
 * would report themselves for as long as the system runs), but counted
 * in one summary line ("hit(s) ended while the reporter wrote a
 * report"), whose longest follows it: that summary must come.
 */
static void test_latency_report_output(void)
{
	const long thresh = param_long("fork.output_thresh_us", 20000);
	char hit[2][512] = { "", "" }, self[512] = "", rec[2048], level[64] = "";
	int kfd, n[2] = { 0, 0 }, n_self[2] = { 0, 0 }, n_long = 0, n_level = 0, e, lost = 0;
	int n_own[2] = { 0, 0 }, own_next = 0;
	long longest = 0;
	const char *msg;

	if (kernel_param_unknown("trace_console_latency")) {
		result("latency_report_output", 0, "this kernel has no trace_console_latency");
		return;
	}
	if (tracefs() || write_file(TR "current_tracer", "preemptoff")) {
		skip("latency_report_output", "no preemptoff tracer");
		return;
	}
	e = fork_load();
	if (e || access(HOLD, F_OK)) {
		result("latency_report_output", 0, "fork_load: %s",
		       e ? strerror(-e) : "no hold_ms parameter");
		return;
	}
	if (nofunction() || write_long(TR "tracing_thresh", thresh) ||
	    write_file(TR "options/latency-printk", "1")) {
		result("latency_report_output", 0, "cannot arm the preemptoff tracer with latency-printk");
		goto out;
	}
	e = write_file(FLOOD "slow_us", "200000");
	if (e) {
		result("latency_report_output", 0, "cannot register the slow console: %s",
		       strerror(-e));
		goto out;
	}
	/* 0: the default console loglevel; 1: raised, the consoles write the reports */
	for (int ph = 0; ph < 2; ph++) {
		if (ph)
			write_file("/proc/sys/kernel/printk", "8");
		kfd = kmsg_open();
		hold_wait(hold_start(1, 300));
		/*
		 * the report, ~15 records of 200 ms, and what they cause; then
		 * the summary of its own output, at the end of the ratelimit
		 * interval (5 s), 2 records
		 */
		sleep(ph ? 8 : 5);
		while (kfd >= 0 && (msg = kmsg_next(kfd, rec, sizeof(rec), &lost))) {
			if (strstr(msg, " hit(s) ended while the reporter wrote a report")) {
				n_own[ph]++;
				own_next = 1;
				continue;
			}
			if (!strstr(msg, " critical section on CPU "))
				continue;
			if (own_next) {	/* the summary's longest */
				own_next = 0;
				continue;
			}
			if (atoi(rec) != 7 && !n_level++)
				snprintf(level, sizeof(level), "%.*s", (int)strcspn(rec, ";"), rec);
			if (strstr(msg, "start: hold_set+") && !n[ph]++)
				snprintf(hit[ph], sizeof(hit[ph]), "%.*s", (int)strcspn(msg, "\n"), msg);
			if (strstr(msg, "(latency_report/")) {
				n_self[ph]++;
				if (atol(msg) >= 200000 / 3 &&
				    strstr(msg, "start: vprintk_emit+") &&
				    strstr(msg, "end: vprintk_emit+") && !n_long++)
					snprintf(self, sizeof(self), "%.*s",
						 (int)strcspn(msg, "\n"), msg);
				longest = atol(msg) > longest ? atol(msg) : longest;
			}
		}
		if (kfd >= 0)
			close(kfd);
	}
	write_file("/proc/sys/kernel/printk", "7");
	write_file(FLOOD "slow_us", "0");
	margin("latency_report_output", longest, 200000 / 3);
	result("latency_report_output",
	       n[0] == 1 && n[1] == 1 && !n_self[0] && !n_self[1] && !n_level && n_own[1],
	       "reports of a hold of 300 ms: %d, then with the console loglevel raised %d (1 each); records not at level 7: %d%s%s; the reporter's sections reported one by one: %d, then %d, the longest %ld us; summaries of its own output: %d, then %d (at least 1); whole printk()s of its own over %d us: %d%s%s; the reports: %s; %s",
	       n[0], n[1], n_level, n_level ? ", the first: " : "", level,
	       n_self[0], n_self[1], longest, n_own[0], n_own[1],
	       200000 / 3, n_long, n_long ? ": " : "", self, hit[0], hit[1]);
out:
	write_file(TR "options/latency-printk", "0");
	write_file(TR "current_tracer", "nop");
}

/*
 * preempt-timing v6: NMI exit closes the irqs-off section NMI entry
 * opened, and only that one.  It did only under lockdep: without it the
 * section ran on in the interrupted context until its next interrupt
 * enable.  The irqsoff tracer, armed here, its event recorded over 100
 * us; CPU 1 is sent NMIs (fork_load's nmi_cpu1, x86):
 *   1. 100 NMIs while it runs a user-space loop for 2 s: no irqs-off
 *      section over 100 us that starts in the NMI path and ends outside
 *      it.  One that starts and ends in it is the NMI's own (as with
 *      lockdep; over 100 us only when the host took the vCPU away, under
 *      single-threaded TCG a slice of the other vCPU): counted, not
 *      judged.
 *   2. an NMI every 5 ms while it holds interrupts off in the kernel for
 *      300 ms (fork_load's hold_irq_nmi_ms, written on CPU 1): the hold
 *      stays one section, of at least a third of the hold, that starts
 *      and ends in it; an NMI exit that closed a section it did not
 *      open would cut it short.
 * It cannot judge with lockdep (which closes the section) or without the
 * irqsoff tracer.
 */
static void test_latency_nmi(void)
{
	const int hold = 300;
	cpu_set_t mine, cpu0, cpu1;
	double t_fork, t_nmi, t_nmi_end;
	int e, st, n1, total1, inside1;
	char hit1[400];
	pid_t pid;

	if (!access("/proc/lockdep", F_OK)) {
		skip("latency_nmi", "lockdep closes the NMI's section: needs a kernel without it");
		return;
	}
	if (tracefs() || write_file(TR "current_tracer", "irqsoff")) {
		skip("latency_nmi", "no irqsoff tracer");
		return;
	}
	e = fork_load();
	if (e || access("/sys/module/fork_load/parameters/nmi_cpu1", F_OK) ||
	    access(HOLD_IRQ_NMI, F_OK)) {
		result("latency_nmi", 0, "fork_load: %s", e ? strerror(-e) :
		       "no nmi_cpu1 or hold_irq_nmi_ms parameter");
		goto out;
	}
	/* the tracer's event, not its reports: those are ratelimited */
	e = guard_events(100);
	if (e || nofunction() || write_file(TR "tracing_thresh", "100")) {
		result("latency_nmi", 0, "cannot arm the irqsoff tracer or record its event");
		goto out;
	}
	guard_reset("nmi");
	guard_escape = 1;
	/* this process on CPU 0, the loop alone on CPU 1 */
	sched_getaffinity(0, sizeof(mine), &mine);
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	sched_setaffinity(0, sizeof(cpu0), &cpu0);
	window_open();
	pid = fork();
	if (!pid) {
		cpu_set_t set;
		double t0;

		CPU_ZERO(&set);
		CPU_SET(1, &set);
		sched_setaffinity(0, sizeof(set), &set);
		for (t0 = now_ms(); now_ms() - t0 < 2000;)
			for (volatile int i = 0; i < 5000000; i++)
				;
		_exit(0);
	}
	t_fork = now_ms();
	usleep(100 * 1000);
	t_nmi = now_ms() - t_fork;
	e = write_file("/sys/module/fork_load/parameters/nmi_cpu1", "100");
	t_nmi_end = now_ms() - t_fork;
	waitpid(pid, &st, 0);
	window_close();
	if (e == -ENODEV) {
		skip("latency_nmi", "no NMI to send on this arch");
		goto cpus;
	}
	if (e) {
		result("latency_nmi", 0, "nmi_cpu1: %s", strerror(-e));
		goto cpus;
	}
	if (!guard_total) {
		skip("latency_nmi", "no irqs-off section over 100 us was recorded in the window: cannot judge");
		goto cpus;
	}
	n1 = guard_n;
	total1 = guard_total;
	inside1 = guard_inside;
	snprintf(hit1, sizeof(hit1), "%s", guard_hit);

	/* 2: the write on CPU 1, where the module holds interrupts off */
	guard_reset("hold_irq_nmi_set");
	guard_escape = 1;
	CPU_ZERO(&cpu1);
	CPU_SET(1, &cpu1);
	window_open();
	e = sched_setaffinity(0, sizeof(cpu1), &cpu1) ? -errno :
	    write_long(HOLD_IRQ_NMI, hold);
	window_close();
	if (e == -EAGAIN) {
		skip("latency_nmi", "no NMI came during the irqs-off hold: cannot judge");
		goto cpus;
	}
	if (e) {
		result("latency_nmi", 0, "hold_irq_nmi_ms: %s", strerror(-e));
		goto cpus;
	}
	/* a floor, not a limit (checks/margins reads limits): 3x by design */
	result("latency_nmi",
	       !n1 && !guard_n && guard_inside_max_us >= hold * 1000L / 3,
	       "user-space loop, 100 NMIs (%.0f-%.0f ms in): %d of %d section(s) over 100 us start in the NMI path and end outside it, %d in it; irqs-off hold of %d ms, an NMI every 5 ms: its section %ld us (at least %d ms), %d cut short%s%s",
	       t_nmi, t_nmi_end, n1, total1, inside1, hold, guard_inside_max_us,
	       hold / 3, guard_n, n1 || guard_n ? ": " : "", n1 ? hit1 : guard_hit);
cpus:
	sched_setaffinity(0, sizeof(mine), &mine);
out:
	write_file(TR "tracing_thresh", "0");
	write_file(TR "current_tracer", "nop");
}

/* console-resched: console output holds no long section */
static void test_console(void)
{
	guard("console_flood", CONSOLE_CODE,
	      param_long("fork.flood_thresh_us", 20000), flood_work);
}

/*
 * A numbered flood of "fork.<mode>_records=" records through printk(),
 * counted by a console of the fork_load module (fork_flood()): @mode
 * "order" (all must arrive, once, in order), "drop" (the printer
 * starved: what is missing must be what the dropped notices say),
 * "sysrq" (the printer starved, sysrq with interrupts off returns at
 * once), "wake" (logged under console_lock(): all arrive) or
 * "unregister" (N: a producer's seconds; the console's removal returns
 * while it logs).  @again: why the test could not judge
 * when the module says so (EAGAIN).
 */
static void console_count(const char *mode, long def, const char *again)
{
	char key[32], path[64], n[24], res[400] = "";
	long records;
	int err;

	snprintf(key, sizeof(key), "fork.%s_records", mode);
	records = param_long(key, def);
	snprintf(n, sizeof(n), "%ld", records);
	snprintf(path, sizeof(path), FLOOD "%s", mode);
	err = fork_load();
	if (!err)
		err = write_file(path, n);
	read_file(FLOOD "result", res, sizeof(res));
	res[strcspn(res, "\n")] = '\0';
	snprintf(key, sizeof(key), "console_%s", mode);
	if (err == -ENODEV)
		skip(key, "cannot register the counting console, or no second online CPU");
	else if (err == -EAGAIN)
		skip(key, "%s: %s", again, res);
	else
		result(key, !err, "%s%s%s", err ? strerror(-err) : "",
		       err ? ": " : "", res[0] ? res : "no counts");
}

/* console-resched: a flood that fits the log buffer arrives whole */
static void test_console_order(void)
{
	console_count("order", 4000, "cannot judge");
}

/*
 * console-resched: records logged under console_lock() all reach the
 * console once the lock is released, with nothing logged later to wake
 * the printer
 */
static void test_console_wake(void)
{
	console_count("wake", 200,
		      "in every attempt a record logged by others woke the printer first");
}

/*
 * console-resched: unregister_console() returns while a producer on the
 * other CPU still logs as fast as it can (for 40 s): the removal flushes
 * what was pending when it started, not until the producer stops
 */
static void test_console_unregister(void)
{
	console_count("unregister", 40, "cannot judge");
}

/*
 * console-resched: with the printer starved behind a backlog, a
 * console_lock() holder's console_unlock() leaves the backlog to it
 */
static void test_console_holder(void)
{
	console_count("holder", 8000, "no second online CPU to starve the printer on");
}

/*
 * The log replayed to a console registered after boot with CON_PRINTBUFFER
 * (fork_load's console_replay: "fork.replay_slow_us=" per record, a slow
 * serial console), in one window; its own result console_replay_load
 * says whether the replay happened.
 */
static void replay_work(char *what, size_t len)
{
	char us[24], res[200] = "";
	int err;

	snprintf(us, sizeof(us), "%ld", param_long("fork.replay_slow_us", 2000));
	err = fork_load();
	window_open();
	if (!err)
		err = write_file(FLOOD "replay", us);
	window_close();
	read_file(FLOOD "result", res, sizeof(res));
	res[strcspn(res, "\n")] = '\0';
	/* a replay that did not happen proves nothing about its sections */
	if (err == -ENODEV)
		skip("console_replay_load", "cannot register the counting console");
	else
		result("console_replay_load", !err, "%s%s%s", err ? strerror(-err) : "",
		       err ? ": " : "", res[0] ? res : "no counts");
	snprintf(what, len, "the log replayed to a console registered after boot");
}

/*
 * console-resched: a console registered after boot gets the log replayed
 * as 6.1 replays it, preemptibly: no long section in the console code
 */
static void test_console_replay(void)
{
	guard("console_replay", CONSOLE_CODE,
	      param_long("fork.flood_thresh_us", 40000), replay_work);
}

/* figures: printk() latency and console throughput (scripts/figures) */
static void test_console_rate(void)
{
	console_count("rate", 4000, "cannot judge");
}

/*
 * console-resched: a flood from one task, as fast as it logs (or
 * "fork.flood_gap_us=" apart, for the figures), larger than the buffer:
 * every record printed, or every gap announced exactly
 */
static void test_console_loss(void)
{
	char gap[24];

	snprintf(gap, sizeof(gap), "%ld", param_long("fork.flood_gap_us", 0));
	if (strcmp(gap, "0") && !fork_load())
		write_file("/sys/module/fork_load/parameters/flood_gap_us", gap);
	console_count("loss", 20000, "cannot judge");
}

/* console-resched: a flood larger than the buffer drops as announced */
static void test_console_drop(void)
{
	console_count("drop", 40000, "the printer never fell behind, nothing was dropped");
}

/*
 * console-resched: sysrq with interrupts off, as from a serial break (and
 * as a WARN or a lockup report under a lock), does not write the backlog
 * of a starved printer ahead of its own output
 */
static void test_console_sysrq(void)
{
	console_count("sysrq", 4000, "no second online CPU to starve the printer on");
}

/*
 * A flood, then the end of the system that fork_load's console_@param
 * brings: @kind "panic" (panic()) or "reset" (emergency_restart()).  The
 * init declares the end it expects; boot-tests/parse accepts that end
 * only, and judges the test from the console: "fork: last record before
 * @kind NONCE" must reach it (for a panic, before "Kernel panic - not
 * syncing: fork: expected panic NONCE").  The write returns only if the
 * system did not end.
 */
static void console_end(const char *kind, const char *param)
{
	char nonce[24], name[32], path[80];
	int err;

	snprintf(name, sizeof(name), "console_%s", param);
	/* a boot's own: a text of an earlier boot cannot pass */
	if (read_file("/proc/sys/kernel/random/uuid", nonce, 9) < 0 ||
	    strlen(nonce) != 8)
		snprintf(nonce, sizeof(nonce), "%lx", (long)time(NULL));
	err = fork_load();
	if (err) {
		result(name, 0, "cannot load fork_load: %s", strerror(-err));
		return;
	}
	out("# fork-init: expect-%s %d %s %s\n", kind, cur.top, name, nonce);
	snprintf(path, sizeof(path), FLOOD "%s", param);
	err = write_file(path, nonce);
	result(name, 0, "no %s: %s", kind, err ? strerror(-err) : "the write returned");
}

/* console-resched: a panic still reaches the console, after the backlog */
static void test_console_panic(void)
{
	console_end("panic", "panic");
}

/*
 * console-resched: emergency_restart() (sysrq-b, softdog) writes the
 * printer's backlog to the console before the reset
 */
static void test_console_reset(void)
{
	console_end("reset", "reset");
}

/*
 * console-resched: emergency_restart() from a timer interrupt on the
 * printer's CPU while it writes (softdog's) still writes the backlog
 */
static void test_console_reset_irq(void)
{
	console_end("reset", "reset_irq");
}

/*
 * softirq-arch: tasklets queued on a CPU that goes offline run once
 * elsewhere (fork_load's tasklet_takeover)
 */
static void test_tasklet_takeover(void)
{
	char res[200] = "";
	int err = fork_load();

	if (!err)
		err = write_file("/sys/module/fork_load/parameters/tasklet_takeover", "1");
	read_file("/sys/module/fork_load/parameters/takeover_result", res, sizeof(res));
	res[strcspn(res, "\n")] = '\0';
	if (err == -ENODEV)
		skip("tasklet_takeover", "needs a second CPU that can go offline");
	else
		result("tasklet_takeover", !err, "%s%s%s", err ? strerror(-err) : "",
		       err ? ": " : "", res);
}

/* fork_load's tasklet storm, a softirq load that must lose nothing */
static void storm(const char *ms, const char *work)
{
	char res[200] = "";
	int err = fork_load();

	if (!err)
		err = write_file("/sys/module/fork_load/parameters/storm_work_us", work);
	if (!err)
		err = write_file("/sys/module/fork_load/parameters/storm_ms", ms);
	read_file("/sys/module/fork_load/parameters/storm_result", res, sizeof(res));
	res[strcspn(res, "\n")] = '\0';
	cur.kernel_err = err;
	snprintf(cur.detail, sizeof(cur.detail), "%s", res);
	if (err)
		snprintf(cur.why, sizeof(cur.why), "%s: %s", strerror(-err), res);
}

static void test_tasklet_storm(void)
{
	storm("3000", "0");
}

/*
 * Every ksoftirqd/N runs with the policy and priority given by
 * "fork.ksoftirqd_prio=" (0: SCHED_OTHER), read from /proc/<pid>/stat:
 * field 40 is rt_priority, field 41 the policy.
 */
/*
 * softirq-defer v3: what the kernel decided about the deferral, from its
 * command line as the kernel reads it: "off" (softirq_defer=off),
 * "inactive" (preempt=none or voluntary), "refused" (ksoftirqd_prio=0),
 * else "on"; "fork.softirq_defer_expect=" overrides.
 */
static const char *softirq_defer_expect(void)
{
	static char v[16];
	char p[16];

	if (param("fork.softirq_defer_expect", v, sizeof(v)))
		return v;
	/* kstrtobool(): n, N, 0 or "off" */
	if (param("softirq_defer", p, sizeof(p)) &&
	    ((p[0] && strchr("nN0", p[0])) || !strcmp(p, "off")))
		return "off";
	if (param("preempt", p, sizeof(p)) &&
	    (!strcmp(p, "none") || !strcmp(p, "voluntary")))
		return "inactive";
	if (param("ksoftirqd_prio", p, sizeof(p)) && !strcmp(p, "0"))
		return "refused";
	return "on";
}

/* the kernel's line about the deferral (kernel/softirq.c) says the same */
static void test_softirq_defer_line(void)
{
	static const char *const lines[][2] = {
		{ "on", "softirq: deferring to ksoftirqd (" },
		{ "off", "softirq: deferral to ksoftirqd off" },
		{ "inactive", "softirq: deferral to ksoftirqd inactive" },
		{ "refused", "softirq: deferral to ksoftirqd refused" },
	};
	const char *want = softirq_defer_expect(), *msg, *seen = NULL;
	char rec[1024], line[200] = "";
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK), lost = 0;
	size_t i;

	while (fd >= 0 && (msg = kmsg_next(fd, rec, sizeof(rec), &lost))) {
		for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
			if (strncmp(msg, lines[i][1], strlen(lines[i][1])))
				continue;
			seen = lines[i][0];
			snprintf(line, sizeof(line), "%.*s", (int)strcspn(msg, "\n"), msg);
		}
	}
	if (fd >= 0)
		close(fd);
	result("softirq_defer_line", seen && !strcmp(seen, want),
	       "want %s, kernel: %s", want, seen ? line : "no line");
}

static void test_ksoftirqd_policy(void)
{
	char want_s[16], path[64], buf[1024], seen[256] = "";
	int want, want_policy, n = 0, bad = 0;
	unsigned int pid;

	/* fork.ksoftirqd_prio=, else ksoftirqd_prio=, else the deferral's */
	if (!param("fork.ksoftirqd_prio", want_s, sizeof(want_s)) &&
	    !param("ksoftirqd_prio", want_s, sizeof(want_s)))
		snprintf(want_s, sizeof(want_s), "%d",
			 !strcmp(softirq_defer_expect(), "on"));
	want = atoi(want_s);
	want_policy = want > 0 ? 1 : 0;
	for (pid = 1; pid < 4096; pid++) {
		unsigned int prio, policy;
		char *p;
		int f;

		snprintf(path, sizeof(path), "/proc/%u/stat", pid);
		if (read_file(path, buf, sizeof(buf)) < 0)
			continue;
		if (!strstr(buf, "(ksoftirqd/"))
			continue;
		p = strrchr(buf, ')');
		/* fields 3.. follow ") "; walk to field 40 */
		for (f = 2; p && f < 40; f++)
			p = strchr(p + 1, ' ');
		if (!p || sscanf(p + 1, "%u %u", &prio, &policy) != 2)
			continue;
		n++;
		if ((int)prio != want || (int)policy != want_policy)
			bad++;
		snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen),
			 " %.*s:policy=%u,prio=%u", (int)(strchr(buf, ')') -
			 strchr(buf, '(') - 1), strchr(buf, '(') + 1, policy,
			 prio);
	}
	result("ksoftirqd_policy", n > 0 && !bad, "want policy=%d prio=%d;%s",
	       want_policy, want, n ? seen : " no ksoftirqd found");
}

/*
 * Cost of a preempt_disable()/enable() pair: the fork's test module times
 * "fork.bench_loops=" pairs and prints the result with the figures.
 */
static void test_preempt_bench(void)
{
	char loops[16];

	if (!param("fork.bench_loops", loops, sizeof(loops)))
		strcpy(loops, "1000000");
	cur.kernel_err = fork_load();
	if (cur.kernel_err)
		snprintf(cur.why, sizeof(cur.why), "cannot load fork_load.ko: %s",
			 strerror(-cur.kernel_err));
	else
		kernel_test("/sys/module/fork_load/parameters/bench", loops);
}

/*
 * The histogram of the preemptoff tracer's sections (ftrace=preemptoff):
 * a hist trigger on preemptirq:critical_timing, keyed by CPU and log2 of
 * the length (Documentation/trace/ftrace.rst), armed here with the
 * tracer in max mode, then a fork load ("fork.hist_forks="), then the
 * histogram is printed.  PASS when it counted sections, dropped none,
 * and holds the tracer's maximum (its highest bucket is at least the
 * maximum's, less one: the maximum is in microseconds).  It may hold a
 * longer one: the tracer keeps a section as its maximum only if no other
 * CPU recorded one while it was open.  For the figures.  The trigger
 * stays armed for the tests after it (preempt_bench: its cost).
 */
static void test_preemptoff_hist(void)
{
	static const char trig[] = TR "events/preemptirq/critical_timing/trigger";
	static char buf[65536];
	char max[300], why[128], *l, *save;
	long forks = param_long("fork.hist_forks", 200), hits = 0, ns;
	int err, top = -1, dropped = -1, want = 0;

	if (max_mode(why, sizeof(why))) {
		result("preemptoff_hist", 0, "%s", why);
		return;
	}
	err = write_file(trig, "hist:keys=common_cpu,delta.log2:sort=common_cpu,delta");
	if (err) {
		char log[512] = "";

		read_file(TR "error_log", log, sizeof(log));
		for (char *c = log; *c; c++)
			if (*c == '\n')
				*c = ' ';
		result("preemptoff_hist", 0, "%s: %s; error_log: %s", trig,
		       strerror(-err), log);
		return;
	}
	write_file(TR "tracing_max_latency", "0");
	for (long i = 0; i < forks; i++) {
		pid_t p = fork();

		if (!p)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
	read_max(max, sizeof(max));
	if (read_whole(TR "events/preemptirq/critical_timing/hist", buf,
		       sizeof(buf)) < 0) {
		result("preemptoff_hist", 0, "no histogram");
		return;
	}
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *b = strstr(l, "delta: ~ 2^");

		if (b && strstr(l, "hitcount:")) {
			out("# hist: %s\n", l);
			if (atoi(b + 11) > top)
				top = atoi(b + 11);
		}
		if (strstr(l, "Hits:"))
			hits = atol(strstr(l, "Hits:") + 5);
		if (strstr(l, "Dropped:"))
			dropped = atoi(strstr(l, "Dropped:") + 8);
	}
	for (ns = atol(max) * 1000; ns > 1; ns >>= 1)
		want++;
	result("preemptoff_hist", hits > 0 && !dropped && atol(max) > 0 &&
	       top >= want - 1,
	       "forks=%ld sections=%ld top_bucket=2^%d ns dropped=%d max: %s",
	       forks, hits, top, dropped, max[0] ? max : "none");
}

/*
 * The longest non-preemptible section during a softirq load: fork_load's
 * tasklet storm with tasklets of "fork.storm_work_us=" each, for
 * "fork.storm_ms=", measured by the preemptoff tracer in max mode
 * (ftrace=preemptoff); the maximum is the figure, added to the storm's own
 * result line ("ok N tasklet_storm # ... max_section: ...").
 */
static void test_softirq_hold(void)
{
	char work[16], ms[16], max[300];

	if (!param("fork.storm_work_us", work, sizeof(work)))
		strcpy(work, "50");
	if (!param("fork.storm_ms", ms, sizeof(ms)))
		strcpy(ms, "3000");
	if (max_mode(cur.why, sizeof(cur.why))) {
		cur.kernel_err = -ENOENT;
		return;
	}
	storm(ms, work);
	read_max(max, sizeof(max));
	snprintf(cur.detail + strlen(cur.detail),
		 sizeof(cur.detail) - strlen(cur.detail), " max_section: %s", max);
}

/*
 * Wakeup latency of a SCHED_FIFO task as the field measures it: Debian's
 * cyclictest (rt-tests, boot-tests/guest-root) on one CPU, first with
 * nothing else to do there (lat_idle), then while a load runs on the same
 * CPU (lat_load).  "fork.lat_load=" selects the load:
 *   thp  map fork.thp_mib MiB (default 1024) of anonymous memory with
 *        MADV_HUGEPAGE, fault it in and unmap it, in a loop; the first
 *        round's AnonHugePages says whether the THPs were PMD-mapped
 *        (SKIP when less than half of it was);
 *   thp_partial  the same, but before the munmap() all of each THP but
 *        its last page is MADV_DONTNEED'd: each PMD is split (checked by
 *        thp_split_pmd and by AnonHugePages, which counts PMD mappings
 *        only), the THPs stay (deferred split, checked by MemFree) and
 *        the munmap() frees each by a tail page;
 *   hog  fork_load's hog_ms: fork.hog_ms (default 50) ms with preemption
 *        disabled, every 200 ms: a known stall, the positive control.
 * cyclictest: "-p fork.lat_prio" (default 95) FIFO, one thread on CPU
 * "fork.lat_cpu" (default 0), "fork.lat_loops" samples (default 10000) at
 * "fork.lat_interval_us" (default 1000), a histogram of 1 us buckets up
 * to "fork.lat_hist_us" (default 100000).  Each result says the samples
 * and p50/p99/p99.9/max in us ("over" when a percentile is past the
 * histogram), the histogram in power-of-two buckets as a diagnostic.  A
 * measurement, not a judgement: PASS when it measured, unless
 * "fork.lat_max_us=" is given: then lat_load fails over that maximum.  With
 * ftrace=preemptoff, lat_load also says the longest non-preemptible
 * section of the load phase (what preempt timing sees of the same load).
 */
#define CYCLICTEST "/usr/bin/cyclictest"

struct lat {
	long	samples, max, p50, p99, p999, over;
	long	log2[24];	/* samples of [2^i, 2^(i+1)) us; [0] also 0 us */
	char	err[160];
};

/* the smallest latency that @q of the samples do not exceed; -1: over */
static long lat_pct(const long *hist, long nb, long total, double q)
{
	long need = (long)(q * (double)total + 0.999999), cum = 0;

	for (long b = 0; b < nb; b++) {
		cum += hist[b];
		if (cum >= need)
			return b;
	}
	return -1;
}

/* run cyclictest on @cpu, read its histogram and summary into @l */
static void lat_run(int cpu, struct lat *l)
{
	long nb = param_long("fork.lat_hist_us", 100000), *hist;
	char a_cpu[16], a_prio[16], a_int[24], a_loops[24], a_hist[24];
	char *line = NULL;
	size_t cap = 0;
	int fd[2], st;
	FILE *f;
	pid_t pid;

	memset(l, 0, sizeof(*l));
	hist = calloc(nb, sizeof(*hist));
	if (!hist || pipe(fd)) {
		snprintf(l->err, sizeof(l->err), "no memory or pipe: %s", strerror(errno));
		free(hist);
		return;
	}
	snprintf(a_cpu, sizeof(a_cpu), "-a%d", cpu);
	snprintf(a_prio, sizeof(a_prio), "-p%ld", param_long("fork.lat_prio", 95));
	snprintf(a_int, sizeof(a_int), "-i%ld", param_long("fork.lat_interval_us", 1000));
	snprintf(a_loops, sizeof(a_loops), "-l%ld", param_long("fork.lat_loops", 10000));
	snprintf(a_hist, sizeof(a_hist), "-h%ld", nb);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { CYCLICTEST, "-q", "-m", "-t1", a_cpu, a_prio,
				 a_int, a_loops, a_hist, NULL };
		char *envp[] = { "PATH=/usr/bin", NULL };

		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execve(CYCLICTEST, argv, envp);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	/* whole lines: "# Thread 0:" lists every overflow's cycle number */
	while (f && getline(&line, &cap, f) > 0) {
		long b, c;

		if (line[0] >= '0' && line[0] <= '9' &&
		    sscanf(line, "%ld %ld", &b, &c) == 2 && b >= 0 && b < nb) {
			hist[b] += c;
			l->samples += c;
		} else if (!strncmp(line, "# Max Latencies:", 16)) {
			l->max = atol(line + 16);
		} else if (!strncmp(line, "# Histogram Overflows:", 22)) {
			l->over = atol(line + 22);
		}
	}
	free(line);
	if (f)
		fclose(f);
	else
		close(fd[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		snprintf(l->err, sizeof(l->err), "%s %s %s %s %s failed (status %d)",
			 CYCLICTEST, a_cpu, a_prio, a_loops, a_hist, pid < 0 ? -1 : st);
	} else if (!l->samples) {
		snprintf(l->err, sizeof(l->err), "%s printed no histogram", CYCLICTEST);
	} else {
		long total = l->samples + l->over;

		l->samples = total;
		l->p50 = lat_pct(hist, nb, total, 0.50);
		l->p99 = lat_pct(hist, nb, total, 0.99);
		l->p999 = lat_pct(hist, nb, total, 0.999);
		for (long b = 0; b < nb; b++) {
			int i = 0;

			while ((2L << i) <= b && i < 23)
				i++;
			l->log2[i] += hist[b];
		}
	}
	free(hist);
}

static void lat_result(const char *name, const struct lat *l, const char *load, long max_us)
{
	char d[24][24], h[400] = "";
	const long *p[] = { &l->p50, &l->p99, &l->p999 };
	size_t n = 0;

	if (l->err[0]) {
		result(name, 0, "%s", l->err);
		return;
	}
	for (int i = 0; i < 3; i++) {
		if (*p[i] < 0)
			snprintf(d[i], sizeof(d[i]), "over");
		else
			snprintf(d[i], sizeof(d[i]), "%ld", *p[i]);
	}
	for (int i = 0; i < 24 && n < sizeof(h) - 32; i++)
		if (l->log2[i])
			n += snprintf(h + n, sizeof(h) - n, " %ld:%ld", i ? 1L << i : 0L, l->log2[i]);
	if (l->over)
		snprintf(h + n, sizeof(h) - n, " over:%ld", l->over);
	out("# %s: histogram (lowest us of a power-of-two bucket: samples):%s\n", name, h);
	if (max_us)
		margin(name, l->max, max_us);
	result(name, !max_us || l->max <= max_us,
	       "samples=%ld p50_us=%s p99_us=%s p999_us=%s max_us=%ld%s%.0ld %s",
	       l->samples, d[0], d[1], d[2], l->max,
	       !max_us ? "" : l->max <= max_us ? " within " : " over ", max_us, load);
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/*
 * The number after @key in the file at @path (a /proc file of "key value"
 * lines: smaps_rollup, meminfo, vmstat); -1 when there is none
 */
static long proc_value(const char *path, const char *key)
{
	static char buf[16384];
	const char *h;

	if (read_whole(path, buf, sizeof(buf)) < 0)
		return -1;
	h = strstr(buf, key);
	return h ? atol(h + strlen(key)) : -1;
}

/* the load cannot do what it says: tell the parent why, and stop */
static void __attribute__((noreturn)) load_error(int wfd, const char *what, int err)
{
	char line[128];
	int len = snprintf(line, sizeof(line), "error %s: %s\n", what, strerror(err));

	if (write(wfd, line, len) < 0)
		_exit(1);
	_exit(1);
}

/*
 * The udp load: loopback up, one receiver and two senders of 1400-byte
 * datagrams to 127.0.0.1, all on @cpu; the receiver writes "round N
 * received R" each second.  Transmission raises NET_RX in a bottom half
 * section of the sender (the loopback's backlog), so its softirqs run
 * from local_bh_enable() on 6.1.
 */
static void __attribute__((noreturn)) lat_udp(int wfd)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(9999) };
	struct ifreq ifr = { 0 };
	char buf[1400] = { 0 }, line[96];
	long received = 0;
	double t0;
	int s, r;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0)
		load_error(wfd, "socket(AF_INET)", errno);
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		load_error(wfd, "SIOCGIFFLAGS lo", errno);
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		load_error(wfd, "SIOCSIFFLAGS lo", errno);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)))
		load_error(wfd, "bind 127.0.0.1:9999", errno);
	for (int i = 0; i < 2; i++) {
		if (fork() == 0) {
			int t = socket(AF_INET, SOCK_DGRAM, 0);

			for (;;)
				sendto(t, buf, sizeof(buf), 0, (struct sockaddr *)&a, sizeof(a));
		}
	}
	t0 = now_ms();
	for (long n = 1;;) {
		r = recv(s, buf, sizeof(buf), 0);
		if (r > 0)
			received++;
		if (now_ms() - t0 >= 1000.0 * n) {
			int len = snprintf(line, sizeof(line), "round %ld received %ld\n",
					   n++, received);

			if (write(wfd, line, len) < 0)
				_exit(1);
		}
	}
}

/*
 * The load, a child on @cpu until killed: one line per round on @wfd,
 * "round N huge_kb K unmap_ms T" (thp), "round N" (hog, storm) or "round N
 * received R" (udp).
 */
static void lat_load(const char *kind, int cpu, int wfd)
{
	size_t sz = (size_t)param_long("fork.thp_mib", 1024) << 20, pmd = 2UL << 20;
	int partial = !strcmp(kind, "thp_partial");
	char ms[16], line[128];
	long free0, split0 = 0, pmd0;
	cpu_set_t set;
	double t;
	char *p, *a;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	snprintf(ms, sizeof(ms), "%ld", param_long("fork.hog_ms", 50));
	for (long n = 1;; n++) {
		int len;

		if (!strcmp(kind, "udp"))
			lat_udp(wfd);	/* its children die with its process group */
		if (!strcmp(kind, "storm")) {
			char us[16];
			int err;

			snprintf(us, sizeof(us), "%ld", param_long("fork.storm_work_us", 50));
			err = write_file("/sys/module/fork_load/parameters/storm_work_us", us);
			if (!err)
				err = write_file("/sys/module/fork_load/parameters/storm_ms", "1000");
			if (err)
				load_error(wfd, "storm_ms", -err);
			len = snprintf(line, sizeof(line), "round %ld\n", n);
			if (write(wfd, line, len) < 0)
				_exit(1);
			continue;
		}
		if (!strcmp(kind, "hog")) {
			int err = write_file("/sys/module/fork_load/parameters/hog_ms", ms);

			if (err)
				load_error(wfd, "hog_ms", -err);
			len = snprintf(line, sizeof(line), "round %ld\n", n);
			if (write(wfd, line, len) < 0)
				_exit(1);
			usleep(200000);
			continue;
		}
		p = mmap(NULL, sz + pmd, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			load_error(wfd, "mmap", errno);
		a = (char *)(((unsigned long)p + pmd - 1) & ~(pmd - 1));
		if (madvise(a, sz, MADV_HUGEPAGE))
			load_error(wfd, "madvise(MADV_HUGEPAGE)", errno);
		free0 = proc_value("/proc/meminfo", "MemFree:");
		touch_pages(a, sz);
		len = snprintf(line, sizeof(line), "round %ld huge_kb %ld", n,
			       proc_value("/proc/self/smaps_rollup", "AnonHugePages:"));
		if (partial) {
			/*
			 * all of each THP but its last page: the PMD is split,
			 * the THP stays (deferred split) until its last page
			 * is unmapped below
			 */
			pmd0 = proc_value("/proc/vmstat", "\nthp_split_pmd ");
			for (size_t o = 0; o < sz; o += pmd)
				if (madvise(a + o, pmd - 4096, MADV_DONTNEED))
					load_error(wfd, "madvise(MADV_DONTNEED)", errno);
			len += snprintf(line + len, sizeof(line) - len,
					" held_kb %ld split_pmds %ld huge_after_kb %ld",
					free0 - proc_value("/proc/meminfo", "MemFree:"),
					pmd0 < 0 ? -1 : proc_value("/proc/vmstat", "\nthp_split_pmd ") - pmd0,
					proc_value("/proc/self/smaps_rollup", "AnonHugePages:"));
			split0 = proc_value("/proc/vmstat", "\nthp_split_page ");
		}
		t = now_ms();
		munmap(p, sz + pmd);
		if (partial && n == 1)
			out("# lat_load: thp_partial: THPs split by the munmap: %ld\n",
				proc_value("/proc/vmstat", "\nthp_split_page ") - split0);
		len += snprintf(line + len, sizeof(line) - len, " unmap_ms %.1f\n", now_ms() - t);
		if (write(wfd, line, len) < 0)
			_exit(1);
	}
}

static void test_lat(void)
{
	char kind[16], line[128], load[400], pmax[300];
	int tracer;
	int cpu = (int)param_long("fork.lat_cpu", 0), fd[2], rounds = 0;
	long huge_kb = -1, held_kb = -1, want_kb = param_long("fork.thp_mib", 1024) << 10;
	long split_pmds = -1, huge_after_kb = -1;
	long received = -1;
	double unmap_max = 0;
	struct lat l;
	FILE *f;
	pid_t pid;

	if (access(CYCLICTEST, X_OK)) {
		skip("lat_idle", "no %s in the initramfs", CYCLICTEST);
		skip("lat_load", "no %s in the initramfs", CYCLICTEST);
		return;
	}
	if (!param("fork.lat_load", kind, sizeof(kind)))
		strcpy(kind, "thp");
	if ((!strcmp(kind, "hog") || !strcmp(kind, "storm")) && fork_load()) {
		lat_run(cpu, &l);
		lat_result("lat_idle", &l, "load=none", 0);
		result("lat_load", 0, "cannot load /lib/modules/fork_load.ko");
		return;
	}
	lat_run(cpu, &l);
	lat_result("lat_idle", &l, "load=none", 0);
	if (pipe(fd)) {
		result("lat_load", 0, "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);	/* the load's own children die with it */
		close(fd[0]);
		lat_load(kind, cpu, fd[1]);
		_exit(0);
	}
	close(fd[1]);
	usleep(100000);
	/* what the preemptoff tracer (ftrace=preemptoff) sees meanwhile */
	tracer = !max_mode(pmax, sizeof(pmax));
	lat_run(cpu, &l);
	pmax[0] = '\0';
	if (tracer)
		read_max(pmax, sizeof(pmax));
	if (pid > 0) {
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
	f = fdopen(fd[0], "r");
	while (f && fgets(line, sizeof(line), f)) {
		long n, kb;
		double ms;

		long held, splits, after;

		if (sscanf(line, "round %ld huge_kb %ld held_kb %ld split_pmds %ld huge_after_kb %ld unmap_ms %lf",
			   &n, &kb, &held, &splits, &after, &ms) == 6) {
			if (huge_kb < 0) {
				huge_kb = kb;
				held_kb = held;
				split_pmds = splits;
				huge_after_kb = after;
			}
			if (ms > unmap_max)
				unmap_max = ms;
			rounds++;
		} else if (sscanf(line, "round %ld huge_kb %ld unmap_ms %lf", &n, &kb, &ms) == 3) {
			if (huge_kb < 0)
				huge_kb = kb;
			if (ms > unmap_max)
				unmap_max = ms;
			rounds++;
		} else if (sscanf(line, "round %ld received %ld", &n, &kb) == 2) {
			received = kb;
			rounds++;
		} else if (sscanf(line, "round %ld", &n) == 1) {
			rounds++;
		} else if (!strncmp(line, "error", 5)) {
			line[strcspn(line, "\n")] = '\0';
			if (!l.err[0])
				snprintf(l.err, sizeof(l.err), "load %s: %s", kind, line);
		}
	}
	if (f)
		fclose(f);
	if (!strcmp(kind, "thp") || !strcmp(kind, "thp_partial")) {
		/* a round that could not read its proof cannot judge either */
		if (rounds && huge_kb < 0) {
			skip("lat_load", "no AnonHugePages in /proc/self/smaps_rollup: PMD mapping not shown");
			return;
		}
		if (rounds && huge_kb < want_kb / 2) {
			skip("lat_load", "THPs not PMD-mapped: AnonHugePages %ld of %ld kB", huge_kb, want_kb);
			return;
		}
		/* the partly unmapped THPs must still be there to unmap */
		if (rounds && !strcmp(kind, "thp_partial") && held_kb < want_kb / 2) {
			skip("lat_load", "THPs freed by MADV_DONTNEED: %ld of %ld kB held", held_kb, want_kb);
			return;
		}
		/*
		 * and split: no longer PMD-mapped, so that the munmap() frees
		 * each by the tail page left, not by a PMD entry (its head)
		 */
		if (rounds && !strcmp(kind, "thp_partial") && split_pmds < 0) {
			skip("lat_load", "no thp_split_pmd in /proc/vmstat (CONFIG_VM_EVENT_COUNTERS): the split cannot be shown");
			return;
		}
		if (rounds && !strcmp(kind, "thp_partial") &&
		    (split_pmds < want_kb / 2048 / 2 || huge_after_kb < 0 || huge_after_kb > want_kb / 2)) {
			skip("lat_load", "THPs not split by MADV_DONTNEED: thp_split_pmd +%ld for %ld THPs, AnonHugePages %ld kB after",
			     split_pmds, want_kb / 2048, huge_after_kb);
			return;
		}
		snprintf(load, sizeof(load), "load=%s rounds=%d huge_kb=%ld%s%.0ld unmap_max_ms=%.1f",
			 kind, rounds, huge_kb, held_kb >= 0 ? " held_kb=" : "",
			 held_kb >= 0 ? held_kb : 0, unmap_max);
		if (split_pmds >= 0)
			snprintf(load + strlen(load), sizeof(load) - strlen(load),
				 " split_pmds=%ld huge_after_kb=%ld", split_pmds, huge_after_kb);
	} else if (!strcmp(kind, "udp")) {
		snprintf(load, sizeof(load), "load=udp seconds=%d received=%ld", rounds,
			 received);
	} else if (!strcmp(kind, "storm")) {
		snprintf(load, sizeof(load), "load=storm rounds=%d work_us=%ld", rounds,
			 param_long("fork.storm_work_us", 50));
	} else {
		snprintf(load, sizeof(load), "load=%s rounds=%d hog_ms=%ld", kind, rounds,
			 param_long("fork.hog_ms", 50));
	}
	if (tracer)
		snprintf(load + strlen(load), sizeof(load) - strlen(load),
			 "; longest preemptoff section: %s", pmax[0] ? pmax : "none");
	if (!rounds && !l.err[0])
		snprintf(l.err, sizeof(l.err), "the load %s did no round", kind);
	lat_result("lat_load", &l, load, param_long("fork.lat_max_us", 0));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * munmap() of a sparse shared mapping of page-cache THPs: a file of
 * "fork.shmem_mib" (default 256) MiB on a tmpfs mounted huge=always,
 * faulted in once (ShmemHugePages says how much of it is THPs), then
 * mapped, one byte of each 2 MiB read, and unmapped, "fork.shmem_iters"
 * (default 200) times.  The page cache keeps every folio: the munmap()
 * frees nothing, each THP is one gather entry (PMD- or PTE-mapped) that
 * an mmu_gather counting folios by size (zap-resched, with init_on_free)
 * flushes in a chunk of its own.  The median and the 10th percentile in
 * ns into *@d; 0 when measured, else -1 with the reason in *@d.
 */
static int munmap_shmem(char *d, size_t len)
{
	size_t sz = (size_t)param_long("fork.shmem_mib", 256) << 20, pmd = 2UL << 20;
	long iters = param_long("fork.shmem_iters", 200), huge_kb;
	const char *dir = "/huge", *path = "/huge/f";
	double *t = calloc(iters, sizeof(*t));
	int fd = -1, ret = -1;
	char *p, *a;

	if (!t) {
		snprintf(d, len, "no memory");
		return -1;
	}
	mkdir(dir, 0700);
	if (mount("tmpfs", dir, "tmpfs", 0, "huge=always")) {
		snprintf(d, len, "mount tmpfs huge=always: %s", strerror(errno));
		goto out;
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, sz)) {
		snprintf(d, len, "%s: %s", path, strerror(errno));
		goto out;
	}
	for (long k = -1; k < iters; k++) {
		double t0;

		p = mmap(NULL, sz + pmd, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			snprintf(d, len, "mmap: %s", strerror(errno));
			goto out;
		}
		/* a 2 MiB aligned window of the reservation, so PMDs can map */
		a = (char *)(((unsigned long)p + pmd - 1) & ~(pmd - 1));
		if (mmap(a, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
			snprintf(d, len, "mmap %s: %s", path, strerror(errno));
			munmap(p, sz + pmd);
			goto out;
		}
		if (k < 0) {
			/* the first round fills the file */
			touch_pages(a, sz);
			huge_kb = proc_value("/proc/meminfo", "ShmemHugePages:");
			if (huge_kb < (long)(sz >> 11)) {
				snprintf(d, len, "the tmpfs file is not THPs: ShmemHugePages %ld of %zu kB",
					 huge_kb, sz >> 10);
				munmap(p, sz + pmd);
				goto out;
			}
		} else {
			for (size_t o = 0; o < sz; o += pmd)
				(void)*(volatile char *)(a + o);
		}
		t0 = now_ms();
		munmap(a, sz);
		if (k >= 0)
			t[k] = (now_ms() - t0) * 1e6;
		munmap(p, sz + pmd);
	}
	qsort(t, iters, sizeof(*t), cmp_double);
	snprintf(d, len, "shmem_thp_%zum_p50_ns=%.0f shmem_thp_%zum_p10_ns=%.0f",
		 sz >> 20, t[iters / 2], sz >> 20, t[iters / 10]);
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	unlink(path);
	umount(dir);
	free(t);
	return ret;
}

/*
 * The cost of small unmaps: munmap() of 4 KiB, 64 KiB and 2 MiB (small
 * pages, MADV_NOHUGEPAGE) anonymous mappings, faulted in first, each
 * "fork.munmap_iters" (default 2000) times on CPU 0; the median and the
 * 10th percentile in ns per munmap() (TCG's noise is above the median).
 * Then munmap_shmem()'s sparse mapping of page-cache THPs.
 */
static void test_munmap_bench(void)
{
	static const size_t sizes[] = { 4096, 65536, 2UL << 20 };
	long iters = param_long("fork.munmap_iters", 2000);
	double *t = calloc(iters, sizeof(*t));
	char d[400] = "";
	size_t n = 0;
	cpu_set_t set;

	if (!t) {
		result("munmap_bench", 0, "no memory");
		return;
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (long k = 0; k < iters; k++) {
			char *p = mmap(NULL, sizes[i], PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			double t0;

			if (p == MAP_FAILED) {
				result("munmap_bench", 0, "mmap: %s", strerror(errno));
				free(t);
				return;
			}
			if (madvise(p, sizes[i], MADV_NOHUGEPAGE)) {
				result("munmap_bench", 0, "madvise(MADV_NOHUGEPAGE): %s", strerror(errno));
				free(t);
				return;
			}
			touch_pages(p, sizes[i]);
			t0 = now_ms();
			munmap(p, sizes[i]);
			t[k] = (now_ms() - t0) * 1e6;
		}
		qsort(t, iters, sizeof(*t), cmp_double);
		n += snprintf(d + n, sizeof(d) - n, "%s%zuk_p50_ns=%.0f %zuk_p10_ns=%.0f",
			      i ? " " : "", sizes[i] >> 10, t[iters / 2],
			      sizes[i] >> 10, t[iters / 10]);
	}
	free(t);
	if (munmap_shmem(d + n + 1, sizeof(d) - n - 1)) {
		result("munmap_bench", 0, "shmem: %s", d + n + 1);
		return;
	}
	d[n] = ' ';
	result("munmap_bench", 1, "iters=%ld %s", iters, d);
}

/*
 * softirq-defer: RT throttling stops a busy FIFO task on CPU 1 together
 * with the FIFO 1 ksoftirqd below it, which holds the softirqs the tick
 * raised there (SCHED, TIMER); nothing else is runnable on CPU 1 and it
 * goes idle.  Those softirqs must run in the idle task, not wait for the
 * end of the throttling: the tick stop's "NOHZ tick-stop error" in the
 * kernel log fails the test (and the boot).  The RT period is shortened
 * to 20 ms with 10 ms of runtime for the test, so that 3 s of spinning
 * throttle 150 times: v3 of the series failed 6 boots of 6 (with 100 ms,
 * 1 of 2; with a tasklet storm's kthreads runnable on CPU 1, which keep
 * it from going idle, 5 of 8).  Booted with threadirqs too, where the
 * idle task's irq exit wakes ksoftirqd instead of processing.  It cannot
 * judge (SKIP) without "RT throttling activated" in the log (once per
 * boot), without idle time on CPU 1 (/proc/stat) or with kernel records
 * lost; a tick-stop error before it fails it (the report stops after 10
 * a boot).
 */
#define THROTTLE_SPIN_MS	3000
#define RT_PERIOD		"/proc/sys/kernel/sched_rt_period_us"
#define RT_RUNTIME		"/proc/sys/kernel/sched_rt_runtime_us"

static void throttle_spin(void)
{
	struct sched_param sp = { .sched_priority = 50 };
	cpu_set_t set;
	double t0;

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp))
		_exit(2);
	for (t0 = now_ms(); now_ms() - t0 < THROTTLE_SPIN_MS; )
		;
	_exit(0);
}

/* CPU 1's idle time from /proc/stat, in USER_HZ ticks; -1 if unknown */
static long cpu1_idle(void)
{
	char buf[4096], *l;
	long v[4];

	if (read_whole("/proc/stat", buf, sizeof(buf)) < 0 ||
	    !(l = strstr(buf, "\ncpu1 ")) ||
	    sscanf(l + 6, "%ld %ld %ld %ld", &v[0], &v[1], &v[2], &v[3]) != 4)
		return -1;
	return v[3];
}

static void test_softirq_throttle(void)
{
	char period[32] = "", runtime[32] = "", rec[1024], err_line[200] = "";
	int fd, lost = 0, throttled = 0, errors = 0, before = 0, status = 0, err;
	long idle0, idle1;
	const char *msg;
	pid_t pid;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		skip("softirq_throttle", "needs a second CPU");
		return;
	}
	if (read_file(RT_PERIOD, period, sizeof(period)) < 0 ||
	    read_file(RT_RUNTIME, runtime, sizeof(runtime)) < 0) {
		result("softirq_throttle", 0, "cannot read the RT period and runtime");
		return;
	}
	/* the tick stop reports 10 times a boot: not used up before */
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	while (fd >= 0 && (msg = kmsg_next(fd, rec, sizeof(rec), &lost)))
		before += !!strstr(msg, "NOHZ tick-stop error");
	if (fd >= 0)
		close(fd);
	if (before) {
		result("softirq_throttle", 0, "%d tick-stop error(s) before the test", before);
		return;
	}
	fd = kmsg_open();
	idle0 = cpu1_idle();
	/* runtime <= period at each step */
	err = write_file(RT_RUNTIME, "10000");
	if (!err)
		err = write_file(RT_PERIOD, "20000");
	pid = err ? -1 : fork();
	if (!pid)
		throttle_spin();
	if (pid > 0)
		waitpid(pid, &status, 0);
	idle1 = cpu1_idle();
	write_file(RT_PERIOD, period);
	write_file(RT_RUNTIME, runtime);
	while (fd >= 0 && (msg = kmsg_next(fd, rec, sizeof(rec), &lost))) {
		if (strstr(msg, "RT throttling activated"))
			throttled = 1;
		if (strstr(msg, "NOHZ tick-stop error") && !errors++)
			snprintf(err_line, sizeof(err_line), "%.*s",
				 (int)strcspn(msg, "\n"), msg);
	}
	if (fd >= 0)
		close(fd);
	if (err || pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		result("softirq_throttle", 0, "no FIFO spinner on CPU 1: %s",
		       err ? strerror(-err) : "fork, affinity or policy failed");
	else if (errors)
		result("softirq_throttle", 0, "%d tick-stop error(s): %s",
		       errors, err_line);
	else if (lost)
		skip("softirq_throttle", "%d kernel record(s) lost: cannot judge", lost);
	else if (!throttled)
		skip("softirq_throttle", "no RT throttling in %d ms of spinning",
		     THROTTLE_SPIN_MS);
	else if (idle0 < 0 || idle1 <= idle0)
		skip("softirq_throttle", "CPU 1 never went idle (idle ticks %ld -> %ld)",
		     idle0, idle1);
	else
		result("softirq_throttle", 1,
		       "RT throttling of a FIFO 50 spinner on CPU 1 for %d ms, CPU 1 idle %ld ticks: no tick-stop error",
		       THROTTLE_SPIN_MS, idle1 - idle0);
}

/* CPU hotplug of cpu1 (boot with maxcpus=1 to bring it up the first time) */
static void cpu1_set(const char *name, const char *val)
{
	int err = write_file("/sys/devices/system/cpu/cpu1/online", val);
	char now[8] = "?";

	read_file("/sys/devices/system/cpu/cpu1/online", now, sizeof(now));
	now[strcspn(now, "\n")] = '\0';
	result(name, !err && !strcmp(now, val), "cpu1 online=%s%s%s", now,
	       err ? ": " : "", err ? strerror(-err) : "");
}

static void test_cpu_online(void)
{
	cpu1_set("cpu1_online", "1");
}

static void test_cpu_offline(void)
{
	cpu1_set("cpu1_offline", "0");
}

/*
 * PREEMPT_DYNAMIC: switch the preemption model to none at run time,
 * through debugfs, as an administrator may (the tests after it see the
 * kernel switched)
 */
static void test_preempt_none(void)
{
	static const char f[] = "/sys/kernel/debug/sched/preempt";
	char now[64] = "";
	int err;

	mkdir("/sys/kernel/debug", 0755);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (access(f, F_OK)) {
		skip("preempt_none", "no %s: not PREEMPT_DYNAMIC, or no DEBUG_FS", f);
		return;
	}
	err = write_file(f, "none");
	read_file(f, now, sizeof(now));
	now[strcspn(now, "\n")] = '\0';
	result("preempt_none", !err && strstr(now, "(none)"), "%s: %s%s%s", f, now,
	       err ? ", write: " : "", err ? strerror(-err) : "");
}

/*
 * plan: the results the test prints itself (1: its result is the test's,
 * more: they are its subtests); 0: a kernel self-test prints a subtest,
 * named as the test or as suite.  A subtest's results are named apart from
 * it (kunit_tool takes a result of the subtest's own name for its end).
 */
static const struct {
	const char *name;
	void (*fn)(void);
	int plan;
	const char *suite;
} tests[] = {
	{ "cpu_online", test_cpu_online, 1, NULL },
	{ "cpu_offline", test_cpu_offline, 1, NULL },
	{ "preempt_none", test_preempt_none, 1, NULL },
	{ "smoke", test_smoke, 1, NULL },
	{ "tasklet_storm", test_tasklet_storm, 0, NULL },
	{ "ksoftirqd_policy", test_ksoftirqd_policy, 1, NULL },
	{ "softirq_defer_line", test_softirq_defer_line, 1, NULL },
	{ "zap_unmap", test_zap_unmap, 1, NULL },
	{ "console", test_console, 2, NULL },
	{ "console_order", test_console_order, 1, NULL },
	{ "console_rate", test_console_rate, 1, NULL },
	{ "console_drop", test_console_drop, 1, NULL },
	{ "console_sysrq", test_console_sysrq, 1, NULL },
	{ "console_wake", test_console_wake, 1, NULL },
	{ "console_loss", test_console_loss, 1, NULL },
	{ "console_replay", test_console_replay, 2, NULL },
	{ "console_unregister", test_console_unregister, 1, NULL },
	{ "console_holder", test_console_holder, 1, NULL },
	{ "console_panic", test_console_panic, 1, NULL },
	{ "console_reset", test_console_reset, 1, NULL },
	{ "console_reset_irq", test_console_reset_irq, 1, NULL },
	{ "preempt_bench", test_preempt_bench, 0, NULL },
	{ "preemptoff_kunit", test_preemptoff_kunit, 0, "preemptoff" },
	{ "latency_report_kunit", test_latency_report_kunit, 0, "latency_report" },
	{ "softirq_kunit", test_softirq_kunit, 0, "softirq_context" },
	{ "tasklet_takeover", test_tasklet_takeover, 1, NULL },
	{ "softirq_throttle", test_softirq_throttle, 1, NULL },
	{ "preemptoff_printk", test_preemptoff_printk, 1, NULL },
	{ "latency_clock", test_latency_clock, 1, NULL },
	{ "latency_printk", test_latency_printk, 1, NULL },
	{ "latency_cmdline", test_latency_cmdline, 1, NULL },
	{ "latency_pause", test_latency_pause, 1, NULL },
	{ "latency_console", test_latency_console, 1, NULL },
	{ "latency_report_output", test_latency_report_output, 1, NULL },
	{ "latency_nmi", test_latency_nmi, 1, NULL },
	{ "preemptoff_hist", test_preemptoff_hist, 1, NULL },
	{ "softirq_hold", test_softirq_hold, 0, NULL },
	{ "lat", test_lat, 2, NULL },
	{ "munmap_bench", test_munmap_bench, 1, NULL },
};

/* run tests[i] as top-level test @nr and print its result line */
static void run_test(unsigned int i, int nr)
{
	memset(&cur, 0, sizeof(cur));
	cur.name = tests[i].name;
	cur.plan = tests[i].plan;
	cur.top = nr;
	out("# fork-init: running %s\n", cur.name);
	tests[i].fn();
	if (tests[i].suite)
		cur.name = tests[i].suite;
	if (cur.plan == 1) {
		if (!cur.nr)
			out("not ok %d %s # the test printed no result\n", nr,
			    cur.name);
		return;
	}
	if (!cur.plan) {
		if (!cur.kernel_err)
			out("ok %d %s%s%s\n", nr, cur.name,
			    cur.detail[0] ? " # " : "", cur.detail);
		else if (cur.why[0])
			out("not ok %d %s # %s\n", nr, cur.name, cur.why);
		else	/* EIO: a case failed, the kernel said which */
			out("not ok %d %s\n", nr, cur.name);
		return;
	}
	if (cur.nr != cur.plan) {
		out("not ok %d %s # the init printed %d of its %d results\n",
		    nr, cur.name, cur.nr, cur.plan);
		return;
	}
	out("%s %d %s%s\n", cur.failed ? "not ok" : "ok", nr, cur.name,
	    cur.skipped == cur.nr ? " # SKIP" : "");
}

int main(void)
{
	char list[512], *tok, *save, *p;
	unsigned int i;
	int n;

	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/dev", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	read_file("/proc/cmdline", cmdline, sizeof(cmdline));

	if (!param("fork.tests", list, sizeof(list)))
		strcpy(list, "smoke");
	for (p = list, n = 1; *p; p++)
		n += *p == ',';
	out("KTAP version 1\n1..%d\n# fork-init: start\n", n);
	for (tok = strtok_r(list, ",", &save), n = 1; tok;
	     tok = strtok_r(NULL, ",", &save), n++) {
		for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			if (!strcmp(tok, tests[i].name))
				break;
		if (i == sizeof(tests) / sizeof(tests[0]))
			out("not ok %d %s # no such test in the guest init\n",
			    n, tok);
		else
			run_test(i, n);
	}
	out("# fork-init: done\n");
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
