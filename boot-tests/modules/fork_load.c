// SPDX-License-Identifier: GPL-2.0
/*
 * Loads and a benchmark for the fork's boot tests and the figures of its
 * cover letters; not part of any series (built out of tree against each
 * kernel, boot-tests/modules/Kbuild).  It uses only what 6.1 exports, so
 * it builds for every commit of every topic.
 *
 *   echo N > /sys/module/fork_load/parameters/bench
 *
 * times N preempt_disable()/preempt_enable() pairs, as this kernel builds
 * them and as a kernel without preempt-count hooks would, and prints a
 * KTAP subtest "preempt_bench" (Documentation/dev-tools/ktap.rst),
 * indented as KUnit indents a suite, of one result, preempt_bench_pair,
 * with the figures.
 *
 *   echo N > /sys/module/fork_load/parameters/console_backlog
 *
 * leaves a console backlog of N records to a printk() caller, as a load for
 * boot tests of the console code; see fork_console_backlog().  It prints a
 * KTAP diagnostic line and fails with -EAGAIN when no printk() caller took
 * the backlog over: the writer judges the load.
 *
 *   echo N > /sys/module/fork_load/parameters/console_order
 *   echo N > /sys/module/fork_load/parameters/console_drop
 *   echo N > /sys/module/fork_load/parameters/console_loss
 *   echo N > /sys/module/fork_load/parameters/console_sysrq
 *   echo NONCE > /sys/module/fork_load/parameters/console_panic
 *   echo NONCE > /sys/module/fork_load/parameters/console_reset
 *   echo NONCE > /sys/module/fork_load/parameters/console_reset_irq
 *
 * log a numbered flood of N records (NONCE: 4000, then a panic or an
 * emergency_restart()) and count
 * what a console of this module receives of it; see fork_flood().  The
 * figures are in console_result, as those of
 *
 *   echo N > /sys/module/fork_load/parameters/console_wake
 *   echo S > /sys/module/fork_load/parameters/console_unregister
 *   echo US > /sys/module/fork_load/parameters/console_replay
 *
 * records logged under console_lock() (fork_console_wake()), a console
 * removed while a producer logs for S seconds (fork_console_unregister())
 * and the log replayed to a console registered after boot
 * (fork_console_replay()).
 *   echo MS > /sys/module/fork_load/parameters/hog_ms
 * spins MS ms with preemption disabled: a known stall (hog_set()).
 *
 *   echo 1 > /sys/module/fork_load/parameters/tasklet_takeover
 *
 * takes the last online CPU offline with a HI and a normal tasklet queued
 * on it, and checks that each runs once on another CPU (takeover_set());
 * the figures are in takeover_result.
 *
 *   echo US > /sys/module/fork_load/parameters/storm_work_us
 *   echo MS > /sys/module/fork_load/parameters/storm_ms
 *
 * raises tasklets for MS ms on every online CPU, from a bottom half
 * section of a kthread and from a pinned hard hrtimer, each busy for US
 * microseconds: a softirq load (storm_set()); every tasklet must run
 * exactly once, the figures are in storm_result.
 */

#include <linux/completion.h>
#include <linux/ctype.h>
#include <linux/console.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/cpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/hrtimer.h>
#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/nmi.h>
#endif
#include <linux/timekeeping.h>
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/kmsg_dump.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/panic.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sort.h>
#include <linux/sched/clock.h>
#include <linux/reboot.h>
#include <linux/string.h>
#include <linux/sysrq.h>
#include <linux/vmalloc.h>

/*
 * A numbered flood of records and a console of this module that counts
 * what it receives of it, in any kernel: with a printer thread
 * (printk.threaded) or without.  Modes:
 *
 *  order  N records that fit the log buffer, while a kthread on the
 *         other CPU takes and releases the console lock in a loop:
 *         every one must reach the console once and in order;
 *  rate   the order mode without the console_lock() holder: the printk()
 *         call latency and console throughput of the figures;
 *  loss   N records as fast as this task can log them, nothing else
 *         running: what the console skipped must be what its "printk
 *         messages dropped" notices say (printk.threaded promises no
 *         more when producers outrun the consoles); the counts are the
 *         loss figures of the cover letter;
 *  drop   N records, the printer thread (if any) starved meanwhile by a
 *         SCHED_FIFO hog on the CPU it is moved to: the records the
 *         console skipped (its sequence numbers) must be what its
 *         "printk messages dropped" notices say, the flood's missing
 *         numbers among them;
 *  sysrq  the drop mode's hog and N records, then sysrq's help (a key
 *         without an operation) from this task with interrupts disabled,
 *         as from a serial break, while the hog still runs, at a
 *         console loglevel that lets the flood through but not the
 *         help (sysrq raises it while it logs): the call must return
 *         within CALL_MAX_MS, not write the backlog ahead of the help
 *         (what a WARN or a lockup report with interrupts off would do
 *         too), and everything, the help last, must reach the console
 *         once the hog stops;
 *  panic  the drop mode's hog and 4000 records, then a record
 *         "fork: last record before panic NONCE" and
 *         panic("fork: expected panic NONCE"): the host checks that both
 *         reach the serial console (boot-tests/parse, expect-panic);
 *  reset  as panic, with "fork: last record before reset NONCE" and
 *         emergency_restart() (sysrq-b, softdog): the host checks that
 *         the record reaches the serial console before the reset
 *         (expect-reset).
 *
 * The console's write() runs with the console lock held and interrupts
 * off; it parses each record and counts.  The result line (console_result)
 * has the counts and the figures of the cover letter: the printk() call
 * latency of the flood (p50/p99/max) and the console throughput from the
 * first record stored to the last one written to this console.
 */
#define FLOOD_TAG	"fork_load: flood "
#define FLOOD_SYNC	"fork_load: flood starts"
#define FLOOD_PANIC_RECORDS	4000
/*
 * console_holder and console_sysrq: what a console_lock() holder's
 * console_unlock(), and sysrq with interrupts off, may take
 */
#define CALL_MAX_MS		50
/* console_sysrq: notice (the flood) passes, info (sysrq's help) not */
#define FLOOD_SYSRQ_LOGLEVEL	(LOGLEVEL_INFO)

/*
 * Busy for @us microseconds by the clocksource: udelay() under QEMU TCG is
 * far off on x86, and local_clock() with interrupts off stops a tick after
 * the last one where sched_clock is unstable.
 */
static void fork_busy_us(unsigned int us)
{
	u64 end = ktime_get_mono_fast_ns() + (u64)us * NSEC_PER_USEC;

	while (us && ktime_get_mono_fast_ns() < end)
		cpu_relax();
}

static struct fork_con_count {
	unsigned int	total;		/* records of the flood */
	unsigned int	next;		/* the number expected next */
	unsigned int	seen;		/* records received */
	unsigned int	missing;	/* numbers skipped */
	unsigned int	disorder;	/* a number at or below one seen */
	unsigned int	by_printer;	/* written by the pr/legacy thread */
	unsigned long	dropped;	/* sum of the dropped notices */
	bool		synced;		/* FLOOD_SYNC written: counting */
	u64		last_seq;	/* of the last record written */
	unsigned long	gaps;		/* records skipped since FLOOD_SYNC */
	bool		help;		/* sysrq's "HELP : " written */
	u64		last_ns;	/* when the last record was written */
	u64		end_seq;	/* wake: the ring's next record after the flood */
	bool		later;		/* wake: a later record was stored by then */
	unsigned int	slow_us;	/* replay: busy wait in each write */
	unsigned int	replayed;	/* replay: records written before the tag */
	char		replay_tag[48];	/* replay: logged after the registration */
	bool		replay_done;	/* replay: the tag was written */
	unsigned int	sched_probes;	/* writes left to probe, see below */
	unsigned int	sched_irqs_off;	/* scheduled in a write, irqs off */
} fc;

