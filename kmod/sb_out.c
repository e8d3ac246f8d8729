// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output. Fixed-point numbers are carried as thousandths (milli) so
 * that no floating point is needed in the kernel.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/sort.h>
#include "slabbench.h"

int sb_out_init(struct sb_out *out, size_t size)
{
	out->buf = kvmalloc(size, GFP_KERNEL);
	out->sorted = kvmalloc_array(SB_MAX_SAMPLES, sizeof(s64), GFP_KERNEL);
	if (!out->buf || !out->sorted) {
		sb_out_free(out);
		return -ENOMEM;
	}
	out->size = size;
	sb_out_reset(out, false);
	return 0;
}

void sb_out_reset(struct sb_out *out, bool check)
{
	out->len = 0;
	out->overflow = false;
	out->check = check;
	out->bad[0] = '\0';
	out->depth = 0;
	out->started = 0;
	out->array = 0;
	out->in_metrics = false;
}

void sb_out_free(struct sb_out *out)
{
	kvfree(out->buf);
	kvfree(out->sorted);
	out->buf = NULL;
	out->sorted = NULL;
	out->len = 0;
	out->size = 0;
}

void sb_printf(struct sb_out *out, const char *fmt, ...)
{
	va_list args;
	int n;

	if (out->overflow)
		return;
	va_start(args, fmt);
	n = vsnprintf(out->buf + out->len, out->size - out->len, fmt, args);
	va_end(args);
	if (n >= out->size - out->len) {
		out->overflow = true;
		return;
	}
	out->len += n;
}

/*
 * @s as a JSON string. A reason may quote what userspace wrote, any byte
 * at all: quotes, control characters and non-ASCII bytes are escaped so
 * that the document stays JSON (and ASCII) whatever the spec held.
 */
void sb_out_string(struct sb_out *out, const char *s)
{
	unsigned char c;

	sb_printf(out, "\"");
	for (; *s; s++) {
		c = *s;
		if (c == '"' || c == '\\')
			sb_printf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			sb_printf(out, "\\u%04x", c);
		else
			sb_printf(out, "%c", c);
	}
	sb_printf(out, "\"");
}

/* The comma a member needs after another, and its "@key": unless NULL. */
static void sb_rec_key(struct sb_out *out, const char *key)
{
	u32 bit = BIT(out->depth);

	if (out->started & bit)
		sb_printf(out, ",");
	out->started |= bit;
	if (key) {
		sb_out_string(out, key);
		sb_printf(out, ":");
	}
}

/* A benchmark that gives a fact after a metric is wrong. */
static void sb_rec_check(struct sb_out *out, const char *key)
{
	WARN_ONCE(out->in_metrics, "slabbench: fact %s after the metrics\n",
		  key ? key : "(element)");
}

static void sb_rec_fact(struct sb_out *out, const char *key)
{
	sb_rec_check(out, key);
	sb_rec_key(out, key);
}

void sb_rec_u64(struct sb_out *out, const char *key, u64 v)
{
	sb_rec_fact(out, key);
	sb_printf(out, "%llu", v);
}

void sb_rec_s64(struct sb_out *out, const char *key, s64 v)
{
	sb_rec_fact(out, key);
	sb_printf(out, "%lld", v);
}

void sb_rec_bool(struct sb_out *out, const char *key, bool v)
{
	sb_rec_fact(out, key);
	sb_printf(out, "%s", v ? "true" : "false");
}

void sb_rec_str(struct sb_out *out, const char *key, const char *s)
{
	sb_rec_fact(out, key);
	sb_out_string(out, s);
}

void sb_rec_milli(struct sb_out *out, const char *key, s64 milli)
{
	sb_rec_fact(out, key);
	sb_out_milli(out, milli);
}

