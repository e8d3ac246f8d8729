// SPDX-License-Identifier: GPL-2.0
/* Unit tests of util: atomic writes, number parsing, console problem lines, shell words. */
#define _GNU_SOURCE
#include "check.h"
#include "strbuf.h"
#include "util.h"
#include "vm.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_atomic_write(void)
{
	char dir[] = "/tmp/sbtest-XXXXXX";
	char *path, *text, *missing;

	CHECK(mkdtemp(dir) != NULL, "temp dir");
	path = xasprintf("%s/f", dir);
	CHECK(write_file_atomic(path, "one", 3) == 0, "first write");
	CHECK(write_file_atomic(path, "two!", 4) == 0, "replacing write");
	text = read_file(path, NULL);
	CHECK_STR(text, "two!", "the file holds the whole new content");
	missing = xasprintf("%s/no/such/dir/f", dir);
	CHECK(write_file_atomic(missing, "x", 1) == -1, "an unwritable path fails");
	unlink(path);
	CHECK(rmdir(dir) == 0, "no temporary file is left behind");
	free(text);
	free(path);
	free(missing);
}

static void test_parse_long(void)
{
	long v;

	CHECK(parse_long("42", 1, 64, &v) == 0 && v == 42, "in range");
	CHECK(parse_long("0", 1, 64, &v) == -1, "below range");
	CHECK(parse_long("65", 1, 64, &v) == -1, "above range");
	CHECK(parse_long("4x", 1, 64, &v) == -1, "trailing junk");
	CHECK(parse_long("", 1, 64, &v) == -1, "empty");
	CHECK(parse_long("99999999999999999999", 1, 64, &v) == -1, "overflow");
}

static void test_console_scan(void)
{
	static const char stall[] =
		"[   40.1] rcu: INFO: rcu_preempt self-detected stall on CPU\n"
		"[   40.1] NMI backtrace for cpu 3\n[   40.1] Call Trace:\n";
	char *p, *s;

	console_scan("[    0.1] ok\r\n[    1.2] BUG: kernel NULL pointer dereference, address: 0\r\n",
		     true, &p, &s);
	CHECK_STR(p, "[    1.2] BUG: kernel NULL pointer dereference, address: 0", "BUG line found");
	CHECK(!s, "... and it is no starved vCPU");
	free(p);
	console_scan("[    3.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s!\n", false, &p, &s);
	CHECK(p && !s, "soft lockup found: a problem where the vCPUs had host threads of their own");
	free(p);
	console_scan("[    3.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s!\n"
		     "[    3.0] Call Trace:\n[    3.1] watchdog: BUG: soft lockup - CPU#1\n",
		     true, &p, &s);
	CHECK(!p && s && strstr(s, "CPU#0 stuck"),
	      "where they took turns, the first report is a starved vCPU, its backtrace no problem");
	free(s);
	console_scan(stall, true, &p, &s);
	CHECK(!p && s && strstr(s, "self-detected stall"), "an RCU stall with its NMI backtrace too");
	free(s);
	console_scan("[    2.0] Call Trace:\n[   40.1] rcu: INFO: rcu_preempt detected stalls\n",
		     true, &p, &s);
	CHECK_STR(p, "[    2.0] Call Trace:", "a backtrace before any such report is a problem");
	free(p);
	free(s);
	console_scan("[    9.0] INFO: task kworker/0:1 blocked for more than 120 seconds.\n"
		     "[   10.0] WARNING: CPU: 0 PID: 1 at mm/slub.c:1 x\n", true, &p, &s);
	CHECK(p && strstr(p, "WARNING") && s && strstr(s, "blocked for"),
	      "a WARN after a starved vCPU is still a problem");
	free(p);
	free(s);
	console_scan("[    0.0] Linux version 6.1\n[    0.5] Run /init as init process\n", true, &p, &s);
	CHECK(!p && !s, "a clean boot has no problem");
}

/* A word as sh reads it back: as it is, or quoted; a quote in it too. */
static void test_shell_word(void)
{
	static const char *const cases[][2] = {
		{ "--cpus=2,8", "--cpus=2,8" },
		{ "--caches=llc=1M/16/64", "--caches=llc=1M/16/64" },
		{ "--cmdline=slub_debug=FZPU nokaslr", "'--cmdline=slub_debug=FZPU nokaslr'" },
		{ "it's", "'it'\\''s'" },
		{ "$HOME", "'$HOME'" },
		{ "", "''" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf b = { 0 };
		char *cmd, *out = NULL;

		sb_shell_word(&b, cases[i][0]);
		CHECK_STR(b.s, cases[i][1], "'%s' as a shell word", cases[i][0]);
		cmd = xasprintf("printf %%s %s", b.s);
		CHECK(!run_capture((char *[]){ "sh", "-c", cmd, NULL }, &out, NULL) &&
		      !strcmp(out, cases[i][0]), "... which sh reads back as '%s'", cases[i][0]);
		free(out);
		free(cmd);
		free(b.s);
	}
}

/*
 * Words wrapped at a width: a block (every line from one column), a
 * hanging indent, a word longer than the width kept whole, blanks
 * folded, and nothing for no word.
 */
static void test_wrap(void)
{
	static const struct {
		int first, indent, width;
		const char *text, *want;
	} cases[] = {
		{ 2, 2, 12, "one two three four", "  one two\n  three four\n" },
		{ 0, 4, 12, "one two three four", "one two\n    three\n    four\n" },
		{ 0, 2, 6, "a longerword b", "a\n  longerword\n  b\n" },
		{ 1, 1, 80, "  spaced   out  ", " spaced out\n" },
		{ 4, 4, 80, "   ", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf b = { 0 };

		sb_wrap(&b, cases[i].first, cases[i].indent, cases[i].width, cases[i].text);
		if (cases[i].want)
			CHECK_STR(b.s, cases[i].want, "wrap '%s' from %d, then %d, at %d",
				  cases[i].text, cases[i].first, cases[i].indent, cases[i].width);
		else
			CHECK(!b.s, "wrap: nothing for '%s'", cases[i].text);
		free(b.s);
	}
}

/* A command's exit status, a signal's as the shell gives it, and one that cannot start. */
static void test_run_wait(void)
{
	CHECK(run_wait((char *[]){ "sh", "-c", "exit 0", NULL }) == 0 &&
	      run_wait((char *[]){ "sh", "-c", "exit 3", NULL }) == 3, "run_wait: the exit status");
	CHECK(run_wait((char *[]){ "sh", "-c", "kill -TERM $$", NULL }) == 128 + 15,
	      "run_wait: 128 + the signal that ended it");
	CHECK(run_wait((char *[]){ "/nonexistent/slabbench-test", NULL }) == 127,
	      "run_wait: 127 when it cannot start (said on stderr)");
}

static void test_text_lines(void)
{
	CHECK(text_lines(NULL) == 0 && text_lines("") == 0, "text_lines: none in nothing");
	CHECK(text_lines("a\nb\n\n") == 3 && text_lines("a\nb") == 1,
	      "text_lines: the newlines, an unended last line not counted");
}

int main(void)
{
	test_text_lines();
	test_atomic_write();
	test_parse_long();
	test_console_scan();
	test_shell_word();
	test_wrap();
	test_run_wait();
	return check_done();
}
