/*
 * pipeline.c - both cores for one ingest: the calling thread hashes,
 * detects and parses file N+1 while a writer thread stores file N.
 *
 * The parser's sink is a queue: each record is packed into one block
 * (strings copied, params and metric meta already dumped to JSON text, so
 * the parsing thread does that work; power samples many to a block) and
 * handed to the writer, which
 * replays it into the real sink in the same order, each file all or
 * nothing as before: the writer commits files in groups (GROUP_FILES,
 * GROUP_BYTES; a savepoint per file, so a file that fails rolls back
 * alone), and the outcomes say which are durable.  Run ids given to the parser are provisional (1, 2, ...
 * within the file) and mapped by the writer; power samples of a run that
 * turned out to be a duplicate are dropped, as a parser would have.  The
 * queue is bounded, so memory stays flat.  What the writer did to a file
 * (its counts, or why it failed) comes back as an outcome, in file order;
 * ingest.c reports it before the next file's events, so the output is the
 * same as without the pipeline.  After a write error the writer stores
 * nothing more.
 */
#include "core/compat.h"
#include "ingest_priv.h"
#include "jtext.h"
#include "prehash.h"

#include <pthread.h>
#include <stdatomic.h>

/* Records queued and not taken by the writer: at most QUEUE_BYTES of
 * them (or QUEUE_MAX records).  The writer may wait at a file's start for
 * its digest while the parser runs on (a large file's digest comes late:
 * the lanes hash files side by side); this much parsing goes on meanwhile. */
#define QUEUE_BYTES ((size_t)16 << 20)
#define QUEUE_MAX 65536
#define QUEUE_WAKE 128   /* records that wake a waiting writer */
/* Runs the parser holds back to queue at once; when the writer is behind
 * (more than KEYS_HERE bytes of records not stored yet) the parser hashes
 * their dedupe keys itself (the sink's prepare_keys, side by side in
 * vector lanes) before queueing them, else it leaves them to the writer:
 * whichever side has slack. */
#define KEY_BATCH 16
#define KEYS_HERE (QUEUE_BYTES / 8)
#define POWER_BATCH 512 /* power samples per queued record */
#define POWER_DEVICES 16 /* distinct device names per queued record */
#define RUN_MANY 64      /* runs handed to the sink's run_many() at once */
/* Group commit: the files stored since the last commit are committed
 * together once there are GROUP_FILES of them or GROUP_BYTES of input,
 * and at the end.  A commit per file wrote the pages files share (the
 * last pages of tables and indexes, the source table) to the WAL again
 * for every file: about 11 pages per MLPerf log, and its fsyncs at every
 * checkpoint.  Large files still commit one by one: a group's WAL
 * frames are checkpointed only after its commit, and one group for a
 * whole tree of large files left that copy for the end, when nothing
 * else runs.  Fixed counts, not timing, decide, so the commits fall the
 * same way every time (the database bytes do not depend on them). */
#define GROUP_FILES 64
#define GROUP_BYTES ((uint64_t)16 << 20)

/* Power samples, packed many to a record: one allocation and one queue
 * operation per sample were most of what the parser spent on them. */
struct qpower {
	int64_t prov;
	double t, w;
	unsigned dev;
};
enum qkind { Q_BEGIN, Q_RUN, Q_POWER, Q_SYSTEM, Q_END, Q_QUIT };

/* Run records are cut from slabs the parser fills one after another; the
 * writer, done with every record of a slab once it meets a record of the
 * next one, hands the slab back for reuse.  One malloc per SLAB bytes
 * instead of one per run on the parser and a free on the writer (glibc
 * then had the two threads take turns on the main arena's lock and
 * trim and grow its top again and again). */
#define SLAB ((size_t)256 << 10)

struct slab {
	struct slab *next;   /* in the free list */
	struct slab *all;    /* every slab made, freed at the end (bounded: the
			      * queue is, and slabs given back are reused) */
	size_t used;
	max_align_t mem[];   /* SLAB bytes */
};

struct qrec {
	struct qrec *next;
	struct slab *slab;                /* NULL: malloc'ed */
	enum qkind kind;
	int commit;
	size_t bytes;                     /* what the queue bound counts */
	/* Q_BEGIN: the digest is the prehash's file `file` (late), the writer
	 * claims it; seq numbers the files */
	int late;
	size_t file;
	unsigned seq;
	int keyed;                        /* Q_RUN: its keys were hashed (prepare_keys) */
	int64_t prov;
	/* what the kind has (one of them: a run record, most of the queue,
	 * is not made larger by the others) */
	union {
		struct {
			struct qpower *pw;  /* Q_POWER: npw samples, devices[] their names */
			size_t npw, ndev;
			char *devices[POWER_DEVICES];
		};
		struct ingest_source src;  /* Q_BEGIN */
		struct ingest_run run;     /* Q_RUN */
		struct ingest_system sys;  /* Q_SYSTEM */
	};
};

