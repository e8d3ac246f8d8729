// SPDX-License-Identifier: GPL-2.0
/* Unit tests of frames: the agent's channel parsed whole, in parts and malformed. */
#define _GNU_SOURCE
#include "check.h"
#include "frames.h"

static void test_two_frames(void)
{
	const char buf[] = "@SB ready uptime 5\n0.512\n@SB result 0 2\n{}\n";
	size_t pos = 0;
	struct frame f;

	CHECK(frame_next(buf, sizeof(buf) - 1, &pos, &f) == 1, "first frame parses");
	CHECK_STR(f.kind, "ready", "first frame kind");
	CHECK_STR(f.name, "uptime", "first frame name");
	CHECK(f.len == 5 && !memcmp(f.data, "0.512", 5), "first frame payload");
	CHECK(frame_next(buf, sizeof(buf) - 1, &pos, &f) == 1, "second frame parses");
	CHECK(f.len == 2 && !memcmp(f.data, "{}", 2), "second frame payload");
	CHECK(frame_next(buf, sizeof(buf) - 1, &pos, &f) == 0 && pos == sizeof(buf) - 1,
	      "end of buffer is 'need more'");
}

static void test_binary_payload(void)
{
	const char buf[] = "@SB file x 5\na\nb\0c\n";
	size_t pos = 0;
	struct frame f;

	CHECK(frame_next(buf, sizeof(buf) - 1, &pos, &f) == 1 && f.len == 5 &&
	      f.data[4] == 'c', "payload with newlines and NUL is length-delimited");
}

static void test_incomplete(void)
{
	const char buf[] = "@SB result 0 10\n{\"a\":";
	size_t pos = 0;
	struct frame f;

	CHECK(frame_next(buf, sizeof(buf) - 1, &pos, &f) == 0 && pos == 0,
	      "payload still being written is 'need more', position kept");
	CHECK(frame_next("@SB res", 7, &pos, &f) == 0, "half a header is 'need more'");
}

static void test_malformed(void)
{
	static const char *const bad[] = {
		"garbage\n", "@SB ready\n", "@SB ready x\n", "@SB ready x -1\nabc\n",
		"@SB ready x 3\nabcd\n", "@SB ready x 99999999999999\n",
		"@SB ready x 2 extra\nab\n", "@SB  x 2\nab\n",
		"@SB kindthatiswaytoolongforthefield x 1\na\n",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t pos = 0;
		struct frame f;

		CHECK(frame_next(bad[i], strlen(bad[i]), &pos, &f) == -1,
		      "malformed frame %zu is rejected", i);
	}
}

int main(void)
{
	test_two_frames();
	test_binary_payload();
	test_incomplete();
	test_malformed();
	return check_done();
}
