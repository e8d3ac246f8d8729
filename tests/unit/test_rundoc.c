// SPDX-License-Identifier: GPL-2.0
/*
 * The preemption model a results file records: the cost model's counts
 * are exact or not by it, and every 7.x x86 kernel is PREEMPT_LAZY or
 * PREEMPT, which must not read "?".
 */
#include "check.h"
#include "rundoc.h"

int main(void)
{
	static const struct {
		const char *config, *model;
	} cases[] = {
		{ "CONFIG_PREEMPT_NONE=y\n", "PREEMPT_NONE" },
		{ "CONFIG_X=y\nCONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\n",
		  "PREEMPT_VOLUNTARY" },
		/* Debian's 7.3: lazy, switchable at boot. */
		{ "CONFIG_PREEMPT_BUILD=y\nCONFIG_PREEMPT_LAZY=y\nCONFIG_PREEMPTION=y\n"
		  "CONFIG_PREEMPT_DYNAMIC=y\n", "PREEMPT_LAZY" },
		{ "CONFIG_PREEMPT=y\nCONFIG_PREEMPTION=y\n", "PREEMPT" },
		{ "CONFIG_PREEMPT_RT=y", "PREEMPT_RT" },
		/* Whole lines only. */
		{ "# CONFIG_PREEMPT_LAZY=y is not a line\nCONFIG_PREEMPT_LAZY=m\n", "?" },
		{ "", "?" },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_STR(rundoc_preempt_model(cases[i].config), cases[i].model,
			  "preemption model of case %u", i);
	CHECK_STR(rundoc_preempt_model(NULL), "?", "no .config: unknown");
	return check_done();
}