struct ingest_pipe {
	struct ingest_sink *sink;         /* the real one, used by the writer only */
	struct ingest_sink qsink;         /* what the parser writes to */
	pthread_t writer;
	pthread_mutex_t mu;
	pthread_cond_t more, room, done;
	struct qrec *head, *tail;
	size_t n, bytes;
	/* the sink's prepare_keys() and its key scratch: the parser's or the
	 * writer's, one at a time */
	pthread_mutex_t kmu;
	struct ingest_prehash *ph;        /* late digests come from there */
	unsigned seq;                     /* parser side: the file being parsed */
	int late;                         /* parser side: its digest is late */
	atomic_uint skip_seq;             /* writer: this late file was ingested before */
	int writer_waits, parser_waits;   /* who sleeps on more / room */
	int dead;                         /* a write failed: store nothing more */
	int64_t prov;                     /* parser side: provisional ids in this file */
	struct qrec *pending;             /* parser side: power samples not queued yet */
	struct qrec *held[KEY_BATCH];     /* parser side: runs not queued yet */
	size_t nheld;
	/* the writer's backlog, pushed - stored: records queued or taken by the
	 * writer and not stored yet (it takes everything queued at once, so
	 * the queue alone says little) */
	size_t pushed;                    /* parser side: bytes of every record pushed */
	atomic_size_t stored;             /* the writer's: bytes of the records it is done with */
	int keys_here;                    /* 1 always, -1 never, 0 when behind (AB_INGEST_KEYS) */
	struct ingest_jtext jt;           /* parser side: JSON text of params and metas */
	struct strbuf prep;               /* parser side: the sink's prepare() of a run */
	const char **meta;                /* parser side: pack_run's metric meta texts, */
	char **owned;                     /* and those it dumped (freed after packing) */
	size_t capmeta;
	struct slab *cur;                 /* parser side: the slab being filled */
	struct slab *free_slabs;          /* done with by the writer (mu) */
	struct slab *all_slabs;           /* parser side: every slab made */
	struct ingest_outcome *out;       /* outcomes, file order */
	size_t nout, capout, firstout;
	size_t group_files;               /* GROUP_FILES, or AB_INGEST_GROUP (tests) */
	int final_rc;                     /* the writer's last group commit (-AB_EIO) */
	char *final_err;
};

/* ---- packing: one block per record -------------------------------------- */

/* Strings go to p, at most cap bytes of them; once they would not fit
 * (or with p NULL) only their size is counted, in need, for a block that
 * fits them all. */
struct packer {
	char *p;
	size_t need, cap;
};

/* n bytes (the sink's prepared run), copied as they are */
static inline const void *pkb(struct packer *k, const void *s, size_t n)
{
	char *d = k->p;

	k->need += n;
	if (!d)
		return NULL;
	if (k->need > k->cap) {
		k->p = NULL; /* does not fit: measure the rest */
		return NULL;
	}
	ab_copy(d, s, n); /* most strings of a run are short */
	k->p = d + n;
	return d;
}

/* a NUL-terminated string, copied with its NUL (inline: ~25 a run) */
static inline const char *pk(struct packer *k, const char *s)
{
	return s ? pkb(k, s, strlen(s) + 1) : NULL;
}

/* A packer that copies into the block at d, cap bytes. */
static struct packer packer_at(void *d, size_t cap)
{
	struct packer k = { d, 0, cap };
	return k;
}

static char *dump(struct ingest_pipe *p, json_t *j)
{
	return j ? ingest_jtext_dup(&p->jt, j) : NULL; /* json_dumps' text */
}

static void pack_system(struct packer *k, struct ingest_system *d, const struct ingest_system *s,
			const char *meta)
{
	*d = *s;
	d->name = pk(k, s->name);
	d->display_name = pk(k, s->display_name);
	d->vendor = pk(k, s->vendor);
	d->accelerator = pk(k, s->accelerator);
	d->host_cpu = pk(k, s->host_cpu);
	d->interconnect = pk(k, s->interconnect);
	d->site = pk(k, s->site);
	d->meta = NULL;
	d->meta_json = pk(k, meta);
}

static struct qrec *qrec_new(size_t extra, size_t strings)
{
	struct qrec *q = ab_malloc(sizeof(*q) + extra + strings);

	memset(q, 0, sizeof(*q));
	q->bytes = sizeof(*q) + extra + strings;
	return q; /* q->slab NULL: malloc'ed */
}

/* A new current slab: one the writer gave back, else a new one. */
static struct slab *slab_next(struct ingest_pipe *p)
{
	struct slab *sl;

	pthread_mutex_lock(&p->mu);
	sl = p->free_slabs;
	if (sl)
		p->free_slabs = sl->next;
	pthread_mutex_unlock(&p->mu);
	if (!sl) {
		sl = ab_malloc(sizeof(*sl) + SLAB);
		sl->all = p->all_slabs;
		p->all_slabs = sl;
	}
	sl->used = 0;
	p->cur = sl;
	return sl;
}

/* A run record of n bytes: from the current slab, else a new current
 * slab; malloc'ed when it would fill a quarter slab.  Only next, slab and
 * bytes are set. */
