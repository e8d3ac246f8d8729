// SPDX-License-Identifier: GPL-2.0
/* The option table's parser and help writer (see options.h). */
#define _GNU_SOURCE
#include "options.h"
#include "strbuf.h"
#include "util.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* getopt_long's value for the table's option @i: above any short name. */
#define LONG_BASE 256
/* The help fits a terminal of the classic width. */
#define USAGE_COLUMNS 79
/* getopt_long's value for --help-markdown, which no table names. */
#define HELP_MARKDOWN (LONG_BASE - 1)

static size_t count(const struct opt *opts)
{
	size_t n = 0;

	while (opts[n].type != OPT_T_END)
		n++;
	return n;
}

static void remember_initial(struct opt *o)
{
	switch (o->type) {
	case OPT_T_LONG: o->initial.l = *(long *)o->value; break;
	case OPT_T_DOUBLE: o->initial.d = *(double *)o->value; break;
	case OPT_T_STRING:
	case OPT_T_CHOICE: o->initial.s = *(const char **)o->value; break;
	default: break;
	}
}

/* "auto, kvm, tcg or icount" */
static char *choice_list(const char *const *c)
{
	struct strbuf b = { 0 };

	sb_addf(&b, "%s", "");
	for (size_t i = 0; c[i]; i++)
		sb_addf(&b, "%s%s", i == 0 ? "" : c[i + 1] ? ", " : " or ", c[i]);
	return b.s;
}

/* What a refused value should have been: "1 to 64 (MB)". */
static char *expected(const struct opt *o)
{
	switch (o->type) {
	case OPT_T_LONG:
		return xasprintf("%ld to %ld%s%s%s", o->min, o->max, o->unit ? " (" : "",
				 o->unit ? o->unit : "", o->unit ? ")" : "");
	case OPT_T_DOUBLE:
		if (isinf(o->dmax))
			return xasprintf("a number %s %g", o->open ? "above" : "of at least", o->dmin);
		return xasprintf(o->open ? "a number strictly between %g and %g" :
				 "a number from %g to %g", o->dmin, o->dmax);
	case OPT_T_CHOICE:
		return choice_list(o->choices);
	case OPT_T_LONGS:
		if (o->max_count == 1)
			return xasprintf("%ld to %ld", o->min, o->max);
		return xasprintf("%ld to %ld, or a comma-separated list of up to %d such",
				 o->min, o->max, o->max_count);
	default:
		return xstrdup("a value");
	}
}

/* "1,8,32" into @l: -1 for an empty item, one out of bounds, or too many. */
static int parse_longs(const struct opt *o, const char *arg, struct opt_longs *l)
{
	l->n = 0;
	for (const char *p = arg;; p++) {
		size_t len = strcspn(p, ",");
		char *item = xstrndup(p, len);
		int bad = l->n == o->max_count || parse_long(item, o->min, o->max, &l->v[l->n]);

		free(item);
		if (bad)
			return -1;
		l->n++;
		p += len;
		if (!*p)
			return 0;
	}
}

static int set_value(const char *cmd, const struct opt *o, const char *arg)
{
	struct opt_longs l;
	char *end, *want;
	double d;

	switch (o->type) {
	case OPT_T_BOOL:
		*(bool *)o->value = true;
		return 0;
	case OPT_T_STRING:
		if (o->reject && strpbrk(arg, o->reject))
			return error("%s: --%s: %s", cmd, o->name, o->reject_why);
		*(const char **)o->value = arg;
		return 0;
	case OPT_T_LONG:
		if (!parse_long(arg, o->min, o->max, o->value))
			return 0;
		break;
	case OPT_T_DOUBLE:
		d = strtod(arg, &end);
		if (*arg && !*end && isfinite(d) && (o->open ? d > o->dmin && d < o->dmax :
						     d >= o->dmin && d <= o->dmax)) {
			*(double *)o->value = d;
			return 0;
		}
		break;
	case OPT_T_CHOICE:
		for (size_t i = 0; o->choices[i]; i++) {
			if (!strcmp(arg, o->choices[i])) {
				*(const char **)o->value = o->choices[i];
				return 0;
			}
		}
		break;
	case OPT_T_LONGS:
		if (parse_longs(o, arg, &l))
			break;
		/* Each value is a point of a sweep: twice would run it twice. */
		for (int i = 0; i < l.n; i++)
			for (int j = 0; j < i; j++)
				if (l.v[i] == l.v[j])
					return error("%s: --%s=%s: %ld is given twice", cmd, o->name,
						     arg, l.v[i]);
		*(struct opt_longs *)o->value = l;
		return 0;
	case OPT_T_END:
		break;
	}
	want = expected(o);
	error("%s: --%s=%s: expected %s", cmd, o->name, arg, want);
	free(want);
	return -1;
}

