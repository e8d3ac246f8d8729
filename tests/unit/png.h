/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of PNG to check a chart: the signature, every chunk's CRC,
 * and the image data inflated and unfiltered, to count its colours.
 * 8-bit RGB, RGBA, grey and palette images, not interlaced (what gnuplot
 * writes).
 */
#ifndef SLABBENCH_TEST_PNG_H
#define SLABBENCH_TEST_PNG_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct png_info {
	uint32_t width, height;
	int colours;		/* distinct pixel values, counted up to 64 */
};

static uint32_t png_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int png_paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* 0 and @info filled when @data is a whole, valid PNG of the kinds above. */
static int png_check(const unsigned char *data, size_t len, struct png_info *info)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	unsigned char *idat = NULL, *raw = NULL, *prev, *row;
	size_t pos = 8, idat_len = 0, bpp = 0, stride;
	uLongf raw_len;
	uint32_t seen[64];
	int ret = -1, depth = 0, type = -1, nseen = 0;

	if (len < 8 || memcmp(data, sig, 8))
		return -1;
	memset(info, 0, sizeof(*info));
	while (pos + 12 <= len) {
		uint32_t n = png_be32(data + pos);
		const unsigned char *kind = data + pos + 4, *body = kind + 4;

		if (n > len - pos - 12 ||
		    crc32(0, kind, n + 4) != png_be32(body + n))
			goto out;
		if (!memcmp(kind, "IHDR", 4) && n == 13) {
			info->width = png_be32(body);
			info->height = png_be32(body + 4);
			depth = body[8];
			type = body[9];
			if (body[12])
				goto out;	/* interlaced */
		} else if (!memcmp(kind, "IDAT", 4)) {
			idat = realloc(idat, idat_len + n);
			memcpy(idat + idat_len, body, n);
			idat_len += n;
		} else if (!memcmp(kind, "IEND", 4)) {
			break;
		}
		pos += n + 12;
	}
	bpp = type == 6 ? 4 : type == 2 ? 3 : type == 4 ? 2 : 1;
	if (depth != 8 || !info->width || !info->height || !idat)
		goto out;
	stride = info->width * bpp;
	raw_len = (stride + 1) * info->height;
	raw = malloc(raw_len);
	if (uncompress(raw, &raw_len, idat, idat_len) != Z_OK ||
	    raw_len != (stride + 1) * info->height)
		goto out;
	for (uint32_t y = 0; y < info->height; y++) {
		row = raw + y * (stride + 1) + 1;
		prev = y ? row - stride - 1 : NULL;
		for (size_t x = 0; x < stride; x++) {
			int a = x >= bpp ? row[x - bpp] : 0, b = prev ? prev[x] : 0;
			int c = x >= bpp && prev ? prev[x - bpp] : 0;

			switch (row[-1]) {
			case 0: break;
			case 1: row[x] += a; break;
			case 2: row[x] += b; break;
			case 3: row[x] += (a + b) / 2; break;
			case 4: row[x] += png_paeth(a, b, c); break;
			default: goto out;
			}
		}
		for (size_t x = 0; x + bpp <= stride && nseen < 64; x += bpp) {
			uint32_t v = 0;
			int i;

			for (size_t k = 0; k < bpp; k++)
				v = v << 8 | row[x + k];
			for (i = 0; i < nseen && seen[i] != v; i++)
				;
			if (i == nseen)
				seen[nseen++] = v;
		}
	}
	info->colours = nseen;
	ret = 0;
out:
	free(idat);
	free(raw);
	return ret;
}

#endif