static struct qrec *slab_rec(struct ingest_pipe *p, size_t n)
{
	struct slab *sl = p->cur;
	struct qrec *q;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (n > SLAB / 4) {
		q = ab_malloc(n);
		q->slab = NULL;
		q->next = NULL;
		q->bytes = n;
		return q;
	}
	if (!sl || sl->used + n > SLAB)
		sl = slab_next(p);
	q = (struct qrec *)(void *)((char *)sl->mem + sl->used);
	sl->used += n;
	q->slab = sl;
	q->next = NULL;
	q->bytes = n;
	return q;
}

/* The writer is done with slab sl (NULL: nothing). */
static void slab_done(struct ingest_pipe *p, struct slab *sl)
{
	if (!sl)
		return;
	pthread_mutex_lock(&p->mu);
	sl->next = p->free_slabs;
	p->free_slabs = sl;
	pthread_mutex_unlock(&p->mu);
}

/* Run r into d, its strings through k; its metrics into m[] and their
 * meta texts into mj[] (both NULL: only measuring). */
static void fill_run(struct ingest_pipe *p, struct ingest_run *d, const struct ingest_run *r,
		     struct packer *k, struct ingest_metric *m, const char **mj, int prepared,
		     const char *params, const char *sysmeta)
{
	size_t i;

	*d = *r;
	d->suite = pk(k, r->suite);
	d->benchmark = pk(k, r->benchmark);
	d->bench_metric = pk(k, r->bench_metric);
	d->bench_unit = pk(k, r->bench_unit);
	d->job_id = pk(k, r->job_id);
	d->started = pk(k, r->started);
	d->finished = pk(k, r->finished);
	d->precision = pk(k, r->precision);
	d->framework = pk(k, r->framework);
	d->excluded_reason = pk(k, r->excluded_reason);
	d->dedupe_key = pk(k, r->dedupe_key);
	d->params = NULL;
	d->params_pair_ends = NULL; /* the parser's memory: not packed */
	d->params_npairs = 0;
	d->params_json = prepared ? NULL : pk(k, r->params_json ? r->params_json : params);
	d->prepared = prepared ? pkb(k, p->prep.buf, p->prep.len) : NULL;
	d->prepared_len = prepared ? p->prep.len : 0;
	pack_system(k, &d->system, &r->system, r->system.meta_json ? r->system.meta_json : sysmeta);
	for (i = 0; i < r->nmetrics; i++) {
		const char *name = pk(k, r->metrics[i].name);
		const char *unit = pk(k, r->metrics[i].unit);
		const char *mt = pk(k, p->meta[i]);

		if (m) {
			m[i].name = name;
			m[i].value = r->metrics[i].value;
			m[i].unit = unit;
			m[i].meta = NULL;
			mj[i] = mt;
		}
	}
	d->metrics = m;
	d->metrics_meta_json = mj;
}

/* Records that leave less than this in their slab start a new one. */
#define PACK_MIN 1024

/*
 * A run as a record: in the current slab's free space in one pass when it
 * fits there (nearly always), else measured (the pass that found it did
 * not fit, or a pass of its own for a run too large for a slab) and then
 * copied into a block cut for it.
 */
static struct qrec *pack_run(struct ingest_pipe *p, const struct ingest_run *r)
{
	/* the sink's own share of the run, done here on the parsing thread;
	 * params then travel only inside what it prepared */
	int prepared = p->sink->prepare != NULL;
	char *params = r->params_json || prepared ? NULL : dump(p, r->params);
	char *sysmeta = r->system.meta_json ? NULL : dump(p, r->system.meta);
	/* struct ingest_metric and pointers are aligned like the struct */
	size_t extra = (r->nmetrics * (sizeof(struct ingest_metric) + sizeof(char *)) + 15) &
		       ~(size_t)15;
	size_t head = sizeof(struct qrec) + extra, n, i;
	struct packer k = packer_at(NULL, 0);
	struct slab *sl = p->cur;
	struct qrec *q = NULL; /* set when k.p is */

