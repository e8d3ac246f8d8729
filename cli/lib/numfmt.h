/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Numbers a mail can carry: fixed notation only (never "9.44e+04"), and
 * a value that rounds to zero printed as an unsigned zero (never "-0",
 * "-0.0%"). compare and report format every figure through these.
 */
#ifndef SLABBENCH_NUMFMT_H
#define SLABBENCH_NUMFMT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * @v with @decimals decimals into @out; with @sign a '+' before a
 * positive value; @suffix ("%", "pp", "") after it. NaN and infinities
 * are "n/a".
 */
void fmt_fixed(char *out, size_t size, double v, int decimals, bool sign, const char *suffix);

/*
 * A figure of any size in few columns: @decimals decimals below 1000,
 * none from there (the digits of a large count are all significant).
 */
void fmt_compact(char *out, size_t size, double v, int decimals, bool sign, const char *suffix);

/*
 * @v to @sig significant digits as %g would give them, trailing zeros
 * dropped, but in fixed notation: all the integer digits of a large
 * value (94400, not 9.44e+04).
 */
void fmt_sig(char *out, size_t size, double v, int sig, bool sign, const char *suffix);

/* A change in percent as the report gives it: "+9.8%", "+250%". */
void fmt_pct(char *out, size_t size, double pct);

/* "= 0.37", "= 0.0012", "< 0.001": a p- or q-value after its name. */
void fmt_p(char *out, size_t size, double p);

#endif
