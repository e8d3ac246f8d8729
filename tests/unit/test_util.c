// SPDX-License-Identifier: GPL-2.0
/* Unit tests of util: atomic writes, number parsing, console problem lines. */
#define _GNU_SOURCE
#include "check.h"
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

static void test_console_problem(void)
{
	char *p;

	p = console_problem("[    0.1] ok\r\n[    1.2] BUG: kernel NULL pointer dereference, address: 0\r\n");
	CHECK_STR(p, "[    1.2] BUG: kernel NULL pointer dereference, address: 0", "BUG line found");
	free(p);
	p = console_problem("[    3.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s!\n");
	CHECK(p != NULL, "soft lockup found");
	free(p);
	p = console_problem("[    2.0] WARNING: CPU: 0 PID: 1 at mm/slub.c:1 x\n");
	CHECK(p != NULL, "WARN found");
	free(p);
	p = console_problem("[    0.0] Linux version 6.1\n[    0.5] Run /init as init process\n");
	CHECK(p == NULL, "a clean boot has no problem");
	free(p);
}

int main(void)
{
	test_atomic_write();
	test_parse_long();
	test_console_problem();
	return check_done();
}