	if (prepared) {
		strbuf_reset(&p->prep);
		p->sink->prepare(p->sink->self, r, &p->prep);
	}
	if (r->nmetrics > p->capmeta) {
		p->capmeta = r->nmetrics;
		p->meta = ab_realloc(p->meta, p->capmeta * sizeof(*p->meta));
		p->owned = ab_realloc(p->owned, p->capmeta * sizeof(*p->owned));
	}
	/* metric meta as JSON text: packed as the parser gave it, else dumped */
	for (i = 0; i < r->nmetrics; i++) {
		p->owned[i] = r->metrics_meta_json && r->metrics_meta_json[i] ?
				      NULL :
				      dump(p, r->metrics[i].meta);
		p->meta[i] = p->owned[i] ? p->owned[i] :
			     r->metrics_meta_json ? r->metrics_meta_json[i] : NULL;
	}
	if (head + PACK_MIN <= SLAB / 4) {
		if (!sl || SLAB - sl->used < head + PACK_MIN)
			sl = slab_next(p);
		q = (struct qrec *)(void *)((char *)sl->mem + sl->used);
		k = packer_at((char *)q + head, SLAB - sl->used - head);
		fill_run(p, &q->run, r, &k, (struct ingest_metric *)(void *)(q + 1),
			 (const char **)(void *)((struct ingest_metric *)(void *)(q + 1) +
						 r->nmetrics),
			 prepared, params, sysmeta);
	} else {
		struct ingest_run tmp;

		fill_run(p, &tmp, r, &k, NULL, NULL, prepared, params, sysmeta);
	}
	if (k.p) {
		/* it fit: the record is the slab's next */
		n = (head + k.need + sizeof(max_align_t) - 1) / sizeof(max_align_t) *
		    sizeof(max_align_t);
		sl->used += n;
		q->slab = sl;
		q->next = NULL;
		q->bytes = n;
	} else {
		struct ingest_metric *m;

		q = slab_rec(p, head + k.need);
		m = (struct ingest_metric *)(void *)(q + 1);
		k = packer_at((char *)q + head, k.need);
		fill_run(p, &q->run, r, &k, m, (const char **)(void *)(m + r->nmetrics), prepared,
			 params, sysmeta);
	}
	for (i = 0; i < r->nmetrics; i++)
		free(p->owned[i]);
	free(params);
	free(sysmeta);
	q->kind = Q_RUN;
	q->keyed = 0;
	return q;
}

/* A record nobody will read: a slab's records go with their slab. */
static void qrec_free(struct qrec *q)
{
	size_t i;

	if (q->slab)
		return;
	if (q->kind == Q_POWER) {
		for (i = 0; i < q->ndev; i++)
			free(q->devices[i]);
		free(q->pw);
	}
	free(q);
}

/* The writer is done with q; *last: the slab of the slab record before. */
static void qrec_done(struct ingest_pipe *p, struct qrec *q, struct slab **last)
{
	if (q->slab && q->slab != *last) {
		/* records come in the order they were cut: the slab before is done */
		slab_done(p, *last);
		*last = q->slab;
	}
	qrec_free(q);
}

/* ---- the queue ----------------------------------------------------------- */

/* Hand records q[0..n) to the writer (one lock for all of them);
 * -AB_EIO when the writer has failed (then none is queued). */
static int push_many(struct ingest_pipe *p, struct qrec *const q[], size_t n, struct strbuf *err)
{
	size_t i;
	int wake = 0;

	pthread_mutex_lock(&p->mu);
	while ((p->bytes >= QUEUE_BYTES || p->n >= QUEUE_MAX) && !p->dead) {
		p->parser_waits = 1;
		pthread_cond_wait(&p->room, &p->mu);
		p->parser_waits = 0;
	}
	if (p->dead && q[0]->kind != Q_END && q[0]->kind != Q_QUIT && q[0]->kind != Q_BEGIN) {
		pthread_mutex_unlock(&p->mu);
		for (i = 0; i < n; i++)
			qrec_free(q[i]);
		return ab_fail(err, AB_EIO, "the database write failed");
	}
	for (i = 0; i < n; i++) {
		p->pushed += q[i]->bytes;
		if (p->tail)
			p->tail->next = q[i];
		else
			p->head = q[i];
		p->tail = q[i];
		p->n++;
		p->bytes += q[i]->bytes;
		wake |= q[i]->kind != Q_RUN;
	}
	/* wake the writer once a batch is ready (or at a file's end) */
	if (p->writer_waits && (p->n >= QUEUE_WAKE || wake))
		pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->mu);
	return 0;
}

static int push(struct ingest_pipe *p, struct qrec *q, struct strbuf *err)
{
	return push_many(p, &q, 1, err);
}

/* Everything queued, oldest first (one lock per batch, not per record). */
static struct qrec *pop_all(struct ingest_pipe *p)
{
	struct qrec *q;

	pthread_mutex_lock(&p->mu);
	while (!p->head) {
		p->writer_waits = 1;
		pthread_cond_wait(&p->more, &p->mu);
		p->writer_waits = 0;
	}
	q = p->head;
	p->head = p->tail = NULL;
	p->n = 0;
	p->bytes = 0;
	if (p->parser_waits)
		pthread_cond_signal(&p->room);
	pthread_mutex_unlock(&p->mu);
	return q;
}

static void add_outcome(struct ingest_pipe *p, const struct ingest_outcome *o)
{
	pthread_mutex_lock(&p->mu);
	if (p->nout == p->capout) {
		p->capout = p->capout ? 2 * p->capout : 8;
		p->out = ab_realloc(p->out, p->capout * sizeof(*p->out));
	}
	p->out[p->nout++] = *o;
	if (o->status < 0)
		p->dead = 1;
	pthread_cond_broadcast(&p->done);
	pthread_cond_broadcast(&p->room);
	pthread_mutex_unlock(&p->mu);
}

/* ---- the writer ---------------------------------------------------------- */

/* The runs' dedupe keys their prepare() left pending and the parser did
 * not hash (it does when the writer is behind), hashed side by side
 * (SHA-256 lanes).  prepare_keys() touches only the prepared bytes and
 * its own key scratch (kmu), never what prepare() uses. */
