/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options from a table, in the spirit of perf's
 * parse-options: each option's name, type, bounds and help are given once,
 * and both the checks and the --help text come from that table.
 */
#ifndef SLABBENCH_OPTIONS_H
#define SLABBENCH_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

enum opt_type {
	OPT_T_END,
	OPT_T_BOOL,	/* bool *; takes no value */
	OPT_T_STRING,	/* const char ** */
	OPT_T_LONG,	/* long *, within [min, max] */
	OPT_T_DOUBLE,	/* double *, within [dmin, dmax] or (dmin, dmax) */
	OPT_T_CHOICE,	/* const char **, one of choices */
	OPT_T_LONGS,	/* struct opt_longs *: comma-separated, each within [min, max] */
};

/* Values of an OPT_T_LONGS option, in the order given, none twice. */
#define OPT_LONGS_MAX 16
struct opt_longs {
	int n;
	long v[OPT_LONGS_MAX];
};

struct opt {
	enum opt_type type;
	char short_name;		/* 0: none */
	const char *name;
	void *value;
	const char *argh;		/* the value's name in the help: "N", "FILE" */
	const char *help;		/* lines after the first are indented */
	long min, max;
	double dmin, dmax;
	bool open;			/* OPT_T_DOUBLE: the bounds themselves refused */
	int max_count;			/* OPT_T_LONGS: how many values (at most OPT_LONGS_MAX) */
	const char *unit;		/* after the bounds in a refusal: "MB" */
	const char *const *choices;	/* NULL-terminated */
	const char *reject;		/* OPT_T_STRING: characters refused, */
	const char *reject_why;		/* and what the refusal says */
	/* The default as the help shows it when the value does not say it. */
	const char *deftext;
	/* Filled by options_parse: the value before parsing, for the help. */
	union {
		long l;
		double d;
		const char *s;
	} initial;
};

#define OPT_BOOLEAN(s, n, v, h) \
	{ .type = OPT_T_BOOL, .short_name = (s), .name = (n), .value = (v), .help = (h) }
#define OPT_STRING(s, n, v, a, h) \
	{ .type = OPT_T_STRING, .short_name = (s), .name = (n), .value = (v), .argh = (a), \
	  .help = (h) }
#define OPT_STRING_NO(n, v, a, chars, why, h) \
	{ .type = OPT_T_STRING, .name = (n), .value = (v), .argh = (a), .reject = (chars), \
	  .reject_why = (why), .help = (h) }
#define OPT_INTEGER(n, v, a, lo, hi, u, h) \
	{ .type = OPT_T_LONG, .name = (n), .value = (v), .argh = (a), .min = (lo), \
	  .max = (hi), .unit = (u), .help = (h) }
#define OPT_DOUBLE(n, v, a, lo, hi, o, h) \
	{ .type = OPT_T_DOUBLE, .name = (n), .value = (v), .argh = (a), .dmin = (lo), \
	  .dmax = (hi), .open = (o), .help = (h) }
#define OPT_CHOICE(n, v, a, c, h) \
	{ .type = OPT_T_CHOICE, .name = (n), .value = (v), .argh = (a), .choices = (c), \
	  .help = (h) }
#define OPT_END() { .type = OPT_T_END }
/* A macro's value as text, for a default or bound in the help. */
#define OPT_STR_(x) #x
#define OPT_STR(x) OPT_STR_(x)

/* What a command's help says besides its options. */
struct usage {
	const char *cmd;	/* "run" */
	const char *args;	/* the synopsis after the options: "[VARIANT...]" */
	const char *about;	/* paragraphs between the synopsis and the options */
	int min_args, max_args;	/* non-option arguments; max -1: any number */
};

/*
 * Parses argv (argv[0] the command's name) into the table's values.
 * Returns the index of the first non-option argument, or -1 after a
 * one-line message naming the option and what was wrong. --help and -h
 * print the generated help and exit 0.
 */
int options_parse(const struct usage *u, struct opt *opts, int argc, char **argv);
/* The help text: synopsis, about, one entry per option with its default. */
void options_usage(FILE *f, const struct usage *u, const struct opt *opts);
/* The same as Markdown (--help-markdown): the head, then a table of the options. */
void options_markdown(FILE *f, const struct usage *u, const struct opt *opts);

struct cJSON;
/*
 * The table's values as a JSON object, each under its option's name as
 * the text the option takes ("cpus": "2,8"; a bool as true), for a
 * command that hands its options to a later process (bisect's steps,
 * Slurm's tasks). A value the option would refuse is its caller's
 * "not given" (0, NAN, NULL, an empty list) and is left out.
 */
struct cJSON *options_to_json(const struct opt *opts);
/*
 * The same values as command-line words in the table's order,
 * "--NAME=VALUE" ("--NAME" for a set bool), for a command that runs
 * another with its options (watch's bisect) or writes the command that
 * runs again what a run recorded (report, the mail's reproducer):
 * options_parse() of them gives the values back. NULL-terminated; free
 * with options_argv_free().
 */
char **options_to_argv(const struct opt *opts);
void options_argv_free(char **argv);
/*
 * Sets the table's values from such an object through the same checks
 * as the command line; string values point into @j, which must outlive
 * them. -1 after a message naming @where and the member when one is
 * refused or names no option.
 */
int options_from_json(const char *where, struct opt *opts, const struct cJSON *j);

#endif
