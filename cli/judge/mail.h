/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One RFC 5322 message in mbox form (mboxrd quoting), MIME multipart
 * with base64 attachments, every line at most MAIL_WIDTH columns: what
 * git send-email, sendmail and a maintainer's mail client all take.
 */
#ifndef SLABBENCH_MAIL_H
#define SLABBENCH_MAIL_H

#include <stdbool.h>
#include <stddef.h>

#define MAIL_WIDTH 72

struct mail_part {
	const char *filename;
	const char *type;	/* "application/gzip", "text/x-shellscript" */
	const void *data;
	size_t len;
};

struct mail {
	const char *from;		/* "Name <addr>" */
	const char *to, *cc;		/* comma-separated "Name <addr>"; cc may be NULL */
	const char *subject;
	const char *date;		/* RFC 5322; NULL: now */
	const char *message_id;		/* "<...>" */
	const char *in_reply_to;	/* "<...>" or NULL; also References */
	const char *body;		/* UTF-8 text, lines within MAIL_WIDTH */
	const struct mail_part *parts;
	int nr_parts;
	const char *boundary;		/* NULL: made from the message id */
};

/*
 * The message with its mbox "From " line; NULL after a message when the
 * body has a line wider than MAIL_WIDTH (but a tag line: tags are never
 * wrapped, whatever their width) or a header is malformed.
 */
char *mail_format(const struct mail *m);

/*
 * "Name: value" folded at blanks (after commas first in address lists)
 * so that each line is at most MAIL_WIDTH columns where a break exists;
 * non-ASCII values become RFC 2047 encoded words. Ends with "\n".
 */
char *mail_header(const char *name, const char *value, bool addresses);

/* Base64 (RFC 2045) in lines of @width characters (a multiple of 4), each ending "\n". */
char *mail_base64(const void *data, size_t len, int width);

/* @data as a gzip file in memory; NULL after a message. */
void *mail_gzip(const void *data, size_t len, size_t *out_len);

/*
 * Whether the line @line (@len bytes) is a tag a fix carries
 * ("Reported-by: ...", "Closes: ...", "Link: ...", "Fixes: ...", as
 * quoted "| Reported-by: ...") or a "#regzbot" command: one line,
 * however wide, as the kernel's own tags are.
 */
bool mail_tag_line(const char *line, size_t len);

/* Columns of a UTF-8 line: code points, not bytes. */
size_t mail_columns(const char *s, size_t len);

/* "<DATE.PID.RANDOM.slabbench@DOMAIN>", DOMAIN from @from's address. */
char *mail_message_id(const char *from);

/* The current time as RFC 5322 wants it, in English whatever the locale. */
char *mail_date_now(void);

/*
 * Splits a comma-separated address list (commas inside quotes or <>
 * kept) into trimmed, non-empty addresses; returns how many.
 */
int mail_split_addresses(const char *list, char ***out);

/* The bare address of "Name <addr>" or "addr", lower-cased, for comparing. */
char *mail_bare_address(const char *addr);

#endif