static void keys(struct ingest_pipe *p, const struct ingest_run *const runs[],
		 struct qrec *const qs[], size_t n)
{
	struct ingest_sink *s = p->sink;
	const struct ingest_run *todo[RUN_MANY];
	void *prepared[RUN_MANY];
	size_t i, m = 0;

	if (!s->prepare_keys)
		return;
	for (i = 0; i < n; i++) {
		if (!runs[i]->prepared)
			return; /* run() hashes them one by one */
		if (qs[i]->keyed)
			continue;
		todo[m] = runs[i];
		/* the record's own bytes (pack_run copied them there) */
		prepared[m++] = (void *)(uintptr_t)runs[i]->prepared;
	}
	if (!m)
		return;
	pthread_mutex_lock(&p->kmu);
	s->prepare_keys(s->self, todo, prepared, m);
	pthread_mutex_unlock(&p->kmu);
}

static void *writer_main(void *arg)
{
	struct ingest_pipe *p = arg;
	struct ingest_sink *s = p->sink;
	struct ingest_outcome o;
	size_t done = 0; /* bytes of the records done with (p->stored) */
	int64_t *ids = NULL;
	size_t nids = 0, capids = 0;
	int skip = 0, bad = 0, dead = 0, rc;
	struct strbuf err = STRBUF_INIT;
	char hex[65];
	struct slab *last = NULL;
	struct qrec *batch = NULL;
	/* group commit: files stored and not committed yet, their bytes */
	int grouped = s->group && s->group(s->self, 1, &err) == 0;
	/* the file begun without its digest (sink->digest), claimed at its end */
	int deferred = 0;
	size_t late_file = 0;
	size_t gfiles = 0;
	uint64_t gbytes = 0, size = 0;

	memset(&o, 0, sizeof(o));
	for (;;) {
		struct qrec *q;
		int64_t id = 0;

		if (!batch)
			batch = pop_all(p);
		q = batch;
		batch = q->next;

		switch (q->kind) {
		case Q_QUIT:
			if (grouped && gfiles && !dead && s->group(s->self, 0, &err) < 0) {
				p->final_rc = -AB_EIO;
				p->final_err = ab_strdup(err.len ? err.buf : "database write failed");
			}
			if (grouped)
				s->group(s->self, -1, NULL);
			free(q);
			slab_done(p, last);
			free(ids);
			strbuf_release(&err);
			return NULL;
		case Q_BEGIN:
			memset(&o, 0, sizeof(o));
			strbuf_reset(&err);
			nids = 0;
			skip = bad = 0;
			deferred = 0;
			if (q->late && !dead && s->digest) {
				/* the sink may take the file without its digest (a
				 * database that held no source as the ingest began
				 * cannot know it): then it is claimed at the file's
				 * end, and the writer does not wait here for a large
				 * file's digest (the lanes hash files side by side) */
				q->src.sha256 = NULL;
				rc = s->begin(s->self, &q->src, &err);
				if (rc != 3) {
					deferred = 1;
					late_file = q->file;
					if (rc < 0)
						bad = 1;
					break;
				}
			}
			if (q->late) {
				/* parsed without its digest: wait for it here (also
				 * after a write error: the prehash keeps it until
				 * claimed) */
				rc = ingest_prehash_claim(p->ph, q->file, hex, &q->src.size, &err);
				if (rc < 0 && !dead) {
					/* unreadable after all: rejected, as the parser
					 * would have been had it waited */
					bad = 1;
					o.err = ab_strdup(err.buf);
					break;
				}
				q->src.sha256 = hex;
			}
			size = q->src.size;
			if (dead) {
				bad = 1;
				break;
			}
			rc = s->begin(s->self, &q->src, &err);
			if (rc < 0)
				bad = 1;
			else if (rc == 1)
				skip = 1;
			else if (rc == 2)
				o.replaced = 1;
			if (skip && q->late) /* the parser may stop now */
				atomic_store_explicit(&p->skip_seq, q->seq, memory_order_relaxed);
			break;
		case Q_RUN:
			if (!skip && !bad && s->run_many) {
				/* this run and the runs queued right after it, at once */
				struct qrec *more[RUN_MANY];
				const struct ingest_run *runs[RUN_MANY];
				int64_t rids[RUN_MANY];
				int rcs[RUN_MANY];
				size_t nr = 1, i;

				runs[0] = &q->run;
				more[0] = q;
				while (nr < RUN_MANY && batch && batch->kind == Q_RUN) {
					more[nr] = batch;
					runs[nr++] = &batch->run;
					batch = batch->next;
				}
				keys(p, runs, more, nr);
				if (s->run_many(s->self, runs, nr, rids, rcs, &err) < 0)
					bad = 1;
				for (i = 0; i < nr; i++) {
					done += more[i]->bytes;
					if (rcs[i] == 0) {
						o.runs++;
						o.metrics += (long)runs[i]->nmetrics;
					} else if (rcs[i] == 1) {
						o.duplicates++;
					}
					if (nids == capids) {
						capids = capids ? 2 * capids : 1024;
						ids = ab_realloc(ids, capids * sizeof(*ids));
					}
					ids[nids++] = rcs[i] == 0 ? rids[i] : 0;
					/* done with in queue order (slabs) */
					qrec_done(p, more[i], &last);
				}
				atomic_store_explicit(&p->stored, done, memory_order_relaxed);
				continue; /* q is done with */
			}
			if (!skip && !bad) {
				rc = s->run(s->self, &q->run, &id, &err);
				if (rc < 0) {
					bad = 1;
					id = 0;
				} else if (rc == 1) {
					o.duplicates++;
					id = 0;
				} else {
					o.runs++;
					o.metrics += (long)q->run.nmetrics;
				}
			}
			if (nids == capids) {
				capids = capids ? 2 * capids : 1024;
				ids = ab_realloc(ids, capids * sizeof(*ids));
			}
			ids[nids++] = id;
			break;
		case Q_POWER: {
			size_t i;

			for (i = 0; i < q->npw && !skip && !bad; i++) {
				const struct qpower *w = &q->pw[i];

				if (w->prov < 1 || (size_t)w->prov > nids || !ids[w->prov - 1])
					continue;
				rc = s->power(s->self, ids[w->prov - 1], q->devices[w->dev], w->t, w->w,
					      &err);
				if (rc < 0)
					bad = 1;
				else
					o.power_samples++;
			}
			break;
		}
		case Q_SYSTEM:
			if (skip || bad || !s->system)
				break;
			rc = s->system(s->self, &q->sys, &err);
			if (rc < 0)
				bad = 1;
			else if (rc == 0)
				o.systems++;
			break;
		case Q_END:
			if (deferred) {
				/* claimed whatever happened (the prehash keeps it
				 * until then); it decides whether the file was
				 * stored before */
				uint64_t dsize = 0;

				deferred = 0;
				rc = ingest_prehash_claim(p->ph, late_file, hex, &dsize, &err);
				if (bad) {
					/* a write error: handled below */
				} else if (rc < 0) {
					/* unreadable after all: rejected, as the parser
					 * would have been had it waited */
					o.err = ab_strdup(err.buf);
					bad = 1;
					if (s->end(s->self, 0, &err) < 0) {
						free(o.err); /* a write error after all */
						o.err = NULL;
					}
				} else if ((rc = s->digest(s->self, hex, dsize, &err)) == 1) {
					if (s->end(s->self, 0, &err) < 0)
						bad = 1;
					else
						skip = 1;
				} else if (rc < 0) {
					bad = 1;
				} else {
					size = dsize;
				}
			}
			if (skip) {
				o.status = INGEST_OUT_SKIPPED;
			} else if (o.err) {
				o.status = INGEST_OUT_REJECTED; /* nothing was begun */
			} else if (bad) {
				struct strbuf e2 = STRBUF_INIT;
				s->end(s->self, 0, &e2);
				strbuf_release(&e2);
				o.status = dead ? INGEST_OUT_ROLLED_BACK : -AB_EIO;
				dead = 1;
			} else if (!q->commit) {
				rc = s->end(s->self, 0, &err);
				o.status = rc < 0 ? -AB_EIO : INGEST_OUT_ROLLED_BACK;
			} else {
				rc = s->end(s->self, 1, &err);
				o.status = rc < 0 ? -AB_EIO : INGEST_OUT_INGESTED;
				if (rc == 0 && grouped && (++gfiles >= p->group_files ||
							   (gbytes += size) >= GROUP_BYTES)) {
					gfiles = 0;
					gbytes = 0;
					if (s->group(s->self, 0, &err) < 0)
						o.status = -AB_EIO;
				}
			}
			if (o.status < 0) {
				/* the files of the group go with it (ingest.c
				 * counts them out again) */
				if (grouped)
					s->group(s->self, -1, NULL);
				grouped = 0;
				gfiles = 0;
				dead = 1;
				o.err = ab_strdup(err.len ? err.buf : "database write failed");
			}
			o.committed = !gfiles;
			add_outcome(p, &o);
			memset(&o, 0, sizeof(o));
			break;
		}
		done += q->bytes;
		atomic_store_explicit(&p->stored, done, memory_order_relaxed);
		qrec_done(p, q, &last);
	}
}