static void sb_rec_push(struct sb_out *out, const char *key, bool array)
{
	sb_rec_key(out, key);
	sb_printf(out, "%c", array ? '[' : '{');
	/* Deeper than any record nests: the document is no longer sound. */
	if (out->depth + 1 >= 32) {
		out->overflow = true;
		return;
	}
	out->depth++;
	out->started &= ~BIT(out->depth);
	if (array)
		out->array |= BIT(out->depth);
	else
		out->array &= ~BIT(out->depth);
}

void sb_rec_open(struct sb_out *out, const char *key)
{
	sb_rec_check(out, key);
	sb_rec_push(out, key, false);
}

void sb_rec_open_array(struct sb_out *out, const char *key)
{
	sb_rec_check(out, key);
	sb_rec_push(out, key, true);
}

void sb_rec_close(struct sb_out *out)
{
	if (!out->depth) {
		out->overflow = true;
		return;
	}
	sb_printf(out, "%c", out->array & BIT(out->depth) ? ']' : '}');
	out->depth--;
}

/* The separator before a metric, "metrics" opened before the first. */
static void sb_rec_metric(struct sb_out *out)
{
	if (!out->in_metrics) {
		sb_rec_push(out, "metrics", false);
		out->in_metrics = true;
	}
	sb_rec_key(out, NULL);
}

void sb_rec_end(struct sb_out *out)
{
	if (out->in_metrics)
		sb_rec_close(out);
	WARN_ONCE(out->depth != 1, "slabbench: a result left %u containers open\n",
		  out->depth - 1);
	while (out->depth)
		sb_rec_close(out);
}

/* Replaces what @out holds with {"error": @reason, "errno": -@err}. */
void sb_out_error(struct sb_out *out, const char *reason, int err)
{
	sb_out_reset(out, out->check);
	sb_printf(out, "{\"error\":");
	sb_out_string(out, reason);
	sb_printf(out, ",\"errno\":%d}\n", -err);
}

void sb_out_milli(struct sb_out *out, s64 milli)
{
	u64 mag = milli < 0 ? -(u64)milli : milli;
	u32 frac = do_div(mag, 1000);

	sb_printf(out, "%s%llu.%03u", milli < 0 ? "-" : "", mag, frac);
}

/* "k=v,..." inside a metric's name, or the members of its "labels". */
static void sb_out_labels(struct sb_out *out, const struct sb_label *l,
			  bool json)
{
	const char *sep = json ? "\":" : "=";
	const char *quote = json ? "\"" : "";
	unsigned int i;

	for (i = 0; l[i].key; i++) {
		sb_printf(out, "%s%s%s%s", i ? "," : "", quote, l[i].key, sep);
		if (l[i].str)
			sb_printf(out, "%s%s%s", quote, l[i].str, quote);
		else
			sb_printf(out, "%llu", l[i].num);
	}
}

/*
 * What a figure of each unit may be, in thousandths: one operation under a
 * second either way (a time is net of its loop, and below the clock's
 * resolution, or when single-threaded TCG runs another vCPU inside the
 * loop's window, net is below zero: kept visible, and the host marks such
 * a sample unresolved, never a time), rates within [0, 100] %, counts and
 * memory within what the run may hold (SLOB's idle bytes can be negative,
 * see bench_overhead.c).
 */
static const struct {
	const char *unit;
	s64 min, max;
} sb_ranges[] = {
	{ "ns", -1000000000000LL, 1000000000000LL },
	{ "cycles", -10000000000000LL, 10000000000000LL },
	{ "%", 0, 100000 },
	{ "ops/s", 1, 1000000000000000LL },
	{ "calls", 0, SB_WORK_CAP * 2 * 1000 },
	{ "pages", -(s64)(SB_MEM_CAP >> PAGE_SHIFT) * 1000,
	  (s64)(SB_MEM_CAP >> PAGE_SHIFT) * 1000 },
	{ "bytes", -(s64)SB_MEM_CAP * 1000, (s64)SB_MEM_CAP * 1000 },
	/* Counted objects: each holds a pointer within the memory cap. */
	{ "objects", 0, (s64)(SB_MEM_CAP / sizeof(void *)) * 1000 },
	/*
	 * Events per 1000 operations: a slow path may take several locks
	 * and an order-3 slab per object of the largest size.
	 */
	{ "per1k", 0, 1000000LL * 1000 },
	{ "objects/call", 0, (s64)(SB_MEM_CAP / sizeof(void *)) * 1000 },
};

