// SPDX-License-Identifier: GPL-2.0
/* Unit tests of numfmt: no exponent, no negative zero. */
#define _GNU_SOURCE
#include "check.h"
#include "numfmt.h"
#include "util.h"

#include <math.h>

int main(void)
{
	static const struct {
		void (*fmt)(char *out, size_t size, double v, int digits, bool sign,
			    const char *suffix);
		double v;
		int digits;
		bool sign;
		const char *suffix, *want, *name;
	} cases[] = {
		{ fmt_fixed, -0.04, 1, true, "%", "0.0%",
		  "fixed: -0.04 to one decimal is 0.0%, not -0.0%" },
		{ fmt_fixed, -0.4, 0, true, "", "0", "fixed: -0.4 to none is 0, not -0" },
		{ fmt_fixed, 0, 2, true, "pp", "0.00pp", "fixed: zero carries no sign" },
		{ fmt_fixed, 12.345, 1, true, "%", "+12.3%", "fixed: a sign when asked" },
		{ fmt_fixed, -12.345, 1, false, "", "-12.3", "fixed: a negative keeps its sign" },
		{ fmt_fixed, NAN, 1, true, "%", "n/a", "fixed: NaN is n/a" },
		{ fmt_compact, 94400, 2, true, "%", "+94400%", "compact: no decimals from 1000" },
		{ fmt_compact, 999.5, 1, true, "%", "+999.5%", "compact: decimals below 1000" },
		{ fmt_sig, 94400, 3, true, "", "+94400", "sig: 94400, not +9.44e+04" },
		{ fmt_sig, 1e12, 3, false, "", "1000000000000",
		  "sig: a large value in fixed notation" },
		{ fmt_sig, -50, 4, true, "", "-50", "sig: trailing zeros and the point dropped" },
		{ fmt_sig, 0.5, 4, true, "", "+0.5", "sig: a fraction" },
		{ fmt_sig, 9.9996, 4, false, "", "10", "sig: rounding that carries a digit" },
		{ fmt_sig, 0.00012345, 3, false, "", "0.000123",
		  "sig: a small value to its significant digits" },
		{ fmt_sig, 0, 3, true, "", "0", "sig: zero" },
	};
	char b[64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		cases[i].fmt(b, sizeof(b), cases[i].v, cases[i].digits, cases[i].sign, cases[i].suffix);
		CHECK_STR(b, cases[i].want, "%s", cases[i].name);
	}
	fmt_pct(b, sizeof(b), 9.84);
	CHECK_STR(b, "+9.8%", "pct: one decimal below 100%%");
	fmt_pct(b, sizeof(b), -250.4);
	CHECK_STR(b, "-250%", "pct: none from 100%%");
	fmt_p(b, sizeof(b), 0.3712);
	CHECK_STR(b, "= 0.37", "p: two digits");
	fmt_p(b, sizeof(b), 0.00123);
	CHECK_STR(b, "= 0.0012", "p: small, still fixed");
	fmt_p(b, sizeof(b), 3.2e-7);
	CHECK_STR(b, "< 0.001", "p: tiny, bounded rather than 3.2e-07");
	return check_done();
}
