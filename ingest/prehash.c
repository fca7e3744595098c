/*
 * prehash.c - digests of the next files of an ingest, hashed side by side
 * (see prehash.h).  Up to SHA256_LANES_MAX files are open at once, each
 * read whole (small files, handed to the caller with the digest) or
 * through a 64 KiB buffer; whole 64-byte blocks common to all go through
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
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#define PH_BUF (64 * 1024)
#define PH_AHEAD 64 /* results kept: files hashed at most this far ahead */
/* Files up to PH_WHOLE_MAX bytes are read whole and handed to the caller
 * with their digest (read once: the parser needs no read of its own),
 * while the whole files waiting for the caller stay under PH_WHOLE_BUDGET
 * bytes; other files are streamed through the lane's buffer as before. */
#define PH_WHOLE_MAX ((size_t)4 << 20)
#define PH_WHOLE_BUDGET ((size_t)32 << 20)
/* Whole-file buffers the caller gave back are kept for the next files (up
 * to PH_POOL of them, PH_POOL_BYTES in all): a fresh one per file cost
 * page faults, zeroed pages and the arena's growing and trimming.  Each
 * has its capacity in a header in front of the bytes. */
#define PH_POOL 32
#define PH_POOL_BYTES ((size_t)16 << 20)
#define PH_HDR sizeof(max_align_t)

enum { PH_EMPTY, PH_OK, PH_FAILED, PH_SKIPPED };

struct ph_lane {
	FILE *fp;             /* NULL: idle */
	size_t file;
	struct sha256 c;
	unsigned char *buf;   /* the lane's buffer, or the whole file */
	unsigned char *whole; /* the whole file read (buf == whole), or NULL */
	size_t off, len;      /* bytes buf[off, len) not hashed yet */
	uint64_t size;
	int eof;
};

struct ph_result {
	size_t file;
	int state;
	uint64_t size;
	char hex[65];
	unsigned char *data;  /* the whole file (size bytes), or NULL */
};

struct ingest_prehash {
	char *const *paths;
	const char *skip;     /* skip[i]: not hashed here (NULL: none) */
	size_t n, next;       /* next: the next file a lane takes */
	int lanes;
	struct sha256 fresh;
	struct ph_lane lane[SHA256_LANES_MAX];
	struct ph_result res[PH_AHEAD]; /* file f in res[f % PH_AHEAD] */
	size_t whole_bytes;   /* whole files read and not taken by the caller (mu) */
	unsigned char *pool[PH_POOL]; /* buffers given back (mu) */
	size_t npool, pool_bytes;
	unsigned char *mem;
	pthread_mutex_t mu;
	pthread_cond_t cv;    /* a result came, or want moved, or stop */
	pthread_t th;
	int threaded, stop, finished;
	int late;             /* AB_INGEST_DIGEST=late: try() never has it (tests) */
	size_t want;          /* the file the caller waits for; earlier ones are done with */
	/* files deferred (ingest_prehash_defer) and not claimed yet, oldest
	 * first: their results are kept, so the lanes stay within PH_AHEAD
	 * files of the oldest (mu) */
	size_t dq[PH_AHEAD], dhead, dn;
	size_t claiming;      /* the file a claimer waits for (SIZE_MAX: none) */
};

static void *hash_thread(void *arg);

static size_t buf_cap(const unsigned char *b)
{
	size_t cap;

	memcpy(&cap, b - PH_HDR, sizeof(cap));
	return cap;
}

static unsigned char *buf_new(size_t cap)
{
	unsigned char *m = ab_malloc(PH_HDR + cap);

	memcpy(m, &cap, sizeof(cap));
	return m + PH_HDR;
}

/* A buffer of at least need bytes: the smallest one given back that fits,
 * else a new one (rounded up to 64 KiB, so that more files fit it later). */
static unsigned char *buf_get(struct ingest_prehash *ph, size_t need)
{
	unsigned char *b = NULL;
	size_t i, best = SIZE_MAX;

	pthread_mutex_lock(&ph->mu);
	for (i = 0; i < ph->npool; i++)
		if (buf_cap(ph->pool[i]) >= need &&
		    (best == SIZE_MAX || buf_cap(ph->pool[i]) < buf_cap(ph->pool[best])))
			best = i;
	if (best != SIZE_MAX) {
		b = ph->pool[best];
		ph->pool[best] = ph->pool[--ph->npool];
		ph->pool_bytes -= buf_cap(b);
	}
	pthread_mutex_unlock(&ph->mu);
	return b ? b : buf_new((need + 65535) & ~(size_t)65535);
}