/*
 * Console drivers are called with interrupts disabled, and those that call
 * console_conditional_schedule() (vt, fbcon) must not schedule there:
 * console_may_schedule must be 0 while they run.  Where a test arms it,
 * a write asks for a reschedule and calls it, as fbcon's redraw does: if
 * it scheduled, interrupts come back enabled.
 */
static void fork_con_probe_sched(void)
{
	if (!fc.sched_probes || !irqs_disabled())
		return;
	fc.sched_probes--;
	set_tsk_need_resched(current);
	set_preempt_need_resched();
	console_conditional_schedule();
	if (!irqs_disabled()) {
		fc.sched_irqs_off++;
		local_irq_disable();
	}
}

static void fork_con_write(struct console *con, const char *s, unsigned int n)
{
	char buf[16];
	unsigned long v;
	const char *p;
	size_t k;

	/*
	 * While a record is written, con->seq is its sequence number (the
	 * console advances it after the write): what this console skipped
	 * is known exactly, whoever logged it.
	 */
	fork_con_probe_sched();
	fork_busy_us(fc.slow_us);
	if (fc.replay_tag[0]) {
		if (strnstr(s, fc.replay_tag, n))
			fc.replay_done = true;
		else if (!fc.replay_done)
			fc.replayed++;
		return;
	}
	if (strnstr(s, FLOOD_SYNC, n)) {
		fc.synced = true;
		fc.last_seq = con->seq;
		return;
	}
	if (!fc.synced)
		return;
	if (n > 3 && !strncmp(s, "** ", 3)) {
		/* "** %lu printk messages dropped **" (printk.c) */
		k = min_t(size_t, n - 3, sizeof(buf) - 1);
		memcpy(buf, s + 3, k);
		buf[k] = '\0';
		p = strchr(buf, ' ');
		if (p && strnstr(s, "printk messages dropped", n)) {
			buf[p - buf] = '\0';
			if (!kstrtoul(buf, 10, &v))
				fc.dropped += v;
		}
		return;
	}
	fc.gaps += con->seq - fc.last_seq - 1;
	fc.last_seq = con->seq;
	if (strnstr(s, "HELP : ", n)) {
		fc.help = true;
		return;
	}
	p = strnstr(s, FLOOD_TAG, n);
	if (!p)
		return;
	p += strlen(FLOOD_TAG);
	for (k = 0; k < sizeof(buf) - 1 && p + k < s + n && isdigit(p[k]); k++)
		buf[k] = p[k];
	buf[k] = '\0';
	if (kstrtoul(buf, 10, &v) || !v)
		return;
	fc.seen++;
	if (current->flags & PF_KTHREAD && !strcmp(current->comm, "pr/legacy"))
		fc.by_printer++;
	if (v < fc.next) {
		fc.disorder++;
		return;
	}
	fc.missing += v - fc.next;
	fc.next = v + 1;
	if (v == fc.total) {
		fc.last_ns = local_clock();
		if (fc.end_seq) {
			struct kmsg_dump_iter it;

			/* lockless: the ring's next sequence number */
			kmsg_dump_rewind(&it);
			fc.later = it.next_seq > fc.end_seq;
		}
	}
}

static struct console fork_con = {
	.name	= "forkcon",
	.write	= fork_con_write,
};

static char console_result[400];
module_param_string(console_result, console_result, sizeof(console_result), 0444);
MODULE_PARM_DESC(console_result, "The counts of the last console flood");

/* count a flood of @total records on the console; -ENODEV: cannot */
static int fork_con_start(unsigned int total)
{
	memset(&fc, 0, sizeof(fc));
	fc.total = total;
	fc.next = 1;
	fork_con.flags = CON_ENABLED;
	register_console(&fork_con);
	return fork_con.flags & CON_ENABLED ? 0 : -ENODEV;
}

/*
 * Wait up to two minutes for what was logged before to be written: the
 * flood's window starts with nothing pending, so that all it can lose
 * are its own records.  Consoles are written in the order of the console
 * list, where this one comes after the preferred console: the serial
 * console has written it too.
 */
static bool fork_con_sync(void)
{
	unsigned int ms;

	pr_notice(FLOOD_SYNC "\n");
	for (ms = 0; !READ_ONCE(fc.synced) && ms < 120000; ms += 20)
		msleep(20);
	return READ_ONCE(fc.synced);
}

/*
 * The counting console registered for a flood of @total records, and what
 * was logged before written: 0, or -ENODEV / -ETIMEDOUT with the console
 * unregistered again.
 */
static int fork_con_begin(unsigned int total)
{
	int err = fork_con_start(total);

	if (!err && !fork_con_sync())
		err = -ETIMEDOUT;
	if (err)
		unregister_console(&fork_con);
	return err;
}

/* wait up to @limit_ms for the flood's last record to be written */
static bool fork_con_wait_ms(unsigned int limit_ms)
{
	unsigned int ms;

	for (ms = 0; !READ_ONCE(fc.last_ns) && ms < limit_ms; ms += 20)
		msleep(20);
	return READ_ONCE(fc.last_ns);
}

/* wait up to two minutes for the flood's last record to be written */
static bool fork_con_wait(void)
{
	return fork_con_wait_ms(120000);
}

/* the printer thread of printk.threaded, if it runs */
static struct task_struct *fork_printer_get(void)
{
	struct task_struct *p, *found = NULL;

