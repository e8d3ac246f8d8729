// SPDX-License-Identifier: GPL-2.0
/* One message in mbox form, MIME where it attaches (see mail.h). */
#define _GNU_SOURCE
#include "mail.h"
#include "strbuf.h"
#include "util.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
				      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *mail_base64(const void *data, size_t len, int width)
{
	const unsigned char *p = data;
	struct strbuf b = { 0 };
	int col = 0;

	sb_addf(&b, "%s", "");
	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		char q[5];

		if (i + 1 < len)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < len)
			v |= p[i + 2];
		q[0] = b64[v >> 18 & 63];
		q[1] = b64[v >> 12 & 63];
		q[2] = i + 1 < len ? b64[v >> 6 & 63] : '=';
		q[3] = i + 2 < len ? b64[v & 63] : '=';
		q[4] = '\0';
		sb_addf(&b, "%s", q);
		col += 4;
		if (col >= width) {
			sb_addf(&b, "\n");
			col = 0;
		}
	}
	if (col)
		sb_addf(&b, "\n");
	return b.s;
}

void *mail_gzip(const void *data, size_t len, size_t *out_len)
{
	z_stream z = { 0 };
	size_t cap = compressBound(len) + 64;
	unsigned char *out = xmalloc(cap);

	/* 16 + 15: a gzip header and trailer around a full window. */
	if (deflateInit2(&z, 9, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(out);
		error("mail: zlib: cannot start deflate");
		return NULL;
	}
	z.next_in = (unsigned char *)data;
	z.avail_in = len;
	z.next_out = out;
	z.avail_out = cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(out);
		error("mail: zlib: deflate did not finish");
		return NULL;
	}
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

size_t mail_columns(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

static bool ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/*
 * @s as RFC 2047 encoded words, appended to @words as separate tokens:
 * each holds whole UTF-8 characters, 36 bytes at most: 48 in base64,
 * 60 columns with its markers, so that even "Subject: " and one word fit
 * in MAIL_WIDTH.
 */
static void encoded_words(const char *s, char ***words, int *n)
{
	size_t len = strlen(s), i = 0;

	while (i < len) {
		size_t j = i + 36 < len ? i + 36 : len;
		char *enc, *nl;

		while (j < len && j > i + 1 && ((unsigned char)s[j] & 0xc0) == 0x80)
			j--;
		enc = mail_base64(s + i, j - i, 1 << 20);
		nl = strchr(enc, '\n');
		if (nl)
			*nl = '\0';
		*words = xrealloc(*words, (*n + 1) * sizeof(**words));
		(*words)[(*n)++] = xasprintf("=?UTF-8?B?%s?=", enc);
		free(enc);
		i = j;
	}
}

static void add_word(char ***words, int *n, char *w)
{
	*words = xrealloc(*words, (*n + 1) * sizeof(**words));
	(*words)[(*n)++] = w;
}

int mail_split_addresses(const char *list, char ***out)
{
	int n = 0, depth = 0;
	bool quoted = false;
	const char *start = list;

	*out = NULL;
	for (const char *p = list;; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '<' && !quoted)
			depth++;
		else if (*p == '>' && !quoted && depth)
			depth--;
		if (*p == '\0' || (*p == ',' && !quoted && !depth)) {
			const char *a = start, *e = p;

			while (a < e && isspace((unsigned char)*a))
				a++;
			while (e > a && isspace((unsigned char)e[-1]))
				e--;
			if (e > a)
				add_word(out, &n, xstrndup(a, e - a));
			if (!*p)
				break;
			start = p + 1;
		}
	}
	return n;
}

char *mail_bare_address(const char *addr)
{
	const char *lt = strrchr(addr, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	char *bare = lt && gt ? xstrndup(lt + 1, gt - lt - 1) : xstrdup(addr);

	for (char *p = bare; *p; p++)
		*p = tolower((unsigned char)*p);
	return bare;
}

/*
 * The words of one address: a display name with RFC 5322's specials is
 * quoted, one that is not ASCII encoded.
 */
static void address_words(const char *addr, char ***words, int *n)
{
	const char *lt = strrchr(addr, '<');
	char *name;
	size_t len;

	if (!lt || lt == addr) {
		add_word(words, n, xstrdup(addr));
		return;
	}
	len = lt - addr;
	while (len && addr[len - 1] == ' ')
		len--;
	name = xstrndup(addr, len);
	if (!ascii(name)) {
		encoded_words(name, words, n);
	} else if (name[0] != '"' && strpbrk(name, "()<>[]:;@\\,.\"")) {
		struct strbuf q = { 0 };

		sb_addf(&q, "\"");
		for (const char *p = name; *p; p++)
			sb_addf(&q, "%s%c", *p == '"' || *p == '\\' ? "\\" : "", *p);
		sb_addf(&q, "\"");
		add_word(words, n, q.s);
	} else {
		char *save = NULL, *w;

		for (w = strtok_r(name, " ", &save); w; w = strtok_r(NULL, " ", &save))
			add_word(words, n, xstrdup(w));
	}
	add_word(words, n, xstrdup(lt));
	free(name);
}

char *mail_header(const char *name, const char *value, bool addresses)
{
	struct strbuf b = { 0 };
	char **words = NULL, **addrs = NULL;
	int n = 0, na, col;

	if (addresses) {
		na = mail_split_addresses(value, &addrs);
		for (int i = 0; i < na; i++) {
			char **aw = NULL;
			int an = 0;
			struct strbuf a = { 0 };

			/* One token: a fold comes between addresses, not inside one. */
			address_words(addrs[i], &aw, &an);
			for (int k = 0; k < an; k++) {
				sb_addf(&a, "%s%s", k ? " " : "", aw[k]);
				free(aw[k]);
			}
			if (i + 1 < na)
				sb_addf(&a, ",");
			add_word(&words, &n, a.s);
			free(aw);
			free(addrs[i]);
		}
		free(addrs);
	} else if (!ascii(value)) {
		encoded_words(value, &words, &n);
	} else {
		char *copy = xstrdup(value), *save = NULL, *w;

		for (w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
			add_word(&words, &n, xstrdup(w));
		free(copy);
	}
	sb_addf(&b, "%s:", name);
	col = strlen(name) + 1;
	for (int i = 0; i < n; i++) {
		int len = strlen(words[i]);

		if (col + 1 + len > MAIL_WIDTH && col > (int)strlen(name) + 1) {
			sb_addf(&b, "\n");
			col = 0;
		}
		sb_addf(&b, " %s", words[i]);
		col += 1 + len;
		free(words[i]);
	}
	sb_addf(&b, "\n");
	free(words);
	return b.s;
}

char *mail_date_now(void)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	return xasprintf("%s, %d %s %d %02d:%02d:%02d +0000", days[tm.tm_wday], tm.tm_mday,
			 months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

char *mail_message_id(const char *from)
{
	char *bare = mail_bare_address(from), *at = strrchr(bare, '@'), *id;
	uint32_t r = 0;
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];

	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = (uint32_t)now ^ (uint32_t)getpid() << 16;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	id = xasprintf("<%s.%d.%08x.slabbench@%s>", stamp, (int)getpid(), r,
		       at && at[1] ? at + 1 : "localhost");
	free(bare);
	return id;
}

bool mail_tag_line(const char *line, size_t len)
{
	static const char *const tags[] = {
		"Reported-by: ", "Closes: ", "Link: ", "Fixes: ", "#regzbot ",
	};

	if (len >= 2 && !strncmp(line, "| ", 2))
		line += 2, len -= 2;
	for (size_t i = 0; i < ARRAY_SIZE(tags); i++)
		if (len > strlen(tags[i]) && !strncmp(line, tags[i], strlen(tags[i])))
			return true;
	return false;
}

/*
 * The body with mboxrd's quoting; -1 when a line but a tag is too wide,
 * or a line is the boundary.
 */
static int add_body(struct strbuf *b, const char *body, const char *boundary)
{
	int line = 1;

	for (const char *p = body; *p; line++) {
		size_t len = strcspn(p, "\n"), q = strspn(p, ">");

		if (mail_columns(p, len) > MAIL_WIDTH && !mail_tag_line(p, len))
			return error("mail: line %d of the body is %zu columns wide (at most %d)",
				     line, mail_columns(p, len), MAIL_WIDTH);
		if (len >= 2 + strlen(boundary) && !strncmp(p, "--", 2) &&
		    !strncmp(p + 2, boundary, strlen(boundary)))
			return error("mail: line %d of the body is the MIME boundary", line);
		sb_addf(b, "%s%.*s\n", !strncmp(p + q, "From ", 5) ? ">" : "", (int)len, p);
		p += len + (p[len] == '\n');
	}
	return 0;
}

static bool header_ok(const char *what, const char *v)
{
	if (v && !strpbrk(v, "\r\n") && *v)
		return true;
	error("mail: the %s is %s", what, v ? "empty or has a line break" : "missing");
	return false;
}

char *mail_format(const struct mail *m)
{
	struct strbuf b = { 0 };
	char *date = m->date ? xstrdup(m->date) : mail_date_now(), *h, *boundary;
	time_t now = time(NULL);
	struct tm tm;
	const char *heads[][2] = { { "From", m->from }, { "To", m->to }, { "Cc", m->cc } };

	if (!header_ok("sender (From)", m->from) || !header_ok("recipient (To)", m->to) ||
	    (m->cc && *m->cc && !header_ok("Cc", m->cc)) || !header_ok("subject", m->subject) ||
	    !header_ok("Message-Id", m->message_id) ||
	    (m->in_reply_to && !header_ok("In-Reply-To", m->in_reply_to))) {
		free(date);
		return NULL;
	}
	boundary = m->boundary ? xstrdup(m->boundary) : NULL;
	if (!boundary) {
		struct strbuf s = { 0 };

		sb_addf(&s, "=_slabbench_");
		for (const char *p = m->message_id; *p; p++)
			if (isalnum((unsigned char)*p))
				sb_addf(&s, "%c", *p);
		boundary = s.s;
		boundary[strlen(boundary) > 60 ? 60 : strlen(boundary)] = '\0';
	}
	gmtime_r(&now, &tm);
	sb_addf(&b, "From slabbench %s %s %2d %02d:%02d:%02d %d\n", days[tm.tm_wday],
		months[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		tm.tm_year + 1900);
	for (size_t i = 0; i < ARRAY_SIZE(heads); i++) {
		if (!heads[i][1] || !*heads[i][1])
			continue;
		h = mail_header(heads[i][0], heads[i][1], true);
		sb_addf(&b, "%s", h);
		free(h);
	}
	h = mail_header("Subject", m->subject, false);
	sb_addf(&b, "%sDate: %s\nMessage-Id: %s\n", h, date, m->message_id);
	free(h);
	if (m->in_reply_to)
		sb_addf(&b, "In-Reply-To: %s\nReferences: %s\n", m->in_reply_to, m->in_reply_to);
	sb_addf(&b, "MIME-Version: 1.0\n");
	/* Top level too: git send-email asks for it on 8-bit text. */
	if (m->nr_parts)
		sb_addf(&b, "Content-Type: multipart/mixed;\n boundary=\"%s\"\n"
			"Content-Transfer-Encoding: %s\n\n"
			"This is a multi-part message in MIME format.\n\n--%s\n", boundary,
			ascii(m->body) ? "7bit" : "8bit", boundary);
	sb_addf(&b, "Content-Type: text/plain; charset=%s\nContent-Transfer-Encoding: %s\n\n",
		ascii(m->body) ? "us-ascii" : "utf-8", ascii(m->body) ? "7bit" : "8bit");
	if (add_body(&b, m->body, boundary)) {
		free(b.s);
		free(boundary);
		free(date);
		return NULL;
	}
	for (int i = 0; i < m->nr_parts; i++) {
		const struct mail_part *p = &m->parts[i];
		char *enc = mail_base64(p->data, p->len, MAIL_WIDTH);

		sb_addf(&b, "\n--%s\nContent-Type: %s; name=\"%s\"\n"
			"Content-Disposition: attachment; filename=\"%s\"\n"
			"Content-Transfer-Encoding: base64\n\n%s", boundary, p->type, p->filename,
			p->filename, enc);
		free(enc);
	}
	if (m->nr_parts)
		sb_addf(&b, "\n--%s--\n", boundary);
	free(boundary);
	free(date);
	return b.s;
}