static unsigned char *buf_grow(unsigned char *b, size_t cap)
{
	unsigned char *m = ab_realloc(b - PH_HDR, PH_HDR + cap);

	memcpy(m, &cap, sizeof(cap));
	return m + PH_HDR;
}

/* Keep b for a later file, or free it (mu held). */
static void buf_put(struct ingest_prehash *ph, unsigned char *b)
{
	if (!b)
		return;
	if (ph->npool < PH_POOL && ph->pool_bytes + buf_cap(b) <= PH_POOL_BYTES) {
		ph->pool[ph->npool++] = b;
		ph->pool_bytes += buf_cap(b);
	} else {
		free(b - PH_HDR);
	}
}

void ingest_prehash_release(struct ingest_prehash *ph, unsigned char *data)
{
	if (!ph || !data)
		return;
	pthread_mutex_lock(&ph->mu);
	buf_put(ph, data);
	pthread_mutex_unlock(&ph->mu);
}

struct ingest_prehash *ingest_prehash_new(char *const *paths, size_t n,
					  const struct sha256 *fresh, const char *skip)
{
	struct ingest_prehash *ph;
	const char *t;
	int k;

	if (sha256_lanes(fresh) < 2 || n < 2)
		return NULL;
	ph = ab_calloc(1, sizeof(*ph));
	ph->paths = paths;
	ph->skip = skip;
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
	ph->claiming = SIZE_MAX;
	pthread_mutex_init(&ph->mu, NULL);
	pthread_cond_init(&ph->cv, NULL);
	t = getenv("AB_INGEST_THREADS");
	if (!(t && !strcmp(t, "1")) && pthread_create(&ph->th, NULL, hash_thread, ph) == 0)
		ph->threaded = 1;
	/* for tests: every digest comes after its file's parse started */
	t = getenv("AB_INGEST_DIGEST");
	ph->late = t && !strcmp(t, "late");
	return ph;
}

/* The lane's file is done with (its whole copy, if any, was handed on or
 * is freed here). */
static void lane_stop(struct ingest_prehash *ph, struct ph_lane *l)
{
	if (l->fp)
		fclose(l->fp);
	l->fp = NULL;
	if (l->whole) {
		pthread_mutex_lock(&ph->mu);
		ph->whole_bytes -= l->len;
		buf_put(ph, l->whole);
		pthread_mutex_unlock(&ph->mu);
		l->whole = NULL;
	}
	l->buf = ph->mem + (size_t)(l - ph->lane) * PH_BUF;
}

/* Forget a result the caller did not take (mu held). */
static void result_drop(struct ingest_prehash *ph, struct ph_result *r)
{
	if (r->data) {
		ph->whole_bytes -= (size_t)r->size;
		buf_put(ph, r->data);
		r->data = NULL;
	}
}

/* The oldest file whose result may still be asked for (mu held). */
static size_t floor_file(const struct ingest_prehash *ph)
{
	return ph->dn && ph->dq[ph->dhead] < ph->want ? ph->dq[ph->dhead] : ph->want;
}

static void result(struct ingest_prehash *ph, size_t file, int state, struct ph_lane *l)
{
	struct ph_result *r = &ph->res[file % PH_AHEAD];
	unsigned char digest[32];
	char hex[65];

	if (state == PH_OK) {
		sha256_final(&l->c, digest);
		sha256_hex(digest, hex);
	}
	pthread_mutex_lock(&ph->mu);
	if (file < floor_file(ph)) {
		/* nobody asks for it any more (the caller went on without
		 * it); its slot may hold a later file's result */
		pthread_mutex_unlock(&ph->mu);
		return;
	}
	result_drop(ph, r);
	r->file = file;
	r->state = state;
	r->size = state == PH_OK ? l->size : 0;
	if (state == PH_OK) {
		memcpy(r->hex, hex, sizeof(hex));
		r->data = l->whole; /* handed on with the digest */
		l->whole = NULL;
	}
	pthread_cond_broadcast(&ph->cv);
	pthread_mutex_unlock(&ph->mu);
}

/* Read the lane's file whole when it is small enough and the budget has
 * room: 1 read, 0 stream it, -1 read error.  A file that grows while it is
 * read is read to its end all the same. */