	rcu_read_lock();
	for_each_process(p) {
		if (p->flags & PF_KTHREAD && !strcmp(p->comm, "pr/legacy")) {
			found = get_task_struct(p);
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/*
 * A console backlog left to a printk() caller, a load for the boot tests
 * of the console code.  The writing task takes the console lock and logs
 * @records records, which nobody can print while it holds the lock, then
 * releases it with console_unlock(), which writes them out.  Meanwhile a
 * kthread on another CPU calls printk() in a loop: as soon as a record is
 * being written, its printk() spins for the console, takes it over at the
 * end of that record and writes the rest of the backlog itself, as any
 * printk() caller on a busy system would.  How long that stays
 * non-preemptible is for the caller of the load to judge (the maximum
 * section, the reports).  The write fails with -EAGAIN unless the backlog
 * was taken over (the taker's longest printk() outlasted the
 * console_unlock() it took the console from), so that a test never judges
 * a load which did not happen.
 */
struct fork_backlog {
	struct completion	started;
	u64			longest_ns;	/* the taker's longest printk() */
	unsigned int		calls;
};

static int fork_console_backlog_taker(void *arg)
{
	struct fork_backlog *b = arg;
	u64 t;

	complete(&b->started);
	while (!kthread_should_stop()) {
		t = local_clock();
		pr_info("fork_load: console backlog taker, call %u\n",
			++b->calls);
		t = local_clock() - t;
		b->longest_ns = max(b->longest_ns, t);
		usleep_range(10, 20);
	}
	return 0;
}

static int fork_console_backlog(unsigned int records)
{
	struct fork_backlog b = { };
	struct task_struct *taker, *printer;
	bool written;
	unsigned int i;
	u64 unlock_ns;
	int cpu;

	init_completion(&b.started);
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		migrate_enable();
		pr_info("    # console_backlog: needs a second online CPU\n");
		return -ENODEV;
	}
	taker = kthread_create(fork_console_backlog_taker, &b,
			       "fork_backlog/%d", cpu);
	if (IS_ERR(taker)) {
		migrate_enable();
		return PTR_ERR(taker);
	}
	kthread_bind(taker, cpu);
	printer = fork_printer_get();
	if (fork_con_begin(records)) {
		kthread_stop(taker);
		migrate_enable();
		if (printer)
			put_task_struct(printer);
		return -ENODEV;
	}

	console_lock();
	for (i = 0; i < records; i++)
		pr_info(FLOOD_TAG "%u of %u, a console backlog, as long as a real log line\n",
			i + 1, records);
	wake_up_process(taker);
	wait_for_completion(&b.started);
	unlock_ns = local_clock();
	console_unlock();
	unlock_ns = local_clock() - unlock_ns;
	/* with printk.threaded the printer writes it: the window is until then */
	written = fork_con_wait();
	kthread_stop(taker);
	migrate_enable();
	unregister_console(&fork_con);

	snprintf(console_result, sizeof(console_result),
		 "records=%u unlock_us=%llu taker_cpu=%d taker_calls=%u taker_longest_printk_us=%llu written=%u by_printer=%u",
		 records, div_u64(unlock_ns, NSEC_PER_USEC), cpu, b.calls,
		 div_u64(b.longest_ns, NSEC_PER_USEC), fc.seen, fc.by_printer);
	pr_info("    # console_backlog: %s\n", console_result);
	if (printer) {
		put_task_struct(printer);
		/*
		 * With the printer thread no printk() caller takes it over:
		 * the printer writes it, or the console_lock() holder's
		 * console_unlock() (before "printk: Let console_lock() holders
		 * leave the printing to the printer").  Judged once written.
		 */
		return written ? 0 : -EAGAIN;
	}
	return b.longest_ns > unlock_ns ? 0 : -EAGAIN;
}

/* A count written to a parameter: 1..@max, or any positive with @max 0 */
static int fork_count(const char *val, unsigned int max, unsigned int *n)
{
	int ret = kstrtouint(val, 0, n);

	if (ret)
		return ret;
	return !*n || (max && *n > max) ? -EINVAL : 0;
}

/* A parameter that takes a count, 1..max, and runs a test with it */
struct fork_count_param {
	unsigned int	max;
	int		(*run)(unsigned int n);
};

static int fork_count_set(const char *val, const struct kernel_param *kp)
{
	const struct fork_count_param *p = kp->arg;
	unsigned int n;
	int ret = fork_count(val, p->max, &n);

	return ret ?: p->run(n);
}

static const struct kernel_param_ops fork_count_ops = {
	.set	= fork_count_set,
};

#define FORK_COUNT_PARAM(name, limit, fn)				\
	static struct fork_count_param name##_param = {			\
		.max = limit, .run = fn,				\
	};								\
	module_param_cb(name, &fork_count_ops, &name##_param, 0200)

FORK_COUNT_PARAM(console_backlog, 5000, fork_console_backlog);
MODULE_PARM_DESC(console_backlog,
		 "Write N to leave a backlog of N console records to a printk() caller");

static int fork_hog(void *arg)
{
	complete(arg);
	while (!kthread_should_stop())
		cpu_relax();
	return 0;
}

/*
 * console_lock() holders during the order flood, on the other CPU: the
 * printer's trylock fails on them, and the records must still come (the
 * holder's console_unlock() hands them back to the printer).
 */
static int fork_locker(void *arg)
{
	unsigned int *holds = arg;

	while (!kthread_should_stop()) {
		console_lock();
		udelay(50);
		console_unlock();
		(*holds)++;
		usleep_range(100, 200);
	}
	return 0;
}

static int fork_ns_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* between two records of the loss mode's flood: its rate (figures) */
static unsigned int flood_gap_us;
module_param(flood_gap_us, uint, 0644);
MODULE_PARM_DESC(flood_gap_us, "Microseconds (by the clocksource) of busy wait between two records of console_loss");

enum fork_flood_mode { FLOOD_ORDER, FLOOD_RATE, FLOOD_DROP, FLOOD_SYSRQ, FLOOD_PANIC, FLOOD_LOSS,
		       FLOOD_HOLDER, FLOOD_RESET };

static int fork_flood(enum fork_flood_mode mode, unsigned int records,
		      const char *nonce)
{
	static const char * const names[] = { "order", "rate", "drop", "sysrq", "panic", "loss",
					      "holder", "reset" };
	struct task_struct *printer = NULL, *hog = NULL, *locker = NULL;
	unsigned int holds = 0;
	struct completion hog_started;
	int loglevel = console_loglevel;
	bool help_in_time = false, whole;
	u64 t0, t, stored_ns, drain_ns, call_ns = 0;
	unsigned long flags;
	unsigned int i;
	u32 *lat;
	int cpu, err = 0;

	lat = vmalloc(array_size(records, sizeof(*lat)));
	if (!lat)
		return -ENOMEM;
	err = fork_con_begin(records);
	if (err) {
		vfree(lat);
		return err;
	}

	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, smp_processor_id());
	if (mode == FLOOD_ORDER && cpu < nr_cpu_ids) {
		locker = kthread_create_on_cpu(fork_locker, &holds, cpu, "fork_locker/%u");
		if (IS_ERR(locker)) {
			err = PTR_ERR(locker);
			locker = NULL;
			goto out;
		}
		wake_up_process(locker);
	}
	if (mode != FLOOD_ORDER && mode != FLOOD_RATE && mode != FLOOD_LOSS) {
		printer = fork_printer_get();
		if (cpu < nr_cpu_ids && printer) {
			init_completion(&hog_started);
			hog = kthread_create_on_cpu(fork_hog, &hog_started, cpu, "fork_hog/%u");
			if (IS_ERR(hog)) {
				err = PTR_ERR(hog);
				hog = NULL;
				goto out;
			}
			sched_set_fifo(hog);
			set_cpus_allowed_ptr(printer, cpumask_of(cpu));
			wake_up_process(hog);
			wait_for_completion(&hog_started);
		}
	}

	t0 = local_clock();
	for (i = 0; i < records; i++) {
		t = local_clock();
		pr_notice(FLOOD_TAG "%u of %u, padded to the length of a real log line\n",
			  i + 1, records);
		lat[i] = min_t(u64, local_clock() - t, U32_MAX);
		if (mode == FLOOD_LOSS)
			fork_busy_us(flood_gap_us);
	}
	stored_ns = local_clock() - t0;
	if (mode == FLOOD_PANIC) {
		pr_emerg("fork: last record before panic %s\n", nonce);
		panic("fork: expected panic %s", nonce);
	}
	if (mode == FLOOD_RESET) {
		pr_emerg("fork: last record before reset %s\n", nonce);
		emergency_restart();
	}
	if (mode == FLOOD_SYSRQ) {
		/*
		 * At a console loglevel that lets the flood through but not
		 * sysrq's info-level help, which sysrq raises the loglevel
		 * for while it stores it (restored at out)
		 */
		console_loglevel = FLOOD_SYSRQ_LOGLEVEL;
		/* as from a serial break: interrupts off; not local_clock() */
		local_irq_save(flags);
		t = ktime_get_mono_fast_ns();
		handle_sysrq('h');
		call_ns = ktime_get_mono_fast_ns() - t;
		local_irq_restore(flags);
		help_in_time = READ_ONCE(fc.help);
	}
	if (mode == FLOOD_HOLDER) {
		t = local_clock();
		console_lock();
		console_unlock();
		call_ns = local_clock() - t;
	}
	if (hog)
		kthread_stop(hog);
	/*
	 * The console lock holder runs while three quarters of the flood
	 * are written, and is stopped before the rest: a record left behind
	 * by a lost wake-up of the printer is then written by nobody, and
	 * the wait times out.
	 */
	if (locker) {
		for (i = 0; READ_ONCE(fc.next) <= records / 4 * 3 && i < 6000; i++)
			msleep(20);
		kthread_stop(locker);
	}
	if (printer)
		set_cpus_allowed_ptr(printer, cpu_possible_mask);

	/* the last record reaches the console however far behind it is */
	if (!fork_con_wait())
		err = -ETIMEDOUT;
	drain_ns = (fc.last_ns ?: local_clock()) - t0;
	/* sysrq's help comes after the flood's last record */
	for (i = 0; mode == FLOOD_SYSRQ && !READ_ONCE(fc.help) && i < 500; i++)
		msleep(20);

	sort(lat, records, sizeof(*lat), fork_ns_cmp, NULL);
	snprintf(console_result, sizeof(console_result),
		 "mode=%s gap_us=%u records=%u seen=%u missing=%u disorder=%u dropped_notice=%lu skipped=%lu by_printer=%u hog=%s help=%d help_before_hog_stopped=%d console_lock_holds=%u call_us=%llu limit_us=%lu stored_ms=%llu written_ms=%llu records_per_s=%llu printk_ns_p50=%u p99=%u max=%u",
		 names[mode], mode == FLOOD_LOSS ? flood_gap_us : 0, records,
		 fc.seen, fc.missing, fc.disorder,
		 fc.dropped, fc.gaps, fc.by_printer, hog ? "yes" : "no", fc.help,
		 help_in_time, holds, div_u64(call_ns, NSEC_PER_USEC),
		 CALL_MAX_MS * USEC_PER_MSEC,
		 div_u64(stored_ns, NSEC_PER_MSEC), div_u64(drain_ns, NSEC_PER_MSEC),
		 div64_u64((u64)fc.seen * NSEC_PER_SEC, max_t(u64, drain_ns, 1)),
		 lat[records / 2], lat[records - 1 - records / 100], lat[records - 1]);
	/* these floods fit the buffer: all of it arrives, once, in order */
	whole = fc.seen == records && !fc.missing && !fc.disorder;
	if (!err && (mode == FLOOD_ORDER || mode == FLOOD_RATE ||
		     mode == FLOOD_SYSRQ || mode == FLOOD_HOLDER) && !whole)
		err = -EIO;
	if (!err && mode == FLOOD_SYSRQ && !fc.help)
		err = -EIO;
	/*
	 * A console_lock() holder, and sysrq with interrupts off, leave the
	 * backlog to the printer: the call returns at once (6.1 writes the
	 * backlog in it).  Without a starved printer nothing to judge.
	 */
	if (!err && (mode == FLOOD_HOLDER || mode == FLOOD_SYSRQ))
		err = !hog ? -EAGAIN :
		      call_ns > CALL_MAX_MS * NSEC_PER_MSEC ? -EIO : 0;
	/* a printer that never fell behind: nothing to judge */
	if (!err && mode == FLOOD_DROP && hog && !fc.gaps)
		err = -EAGAIN;
	/* the notices tell what the console skipped, of the flood or not */
	if (!err && (mode == FLOOD_DROP || mode == FLOOD_LOSS) &&
	    (fc.disorder || fc.seen + fc.missing != records ||
	     fc.dropped != fc.gaps || fc.missing > fc.gaps))
		err = -EIO;
out:
	console_loglevel = loglevel;
	migrate_enable();
	unregister_console(&fork_con);
	if (printer)
		put_task_struct(printer);
	vfree(lat);
	pr_notice("    # console_%s: %s\n", names[mode], console_result);
	return err;
}

static int fork_flood_set(const char *val, const struct kernel_param *kp)
{
	enum fork_flood_mode mode = (uintptr_t)kp->arg;
	unsigned int records;
	int ret;

	if (mode == FLOOD_PANIC || mode == FLOOD_RESET) {
		char nonce[32];

		if (sscanf(val, "%31s", nonce) != 1)
			return -EINVAL;
		return fork_flood(mode, FLOOD_PANIC_RECORDS, nonce);
	}
	ret = fork_count(val, 100000, &records);
	if (ret)
		return ret;
	return fork_flood(mode, records, NULL);
}

static const struct kernel_param_ops fork_flood_ops = {
	.set	= fork_flood_set,
};
module_param_cb(console_order, &fork_flood_ops, (void *)FLOOD_ORDER, 0200);
MODULE_PARM_DESC(console_order, "Write N: a flood of N records must reach the console whole, in order");
module_param_cb(console_rate, &fork_flood_ops, (void *)FLOOD_RATE, 0200);
MODULE_PARM_DESC(console_rate, "Write N: as console_order, without the console_lock() holder (figures)");
module_param_cb(console_drop, &fork_flood_ops, (void *)FLOOD_DROP, 0200);
MODULE_PARM_DESC(console_drop, "Write N: a flood of N records with the printer starved: drops as announced");
module_param_cb(console_loss, &fork_flood_ops, (void *)FLOOD_LOSS, 0200);
MODULE_PARM_DESC(console_loss, "Write N: a flood of N records as fast as one task logs: every gap announced");
module_param_cb(console_sysrq, &fork_flood_ops, (void *)FLOOD_SYSRQ, 0200);
MODULE_PARM_DESC(console_sysrq, "Write N: N records with the printer starved, then sysrq help, interrupts off: returns at once");
module_param_cb(console_holder, &fork_flood_ops, (void *)FLOOD_HOLDER, 0200);
MODULE_PARM_DESC(console_holder, "Write N: N records with the printer starved, then console_lock()/console_unlock(): returns at once");
module_param_cb(console_panic, &fork_flood_ops, (void *)FLOOD_PANIC, 0200);
MODULE_PARM_DESC(console_panic, "Write NONCE: a flood with the printer starved, then panic(\"fork: expected panic NONCE\")");
module_param_cb(console_reset, &fork_flood_ops, (void *)FLOOD_RESET, 0200);
MODULE_PARM_DESC(console_reset, "Write NONCE: a flood with the printer starved, then emergency_restart()");

/*
 * reset_irq: emergency_restart() from an hrtimer (as softdog's) on the
 * printer's CPU while the printer is busy writing RESET_IRQ_RECORDS
 * records, each taking RESET_IRQ_SLOW_US on this module's console with
 * interrupts off (a slow serial console), so that the timer expires
 * during a write.  The flush of emergency_restart() must get the console
 * lock: a printer that held it with interrupts enabled would run the
 * timer inside its hold, under the flush.  The host checks that the
 * record logged by the timer reaches the serial console (expect-reset).
 * Without a printer thread the flood's caller writes it (6.1).
 *
 * Meanwhile this task, on another CPU, logs a record once the reset has
 * begun: printk() callers print directly from then on, and it takes the
 * console over from the flush at the end of a record.  The flush must
 * then wait for it, not reset the machine under it (v6 did).
 *
 * The timer runs on the boot CPU: the flush waits for progress in
 * udelay()s, and under QEMU TCG an x86 secondary CPU calibrates its delay
 * loop against a jiffies clock that the round-robin vCPUs make
 * unreliable: "Total of 2 processors activated (5192.31 BogoMIPS)" where
 * CPU 0 has 5192.18, and udelay(100) there returned after about 1 us.
 * Whether the flush's 100 ms bound or 1 us was tested would depend on
 * the CPU the test task happened to run on.
 */
#define RESET_IRQ_RECORDS	300
#define RESET_IRQ_SLOW_US	2000
#define RESET_IRQ_AFTER_MS	100
#define RESET_IRQ_DIRECT_DELAY_MS	20

static char reset_nonce[32];
static struct hrtimer reset_timer;

static enum hrtimer_restart fork_reset_fn(struct hrtimer *t)
{
	pr_emerg("fork: last record before reset %s\n", reset_nonce);
	emergency_restart();
	return HRTIMER_NORESTART;
}

static void fork_reset_arm(void *unused)
{
	hrtimer_start(&reset_timer, ms_to_ktime(RESET_IRQ_AFTER_MS),
		      HRTIMER_MODE_REL_PINNED);
}

/*
 * Once emergency_restart() has begun (system_state), printk() callers
 * print directly: be one, on this CPU, while the flush of the other CPU
 * writes the backlog, so that it hands the console over to this caller
 * at the end of a record.  Busy-waited (ktime, not jiffies): the flush
 * keeps its CPU's interrupts off, and that CPU may be the one that
 * updates jiffies.
 */
static void fork_reset_direct_printer(void)
{
	ktime_t end = ktime_add_ms(ktime_get(), 10000);

	while (READ_ONCE(system_state) == SYSTEM_RUNNING) {
		if (ktime_after(ktime_get(), end))
			return;
		cpu_relax();
	}
	/*
	 * the flush has the console by now: a record takes 2 ms (by the
	 * clocksource: this is not the boot CPU, whose udelay() is right)
	 */
	fork_busy_us(RESET_IRQ_DIRECT_DELAY_MS * USEC_PER_MSEC);
	pr_info("fork: a printk() caller during the reset's flush\n");
}

static int fork_console_reset_irq(const char *nonce)
{
	struct task_struct *printer = fork_printer_get();
	unsigned int i, cpu, other;
	int err;

	strscpy(reset_nonce, nonce, sizeof(reset_nonce));
	err = fork_con_begin(RESET_IRQ_RECORDS);
	if (err)
		goto out;	/* unregistered: unregistering again is -ENODEV */
	cpu = cpumask_first(cpu_online_mask);
	other = cpumask_any_but(cpu_online_mask, cpu);
	if (other >= nr_cpu_ids) {
		err = -ENODEV;
		goto out;
	}
	err = set_cpus_allowed_ptr(current, cpumask_of(other));
	if (err)
		goto out;
	if (printer)
		set_cpus_allowed_ptr(printer, cpumask_of(cpu));
	fc.slow_us = RESET_IRQ_SLOW_US;
	for (i = 0; i < RESET_IRQ_RECORDS; i++)
		pr_notice(FLOOD_TAG "%u of %u, written slowly\n", i + 1, RESET_IRQ_RECORDS);
	hrtimer_init(&reset_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
	reset_timer.function = fork_reset_fn;
	smp_call_function_single(cpu, fork_reset_arm, NULL, 1);
	fork_reset_direct_printer();
	/* the reset comes meanwhile */
	msleep(10000);
	hrtimer_cancel(&reset_timer);
	err = -EIO;
out:
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	fc.slow_us = 0;
	unregister_console(&fork_con);
	if (printer) {
		set_cpus_allowed_ptr(printer, cpu_possible_mask);
		put_task_struct(printer);
	}
	return err;
}

static int fork_reset_irq_set(const char *val, const struct kernel_param *kp)
{
	char nonce[32];

	if (sscanf(val, "%31s", nonce) != 1)
		return -EINVAL;
	return fork_console_reset_irq(nonce);
}

static const struct kernel_param_ops fork_reset_irq_ops = {
	.set	= fork_reset_irq_set,
};
module_param_cb(console_reset_irq, &fork_reset_irq_ops, NULL, 0200);
MODULE_PARM_DESC(console_reset_irq,
		 "Write NONCE: emergency_restart() from a timer on the busy printer's CPU");

/*
 * wake: records left behind by a console_lock() holder (console-resched
 * v3's lost wake-up).  This task holds the console lock while @records
 * records are logged, and sleeps, so that the printk irq_work wakes the
 * printer and the printer finds the lock taken.  console_unlock() must
 * leave nothing behind: every record reaches the console within
 * WAKE_WAIT_MS, before any later record is stored (one would wake the
 * printer again: a driver's message at boot, this module logs nothing
 * meanwhile), written by the printer, not by the holder.  When a later
 * record came first the attempt cannot judge and is made again, up to
 * WAKE_ATTEMPTS times.
 */
#define WAKE_WAIT_MS	10000
#define WAKE_ATTEMPTS	5

static int fork_console_wake_once(unsigned int records, u64 *written_ns)
{
	struct kmsg_dump_iter it;
	unsigned int i;
	u64 t0;
	int err;

	*written_ns = 0;
	err = fork_con_begin(records);
	if (err)
		return err;
	console_lock();
	for (i = 0; i < records; i++)
		pr_notice(FLOOD_TAG "%u of %u, logged under console_lock()\n",
			  i + 1, records);
	/* the printk irq_work runs meanwhile and wakes the printer */
	msleep(200);
	kmsg_dump_rewind(&it);
	WRITE_ONCE(fc.end_seq, it.next_seq);
	t0 = local_clock();
	console_unlock();
	if (!fork_con_wait_ms(WAKE_WAIT_MS))
		return -ETIMEDOUT;
	*written_ns = fc.last_ns - t0;
	if (fc.later)
		return -EAGAIN;
	if (fc.seen != records || fc.missing || fc.disorder)
		return -EIO;
	/* console_unlock() leaves the printing to the printer */
	return fc.by_printer != records ? -EIO : 0;
}

static int fork_console_wake(unsigned int records)
{
	struct task_struct *printer = fork_printer_get();
	unsigned int attempt = 0;
	u64 written_ns = 0;
	int err;

	do {
		if (attempt)
			unregister_console(&fork_con);
		err = printer ? fork_console_wake_once(records, &written_ns) : -ENODEV;
	} while (err == -EAGAIN && ++attempt < WAKE_ATTEMPTS);
	if (printer)
		put_task_struct(printer);
	snprintf(console_result, sizeof(console_result),
		 "mode=wake records=%u seen=%u by_printer=%u missing=%u disorder=%u written_ms=%llu limit_ms=%u later_record_first=%d attempts=%u",
		 records, fc.seen, fc.by_printer, fc.missing, fc.disorder,
		 div_u64(written_ns, NSEC_PER_MSEC), WAKE_WAIT_MS, fc.later,
		 min(attempt + 1, WAKE_ATTEMPTS));
	unregister_console(&fork_con);
	pr_notice("    # console_wake: %s\n", console_result);
	return err;
}

FORK_COUNT_PARAM(console_wake, 5000, fork_console_wake);
MODULE_PARM_DESC(console_wake,
		 "Write N: N records logged under console_lock(): all reach the console, by the printer");

/*
 * unregister: unregister_console() while a producer on the other CPU logs
 * as fast as it can, for up to @seconds: with a printer thread the
 * producer only stores its records, and the console's removal must not
 * wait for the producer to stop (console-resched v3 flushed until the ring
 * was empty).  It must return within UNREGISTER_MAX_MS, at most a third of
 * the producer's time, and the console must have written what was stored
 * when it was called (the record before the ring's next sequence number).
 */
#define UNREGISTER_MAX_MS	12000

#define PRODUCER_LINE \
	"fork_load: producer record %lu, as long as a real log line, outrunning the console\n"

struct fork_producer {
	u64		deadline;	/* local_clock() when it stops logging */
	unsigned long	records;
};

static int fork_producer_fn(void *arg)
{
	struct fork_producer *p = arg;

	while (!kthread_should_stop()) {
		if (local_clock() >= p->deadline) {
			msleep(20);
			continue;
		}
		pr_notice(PRODUCER_LINE, ++p->records);
		cond_resched();
	}
	return 0;
}

/*
 * The counting console registered and synced, this task kept on its CPU
 * (migrate_disable()), and @p's producer created, not woken, on another
 * CPU.  On an error nothing of it is left.
 */
static struct task_struct *fork_producer_start(struct fork_producer *p)
{
	struct task_struct *producer;
	int cpu, err;

	err = fork_con_begin(0);
	if (err)
		return ERR_PTR(err);
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, smp_processor_id());
	producer = cpu < nr_cpu_ids ?
		   kthread_create_on_cpu(fork_producer_fn, p, cpu, "fork_producer/%u") :
		   ERR_PTR(-ENODEV);
	if (IS_ERR(producer)) {
		migrate_enable();
		unregister_console(&fork_con);
	}
	return producer;
}

static int fork_console_unregister(unsigned int seconds)
{
	struct fork_producer p = { };
	struct task_struct *producer;
	struct kmsg_dump_iter it;
	bool producing;
	u64 t0, t;

	if (seconds * MSEC_PER_SEC < 3 * UNREGISTER_MAX_MS)
		return -EINVAL;
	producer = fork_producer_start(&p);
	if (IS_ERR(producer))
		return PTR_ERR(producer);
	p.deadline = local_clock() + (u64)seconds * NSEC_PER_SEC;
	wake_up_process(producer);
	/* a backlog behind the consoles */
	msleep(500);
	kmsg_dump_rewind(&it);
	fc.sched_probes = 20;
	t0 = local_clock();
	unregister_console(&fork_con);
	t = local_clock();
	producing = t < p.deadline;
	kthread_stop(producer);
	migrate_enable();
	t = div_u64(t - t0, NSEC_PER_MSEC);
	snprintf(console_result, sizeof(console_result),
		 "mode=unregister producer_s=%u producer_records=%lu unregister_ms=%llu limit_ms=%u returned_while_producing=%d pending_at_call=%llu written_to=%llu scheduled_irqs_off=%u",
		 seconds, p.records, t, UNREGISTER_MAX_MS, producing, it.next_seq,
		 fc.last_seq + 1, fc.sched_irqs_off);
	pr_notice("    # console_unregister: %s\n", console_result);
	/* and what was pending when it was called reached the console */
	return producing && t <= UNREGISTER_MAX_MS && !fc.sched_irqs_off &&
	       fc.last_seq + 1 >= it.next_seq ? 0 : -EIO;
}

FORK_COUNT_PARAM(console_unregister, 600, fork_console_unregister);
MODULE_PARM_DESC(console_unregister,
		 "Write S: unregister a console while a producer logs for S seconds: returns in time");

/*
 * replay: this module's console registered after boot with CON_PRINTBUFFER,
 * so that the log is replayed to it, each record written in @slow_us (a
 * slow serial console).  6.1 replays it in register_console()'s
 * console_unlock() with cond_resched() between records; with the printer
 * thread the printer replays it, one record at a time, and must not
 * write it in one section.  The caller (the
 * init's console_replay guard) judges the sections; this returns once a
 * record logged after the registration has been written.
 */
static int fork_console_replay(unsigned int slow_us)
{
	unsigned int ms;
	bool done;

	memset(&fc, 0, sizeof(fc));
	snprintf(fc.replay_tag, sizeof(fc.replay_tag), "fork_load: replay tag %llu",
		 local_clock());
	fc.slow_us = slow_us;
	fc.sched_probes = 20;
	fork_con.flags = CON_ENABLED | CON_PRINTBUFFER;
	register_console(&fork_con);
	if (!(fork_con.flags & CON_ENABLED)) {
		fc.replay_tag[0] = '\0';
		return -ENODEV;
	}
	pr_notice("%s\n", fc.replay_tag);
	for (ms = 0; !READ_ONCE(fc.replay_done) && ms < 120000; ms += 20)
		msleep(20);
	done = READ_ONCE(fc.replay_done);
	unregister_console(&fork_con);
	snprintf(console_result, sizeof(console_result),
		 "mode=replay slow_us=%u replayed=%u done=%d scheduled_irqs_off=%u",
		 slow_us, fc.replayed, done, fc.sched_irqs_off);
	fc.slow_us = 0;
	fc.replay_tag[0] = '\0';
	pr_notice("    # console_replay: %s\n", console_result);
	if (fc.sched_irqs_off)
		return -EIO;
	return done && fc.replayed ? 0 : -ETIMEDOUT;
}

FORK_COUNT_PARAM(console_replay, 100000, fork_console_replay);
MODULE_PARM_DESC(console_replay,
		 "Write US: register a console with CON_PRINTBUFFER that takes US per record");

/*
 * What preempt_disable() and preempt_enable() compile to in a kernel
 * without DEBUG_PREEMPT and TRACE_PREEMPT_TOGGLE.
 */
static __always_inline void bench_inline_pair(void)
{
	__preempt_count_inc();
	barrier();
	barrier();
#ifdef CONFIG_PREEMPTION
	if (unlikely(__preempt_count_dec_and_test()))
		__preempt_schedule();
#else
	/* preempt_enable() without kernel preemption */
	__preempt_count_dec();
#endif
}

/* This kernel's pair: preempt_count_add()/sub() if something hooks them */
static __always_inline void bench_pair(void)
{
	preempt_disable();
	preempt_enable();
}

static noinline void bench_loop_inline(unsigned int loops)
{
	unsigned int i;

	for (i = 0; i < loops; i++)
		bench_inline_pair();
}

static noinline void bench_loop_pair(unsigned int loops)
{
	unsigned int i;

	for (i = 0; i < loops; i++)
		bench_pair();
}

/* The best of a few rounds of @loops pairs, in picoseconds per pair */
static u64 bench_time(unsigned int loops, void (*loop)(unsigned int loops))
{
	u64 best = U64_MAX, t;
	unsigned int r;

	for (r = 0; r < 5; r++) {
		t = local_clock();
		loop(loops);
		t = local_clock() - t;
		best = min(best, t);
		cond_resched();
	}
	return div_u64(best * 1000, loops);
}

static int bench_run(unsigned int loops)
{
	u64 inline_ps, pair_ps;
	char detail[160];

	inline_ps = bench_time(loops, bench_loop_inline);
	pair_ps = bench_time(loops, bench_loop_pair);
	snprintf(detail, sizeof(detail),
		 "loops=%u inline_ps=%llu pair_ps=%llu", loops, inline_ps,
		 pair_ps);
	pr_info("    KTAP version 1\n");
	pr_info("    # Subtest: preempt_bench\n");
	pr_info("    1..1\n");
	pr_info("    ok 1 preempt_bench_pair # %s\n", detail);
	return 0;
}

FORK_COUNT_PARAM(bench, 0, bench_run);
MODULE_PARM_DESC(bench, "Write N to time N preempt_disable()/enable() pairs");

/*
 * A known stall, the positive control of a latency measurement: the
 * writer's CPU spins MS milliseconds with preemption disabled, so a
 * SCHED_FIFO task woken on it meanwhile waits that long.
 */
static int hog_set(unsigned int ms)
{
	preempt_disable();
	mdelay(ms);
	preempt_enable();
	return 0;
}

FORK_COUNT_PARAM(hog_ms, 1000, hog_set);
MODULE_PARM_DESC(hog_ms, "Write MS to spin MS ms with preemption disabled");

/*
 * A section of a known length for the latency tracers: preemption held
 * off for MS ms by the clocksource (mdelay() is far off under TCG).
 */
static int hold_set(unsigned int ms)
{
	preempt_disable();
	fork_busy_us(ms * USEC_PER_MSEC);
	preempt_enable();
	return 0;
}

FORK_COUNT_PARAM(hold_ms, 2000, hold_set);
MODULE_PARM_DESC(hold_ms, "Write MS to hold preemption disabled for MS ms, by the clocksource");

/*
 * The same under a spinlock: the latency tracers name the lock's caller,
 * not the lock function, as the start and the end of the section.
 */
static DEFINE_SPINLOCK(fork_hold_lock);

static int hold_lock_set(unsigned int ms)
{
	spin_lock(&fork_hold_lock);
	fork_busy_us(ms * USEC_PER_MSEC);
	spin_unlock(&fork_hold_lock);
	return 0;
}

FORK_COUNT_PARAM(hold_lock_ms, 2000, hold_lock_set);
MODULE_PARM_DESC(hold_lock_ms, "Write MS to hold a spinlock for MS ms, by the clocksource");

/*
 * nmi_cpu1: N NMIs sent to CPU 1, 5 ms apart, each claimed by a handler of
 * this module (x86: the local APIC's NMI delivery); -ENODEV elsewhere.
 */
#ifdef CONFIG_X86
static atomic_t fork_nmi_pending, fork_nmi_seen, fork_nmi_in_hold;
static bool fork_in_hold;

static int fork_nmi_fn(unsigned int type, struct pt_regs *regs)
{
	if (!atomic_add_unless(&fork_nmi_pending, -1, 0))
		return NMI_DONE;
	atomic_inc(&fork_nmi_seen);
	if (READ_ONCE(fork_in_hold))
		atomic_inc(&fork_nmi_in_hold);
	return NMI_HANDLED;
}

static int fork_nmi_cpu1(unsigned int n)
{
	unsigned int i;
	int ret;

	if (!cpu_online(1))
		return -ENODEV;
	ret = register_nmi_handler(NMI_LOCAL, fork_nmi_fn, 0, "fork_nmi");
	if (ret)
		return ret;
	atomic_set(&fork_nmi_seen, 0);
	for (i = 0; i < n; i++) {
		atomic_inc(&fork_nmi_pending);
		apic->send_IPI(1, NMI_VECTOR);
		msleep(5);
	}
	msleep(20);
	unregister_nmi_handler(NMI_LOCAL, "fork_nmi");
	atomic_set(&fork_nmi_pending, 0);
	pr_info("fork_load: %d of %u NMIs on CPU 1\n",
		atomic_read(&fork_nmi_seen), n);
	return atomic_read(&fork_nmi_seen) ? 0 : -EIO;
}

/* CPU 0's kthread: an NMI to CPU 1 every 5 ms until stopped */
static int fork_nmi_sender(void *arg)
{
	while (!kthread_should_stop()) {
		atomic_inc(&fork_nmi_pending);
		apic->send_IPI(1, NMI_VECTOR);
		msleep(5);
	}
	return 0;
}

static noinline void fork_irqs_off(unsigned int ms)
{
	local_irq_disable();
	fork_busy_us(ms * USEC_PER_MSEC);
	local_irq_enable();
}

/*
 * hold_irq_nmi_ms, written on CPU 1: interrupts held off there for MS ms
 * while a kthread on CPU 0 sends NMIs to it every 5 ms (not a write of
 * nmi_cpu1: this write holds the module's parameter lock).  The latency
 * tracers name this function as the hold's start and end.  -EAGAIN when
 * no NMI came during the hold.
 */
static int hold_irq_nmi_set(unsigned int ms)
{
	struct task_struct *sender;
	int ret;

	if (raw_smp_processor_id() != 1 || !cpu_online(0))
		return -ENODEV;
	ret = register_nmi_handler(NMI_LOCAL, fork_nmi_fn, 0, "fork_nmi");
	if (ret)
		return ret;
	atomic_set(&fork_nmi_in_hold, 0);
	sender = kthread_create(fork_nmi_sender, NULL, "fork_nmi_sender");
	if (IS_ERR(sender)) {
		ret = PTR_ERR(sender);
		goto out;
	}
	kthread_bind(sender, 0);
	wake_up_process(sender);
	msleep(20);
	WRITE_ONCE(fork_in_hold, true);
	fork_irqs_off(ms);
	WRITE_ONCE(fork_in_hold, false);
	kthread_stop(sender);
	msleep(20);
	pr_info("fork_load: %d NMIs on CPU 1 during an irqs-off hold of %u ms\n",
		atomic_read(&fork_nmi_in_hold), ms);
	ret = atomic_read(&fork_nmi_in_hold) ? 0 : -EAGAIN;
out:
	unregister_nmi_handler(NMI_LOCAL, "fork_nmi");
	atomic_set(&fork_nmi_pending, 0);
	return ret;
}
#else
static int fork_nmi_cpu1(unsigned int n)
{
	return -ENODEV;
}

static int hold_irq_nmi_set(unsigned int ms)
{
	return -ENODEV;
}
#endif

FORK_COUNT_PARAM(nmi_cpu1, 1000, fork_nmi_cpu1);
MODULE_PARM_DESC(nmi_cpu1, "Write N to send N NMIs to CPU 1, 5 ms apart (x86)");

FORK_COUNT_PARAM(hold_irq_nmi_ms, 2000, hold_irq_nmi_set);
MODULE_PARM_DESC(hold_irq_nmi_ms,
		 "Write MS on CPU 1 to hold interrupts off there for MS ms while CPU 0 sends NMIs (x86)");

/*
 * A slow console for the records logged meanwhile: the counting console
 * registered, each write busy for US microseconds; 0 unregisters it.
 */
static bool fork_slow_registered;

static int fork_console_slow_set(const char *val, const struct kernel_param *kp)
{
	unsigned int us;
	int ret = kstrtouint(val, 0, &us);

	if (ret)
		return ret;
	if (!us) {
		WRITE_ONCE(fc.slow_us, 0);
		if (fork_slow_registered)
			unregister_console(&fork_con);
		fork_slow_registered = false;
		return 0;
	}
	if (!fork_slow_registered) {
		ret = fork_con_begin(0);
		if (ret)
			return ret;
		fork_slow_registered = true;
	}
	WRITE_ONCE(fc.slow_us, us);
	return 0;
}

static const struct kernel_param_ops fork_console_slow_ops = {
	.set	= fork_console_slow_set,
};
module_param_cb(console_slow_us, &fork_console_slow_ops, NULL, 0200);
MODULE_PARM_DESC(console_slow_us,
		 "Write US to register a console that takes US us per record; 0 unregisters it");

/*
 * Tasklets queued on a CPU that goes offline must move to another CPU
 * (takeover_tasklets() at CPUHP_SOFTIRQ_DEAD) and run there, once: a
 * disabled tasklet stays queued on its CPU (each softirq pass queues it
 * again), so one HI and one normal tasklet, disabled and scheduled on the
 * victim from an IPI, are on its lists when it dies; enabled once it is
 * offline, each must run once, elsewhere.  The victim spins in softirq
 * processing meanwhile, and may go idle with TASKLET_SOFTIRQ pending
 * between ksoftirqd's park and its teardown ("NOHZ tick-stop error",
 * which the boot's parser would fail).  A system test, not a unit test:
 * it takes a CPU offline.
 */
struct fork_takeover {
	struct tasklet_struct	t;
	struct completion	done;
	atomic_t		runs;
	int			cpu;
	bool			enabled;
	bool			ran_disabled;
};

static char takeover_result[160];
module_param_string(takeover_result, takeover_result, sizeof(takeover_result), 0444);
MODULE_PARM_DESC(takeover_result, "The figures of the last tasklet_takeover check");

static void fork_takeover_fn(struct tasklet_struct *t)
{
	struct fork_takeover *ft = from_tasklet(ft, t, t);

	ft->cpu = smp_processor_id();
	if (!READ_ONCE(ft->enabled))
		ft->ran_disabled = true;
	atomic_inc(&ft->runs);
	complete(&ft->done);
}

static void fork_takeover_queue(void *arg)
{
	struct fork_takeover *ft = arg;

	tasklet_hi_schedule(&ft[0].t);
	tasklet_schedule(&ft[1].t);
}

static int takeover_set(const char *val, const struct kernel_param *kp)
{
	unsigned int victim = cpumask_last(cpu_online_mask);
	struct fork_takeover *ft;
	int i, err, off;
	bool lost = false;

	if (num_online_cpus() < 2 || !cpu_is_hotpluggable(victim))
		return -ENODEV;
	ft = kcalloc(2, sizeof(*ft), GFP_KERNEL);
	if (!ft)
		return -ENOMEM;
	for (i = 0; i < 2; i++) {
		tasklet_setup(&ft[i].t, fork_takeover_fn);
		init_completion(&ft[i].done);
		ft[i].cpu = -1;
		tasklet_disable(&ft[i].t);
	}
	err = smp_call_function_single(victim, fork_takeover_queue, ft, 1);
	off = err ? err : remove_cpu(victim);
	for (i = 0; i < 2; i++) {
		WRITE_ONCE(ft[i].enabled, true);
		tasklet_enable(&ft[i].t);
	}
	for (i = 0; i < 2; i++)
		if (!wait_for_completion_timeout(&ft[i].done, 5 * HZ))
			lost = true;
	msleep(20);	/* a second run shows now */
	snprintf(takeover_result, sizeof(takeover_result),
		 "victim=%u offline=%d hi_cpu=%d hi_runs=%d cpu=%d runs=%d ran_disabled=%d",
		 victim, off, ft[0].cpu, atomic_read(&ft[0].runs), ft[1].cpu,
		 atomic_read(&ft[1].runs), ft[0].ran_disabled || ft[1].ran_disabled);
	if (!off && !cpu_online(victim))
		err = add_cpu(victim);
	if (lost) {
		/* may still be queued: leak them, keep the module */
		__module_get(THIS_MODULE);
		return -EIO;
	}
	for (i = 0; i < 2; i++)
		tasklet_kill(&ft[i].t);
	if (off || err)
		goto fail;
	for (i = 0; i < 2; i++)
		if (atomic_read(&ft[i].runs) != 1 || ft[i].cpu == victim ||
		    ft[i].ran_disabled)
			goto fail;
	kfree(ft);
	return 0;
fail:
	kfree(ft);
	return -EIO;
}

static const struct kernel_param_ops takeover_ops = {
	.set	= takeover_set,
};
module_param_cb(tasklet_takeover, &takeover_ops, NULL, 0200);
MODULE_PARM_DESC(tasklet_takeover, "Write 1 to check the takeover of queued tasklets from a CPU going offline");

/*
 * A softirq load: every item is one tasklet, raised again only once it has
 * run.  Items are slab memory, killed (tasklet_kill(): the core writes
 * t->state after the callback) before they are freed, and leaked with the
 * module pinned if one never ran.  Raisers: a kthread bound to each
 * online CPU (CPU hotplug is not expected meanwhile) and a pinned hard
 * hrtimer on it.
 */
#define STORM_ITEMS	64
#define STORM_BATCH	8
#define STORM_PERIOD_NS	(200 * NSEC_PER_USEC)

struct fork_storm_item {
	struct tasklet_struct	t;
	atomic_t		queued;
};

struct fork_storm_cpu {
	struct fork_storm_item	*items;		/* 2 * STORM_ITEMS */
	unsigned int		bh_next, hi_next;
	struct hrtimer		timer;
	struct task_struct	*thread;
};

static unsigned int storm_work_us;
module_param(storm_work_us, uint, 0644);
MODULE_PARM_DESC(storm_work_us, "Busy-wait of each storm tasklet, in us (at most 1000)");
static char storm_result[160];
module_param_string(storm_result, storm_result, sizeof(storm_result), 0444);
MODULE_PARM_DESC(storm_result, "The figures of the last storm");
static atomic_long_t storm_raised, storm_ran, storm_twice;
static bool storm_stop;

static void fork_storm_fn(struct tasklet_struct *t)
{
	struct fork_storm_item *it = from_tasklet(it, t, t);
	unsigned int us = min(READ_ONCE(storm_work_us), 1000U);

	if (us)
		udelay(us);
	atomic_long_inc(&storm_ran);
	if (atomic_xchg(&it->queued, 0) != 1)
		atomic_long_inc(&storm_twice);
}

static void fork_storm_raise(struct fork_storm_item *items, unsigned int *next,
			     bool hi)
{
	struct fork_storm_item *it = &items[*next];

	*next = (*next + 1) % STORM_ITEMS;
	if (atomic_cmpxchg(&it->queued, 0, 1))
		return;
	atomic_long_inc(&storm_raised);
	if (hi)
		tasklet_hi_schedule(&it->t);
	else
		tasklet_schedule(&it->t);
}

static enum hrtimer_restart fork_storm_timer(struct hrtimer *timer)
{
	struct fork_storm_cpu *sc = container_of(timer, struct fork_storm_cpu, timer);

