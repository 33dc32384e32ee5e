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
 */

#include <linux/completion.h>
#include <linux/console.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>

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
	struct task_struct *taker;
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

	console_lock();
	for (i = 0; i < records; i++)
		pr_info("fork_load: console backlog, record %u of %u, as long as a real log line\n",
			i + 1, records);
	wake_up_process(taker);
	wait_for_completion(&b.started);
	unlock_ns = local_clock();
	console_unlock();
	unlock_ns = local_clock() - unlock_ns;
	kthread_stop(taker);
	migrate_enable();

	pr_info("    # console_backlog: records=%u unlock_us=%llu taker_cpu=%d taker_calls=%u taker_longest_printk_us=%llu\n",
		records, div_u64(unlock_ns, NSEC_PER_USEC), cpu, b.calls,
		div_u64(b.longest_ns, NSEC_PER_USEC));
	return b.longest_ns > unlock_ns ? 0 : -EAGAIN;
}

static int fork_console_backlog_set(const char *val,
				    const struct kernel_param *kp)
{
	unsigned int records;
	int ret;

	ret = kstrtouint(val, 0, &records);
	if (ret)
		return ret;
	if (!records || records > 5000)
		return -EINVAL;
	return fork_console_backlog(records);
}

static const struct kernel_param_ops fork_console_backlog_ops = {
	.set	= fork_console_backlog_set,
};
module_param_cb(console_backlog, &fork_console_backlog_ops, NULL, 0200);
MODULE_PARM_DESC(console_backlog,
		 "Write N to leave a backlog of N console records to a printk() caller");

/*
 * What preempt_disable() and preempt_enable() compile to in a kernel
 * without DEBUG_PREEMPT and TRACE_PREEMPT_TOGGLE.
 */
static __always_inline void bench_inline_pair(void)
{
	__preempt_count_inc();
	barrier();
	barrier();
	if (unlikely(__preempt_count_dec_and_test()))
		__preempt_schedule();
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

static void bench_run(unsigned int loops)
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
}

static int bench_set(const char *val, const struct kernel_param *kp)
{
	unsigned int loops;
	int ret;

	ret = kstrtouint(val, 0, &loops);
	if (ret)
		return ret;
	if (!loops)
		return -EINVAL;
	bench_run(loops);
	return 0;
}

static const struct kernel_param_ops bench_ops = {
	.set	= bench_set,
};
module_param_cb(bench, &bench_ops, NULL, 0200);
MODULE_PARM_DESC(bench, "Write N to time N preempt_disable()/enable() pairs");

MODULE_DESCRIPTION("Preempt-count benchmark and console backlog load");
MODULE_LICENSE("GPL");