static int lane_read_whole(struct ingest_prehash *ph, struct ph_lane *l)
{
	int fd = fileno(l->fp);
	struct stat st;
	size_t cap, acct, len = 0;
	unsigned char *b;
	int room;

	if (fstat(fd, &st) < 0 || st.st_size < 0 || (uint64_t)st.st_size > PH_WHOLE_MAX)
		return 0;
	acct = (size_t)st.st_size + 1; /* the read that finds the end needs no more room */
	pthread_mutex_lock(&ph->mu);
	room = ph->whole_bytes + acct <= PH_WHOLE_BUDGET;
	if (room)
		ph->whole_bytes += acct;
	pthread_mutex_unlock(&ph->mu);
	if (!room)
		return 0;
	b = buf_get(ph, acct);
	cap = buf_cap(b);
	for (;;) {
		ssize_t r;

		if (len == cap) {
			size_t more = cap < 65536 ? 65536 : cap;
			pthread_mutex_lock(&ph->mu);
			ph->whole_bytes += more;
			pthread_mutex_unlock(&ph->mu);
			acct += more;
			cap += more;
			b = buf_grow(b, cap);
		}
		r = read(fd, b + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			l->whole = l->buf = b;
			l->len = acct; /* what whole_bytes counts, until done */
			if (r < 0)
				return -1;
			break;
		}
		len += (size_t)r;
	}
	/* the budget counts the bytes kept (more than counted when the
	 * file grew into a roomy buffer) */
	pthread_mutex_lock(&ph->mu);
	ph->whole_bytes = ph->whole_bytes + len - acct;
	pthread_mutex_unlock(&ph->mu);
	l->off = 0;
	l->len = len;
	l->size = len;
	l->eof = 1;
	return 1;
}