/* ---- the parser's sink ----------------------------------------------------- */

static int q_begin(void *self, const struct ingest_source *src, struct strbuf *err)
{
	(void)self; (void)src; (void)err;
	return 0; /* ingest_pipe_begin() does it */
}

/* Queue the runs held back, at once; their keys hashed here first when
 * the writer is behind (more than KEYS_HERE bytes it has not stored yet),
 * else by the writer. */
static int flush_runs(struct ingest_pipe *p, struct strbuf *err)
{
	const struct ingest_run *runs[KEY_BATCH];
	void *prepared[KEY_BATCH];
	size_t i, n = p->nheld;

	if (!n)
		return 0;
	p->nheld = 0;
	if (p->keys_here > 0 ||
	    (!p->keys_here &&
	     p->pushed - atomic_load_explicit(&p->stored, memory_order_relaxed) > KEYS_HERE)) {
		for (i = 0; i < n; i++) {
			runs[i] = &p->held[i]->run;
			/* the block's own bytes (pack_run copied them there) */
			prepared[i] = (void *)(uintptr_t)p->held[i]->run.prepared;
			p->held[i]->keyed = 1;
		}
		pthread_mutex_lock(&p->kmu);
		p->sink->prepare_keys(p->sink->self, runs, prepared, n);
		pthread_mutex_unlock(&p->kmu);
	}
	return push_many(p, p->held, n, err);
}

