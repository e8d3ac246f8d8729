// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of mail: base64 and gzip against known answers, header
 * folding and encoded words, the message's MIME structure, mbox quoting
 * and the 72-column limit.
 */
#define _GNU_SOURCE
#include "check.h"
#include "mail.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void test_base64(void)
{
	/* RFC 4648, section 10. */
	static const char *const vec[][2] = {
		{ "", "" }, { "f", "Zg==\n" }, { "fo", "Zm8=\n" }, { "foo", "Zm9v\n" },
		{ "foob", "Zm9vYg==\n" }, { "fooba", "Zm9vYmE=\n" }, { "foobar", "Zm9vYmFy\n" },
	};
	unsigned char bytes[100];
	char *s, *nl;

	for (size_t i = 0; i < ARRAY_SIZE(vec); i++) {
		s = mail_base64(vec[i][0], strlen(vec[i][0]), 72);
		CHECK_STR(s, vec[i][1], "base64 of '%s'", vec[i][0]);
		free(s);
	}
	for (int i = 0; i < 100; i++)
		bytes[i] = (unsigned char)(i * 37 + 255);
	s = mail_base64(bytes, sizeof(bytes), 72);
	nl = strchr(s, '\n');
	CHECK(nl && nl - s == 72, "base64 lines are 72 characters");
	CHECK(strlen(nl + 1) == 136 - 72 + 1 && nl[1 + 136 - 72] == '\n',
	      "the last line holds the rest: 100 bytes are 136 characters");
	free(s);
}

static void test_gzip(void)
{
	const char *text = "CONFIG_SLUB=y\nCONFIG_SLUB=y\nCONFIG_SLUB=y\nCONFIG_SLUB=y\n";
	unsigned char back[256];
	size_t n = 0;
	unsigned char *z = mail_gzip(text, strlen(text), &n);
	z_stream s = { 0 };
	int ret;

	CHECK(z && n > 18 && z[0] == 0x1f && z[1] == 0x8b, "gzip: the magic bytes");
	inflateInit2(&s, 16 + 15);
	s.next_in = z;
	s.avail_in = n;
	s.next_out = back;
	s.avail_out = sizeof(back);
	ret = inflate(&s, Z_FINISH);
	CHECK(ret == Z_STREAM_END && s.total_out == strlen(text) &&
	      !memcmp(back, text, strlen(text)), "gzip: zlib inflates it back, its CRC checked");
	inflateEnd(&s);
	free(z);
}

/* Every line of @s at most MAIL_WIDTH columns, each continuation starting with a blank. */
static bool folded_ok(const char *s)
{
	for (const char *p = s; *p; p += strcspn(p, "\n") + 1) {
		if (mail_columns(p, strcspn(p, "\n")) > MAIL_WIDTH)
			return false;
		if (p != s && *p != ' ')
			return false;
	}
	return true;
}

/* @h without its folds and final newline. */
static char *unfold(const char *h)
{
	char *u = xstrdup(h), *o = u;

	for (const char *p = h; *p; p++)
		if (*p != '\n')
			*o++ = *p;
	*o = '\0';
	return u;
}