/* Give idle lanes the next files, up to PH_AHEAD files from `want`. */
static void lanes_take(struct ingest_prehash *ph, size_t want)
{
	struct strbuf err = STRBUF_INIT;
	int k;

	for (k = 0; k < ph->lanes && ph->next < ph->n && ph->next < want + PH_AHEAD; k++) {
		struct ph_lane *l = &ph->lane[k];

		if (l->fp && l->file < want)
			lane_stop(ph, l); /* the caller went on without it */
		if (l->fp)
			continue;
		if (ph->skip && ph->skip[ph->next]) { /* the caller does without */
			result(ph, ph->next++, PH_SKIPPED, l);
			k--;
			continue;
		}
		/* the driver's own opener: no FIFO or device is ever read */
		l->fp = ab_fopen_input(ph->paths[ph->next], &err);
		if (!l->fp) {
			result(ph, ph->next++, PH_FAILED, l);
			k--; /* this lane is still idle */
			continue;
		}
		l->file = ph->next++;
		l->c = ph->fresh;
		l->off = l->len = 0;
		l->size = 0;
		l->eof = 0;
		if (lane_read_whole(ph, l) < 0) {
			result(ph, l->file, PH_FAILED, l);
			lane_stop(ph, l);
			k--;
		}
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
			result(ph, l->file, PH_FAILED, l);
			lane_stop(ph, l);
			finished = 1;
		} else if (l->len - l->off < 64) { /* eof: the last partial block */
			sha256_update(&l->c, l->buf + l->off, l->len - l->off);
			result(ph, l->file, PH_OK, l);
			lane_stop(ph, l);
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


/* Somebody waits for file i, which a lane is hashing (mu held). */
static int waited(const struct ingest_prehash *ph, size_t i)
{
	return i != SIZE_MAX && i < ph->next && !ready(&ph->res[i % PH_AHEAD], i);
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
		size_t want, need = 0, room, k;
		int busy;

		for (k = 0; k < (size_t)ph->lanes; k++)
			need += !ph->lane[k].fp;
		if (need > ph->n - ph->next)
			need = ph->n - ph->next;
		want = floor_file(ph);
		room = want + PH_AHEAD > ph->next ? want + PH_AHEAD - ph->next : 0;
		if (room < need && !waited(ph, ph->want) && !waited(ph, ph->claiming)) {
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

int ingest_prehash_get(struct ingest_prehash *ph, size_t i, char hex[65], uint64_t *size,
		       unsigned char **data)
{
	struct ph_result *r;
	int ok;

	*data = NULL;
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
				lane_stop(ph, &ph->lane[k]);
			ph->next = i;
		}
		while (!ready(r, i)) {
			lanes_take(ph, i);
			if (!step(ph))
				break; /* cannot happen: file i is in a lane or done */
		}
		pthread_mutex_lock(&ph->mu);
	}
	if (ready(r, i) && r->state == PH_SKIPPED) {
		pthread_mutex_unlock(&ph->mu);
		return 1;
	}
	ok = ready(r, i) && r->state == PH_OK;
	if (ok) {
		memcpy(hex, r->hex, 65);
		*size = r->size;
		*data = r->data; /* the caller's now */
		if (r->data)
			ph->whole_bytes -= (size_t)r->size;
		r->data = NULL;
	}
	pthread_mutex_unlock(&ph->mu);
	return ok ? 0 : -1;
}

int ingest_prehash_try(struct ingest_prehash *ph, size_t i, char hex[65], uint64_t *size,
		       unsigned char **data)
{
	int rdy;

	*data = NULL;
	if (!ph || i >= ph->n)
		return -1;
	if (!ph->threaded || (ph->skip && ph->skip[i]))
		return ingest_prehash_get(ph, i, hex, size, data);
	pthread_mutex_lock(&ph->mu);
	if (ph->want != i) {
		ph->want = i;
		pthread_cond_broadcast(&ph->cv);
	}
	rdy = !ph->late && (ready(&ph->res[i % PH_AHEAD], i) || ph->finished);
	pthread_mutex_unlock(&ph->mu);
	return rdy ? ingest_prehash_get(ph, i, hex, size, data) : 2;
}

void ingest_prehash_defer(struct ingest_prehash *ph, size_t i)
{
	pthread_mutex_lock(&ph->mu);
	/* within PH_AHEAD files: the caller is never further ahead of the
	 * claimer than that (the pipeline's PIPE_LAG) */
	if (ph->dn < PH_AHEAD)
		ph->dq[(ph->dhead + ph->dn++) % PH_AHEAD] = i;
	pthread_mutex_unlock(&ph->mu);
}

/* File i hashed here, as the driver would (the lanes could not). */
static int hash_here(struct ingest_prehash *ph, size_t i, char hex[65], uint64_t *size,
		     struct strbuf *err)
{
	unsigned char *buf = ab_malloc(PH_BUF), digest[32];
	struct sha256 c = ph->fresh;
	FILE *fp = ab_fopen_input(ph->paths[i], err);
	size_t n;
	int rc = 0;

	*size = 0;
	if (!fp) {
		free(buf);
		return -AB_EDATA;
	}
	while ((n = fread(buf, 1, PH_BUF, fp)) > 0) {
		sha256_update(&c, buf, n);
		*size += n;
	}
	if (ferror(fp)) {
		ab_fail(err, AB_EIO, "cannot read '%s': %s", ph->paths[i], strerror(errno));
		rc = -AB_EDATA;
	} else {
		sha256_final(&c, digest);
		sha256_hex(digest, hex);
	}
	fclose(fp);
	free(buf);
	return rc;
}

int ingest_prehash_claim(struct ingest_prehash *ph, size_t i, char hex[65], uint64_t *size,
			 struct strbuf *err)
{
	struct ph_result *r;
	int ok;

	if (!ph || i >= ph->n)
		return ab_fail(err, AB_EINTERNAL, "no digest for file %zu", i);
	r = &ph->res[i % PH_AHEAD];
	pthread_mutex_lock(&ph->mu);
	ph->claiming = i;
	pthread_cond_broadcast(&ph->cv);
	while (!ready(r, i) && !ph->finished)
		pthread_cond_wait(&ph->cv, &ph->mu);
	ph->claiming = SIZE_MAX;
	ok = ready(r, i) && r->state == PH_OK;
	if (ok) {
		memcpy(hex, r->hex, 65);
		*size = r->size;
	}
	if (ready(r, i))
		result_drop(ph, r); /* the caller read the file itself */
	if (ph->dn && ph->dq[ph->dhead] == i) {
		ph->dhead = (ph->dhead + 1) % PH_AHEAD;
		ph->dn--;
	}
	pthread_cond_broadcast(&ph->cv);
	pthread_mutex_unlock(&ph->mu);
	return ok ? 0 : hash_here(ph, i, hex, size, err);
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
	for (k = 0; k < ph->lanes; k++)
		lane_stop(ph, &ph->lane[k]);
	for (k = 0; k < PH_AHEAD; k++)
		result_drop(ph, &ph->res[k]);
	while (ph->npool)
		free(ph->pool[--ph->npool] - PH_HDR);
	pthread_mutex_destroy(&ph->mu);
	pthread_cond_destroy(&ph->cv);
	free(ph->mem);
	free(ph);
}
