// SPDX-License-Identifier: GPL-2.0
/*
 * Run specs ("test=NAME key=value ...", test= naming a benchmark), the
 * catalogue that describes them, and the limits of a run that depend on
 * the guest. The catalogue is generated from the same tables that validate
 * the specs, so the host never needs its own copy of the bounds.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/ctype.h>
#include <linux/cpumask.h>
#include "slabbench.h"

int sb_fail(struct sb_ctx *ctx, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(ctx->reason, sizeof(ctx->reason), fmt, args);
	va_end(args);
	return -EINVAL;
}

const struct sb_bench *sb_find_bench(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < sb_nr_benches; i++)
		if (strlen(sb_benches[i]->name) == len &&
		    !strncmp(sb_benches[i]->name, name, len))
			return sb_benches[i];
	return NULL;
}

static int sb_parse_value(struct sb_ctx *ctx, unsigned int idx,
			  const char *value)
{
	const struct sb_param *p = &ctx->bench->params[idx];
	unsigned int i;
	u64 v;

	if (p->type == SB_ENUM) {
		for (i = 0; p->choices[i]; i++) {
			if (!strcmp(p->choices[i], value)) {
				ctx->val[idx] = i;
				return 0;
			}
		}
		return sb_fail(ctx, "%s=%.32s: not one of the choices of test %s",
			       p->name, value, ctx->bench->name);
	}
	if (kstrtou64(value, 0, &v))
		return sb_fail(ctx, "%s=%.32s: not an unsigned integer",
			       p->name, value);
	if (v < p->min || v > p->max)
		return sb_fail(ctx, "%s=%llu: out of range [%llu, %llu]",
			       p->name, v, p->min, p->max);
	ctx->val[idx] = v;
	return 0;
}

/* Finds test=NAME first so that keys can be looked up in its table. */
static int sb_parse_bench(struct sb_ctx *ctx, char *spec)
{
	char *tok, *end;

	for (tok = spec; *tok; tok = end) {
		tok = skip_spaces(tok);
		end = tok + strcspn(tok, " \t\n");
		if (!strncmp(tok, "test=", 5)) {
			if (ctx->bench)
				return sb_fail(ctx, "test= given twice");
			ctx->bench = sb_find_bench(tok + 5, end - tok - 5);
			if (!ctx->bench)
				return sb_fail(ctx, "unknown test '%.*s'",
					       (int)min_t(long, end - tok - 5, 32),
					       tok + 5);
			if (ctx->bench->absent)
				return sb_fail(ctx, "test %s is not available on this kernel: %s",
					       ctx->bench->name, ctx->bench->absent);
		}
	}
	if (!ctx->bench)
		return sb_fail(ctx, "no test= in the spec");
	return 0;
}

/* @spec is modified in place. */
int sb_parse_spec(struct sb_ctx *ctx, char *spec)
{
	unsigned long seen = 0;
	char *tok, *key, *value;
	unsigned int i;
	int ret;

	ctx->bench = NULL;
	ret = sb_parse_bench(ctx, spec);
	if (ret)
		return ret;
	for (i = 0; i < ctx->bench->nr_params; i++)
		ctx->val[i] = ctx->bench->params[i].def;

	while ((tok = strsep(&spec, " \t\n"))) {
		if (!*tok)
			continue;
		value = strchr(tok, '=');
		if (!value)
			return sb_fail(ctx, "'%.32s' is not key=value", tok);
		key = tok;
		*value++ = '\0';
		if (!strcmp(key, "test"))
			continue;
		for (i = 0; i < ctx->bench->nr_params; i++)
			if (!strcmp(ctx->bench->params[i].name, key))
				break;
		if (i == ctx->bench->nr_params)
			return sb_fail(ctx, "unknown parameter '%.32s' for test %s",
				       key, ctx->bench->name);
		if (seen & BIT(i))
			return sb_fail(ctx, "parameter %s given twice", key);
		seen |= BIT(i);
		ret = sb_parse_value(ctx, i, value);
		if (ret)
			return ret;
	}
	return 0;
}

void sb_out_params(struct sb_out *out, const struct sb_ctx *ctx)
{
	const struct sb_param *p;
	unsigned int i;

	sb_rec_open(out, "params");
	for (i = 0; i < ctx->bench->nr_params; i++) {
		p = &ctx->bench->params[i];
		if (p->type == SB_ENUM)
			sb_rec_str(out, p->name, p->choices[ctx->val[i]]);
		else
			sb_rec_u64(out, p->name, ctx->val[i]);
	}
	sb_rec_close(out);
}

static void sb_out_param_desc(struct sb_out *out, const struct sb_param *p)
{
	unsigned int i;

	sb_printf(out, "{\"name\":\"%s\",\"description\":\"%s\"", p->name,
		  p->desc);
	if (p->type == SB_ENUM) {
		sb_printf(out, ",\"type\":\"enum\",\"default\":\"%s\",\"choices\":[",
			  p->choices[p->def]);
		for (i = 0; p->choices[i]; i++)
			sb_printf(out, "%s\"%s\"", i ? "," : "", p->choices[i]);
		sb_printf(out, "]}");
	} else {
		sb_printf(out, ",\"type\":\"u64\",\"default\":%llu,\"min\":%llu,\"max\":%llu}",
			  p->def, p->min, p->max);
	}
}

void sb_out_catalogue(struct sb_out *out)
{
	const struct sb_bench *b;
	unsigned int i, j;

	sb_printf(out, "[");
	for (i = 0; i < sb_nr_benches; i++) {
		b = sb_benches[i];
		sb_printf(out, "%s{\"name\":\"%s\",\"description\":\"%s\",",
			  i ? "," : "", b->name, b->desc);
		if (b->absent)
			sb_printf(out, "\"available\":false,\"absent\":\"%s\",",
				  b->absent);
		else
			sb_printf(out, "\"available\":true,");
		sb_printf(out, "\"params\":[");
		for (j = 0; j < b->nr_params; j++) {
			if (j)
				sb_printf(out, ",");
			sb_out_param_desc(out, &b->params[j]);
		}
		sb_printf(out, "]}");
	}
	sb_printf(out, "]");
}

/* @bytes is what the run would hold at its peak, objects and arrays. */
int sb_check_mem(struct sb_ctx *ctx, u64 bytes)
{
	u64 cap = sb_mem_cap();

	if (bytes > cap)
		return sb_fail(ctx, "would hold %llu bytes, cap %llu", bytes,
			       cap);
	return 0;
}

/* @ops counts alloc+free pairs, warm-up passes included. */
int sb_check_work(struct sb_ctx *ctx, u64 ops)
{
	if (ops > SB_WORK_CAP)
		return sb_fail(ctx, "would run %llu alloc+free pairs, cap %llu",
			       ops, SB_WORK_CAP);
	return 0;
}

/* Bounds of cpu= parameters exceed nr_cpu_ids: check before cpu_online(). */
int sb_check_cpu(struct sb_ctx *ctx, const char *param, u64 cpu)
{
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return sb_fail(ctx, "%s=%llu is not online", param, cpu);
	return 0;
}