static void test_header_folding(void)
{
	const char *subject = "[slabbench] [linux:master] 0123456789ab (\"mm/slub: spin a "
			      "little in kmem_cache_alloc()\"): fastpath.instructions_per_op "
			      "+91.0% regression";
	char *h = mail_header("Subject", subject, false), *u, *want;

	CHECK(folded_ok(h) && strchr(h, '\n') < h + strlen(h) - 1,
	      "a long subject is folded within 72 columns");
	u = unfold(h);
	want = xasprintf("Subject: %s", subject);
	CHECK_STR(u, want, "unfolding gives the subject back");
	free(u);
	free(want);
	free(h);

	h = mail_header("Cc", "Christoph Lameter <cl@linux.com>, Pekka Enberg <penberg@kernel.org>, "
			"David Rientjes <rientjes@google.com>, J. Random <jr@example.org>", true);
	CHECK(folded_ok(h), "an address list is folded within 72 columns");
	CHECK(strstr(h, "\n David Rientjes <rientjes@google.com>,") != NULL,
	      "it is folded between addresses, not inside one");
	CHECK(strstr(h, "\"J. Random\" <jr@example.org>") != NULL,
	      "a display name with a period is quoted");
	free(h);

	h = mail_header("Subject", "[slabbench] caf\xc3\xa9: \xc2\xb1 5%", false);
	CHECK(!strncmp(h, "Subject: =?UTF-8?B?", 19) && folded_ok(h),
	      "a non-ASCII subject is an encoded word");
	CHECK(strstr(h, "W3NsYWJiZW5jaF0gY2Fmw6k6IMKxIDUl") != NULL,
	      "the encoded word holds the UTF-8 bytes");
	free(h);

	/* 100 two-byte characters: words of whole characters, each on a line. */
	{
		char long_utf8[201];
		int words = 0;
		bool whole = true;

		for (int i = 0; i < 100; i++)
			memcpy(long_utf8 + 2 * i, "\xc3\xa9", 2);
		long_utf8[200] = '\0';
		h = mail_header("Subject", long_utf8, false);
		for (const char *p = strstr(h, "=?UTF-8?B?"); p; p = strstr(p + 1, "=?UTF-8?B?")) {
			const char *e = strstr(p, "?=");
			/* 36 bytes (18 characters) are 48 base64 characters; the last word less. */
			size_t n = e ? (size_t)(e - p - 10) : 0;

			words++;
			whole = whole && e && (n == 48 || !strstr(e, "=?UTF-8?B?"));
		}
		CHECK(folded_ok(h) && words == 6 && whole,
		      "a long non-ASCII subject: 6 encoded words of whole characters");
		free(h);
	}
}

static void test_addresses(void)
{
	char **a, *bare;
	int n = mail_split_addresses("\"Doe, J\" <j@x.org>, k@y.org ,, <l@z.org>", &a);

	CHECK(n == 3, "a comma inside quotes does not split; empty entries are dropped");
	if (n == 3) {
		CHECK_STR(a[0], "\"Doe, J\" <j@x.org>", "the first address, whole");
		CHECK_STR(a[1], "k@y.org", "the second, trimmed");
	}
	for (int i = 0; i < n; i++)
		free(a[i]);
	free(a);
	bare = mail_bare_address("Vlastimil Babka <VBabka@SUSE.cz>");
	CHECK_STR(bare, "vbabka@suse.cz", "the bare address, lower-cased");
	free(bare);
	bare = mail_message_id("A <a@example.org>");
	CHECK(bare[0] == '<' && strstr(bare, "@example.org>") && !strchr(bare, ' '),
	      "a Message-Id in the sender's domain: %s", bare);
	free(bare);
}

/* How many lines of @s are exactly @line. */
static int count_lines(const char *s, const char *line)
{
	int n = 0;

	for (const char *p = s; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] ? 1 : 0))
		if (strcspn(p, "\n") == strlen(line) && !strncmp(p, line, strlen(line)))
			n++;
	return n;
}

