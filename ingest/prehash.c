/*
 * prehash.c - digests of the next files of an ingest, hashed side by side
 * (see prehash.h).  Up to SHA256_LANES_MAX files are open at once, each
 * with a 64 KiB buffer; whole 64-byte blocks common to all go through
 * sha256_update_blocks, a file's last partial block through sha256_final.
 *
 * A thread of its own does this while the caller parses (and the
 * pipeline's writer writes): the lanes, their files and `next` are the
 * hashing thread's; the results ring, `want` and the flags are shared
 * under mu.  Without the thread (AB_INGEST_THREADS=1, or it could not be
 * started) ingest_prehash_get hashes in the caller until it has file i.
 */
#include "core/compat.h"
#include "prehash.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

#include <pthread.h>
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
	pthread_mutex_t mu;
	pthread_cond_t cv;    /* a result came, or want moved, or stop */
	pthread_t th;
	int threaded, stop, finished;
	size_t want;          /* the file the caller waits for; earlier ones are done with */
};

static void *hash_thread(void *arg);

struct ingest_prehash *ingest_prehash_new(char *const *paths, size_t n,
					  const struct sha256 *fresh)
{
	struct ingest_prehash *ph;
	const char *t;
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
	pthread_mutex_init(&ph->mu, NULL);
	pthread_cond_init(&ph->cv, NULL);
	t = getenv("AB_INGEST_THREADS");
	if (!(t && !strcmp(t, "1")) && pthread_create(&ph->th, NULL, hash_thread, ph) == 0)
		ph->threaded = 1;
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
	char hex[65];

	if (state == PH_OK) {
		sha256_final(c, digest);
		sha256_hex(digest, hex);
	}
	pthread_mutex_lock(&ph->mu);
	r->file = file;
	r->state = state;
	r->size = size;
	if (state == PH_OK)
		memcpy(r->hex, hex, sizeof(hex));
	pthread_cond_broadcast(&ph->cv);
	pthread_mutex_unlock(&ph->mu);
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

static int ready(const struct ph_result *r, size_t i)
{
	return r->file == i && r->state != PH_EMPTY;
}

/*
 * Hash while the caller parses.  The lanes are kept full: when the ring
 * has no room for a file for every idle lane, wait for the caller (a
 * half-empty kernel call costs as much as a full one), unless the caller
 * waits for a file that is in a lane.
 */
static void *hash_thread(void *arg)
{
	struct ingest_prehash *ph = arg;

	pthread_mutex_lock(&ph->mu);
	while (!ph->stop) {
		size_t want = ph->want, need = 0, room, k;
		int busy;

		for (k = 0; k < (size_t)ph->lanes; k++)
			need += !ph->lane[k].fp;
		if (need > ph->n - ph->next)
			need = ph->n - ph->next;
		room = want + PH_AHEAD > ph->next ? want + PH_AHEAD - ph->next : 0;
		if (room < need &&
		    !(want < ph->next && !ready(&ph->res[want % PH_AHEAD], want))) {
			pthread_cond_wait(&ph->cv, &ph->mu);
			continue;
		}
		pthread_mutex_unlock(&ph->mu);
		lanes_take(ph, want);
		busy = step(ph);
		pthread_mutex_lock(&ph->mu);
		if (!busy && ph->next >= ph->n)
			break; /* every file hashed (or left to the caller) */
	}
	ph->finished = 1;
	pthread_cond_broadcast(&ph->cv);
	pthread_mutex_unlock(&ph->mu);
	return NULL;
}

int ingest_prehash_get(struct ingest_prehash *ph, size_t i, char hex[65], uint64_t *size)
{
	struct ph_result *r;
	int ok;

	if (!ph || i >= ph->n)
		return -1;
	r = &ph->res[i % PH_AHEAD];
	if (ph->threaded) {
		pthread_mutex_lock(&ph->mu);
		ph->want = i;
		pthread_cond_broadcast(&ph->cv);
		while (!ready(r, i) && !ph->finished)
			pthread_cond_wait(&ph->cv, &ph->mu);
	} else {
		if (i >= ph->next) { /* asked past what the lanes hold (never, in order) */
			int k;
			for (k = 0; k < ph->lanes; k++)
				lane_stop(&ph->lane[k]);
			ph->next = i;
		}
		while (!ready(r, i)) {
			lanes_take(ph, i);
			if (!step(ph))
				break; /* cannot happen: file i is in a lane or done */
		}
		pthread_mutex_lock(&ph->mu);
	}
	ok = ready(r, i) && r->state == PH_OK;
	if (ok) {
		memcpy(hex, r->hex, 65);
		*size = r->size;
	}
	pthread_mutex_unlock(&ph->mu);
	return ok ? 0 : -1;
}

void ingest_prehash_free(struct ingest_prehash *ph)
{
	int k;

	if (!ph)
		return;
	if (ph->threaded) {
		pthread_mutex_lock(&ph->mu);
		ph->stop = 1;
		pthread_cond_broadcast(&ph->cv);
		pthread_mutex_unlock(&ph->mu);
		pthread_join(ph->th, NULL);
	}
	pthread_mutex_destroy(&ph->mu);
	pthread_cond_destroy(&ph->cv);
	for (k = 0; k < ph->lanes; k++)
		lane_stop(&ph->lane[k]);
	free(ph->mem);
	free(ph);
}