static void sb_check_figure(struct sb_out *out, const char *name,
			    const char *unit, s64 milli)
{
	unsigned int i;

	if (out->bad[0])
		return;
	for (i = 0; i < ARRAY_SIZE(sb_ranges); i++) {
		if (strcmp(unit, sb_ranges[i].unit))
			continue;
		if (milli < sb_ranges[i].min || milli > sb_ranges[i].max)
			snprintf(out->bad, sizeof(out->bad), "%s: %lld/1000 %s out of range",
				 name, milli, unit);
		return;
	}
	snprintf(out->bad, sizeof(out->bad), "%s: unknown unit %s", name, unit);
}

static int sb_cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

/* Quantile @num/@den of @x (sorted, @n > 0), interpolated as R's type 7. */
static s64 sb_quantile(const s64 *x, unsigned int n, unsigned int num,
		       unsigned int den)
{
	unsigned int lo = num * (n - 1) / den, rem = num * (n - 1) % den;

	if (!rem)
		return x[lo];
	return x[lo] + div_s64((x[lo + 1] - x[lo]) * rem, den);
}

/*
 * "summary": mean, median and interquartile range of the samples, in the
 * metric's unit: times under emulation are skewed by the host's own
 * interruptions, and the median and IQR are the figures that resist them.
 */
static void sb_out_summary(struct sb_out *out, const s64 *milli,
			   unsigned int n)
{
	s64 mean = 0, rest = 0, q1, q3;
	unsigned int i;

	if (!n || n > SB_MAX_SAMPLES)
		return;
	/* Sum of quotients and of remainders: no overflow at any range. */
	for (i = 0; i < n; i++) {
		mean += div_s64(milli[i], n);
		rest += milli[i] - div_s64(milli[i], n) * n;
	}
	mean += div_s64(rest, n);
	memcpy(out->sorted, milli, n * sizeof(*milli));
	sort(out->sorted, n, sizeof(*milli), sb_cmp_s64, NULL);
	q1 = sb_quantile(out->sorted, n, 1, 4);
	q3 = sb_quantile(out->sorted, n, 3, 4);
	sb_printf(out, ",\"summary\":{\"n\":%u,\"mean\":", n);
	sb_out_milli(out, mean);
	sb_printf(out, ",\"median\":");
	sb_out_milli(out, sb_quantile(out->sorted, n, 1, 2));
	sb_printf(out, ",\"q1\":");
	sb_out_milli(out, q1);
	sb_printf(out, ",\"q3\":");
	sb_out_milli(out, q3);
	sb_printf(out, ",\"iqr\":");
	sb_out_milli(out, q3 - q1);
	sb_printf(out, "}");
}

/*
 * The cost-model windows of a metric's samples: @id[i] is sample i's
 * window (struct sb_timer), in which @ops operations ran. @loop, if not
 * 0, is the window of the benchmark's twin loop over as many operations:
 * the same loop with every allocator call taken out, whose counts the
 * host subtracts ("loop_window"), and in which the task was switched
 * out @loop_switches times. @loop_milli is the twin's time per
 * operation, which the samples are net of: "gross" gives them with it.
 */
struct sb_windows {
	const u32 *id;
	u64 ops;
	u32 loop;
	u64 loop_switches;
	s64 loop_milli;
};

/* ,"@key":[@v[0],...] */
static void sb_out_u64s(struct sb_out *out, const char *key, const u64 *v,
			unsigned int n)
{
	unsigned int i;

	sb_printf(out, ",\"%s\":[", key);
	for (i = 0; i < n; i++)
		sb_printf(out, "%s%llu", i ? "," : "", v[i]);
	sb_printf(out, "]");
}

