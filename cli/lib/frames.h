/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest agent's channel (the frame format of <linux/slabbench.h>):
 * parsing its frames and routing each to a handler through a table.
 */
#ifndef SLABBENCH_FRAMES_H
#define SLABBENCH_FRAMES_H

#include <linux/slabbench.h>
#include <stddef.h>

struct frame {
	char kind[SB_FRAME_KIND_MAX];
	char name[SB_FRAME_NAME_MAX];
	const char *data;	/* points into the parsed buffer */
	size_t len;
};

/*
 * Parses the frame at *pos. Returns 1 and advances *pos past it, 0 when
 * the buffer ends inside the frame (the guest may still be writing), -1
 * when the bytes at *pos are not a frame.
 */
int frame_next(const char *buf, size_t len, size_t *pos, struct frame *f);

/*
 * One line of a routing table: frames of @kind (NULL: any) named @name
 * (NULL: any; a trailing '*' makes it a prefix) go to @fn. The first
 * matching line wins; a frame no line matches is ignored.
 */
struct frame_route {
	const char *kind;
	const char *name;
	/* Nonzero stops the routing and is returned. */
	int (*fn)(const struct frame *f, void *ctx);
};

/*
 * Routes every whole frame from *pos on through @table (ended by a line
 * without fn). Returns what a handler stopped with, else frame_next's
 * last answer: 0 (the buffer ends) or -1 (not a frame at *pos).
 */
int frames_route(const char *buf, size_t len, size_t *pos,
		 const struct frame_route *table, void *ctx);

#endif
