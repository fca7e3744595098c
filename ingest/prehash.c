/*
 * prehash.c - digests of the next files of an ingest, hashed side by side
 * (see prehash.h).  Up to SHA256_LANES_MAX files are open at once, each
 * with a 64 KiB buffer; whole 64-byte blocks common to all go through
 * sha256_update_blocks, a file's last partial block through sha256_final.
 */
#include "core/compat.h"
#include "prehash.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

#include <unistd.h>

#define PH_BUF (64 * 1024)
#define PH_AHEAD 64 /* results kept: files hashed at most this far ahead */

enum { PH_EMPTY, PH_OK, PH_FAILED };

struct ph_lane {
	FILE *fp;             /* NULL: idle */
	size_t file;
	struct sha256 c;
	unsigned char *buf;
	size_t off, len;      /* bytes buf[off, len) not hashed yet */
	uint64_t size;
	int eof;
};

struct ph_result {
	size_t file;
	int state;
	uint64_t size;
	char hex[65];
};

struct ingest_prehash {
	char *const *paths;
	size_t n, next;       /* next: the next file a lane takes */
	int lanes;
	struct sha256 fresh;
	struct ph_lane lane[SHA256_LANES_MAX];
	struct ph_result res[PH_AHEAD]; /* file f in res[f % PH_AHEAD] */
	unsigned char *mem;
};

struct ingest_prehash *ingest_prehash_new(char *const *paths, size_t n,
					  const struct sha256 *fresh)
{
	struct ingest_prehash *ph;
	int k;

	if (sha256_lanes(fresh) < 2 || n < 2)
		return NULL;
	ph = ab_calloc(1, sizeof(*ph));
	ph->paths = paths;
	ph->n = n;
	ph->lanes = sha256_lanes(fresh);
	if (ph->lanes > SHA256_LANES_MAX)
		ph->lanes = SHA256_LANES_MAX;
	ph->fresh = *fresh;
	ph->mem = ab_malloc((size_t)ph->lanes * PH_BUF);
	for (k = 0; k < ph->lanes; k++)
		ph->lane[k].buf = ph->mem + (size_t)k * PH_BUF;
	for (k = 0; k < PH_AHEAD; k++)
		ph->res[k].file = SIZE_MAX;
	return ph;
}

static void lane_stop(struct ph_lane *l)
{
	if (l->fp)
		fclose(l->fp);
	l->fp = NULL;
}

static void result(struct ingest_prehash *ph, size_t file, int state, struct sha256 *c,
		   uint64_t size)
{
	struct ph_result *r = &ph->res[file % PH_AHEAD];
	unsigned char digest[32];

	r->file = file;
	r->state = state;
	r->size = size;
	if (state == PH_OK) {
		sha256_final(c, digest);
		sha256_hex(digest, r->hex);
	}
}

/* Give idle lanes the next files, up to PH_AHEAD files from `want`. */
static void lanes_take(struct ingest_prehash *ph, size_t want)
{
	struct strbuf err = STRBUF_INIT;
	int k;

	for (k = 0; k < ph->lanes && ph->next < ph->n && ph->next < want + PH_AHEAD; k++) {
		struct ph_lane *l = &ph->lane[k];

		if (l->fp)
			continue;
		/* the driver's own opener: no FIFO or device is ever read */
		l->fp = ab_fopen_input(ph->paths[ph->next], &err);
		if (!l->fp) {
			result(ph, ph->next++, PH_FAILED, NULL, 0);
			k--; /* this lane is still idle */
			continue;
		}
		l->file = ph->next++;
		l->c = ph->fresh;
		l->off = l->len = 0;
		l->size = 0;
		l->eof = 0;
	}
	strbuf_release(&err);
}

/* At least one whole block in the buffer, or the end of the file.
 * Returns -1 on a read error. */
static int lane_fill(struct ph_lane *l)
{
	int fd = fileno(l->fp);

	if (l->len - l->off >= 64 || l->eof)
		return 0;
	memmove(l->buf, l->buf + l->off, l->len - l->off);
	l->len -= l->off;
	l->off = 0;
	while (l->len < 64 && !l->eof) {
		ssize_t r = read(fd, l->buf + l->len, PH_BUF - l->len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			l->eof = 1;
		l->len += (size_t)r;
		l->size += (uint64_t)r;
	}
	return 0;
}

/* One step: finish the lanes at their end, else hash the blocks all busy
 * lanes have.  Returns 0 when no lane is busy. */
static int step(struct ingest_prehash *ph)
{
	struct sha256 *c[SHA256_LANES_MAX];
	const unsigned char *d[SHA256_LANES_MAX];
	size_t k, nb = 0, m = SIZE_MAX;
	int busy = 0, finished = 0;

	for (k = 0; k < (size_t)ph->lanes; k++) {
		struct ph_lane *l = &ph->lane[k];

		if (!l->fp)
			continue;
		busy = 1;
		if (lane_fill(l) < 0) {
			result(ph, l->file, PH_FAILED, NULL, 0);
			lane_stop(l);
			finished = 1;
		} else if (l->len - l->off < 64) { /* eof: the last partial block */
			sha256_update(&l->c, l->buf + l->off, l->len - l->off);
			result(ph, l->file, PH_OK, &l->c, l->size);
			lane_stop(l);
			finished = 1;
		}
	}
	if (!busy || finished)
		return busy;
	for (k = 0; k < (size_t)ph->lanes; k++) {
		struct ph_lane *l = &ph->lane[k];

		if (!l->fp)
			continue;
		c[nb] = &l->c;
		d[nb++] = l->buf + l->off;
		if ((l->len - l->off) / 64 < m)
			m = (l->len - l->off) / 64;
	}
	sha256_update_blocks(c, d, nb, m);
	for (k = 0; k < (size_t)ph->lanes; k++)
		if (ph->lane[k].fp)
			ph->lane[k].off += 64 * m;
	return 1;
}

int ingest_prehash_get(struct ingest_prehash *ph, size_t i, char hex[65], uint64_t *size)
{
	struct ph_result *r;

	if (!ph || i >= ph->n)
		return -1;
	if (i >= ph->next) { /* asked past what the lanes hold (never, in order) */
		int k;
		for (k = 0; k < ph->lanes; k++)
			lane_stop(&ph->lane[k]);
		ph->next = i;
	}
	r = &ph->res[i % PH_AHEAD];
	for (;;) {
		if (r->file == i && r->state != PH_EMPTY)
			break;
		lanes_take(ph, i);
		if (!step(ph))
			return -1; /* cannot happen: file i is in a lane or done */
	}
	if (r->state != PH_OK)
		return -1;
	memcpy(hex, r->hex, 65);
	*size = r->size;
	return 0;
}

void ingest_prehash_free(struct ingest_prehash *ph)
{
	int k;

	if (!ph)
		return;
	for (k = 0; k < ph->lanes; k++)
		lane_stop(&ph->lane[k]);
	free(ph->mem);
	free(ph);
}