/*
 * What happened in each sample's timing windows (any may be NULL):
 * @irqs[i], the interrupts this CPU took in sample i's; @switches[i], the
 * task's context switches; @crowded[i], the batches that ended with
 * another task runnable on the CPU.
 */
struct sb_events {
	const u64 *irqs;
	const u64 *switches;
	const u64 *crowded;
};

/*
 * What the clock resolves of a clocked metric's samples: a step of its
 * clock for each interval summed into sample i (@spans[i]) and into the
 * twin loop's (@loop_spans), over the sample's @ops operations.
 */
struct sb_resolution {
	u64 step;
	const u32 *spans;
	u32 loop_spans;
	u64 ops;
};

/*
 * A metric, at a sweep point "NAME[k=v,...]" with "labels" if @labels is
 * set (it ends at a NULL key), with "irqs", "switches" and "crowded"
 * from @ev, "windows" and "ops_per_window" for the cost model, and each
 * sample's "resolution" per operation; any may be NULL.
 */
static void sb_out_timed_at(struct sb_out *out, const char *name,
			    const struct sb_label *labels, const char *unit,
			    bool lower_is_better, const s64 *milli,
			    unsigned int n, const struct sb_events *ev,
			    const struct sb_windows *win,
			    const struct sb_resolution *res)
{
	unsigned int i;

	sb_rec_metric(out);
	sb_printf(out, "\"%s", name);
	if (labels) {
		sb_printf(out, "[");
		sb_out_labels(out, labels, false);
		sb_printf(out, "]");
	}
	sb_printf(out, "\":{\"unit\":\"%s\",\"better\":\"%s\",", unit,
		  lower_is_better ? "lower" : "higher");
	if (labels) {
		sb_printf(out, "\"labels\":{");
		sb_out_labels(out, labels, true);
		sb_printf(out, "},");
	}
	sb_printf(out, "\"samples\":[");
	for (i = 0; i < n; i++) {
		if (i)
			sb_printf(out, ",");
		sb_out_milli(out, milli[i]);
		if (out->check)
			sb_check_figure(out, name, unit, milli[i]);
	}
	sb_printf(out, "]");
	if (win) {
		sb_printf(out, ",\"windows\":[");
		for (i = 0; i < n; i++)
			sb_printf(out, "%s%u", i ? "," : "", win->id[i]);
		sb_printf(out, "],\"ops_per_window\":%llu", win->ops);
	}
	if (win && win->loop) {
		sb_printf(out, ",\"loop_window\":%u,\"loop_switches\":%llu,\"gross\":[",
			  win->loop, win->loop_switches);
		for (i = 0; i < n; i++) {
			if (i)
				sb_printf(out, ",");
			sb_out_milli(out, milli[i] + win->loop_milli);
		}
		sb_printf(out, "]");
	}
	if (ev && ev->irqs)
		sb_out_u64s(out, "irqs", ev->irqs, n);
	if (ev && ev->switches)
		sb_out_u64s(out, "switches", ev->switches, n);
	if (ev && ev->crowded)
		sb_out_u64s(out, "crowded", ev->crowded, n);
	if (res && res->ops) {
		sb_printf(out, ",\"resolution\":[");
		for (i = 0; i < n; i++) {
			if (i)
				sb_printf(out, ",");
			sb_out_milli(out, div64_u64(res->step * 1000 *
						    (res->spans[i] + res->loop_spans),
						    res->ops));
		}
		sb_printf(out, "]");
	}
	sb_out_summary(out, milli, n);
	sb_printf(out, "}");
	if (out->check && !n && !out->bad[0])
		snprintf(out->bad, sizeof(out->bad), "%s: no samples", name);
}