int options_parse(const struct usage *u, struct opt *opts, int argc, char **argv)
{
	size_t n = count(opts);
	struct option *longopts = xcalloc(n + 3, sizeof(*longopts));
	struct strbuf shorts = { 0 };
	int c, ret = -1, args;

	/* ':' first: a missing value is told apart from an unknown option. */
	sb_addf(&shorts, ":h");
	for (size_t i = 0; i < n; i++) {
		remember_initial(&opts[i]);
		longopts[i] = (struct option){ opts[i].name,
			opts[i].type == OPT_T_BOOL ? no_argument : required_argument,
			NULL, LONG_BASE + (int)i };
		if (opts[i].short_name)
			sb_addf(&shorts, "%c%s", opts[i].short_name,
				opts[i].type == OPT_T_BOOL ? "" : ":");
	}
	longopts[n] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n + 1] = (struct option){ "help-markdown", no_argument, NULL, HELP_MARKDOWN };
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts.s, longopts, NULL)) != -1) {
		const struct opt *o = NULL;

		if (c == 'h' || c == HELP_MARKDOWN) {
			(c == 'h' ? options_usage : options_markdown)(stdout, u, opts);
			exit(0);
		} else if (c == ':') {
			error("%s: %s: missing value (see 'slabbench %s --help')", u->cmd,
			      argv[optind - 1], u->cmd);
			goto out;
		} else if (c == '?') {
			error("%s: %s: unknown option (see 'slabbench %s --help')", u->cmd,
			      argv[optind - 1], u->cmd);
			goto out;
		} else if (c >= LONG_BASE) {
			o = &opts[c - LONG_BASE];
		} else {
			for (size_t i = 0; i < n && !o; i++)
				if (opts[i].short_name == c)
					o = &opts[i];
		}
		if (set_value(u->cmd, o, optarg))
			goto out;
	}
	args = argc - optind;
	if (u->max_args == 0 && args > 0)
		error("%s: unexpected argument '%s'", u->cmd, argv[optind]);
	else if (args < u->min_args || (u->max_args >= 0 && args > u->max_args))
		error("%s: expected %s (see 'slabbench %s --help')", u->cmd, u->args, u->cmd);
	else
		ret = optind;
out:
	free(longopts);
	free(shorts.s);
	return ret;
}

/* "-o, --output=FILE" */
static char *left_column(const struct opt *o)
{
	return xasprintf("%c%c%s--%s%s%s", o->short_name ? '-' : ' ',
			 o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ",
			 o->name, o->argh ? "=" : "", o->argh ? o->argh : "");
}

/* The default, or NULL when there is none worth saying. */
static char *default_value(const struct opt *o)
{
	switch (o->type) {
	case OPT_T_LONG:
		if (o->initial.l)
			return xasprintf("default %ld", o->initial.l);
		break;
	case OPT_T_DOUBLE:
		if (o->initial.d >= o->dmin)
			return xasprintf("default %g", o->initial.d);
		break;
	case OPT_T_STRING:
	case OPT_T_CHOICE:
		if (o->initial.s)
			return xasprintf("default %s", o->initial.s);
		break;
	default:
		break;
	}
	return o->deftext ? xasprintf("default: %s", o->deftext) : NULL;
}

/* "(1 to 64, default 2)": the bounds and the default, as far as there are any. */
static char *default_text(const struct opt *o)
{
	char *bounds = NULL, *def = default_value(o), *s = NULL;

	/* The unit is the value's name (--mem=MB) here. */
	if (o->type == OPT_T_LONG || (o->type == OPT_T_LONGS && o->max_count == 1))
		bounds = xasprintf("%ld to %ld", o->min, o->max);
	else if (o->type == OPT_T_LONGS)
		bounds = xasprintf("a list, each %ld to %ld", o->min, o->max);
	else if (o->type == OPT_T_DOUBLE || o->type == OPT_T_CHOICE)
		bounds = expected(o);
	if (bounds || def)
		s = xasprintf("(%s%s%s)", bounds ? bounds : "", bounds && def ? ", " : "",
			      def ? def : "");
	free(bounds);
	free(def);
	return s;
}

/* The synopsis and what the command does, as both helps begin. */
static void usage_head(FILE *f, const struct usage *u, size_t n)
{
	fprintf(f, "usage: slabbench %s%s%s%s\n", u->cmd, n ? " [OPTION...]" : "",
		u->args ? " " : "", u->args ? u->args : "");
	if (u->about)
		fprintf(f, "\n%s", u->about);
}

/* A Markdown table cell holds one line, and '|' would end it. */
static void markdown_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

/*
 * The page docs/commands/CMD.md is made of (make docs): the head as the
 * terminal shows it, whose line breaks lay out its lists, then a table.
 */