	if (READ_ONCE(storm_stop))
		return HRTIMER_NORESTART;
	fork_storm_raise(sc->items + STORM_ITEMS, &sc->hi_next, true);
	hrtimer_forward_now(timer, ns_to_ktime(STORM_PERIOD_NS));
	return HRTIMER_RESTART;
}

static int fork_storm_thread(void *arg)
{
	struct fork_storm_cpu *sc = arg;
	int i;

	hrtimer_start(&sc->timer, ns_to_ktime(STORM_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
	while (!kthread_should_stop()) {
		local_bh_disable();
		for (i = 0; i < STORM_BATCH && !READ_ONCE(storm_stop); i++)
			fork_storm_raise(sc->items, &sc->bh_next, false);
		local_bh_enable();
		usleep_range(50, 100);
	}
	hrtimer_cancel(&sc->timer);
	return 0;
}

static int storm_set(unsigned int ms)
{
	struct fork_storm_cpu *cpus;
	struct fork_storm_item *items;
	unsigned int cpu, i, n;
	unsigned long deadline;
	long raised, ran;

	n = nr_cpu_ids * 2 * STORM_ITEMS;
	cpus = kcalloc(nr_cpu_ids, sizeof(*cpus), GFP_KERNEL);
	items = kcalloc(n, sizeof(*items), GFP_KERNEL);
	if (!cpus || !items) {
		kfree(cpus);
		kfree(items);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		tasklet_setup(&items[i].t, fork_storm_fn);
	atomic_long_set(&storm_raised, 0);
	atomic_long_set(&storm_ran, 0);
	atomic_long_set(&storm_twice, 0);
	WRITE_ONCE(storm_stop, false);
	for_each_online_cpu(cpu) {
		struct fork_storm_cpu *sc = &cpus[cpu];

		sc->items = items + cpu * 2 * STORM_ITEMS;
		hrtimer_init(&sc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		sc->timer.function = fork_storm_timer;
		sc->thread = kthread_create_on_cpu(fork_storm_thread, sc, cpu,
						   "fork_storm/%u");
		if (IS_ERR(sc->thread))
			sc->thread = NULL;
		else
			wake_up_process(sc->thread);
	}
	msleep(ms);
	WRITE_ONCE(storm_stop, true);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (cpus[cpu].thread)
			kthread_stop(cpus[cpu].thread);
	deadline = jiffies + 10 * HZ;
	while (atomic_long_read(&storm_ran) < atomic_long_read(&storm_raised) &&
	       time_before(jiffies, deadline))
		msleep(20);
	raised = atomic_long_read(&storm_raised);
	ran = atomic_long_read(&storm_ran);
	snprintf(storm_result, sizeof(storm_result),
		 "ms=%u work_us=%u raised=%ld ran=%ld twice=%ld", ms,
		 storm_work_us, raised, ran, atomic_long_read(&storm_twice));
	kfree(cpus);
	for (i = 0; i < n; i++) {
		if (atomic_read(&items[i].queued)) {
			/* never ran: may still be queued, leak them all */
			__module_get(THIS_MODULE);
			return -EIO;
		}
	}
	for (i = 0; i < n; i++)
		tasklet_kill(&items[i].t);
	kfree(items);
	return raised && ran == raised && !atomic_long_read(&storm_twice) ? 0 : -EIO;
}

FORK_COUNT_PARAM(storm_ms, 60000, storm_set);
MODULE_PARM_DESC(storm_ms, "Write MS to raise tasklets on every CPU for MS ms");

MODULE_DESCRIPTION("Preempt-count benchmark, console loads and a CPU hog");
MODULE_LICENSE("GPL");
