// SPDX-License-Identifier: GPL-2.0
/* Numbers without exponents or negative zeros (numfmt.h). */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fmt_fixed(char *out, size_t size, double v, int decimals, bool sign, const char *suffix)
{
	double scale = pow(10, decimals);

	if (!isfinite(v)) {
		snprintf(out, size, "n/a");
		return;
	}
	/* What prints as zero is zero, whatever its sign before rounding. */
	if (round(fabs(v) * scale) == 0)
		v = 0;
	snprintf(out, size, sign && v > 0 ? "+%.*f%s" : "%.*f%s", decimals, v, suffix);
}

void fmt_compact(char *out, size_t size, double v, int decimals, bool sign, const char *suffix)
{
	fmt_fixed(out, size, v, fabs(v) < 1000 ? decimals : 0, sign, suffix);
}

void fmt_sig(char *out, size_t size, double v, int sig, bool sign, const char *suffix)
{
	int decimals = 0;
	char *dot, *end;

	if (isfinite(v) && v != 0)
		decimals = sig - 1 - (int)floor(log10(fabs(v)));
	if (decimals < 0)
		decimals = 0;
	/* Rounding may carry into another digit (9.9996 to 4 digits is 10.00): one fewer. */
	if (decimals > 0 && isfinite(v) && v != 0 &&
	    fabs(round(v * pow(10, decimals))) >= pow(10, sig))
		decimals--;
	fmt_fixed(out, size, v, decimals, sign, "");
	dot = strchr(out, '.');
	if (dot) {
		end = out + strlen(out);
		while (end > dot + 1 && end[-1] == '0')
			*--end = '\0';
		if (end == dot + 1)
			*dot = '\0';
	}
	if (strlen(out) + strlen(suffix) < size)
		strcat(out, suffix);
}

void fmt_p(char *out, size_t size, double p)
{
	char v[32];

	if (p < 0.001) {
		snprintf(out, size, "< 0.001");
		return;
	}
	fmt_sig(v, sizeof(v), p, 2, false, "");
	snprintf(out, size, "= %s", v);
}

void fmt_pct(char *out, size_t size, double pct)
{
	fmt_compact(out, size, pct, fabs(pct) < 100 ? 1 : 0, true, "%");
}