static void sb_out_samples_of(struct sb_out *out, const char *name,
			      const struct sb_label *labels, const char *unit,
			      bool lower_is_better, const struct sb_samples *s,
			      unsigned int metric, unsigned int point,
			      const struct sb_resolution *res)
{
	unsigned int at = point * s->repeats;
	struct sb_windows win = {
		.id = s->windows + at,
		.ops = s->ops[point],
		.loop = s->loop[point].window,
		.loop_switches = s->loop[point].switches,
		.loop_milli = sb_samples_loop_milli(s, point),
	};
	bool windows = metric == SB_NS && (s->flags & SB_SAMPLE_WINDOWS);
	bool irqs = s->flags & SB_SAMPLE_IRQS;
	struct sb_events ev = {
		.irqs = irqs ? s->irqs + at : NULL,
		.switches = irqs || windows ? s->switches + at : NULL,
		.crowded = irqs || windows ? s->crowded + at : NULL,
	};

	sb_out_timed_at(out, name, labels, unit, lower_is_better,
			sb_samples_at(s, metric, point), s->repeats, &ev,
			windows ? &win : NULL, res);
}

void sb_out_samples(struct sb_out *out, const char *name,
		    const struct sb_label *labels, const char *unit,
		    bool lower_is_better, const struct sb_samples *s,
		    unsigned int metric, unsigned int point)
{
	sb_out_samples_of(out, name, labels, unit, lower_is_better, s,
			  metric, point, NULL);
}

/* Samples that sb_sample() recorded: their clock intervals are known. */
void sb_out_clock(struct sb_out *out, const char *name,
		  const struct sb_label *labels, const struct sb_samples *s,
		  unsigned int clock, unsigned int point)
{
	struct sb_resolution res = {
		.step = sb_clock_step[clock],
		.spans = s->spans + point * s->repeats,
		.loop_spans = s->loop[point].spans,
		.ops = s->ops[point],
	};

	sb_out_samples_of(out, name, labels, clock == SB_NS ? "ns" : "cycles",
			  true, s, clock, point, &res);
}

void sb_out_clocks(struct sb_out *out, const char *per,
		   const struct sb_label *labels, const struct sb_samples *s,
		   unsigned int point)
{
	static const char * const clocks[] = { "ns", "cycles" };
	char name[32];
	unsigned int c;

	for (c = 0; c < SB_CLOCKS; c++) {
		snprintf(name, sizeof(name), "%s_per_%s", clocks[c], per);
		sb_out_clock(out, name, labels, s, c, point);
	}
}

void sb_out_loop_overhead(struct sb_out *out, const struct sb_samples *s)
{
	sb_rec_milli(out, "loop_overhead_ns", sb_samples_loop_milli(s, 0));
}

void sb_out_samples_order(struct sb_out *out, const struct sb_samples *s,
			  void (*label)(struct sb_out *out, u32 idx,
					const void *arg),
			  const void *arg)
{
	const u32 *order = s->order;
	unsigned int nr = s->nr_points, r, i;

	sb_rec_open_array(out, "point_order");
	for (r = 0; r < s->repeats; r++) {
		sb_rec_open_array(out, NULL);
		for (i = 0; i < nr; i++)
			label(out, order[r * nr + i], arg);
		sb_rec_close(out);
	}
	sb_rec_close(out);
}

void sb_out_alloc_free(struct sb_out *out, const struct sb_samples *s)
{
	static const char * const names[] = {
		"alloc_ns_per_op", "free_ns_per_op",
		"alloc_cycles_per_op", "free_cycles_per_op",
	};
	unsigned int i;

	sb_out_loop_overhead(out, s);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		sb_out_clock(out, names[i], NULL, s,
			     i < SB_SIDES ? SB_NS : SB_CYCLES, i % SB_SIDES);
}

void sb_out_metric(struct sb_out *out, const char *name, const char *unit,
		   bool lower_is_better, const s64 *milli, unsigned int n)
{
	sb_out_timed_at(out, name, NULL, unit, lower_is_better, milli, n, NULL,
			NULL, NULL);
}
