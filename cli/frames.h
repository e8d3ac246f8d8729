/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest agent's channel: "@SB KIND NAME LENGTH\n", LENGTH bytes, "\n".
 * Length-prefixed so that payloads (JSON, /proc files) need no escaping.
 */
#ifndef SLABBENCH_FRAMES_H
#define SLABBENCH_FRAMES_H

#include <stddef.h>

struct frame {
	char kind[16];
	char name[64];
	const char *data;	/* points into the parsed buffer */
	size_t len;
};

/*
 * Parses the frame at *pos. Returns 1 and advances *pos past it, 0 when
 * the buffer ends inside the frame (the guest may still be writing), -1
 * when the bytes at *pos are not a frame.
 */
int frame_next(const char *buf, size_t len, size_t *pos, struct frame *f);

#endif
