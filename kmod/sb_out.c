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

void sb_out_metric(struct sb_out *out, bool first, const char *name,
		   const char *unit, bool lower_is_better,
		   const s64 *milli, unsigned int n)
{
	unsigned int i;

	sb_printf(out, "%s\"%s\":{\"unit\":\"%s\",\"better\":\"%s\",\"samples\":[",
		  first ? "" : ",", name, unit,
		  lower_is_better ? "lower" : "higher");
	for (i = 0; i < n; i++) {
		if (i)
			sb_printf(out, ",");
		sb_out_milli(out, milli[i]);
	}
	sb_printf(out, "]}");
}