void options_markdown(FILE *f, const struct usage *u, const struct opt *opts)
{
	size_t n = count(opts);

	fprintf(f, "```\n");
	usage_head(f, u, n);
	fprintf(f, "```\n");
	if (!n)
		return;
	fprintf(f, "\n| option | meaning | values |\n| --- | --- | --- |\n");
	for (const struct opt *o = opts; o->type != OPT_T_END; o++) {
		char *def = default_text(o);

		fputs("| ", f);
		if (o->short_name)
			fprintf(f, "`-%c`, ", o->short_name);
		fprintf(f, "`--%s%s%s` | ", o->name, o->argh ? "=" : "", o->argh ? o->argh : "");
		markdown_cell(f, o->help);
		fputs(" | ", f);
		/* Without the parentheses that set it apart in the terminal. */
		if (def)
			fprintf(f, "%.*s", (int)strlen(def) - 2, def + 1);
		fputs(" |\n", f);
		free(def);
	}
}

void options_usage(FILE *f, const struct usage *u, const struct opt *opts)
{
	size_t n = count(opts), width = 0;

	usage_head(f, u, n);
	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		char *l = left_column(&opts[i]);

		if (strlen(l) > width)
			width = strlen(l);
		free(l);
	}
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		char *l = left_column(&opts[i]), *def = default_text(&opts[i]);
		const char *h = opts[i].help;

		size_t col = 4 + width;

		fprintf(f, "  %-*s  ", (int)width, l);
		/* Continuation lines of the help line up under its first. */
		while (*h) {
			size_t len = strcspn(h, "\n");

			fprintf(f, "%.*s", (int)len, h);
			col = 4 + width + len;
			h += len;
			if (*h) {
				h++;
				fprintf(f, "\n  %-*s  ", (int)width, "");
			}
		}
		if (def && col + 1 + strlen(def) > USAGE_COLUMNS)
			fprintf(f, "\n  %-*s  %s\n", (int)width, "", def);
		else
			fprintf(f, "%s%s\n", def ? " " : "", def ? def : "");
		free(def);
		free(l);
	}
}

/* @o's value as its option's text, or NULL when it holds none the option takes. */
static char *value_text(const struct opt *o)
{
	const struct opt_longs *l;
	struct strbuf b = { 0 };
	const char *s;
	long n;
	double d;

	switch (o->type) {
	case OPT_T_STRING:
	case OPT_T_CHOICE:
		s = *(const char **)o->value;
		return s ? xstrdup(s) : NULL;
	case OPT_T_LONG:
		n = *(long *)o->value;
		return n >= o->min && n <= o->max ? xasprintf("%ld", n) : NULL;
	case OPT_T_DOUBLE:
		d = *(double *)o->value;
		if (!isfinite(d) || (o->open ? d <= o->dmin || d >= o->dmax :
				     d < o->dmin || d > o->dmax))
			return NULL;
		return xasprintf("%.17g", d);
	case OPT_T_LONGS:
		l = o->value;
		for (int i = 0; i < l->n; i++)
			sb_addf(&b, "%s%ld", i ? "," : "", l->v[i]);
		return b.s;
	default:
		return NULL;
	}
}

/* @o's value as text, "" for a set bool; NULL when it holds none to give. */
static char *given(const struct opt *o)
{
	if (o->type == OPT_T_BOOL)
		return *(bool *)o->value ? xstrdup("") : NULL;
	return value_text(o);
}

cJSON *options_to_json(const struct opt *opts)
{
	cJSON *j = cJSON_CreateObject();

	for (const struct opt *o = opts; o->type != OPT_T_END; o++) {
		char *text = given(o);

		if (text && o->type == OPT_T_BOOL)
			cJSON_AddTrueToObject(j, o->name);
		else if (text)
			cJSON_AddStringToObject(j, o->name, text);
		free(text);
	}
	return j;
}

char **options_to_argv(const struct opt *opts)
{
	char **argv = xcalloc(count(opts) + 1, sizeof(*argv));
	int n = 0;

	for (const struct opt *o = opts; o->type != OPT_T_END; o++) {
		char *text = given(o);

		if (text)
			argv[n++] = o->type == OPT_T_BOOL ? xasprintf("--%s", o->name) :
							    xasprintf("--%s=%s", o->name, text);
		free(text);
	}
	return argv;
}

void options_argv_free(char **argv)
{
	for (char **a = argv; a && *a; a++)
		free(*a);
	free(argv);
}

int options_from_json(const char *where, struct opt *opts, const cJSON *j)
{
	const cJSON *m;

	if (!cJSON_IsObject(j))
		return error("%s: not an object of options", where);
	cJSON_ArrayForEach(m, j) {
		const struct opt *o = opts;

		while (o->type != OPT_T_END && strcmp(o->name, m->string))
			o++;
		if (o->type == OPT_T_END)
			return error("%s: '%s' is no option", where, m->string);
		if (o->type == OPT_T_BOOL ? !cJSON_IsTrue(m) : !cJSON_IsString(m))
			return error("%s: --%s: %s", where, o->name, o->type == OPT_T_BOOL ?
				     "only true is written" : "not a string");
		if (set_value(where, o, m->valuestring))
			return -1;
	}
	return 0;
}