/* Queue the runs held and the power samples gathered so far (before any
 * other record, so the writer sees everything in the parser's order). */
static int flush_power(struct ingest_pipe *p, struct strbuf *err)
{
	struct qrec *q = p->pending;
	int rc = flush_runs(p, err);

	p->pending = NULL;
	if (rc < 0) {
		if (q)
			qrec_free(q);
		return rc;
	}
	return q ? push(p, q, err) : 0;
}

/* The writer found the late file being parsed ingested before: nothing of
 * it is stored, the parser can stop (ingest.c reports it skipped). */
static int stop_skipped(struct strbuf *err)
{
	return ab_fail(err, AB_EIO, "already ingested");
}

int ingest_pipe_skipped(struct ingest_pipe *p)
{
	return p->late && atomic_load_explicit(&p->skip_seq, memory_order_relaxed) == p->seq;
}

static int q_run(void *self, const struct ingest_run *r, int64_t *run_id, struct strbuf *err)
{
	struct ingest_pipe *p = self;
	struct qrec *q;
	int rc;

	if (ingest_pipe_skipped(p)) {
		*run_id = 0;
		return stop_skipped(err);
	}
	rc = p->pending ? flush_power(p, err) : 0;

	if (rc < 0) {
		*run_id = 0;
		return rc;
	}
	q = pack_run(p, r);
	if (p->sink->prepare_keys && q->run.prepared) {
		/* held until KEY_BATCH runs can be queued at once (a write
		 * error then surfaces a few runs later, the same) */
		p->held[p->nheld++] = q;
		rc = p->nheld == KEY_BATCH ? flush_runs(p, err) : 0;
	} else {
		rc = push(p, q, err);
	}

	*run_id = rc < 0 ? 0 : ++p->prov;
	return rc;
}

static int q_power(void *self, int64_t run_id, const char *device, double t, double w,
		   struct strbuf *err)
{
	struct ingest_pipe *p = self;
	struct qrec *q = p->pending;
	size_t dev;

	if (ingest_pipe_skipped(p))
		return stop_skipped(err);
	for (dev = 0; q && dev < q->ndev && strcmp(q->devices[dev], device); dev++)
		;
	if (q && (q->npw == POWER_BATCH || dev == POWER_DEVICES)) {
		int rc = flush_power(p, err);
		if (rc < 0)
			return rc;
		q = NULL;
		dev = 0;
	}
	if (!q) {
		q = p->pending = qrec_new(0, 0);
		q->kind = Q_POWER;
		q->pw = ab_malloc(POWER_BATCH * sizeof(*q->pw));
		q->bytes += POWER_BATCH * sizeof(*q->pw);
	}
	if (dev == q->ndev)
		q->devices[q->ndev++] = ab_strdup(device);
	q->pw[q->npw].prov = run_id;
	q->pw[q->npw].t = t;
	q->pw[q->npw].w = w;
	q->pw[q->npw].dev = (unsigned)dev;
	q->npw++;
	return 0;
}

static int q_system(void *self, const struct ingest_system *sys, struct strbuf *err)
{
	struct ingest_pipe *p = self;
	struct packer k = packer_at(NULL, 0);
	int rc = flush_power(p, err);

	if (rc < 0)
		return rc;
	char *meta = sys->meta_json ? NULL : dump(p, sys->meta);
	const char *m = sys->meta_json ? sys->meta_json : meta;
	struct ingest_system tmp;
	struct qrec *q;

	pack_system(&k, &tmp, sys, m);
	q = qrec_new(0, k.need);
	k = packer_at(q + 1, k.need);
	q->kind = Q_SYSTEM;
	pack_system(&k, &q->sys, sys, m);
	free(meta);
	return push(p, q, err);
}

static int q_end(void *self, int commit, struct strbuf *err)
{
	(void)self; (void)commit; (void)err;
	return 0; /* ingest_pipe_end() does it */
}

/* ---- the interface for ingest.c ---------------------------------------------- */

struct ingest_pipe *ingest_pipe_start(struct ingest_sink *sink, struct ingest_prehash *ph)
{
	struct ingest_pipe *p = ab_calloc(1, sizeof(*p));
	const char *g = getenv("AB_INGEST_GROUP");
	char *end;
	long n;