static void test_message(void)
{
	static const char script[] = "#!/bin/bash\necho reproduce\n";
	struct mail_part parts[] = {
		{ "reproduce.sh", "text/x-shellscript", script, sizeof(script) - 1 },
		{ "results.json.gz", "application/gzip", "\x1f\x8b\x08\0", 4 },
	};
	struct mail m = {
		.from = "Slab Bench <sb@example.org>", .to = "linux-mm@kvack.org",
		.cc = "Vlastimil Babka <vbabka@suse.cz>", .subject = "[slabbench] a test",
		.date = "Fri, 4 Dec 2026 20:00:00 +0000", .message_id = "<1.2@example.org>",
		.in_reply_to = "<cover.1@example.org>",
		.body = "Line one, \xc2\xb1 5%.\nFrom here on, quoted.\n>From too.\n",
		.parts = parts, .nr_parts = 2, .boundary = "=_b",
	};
	char *s = mail_format(&m), *wide;
	bool narrow = true;

	CHECK(s && !strncmp(s, "From slabbench ", 15), "an mbox From line first");
	if (!s)
		return;
	for (const char *p = s; *p; p += strcspn(p, "\n") + 1)
		narrow = narrow && mail_columns(p, strcspn(p, "\n")) <= MAIL_WIDTH;
	CHECK(narrow, "every line within 72 columns, attachments too");
	CHECK(strstr(s, "\nIn-Reply-To: <cover.1@example.org>\nReferences: <cover.1@example.org>\n"),
	      "In-Reply-To and References name the cover letter");
	CHECK(strstr(s, "\nContent-Type: multipart/mixed;\n boundary=\"=_b\"\n"),
	      "multipart/mixed with its boundary");
	CHECK(count_lines(s, "--=_b") == 3 && count_lines(s, "--=_b--") == 1,
	      "a boundary before each of the three parts, one closing");
	CHECK(strstr(s, "--=_b--\n") == s + strlen(s) - 8, "the closing boundary ends the message");
	CHECK(strstr(s, "charset=utf-8\nContent-Transfer-Encoding: 8bit\n\nLine one"),
	      "the body is 8-bit UTF-8, declared so");
	CHECK(count_lines(s, ">From here on, quoted.") == 1 && count_lines(s, ">>From too.") == 1,
	      "mboxrd quoting of From lines");
	CHECK(strstr(s, "filename=\"reproduce.sh\"\nContent-Transfer-Encoding: base64\n\n"
		      "IyEvYmluL2Jhc2gKZWNobyByZXByb2R1Y2UK\n") != NULL,
	      "an attachment in base64");
	free(s);

	wide = xasprintf("%073d\n", 0);
	m.body = wide;
	s = mail_format(&m);
	CHECK(!s, "a body line of 73 columns is refused");
	free(s);
	free(wide);
	wide = xasprintf("text\n| Reported-by: %s <%060d@example.org>\n#regzbot introduced: "
			 "%080d\n", "Maximiliana Ottilie Wojciechow", 0, 0);
	m.body = wide;
	s = mail_format(&m);
	CHECK(s && strstr(s, "\n| Reported-by: Maximiliana Ottilie Wojciechow <0") &&
	      strstr(s, "@example.org>\n#regzbot introduced: 0"),
	      "tag lines wider than 72 columns are kept whole, not refused");
	free(s);
	free(wide);
	wide = xasprintf("| Signed-off: %070d\n", 0);
	m.body = wide;
	s = mail_format(&m);
	CHECK(!s, "a wide line that only looks like a tag is refused");
	free(s);
	free(wide);
	m.body = "--=_b\n";
	s = mail_format(&m);
	CHECK(!s, "a body line that is the boundary is refused");
	free(s);
	m.body = "text\n";
	m.to = NULL;
	s = mail_format(&m);
	CHECK(!s, "a mail without To is refused");
	free(s);
	m.to = "a@b";
	m.subject = "two\nlines";
	s = mail_format(&m);
	CHECK(!s, "a subject with a line break is refused");
	free(s);
	m.subject = "plain";
	m.nr_parts = 0;
	s = mail_format(&m);
	CHECK(s && !strstr(s, "multipart") && strstr(s, "charset=us-ascii\n"),
	      "without attachments: one text/plain part");
	free(s);
}

static void test_tag_lines(void)
{
	static const struct {
		const char *line;
		bool tag;
	} lines[] = {
		{ "Reported-by: A <a@b>", true }, { "| Reported-by: A <a@b>", true },
		{ "| Closes: https://x", true }, { "Link: https://x", true },
		{ "Fixes: 0123456789ab (\"x\")", true }, { "#regzbot introduced: 0123", true },
		{ "Reported-by:", false }, { "| Tested: yes", false }, { "a Link: x", false },
		{ "|Closes: x", false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		CHECK(mail_tag_line(lines[i].line, strlen(lines[i].line)) == lines[i].tag,
		      "'%s' is %sa tag line", lines[i].line, lines[i].tag ? "" : "not ");
}

int main(void)
{
	test_base64();
	test_gzip();
	test_header_folding();
	test_addresses();
	test_message();
	test_tag_lines();
	return check_done();
}
