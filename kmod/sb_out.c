// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output. Fixed-point numbers are carried as thousandths (milli) so
 * that no floating point is needed in the kernel.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include "slabbench.h"

int sb_out_init(struct sb_out *out, size_t size)
{
	out->buf = kvmalloc(size, GFP_KERNEL);
	if (!out->buf)
		return -ENOMEM;
	out->size = size;
	out->len = 0;
	out->overflow = false;
	return 0;
}

void sb_out_free(struct sb_out *out)
{
	kvfree(out->buf);
	out->buf = NULL;
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

void sb_out_metric_at(struct sb_out *out, bool first, const char *name,
		      const struct sb_label *labels, const char *unit,
		      bool lower_is_better, const s64 *milli, unsigned int n)
{
	unsigned int i;

	sb_printf(out, "%s\"%s", first ? "" : ",", name);
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
	}
	sb_printf(out, "]}");
}

void sb_out_metric(struct sb_out *out, bool first, const char *name,
		   const char *unit, bool lower_is_better,
		   const s64 *milli, unsigned int n)
{
	sb_out_metric_at(out, first, name, NULL, unit, lower_is_better,
			 milli, n);
}
