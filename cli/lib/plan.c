// SPDX-License-Identifier: GPL-2.0
/* The plan writer: each verb appends its one line, as the agent parses it. */
#define _GNU_SOURCE
#include "plan.h"
#include "strbuf.h"
#include "util.h"

#include <linux/slabbench.h>
#include <stdarg.h>
#include <stdlib.h>

struct plan {
	struct strbuf b;
};

struct plan *plan_new(void)
{
	struct plan *p = xcalloc(1, sizeof(*p));

	/* An empty plan is still a string: the agent reads it and is done. */
	sb_addf(&p->b, "%s", "");
	return p;
}

void plan_free(struct plan *p)
{
	if (p)
		free(p->b.s);
	free(p);
}

const char *plan_text(const struct plan *p)
{
	return p->b.s;
}

void plan_file(struct plan *p, const char *name, const char *path)
{
	sb_addf(&p->b, SB_VERB_FILE " %s %s\n", name, path);
}

void plan_write(struct plan *p, const char *path, const char *value)
{
	sb_addf(&p->b, SB_VERB_WRITE " %s %s\n", path, value);
}

void plan_run(struct plan *p, const char *spec)
{
	sb_addf(&p->b, SB_VERB_RUN " %s\n", spec);
}

void plan_macro(struct plan *p, const char *spec)
{
	sb_addf(&p->b, SB_VERB_MACRO " %s\n", spec);
}

void plan_profile(struct plan *p, const char *verb, const char *spec)
{
	sb_addf(&p->b, SB_VERB_PROFILE " %s %s\n", verb, spec);
}

static void plan_words(struct plan *p, va_list ap)
{
	const char *arg;

	while ((arg = va_arg(ap, const char *)))
		sb_addf(&p->b, " %s", arg);
	sb_addf(&p->b, "\n");
}

void plan_cmd(struct plan *p, const char *name, ...)
{
	va_list ap;

	sb_addf(&p->b, SB_VERB_CMD " %s", name);
	va_start(ap, name);
	plan_words(p, ap);
	va_end(ap);
}

void plan_attrs(struct plan *p, const char *name, const char *dir, ...)
{
	va_list ap;

	sb_addf(&p->b, SB_VERB_ATTRS " %s %s", name, dir);
	va_start(ap, dir);
	plan_words(p, ap);
	va_end(ap);
}

void plan_wait(struct plan *p, long seconds)
{
	sb_addf(&p->b, SB_VERB_WAIT " %ld\n", seconds);
}

void plan_reload(struct plan *p, long n, const char *spec)
{
	sb_addf(&p->b, SB_VERB_RELOAD " %ld %s\n", n, spec);
}

void plan_fuzz(struct plan *p, long n, long seed)
{
	sb_addf(&p->b, SB_VERB_FUZZ " %ld %ld\n", n, seed);
}

void plan_userspace(struct plan *p, const char *name)
{
	sb_addf(&p->b, SB_VERB_USERSPACE " %s\n", name);
}