	/* AB_INGEST_GROUP=N: N files to a commit (1: one each), for tests */
	n = g ? strtol(g, &end, 10) : 0;
	p->group_files = g && *g && !*end && n >= 1 && n <= 1000000 ? (size_t)n : GROUP_FILES;
	p->sink = sink;
	p->ph = ph;
	atomic_init(&p->skip_seq, 0);
	atomic_init(&p->stored, 0);
	ingest_jtext_init(&p->jt);
	strbuf_init(&p->prep, 0);
	/* tests: AB_INGEST_KEYS=parser or writer: that thread hashes them all */
	const char *t = getenv("AB_INGEST_KEYS");
	p->keys_here = !t ? 0 : !strcmp(t, "parser") ? 1 : !strcmp(t, "writer") ? -1 : 0;
	p->qsink.self = p;
	p->qsink.begin = q_begin;
	p->qsink.run = q_run;
	p->qsink.power = q_power;
	p->qsink.system = q_system;
	p->qsink.end = q_end;
	pthread_mutex_init(&p->mu, NULL);
	pthread_mutex_init(&p->kmu, NULL);
	pthread_cond_init(&p->more, NULL);
	pthread_cond_init(&p->room, NULL);
	pthread_cond_init(&p->done, NULL);
	if (pthread_create(&p->writer, NULL, writer_main, p) != 0) {
		pthread_mutex_destroy(&p->mu);
		pthread_mutex_destroy(&p->kmu);
		pthread_cond_destroy(&p->more);
		pthread_cond_destroy(&p->room);
		pthread_cond_destroy(&p->done);
		free(p);
		return NULL; /* the caller ingests without the pipeline */
	}
	return p;
}

struct ingest_sink *ingest_pipe_sink(struct ingest_pipe *p)
{
	return &p->qsink;
}

int ingest_pipe_begin(struct ingest_pipe *p, const struct ingest_source *src, size_t late,
		      struct strbuf *err)
{
	struct packer k = packer_at(NULL, 0);
	struct ingest_source tmp;
	struct qrec *q = NULL; /* set by pass 1; gcc -O2 with ASan cannot tell */
	int pass;

	for (pass = 0; pass < 2; pass++) {
		struct ingest_source *d = &tmp;
		if (pass == 1) {
			q = qrec_new(0, k.need);
			k = packer_at(q + 1, k.need);
			d = &q->src;
		}
		*d = *src;
		d->path = pk(&k, src->path);
		d->sha256 = pk(&k, src->sha256);
		d->format = pk(&k, src->format);
		d->identity = pk(&k, src->identity);
		d->ingested_at = pk(&k, src->ingested_at);
		d->tool_version = pk(&k, src->tool_version);
	}
	q->kind = Q_BEGIN;
	q->late = late != SIZE_MAX;
	q->file = late;
	if (++p->seq == 0) /* 0: no file */
		p->seq = 1;
	q->seq = p->seq;
	p->late = q->late;
	if (q->late)
		ingest_prehash_defer(p->ph, late);
	p->prov = 0;
	return push(p, q, err);
}

int ingest_pipe_end(struct ingest_pipe *p, int commit)
{
	struct qrec *q;
	struct strbuf err = STRBUF_INIT;
	int rc;

	if (p->pending && !commit) {
		qrec_free(p->pending); /* rolled back anyway */
		p->pending = NULL;
	}
	flush_power(p, &err);
	q = qrec_new(0, 0);
	q->kind = Q_END;
	q->commit = commit;
	rc = push(p, q, &err);
	strbuf_release(&err);
	return rc;
}

void ingest_pipe_outcome(struct ingest_pipe *p, struct ingest_outcome *o)
{
	pthread_mutex_lock(&p->mu);
	while (p->firstout == p->nout)
		pthread_cond_wait(&p->done, &p->mu);
	*o = p->out[p->firstout++];
	if (p->firstout == p->nout)
		p->firstout = p->nout = 0;
	pthread_mutex_unlock(&p->mu);
}

int ingest_pipe_finish(struct ingest_pipe *p, struct strbuf *ferr)
{
	struct qrec *q;
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int rc;

	if (!p)
		return 0;
	if (p->pending) /* a file that never ended: nothing of it is stored */
		qrec_free(p->pending);
	for (i = 0; i < p->nheld; i++)
		qrec_free(p->held[i]);
	p->nheld = 0;
	q = qrec_new(0, 0);
	q->kind = Q_QUIT;
	push(p, q, &err);
	strbuf_release(&err);
	pthread_join(p->writer, NULL);
	while (p->all_slabs) {
		struct slab *sl = p->all_slabs;
		p->all_slabs = sl->all;
		free(sl);
	}
	for (i = p->firstout; i < p->nout; i++)
		free(p->out[i].err);
	free(p->out);
	strbuf_release(&p->prep);
	free(p->meta);
	free(p->owned);
	pthread_mutex_destroy(&p->mu);
	pthread_mutex_destroy(&p->kmu);
	pthread_cond_destroy(&p->more);
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->done);
	rc = p->final_rc;
	if (rc < 0) {
		strbuf_reset(ferr);
		strbuf_addstr(ferr, p->final_err);
	}
	free(p->final_err);
	free(p);
	return rc;
}
