/*
 * ingest.c - the driver: walk paths, hash, detect, parse one file at a
 * time inside one sink transaction, and report what happened.
 */
#include "core/compat.h"
#include "ingest_priv.h"
#include "prehash.h"

#include <dirent.h>
#include <sys/stat.h>

struct file_list {
	char **v;
	size_t n, cap;
};

static void list_add(struct file_list *l, const char *path)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = ab_realloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = ab_strdup(path);
}

static void list_free(struct file_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void notify(const struct ingest_opts *o, enum ingest_event ev, const char *path,
		   const char *msg, const struct ingest_totals *t)
{
	if (o->notify)
		o->notify(o->notify_ctx, ev, path, msg, t);
}

/* Depth-first, entries sorted byte-wise, so the order never depends on the
 * file system or the locale. */
#define INGEST_MAX_DEPTH 64

/* A subtree that cannot be walked is skipped with a warning; the rest of
 * the walk goes on (only the directory named on the command line is an
 * error when it cannot be opened). */
static void walk_skip(const struct ingest_opts *o, struct ingest_totals *t, const char *dir,
		      const char *why)
{
	struct strbuf msg = STRBUF_INIT;

	strbuf_addf(&msg, "%s: %s; its files are skipped", dir, why);
	t->warnings++;
	notify(o, INGEST_EV_WARNING, dir, msg.buf, t);
	strbuf_release(&msg);
}

static int walk(const char *dir, struct file_list *out, int depth, const struct ingest_opts *o,
		struct ingest_totals *t, struct strbuf *err)
{
	DIR *d;
	struct dirent *de;
	struct file_list names = { 0 };
	struct strbuf path = STRBUF_INIT;
	size_t i;
	int rc = 0;

	if (depth > INGEST_MAX_DEPTH) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "directories nested deeper than %d levels", INGEST_MAX_DEPTH);
		walk_skip(o, t, dir, why.buf);
		strbuf_release(&why);
		return 0;
	}
	d = opendir(dir);
	if (!d && depth == 0)
		return ab_fail(err, AB_EIO, "cannot open directory '%s': %s", dir, strerror(errno));
	if (!d) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "cannot open directory: %s", strerror(errno));
		walk_skip(o, t, dir, why.buf);
		strbuf_release(&why);
		return 0;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			list_add(&names, de->d_name);
	closedir(d);
	if (names.n) /* qsort(NULL, 0, ...) is undefined */
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (i = 0; i < names.n && !rc; i++) {
		struct stat st, lst;

		strbuf_reset(&path);
		strbuf_addstr(&path, dir);
		if (path.len && path.buf[path.len - 1] != '/')
			strbuf_addch(&path, '/');
		strbuf_addstr(&path, names.v[i]);
		if (stat(path.buf, &st) < 0 || lstat(path.buf, &lst) < 0)
			continue; /* dangling symlink: nothing to read */
		/* JUBE links work directories into each other (work/benchmark ->
		 * ../../<wp>_benchmark/work): following them would read every
		 * file twice, and a link loop would never end. */
		if (S_ISDIR(st.st_mode) && S_ISLNK(lst.st_mode))
			continue;
		if (S_ISDIR(st.st_mode))
			rc = walk(path.buf, out, depth + 1, o, t, err);
		else if (S_ISREG(st.st_mode))
			list_add(out, path.buf);
	}
	strbuf_release(&path);
	list_free(&names);
	return rc;
}


/* ---- what parsers keep across files ------------------------------------ */

#define MEMO_JSON_MAX 64

struct memo_json {
	char *path;
	struct stat st;
	json_t *j;
	char *text;
};
struct ingest_memo {
	struct memo_json v[MEMO_JSON_MAX];
	size_t n, next;                   /* next: the slot replaced when full */
	struct ingest_jtext jt;
};

struct ingest_memo *ingest_memo_new(void)
{
	struct ingest_memo *m = ab_calloc(1, sizeof(*m));

	ingest_jtext_init(&m->jt);
	return m;
}

void ingest_memo_free(struct ingest_memo *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++) {
		free(m->v[i].path);
		json_decref(m->v[i].j);
		free(m->v[i].text);
	}
	free(m);
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

json_t *ingest_memo_json(struct ingest_file *f, const char *path, const char **text)
{
	struct ingest_memo *m = f->memo;
	struct stat st;
	size_t i;

	*text = NULL;
	if (!m)
		return NULL;
	for (i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].path, path))
			break;
	if (i == m->n || stat(path, &st) < 0 || !same_file(&st, &m->v[i].st))
		return NULL;
	*text = m->v[i].text;
	return json_incref(m->v[i].j);
}

const char *ingest_memo_json_put(struct ingest_file *f, const char *path, json_t *j)
{
	struct ingest_memo *m = f->memo;
	struct memo_json *e;
	struct stat st;
	size_t i;

	if (!m || stat(path, &st) < 0)
		return NULL;
	for (i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].path, path))
			break;
	if (i == m->n && m->n < MEMO_JSON_MAX) {
		i = m->n++;
	} else if (i == m->n) {
		i = m->next;
		m->next = (m->next + 1) % MEMO_JSON_MAX;
	}
	e = &m->v[i];
	if (e->path) {
		free(e->path);
		json_decref(e->j);
		free(e->text);
	}
	e->path = ab_strdup(path);
	e->st = st;
	e->j = json_incref(j);
	/* the pipeline's and the sink's dump of the same object */
	e->text = ingest_jtext_dup(&m->jt, j);
	return e->text;
}

/* Events held back while the pipeline's writer finishes the previous file. */
struct ingest_event_rec {
	enum ingest_event ev;
	char *path, *msg;
};
struct ingest_events {
	struct ingest_event_rec *v;
	size_t n, cap;
};

static void emit(const struct ingest_opts *o, struct ingest_events *evs, enum ingest_event ev,
		 const char *path, const char *msg, const struct ingest_totals *t)
{
	if (!evs) {
		notify(o, ev, path, msg, t);
		return;
	}
	if (evs->n == evs->cap) {
		evs->cap = evs->cap ? 2 * evs->cap : 16;
		evs->v = ab_realloc(evs->v, evs->cap * sizeof(*evs->v));
	}
	evs->v[evs->n].ev = ev;
	evs->v[evs->n].path = ab_strdup(path);
	evs->v[evs->n].msg = msg ? ab_strdup(msg) : NULL;
	evs->n++;
}

static void flush_events(const struct ingest_opts *o, struct ingest_events *evs,
			 const struct ingest_totals *t)
{
	size_t i;

	for (i = 0; i < evs->n; i++) {
		notify(o, evs->v[i].ev, evs->v[i].path, evs->v[i].msg, t);
		free(evs->v[i].path);
		free(evs->v[i].msg);
	}
	evs->n = 0;
}

int ingest_emit_run(struct ingest_file *f, const struct ingest_run *run, int64_t *run_id,
		    struct strbuf *err)
{
	int64_t dummy;
	int rc;

	if (f->opts && f->opts->provenance) {
		/* a runner ran this: what it knows travels with every run */
		struct ingest_run r = *run;
		r.params = run->params_json ? json_loads(run->params_json, 0, NULL)
			   : run->params ? json_deep_copy(run->params) : NULL;
		if (!r.params)
			r.params = json_object();
		r.params_json = NULL;
		json_object_set(r.params, "provenance", f->opts->provenance);
		rc = f->sink->run(f->sink->self, &r, run_id ? run_id : &dummy, err);
		json_decref(r.params);
	} else {
		rc = f->sink->run(f->sink->self, run, run_id ? run_id : &dummy, err);
	}
	if (rc < 0 || f->deferred) /* the pipeline's writer counts */
		return rc < 0 ? rc : 0;
	if (rc == 1) {
		f->totals->duplicates++;
		return 1;
	}
	f->totals->runs++;
	f->totals->metrics += (long)run->nmetrics;
	return 0;
}

int ingest_emit_system(struct ingest_file *f, const struct ingest_system *sys, struct strbuf *err)
{
	int rc = f->sink->system ? f->sink->system(f->sink->self, sys, err) : 0;

	if (rc == 0 && !f->deferred)
		f->totals->systems++;
	return rc;
}

int ingest_emit_power(struct ingest_file *f, int64_t run_id, const char *device, double t,
		      double watts, struct strbuf *err)
{
	int rc = f->sink->power(f->sink->self, run_id, device, t, watts, err);

	if (rc == 0 && !f->deferred)
		f->totals->power_samples++;
	return rc;
}

void ingest_warn(struct ingest_file *f, long line, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	if (line > 0)
		strbuf_addf(&msg, "%s:%ld: ", f->path, line);
	else
		strbuf_addf(&msg, "%s: ", f->path);
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	f->totals->warnings++;
	emit(f->opts, f->events, INGEST_EV_WARNING, f->path, msg.buf, f->totals);
	strbuf_release(&msg);
}

int ingest_fail_at(struct ingest_file *f, struct strbuf *err, long line, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(err);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	ab_error_prefix(err, f->path, line);
	return -AB_EDATA;
}

/* Hash the whole file (streaming) and keep its first bytes for detection. */
static int hash_file(FILE *fp, const char *path, const struct sha256 *fresh, char hex[65],
		     unsigned char *head, size_t *head_len, uint64_t *size, struct strbuf *err)
{
	unsigned char buf[65536], digest[32];
	struct sha256 c;
	size_t n;

	c = *fresh; /* sha256_init() probes the CPU: slow under virtualisation */
	*head_len = 0;
	*size = 0;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0) {
		if (*head_len < INGEST_HEAD_MAX) {
			size_t take = INGEST_HEAD_MAX - *head_len < n ? INGEST_HEAD_MAX - *head_len : n;
			memcpy(head + *head_len, buf, take);
			*head_len += take;
		}
		sha256_update(&c, buf, n);
		*size += n;
	}
	if (ferror(fp))
		return ab_fail(err, AB_EIO, "cannot read '%s': %s", path, strerror(errno));
	sha256_final(&c, digest);
	sha256_hex(digest, hex);
	rewind(fp);
	return 0;
}

/* The first bytes for detection, the digest and size known (prehash.c). */
static int read_head(FILE *fp, const char *path, unsigned char *head, size_t *head_len,
		     struct strbuf *err)
{
	*head_len = fread(head, 1, INGEST_HEAD_MAX, fp);
	if (ferror(fp))
		return ab_fail(err, AB_EIO, "cannot read '%s': %s", path, strerror(errno));
	rewind(fp);
	return 0;
}

static void summary(struct strbuf *msg, const struct ingest_totals *before,
		    const struct ingest_totals *after)
{
	strbuf_reset(msg);
	strbuf_addf(msg, "%ld runs, %ld metrics", after->runs - before->runs,
		    after->metrics - before->metrics);
	if (after->power_samples != before->power_samples)
		strbuf_addf(msg, ", %ld power samples", after->power_samples - before->power_samples);
	if (after->duplicates != before->duplicates)
		strbuf_addf(msg, ", %ld duplicate runs skipped", after->duplicates - before->duplicates);
}

/*
 * The identity of a file in a results layout: its path from the submitter
 * folder down (.../<submitter>/results/<system>/<model>/...), with the
 * division folder in front when there is one.  The same round ingested
 * from another place (a copy, an absolute path) keeps its identity; the
 * same bytes filed under <model>-99 and <model>-99.9 are two results.
 * Without a "results" folder the whole path (normalised) is the identity.
 */
static void ingest_identity(const char *path, struct strbuf *out)
{
	static const char *const divisions[] = { "closed", "open", "network", "preview" };
	const char *comp[256];
	size_t len[256], n = 0, i, start = 0, k;
	const char *p = path;

	strbuf_reset(out);
	while (*p && n < AB_ARRAY_SIZE(comp)) {
		size_t l = strcspn(p, "/");
		if (l && !(l == 1 && p[0] == '.')) {
			comp[n] = p;
			len[n++] = l;
		}
		p += l;
		while (*p == '/')
			p++;
	}
	for (i = n; i-- > 1;)
		if (len[i] == 7 && !strncmp(comp[i], "results", 7)) {
			start = i - 1;
			for (k = 0; start > 0 && k < AB_ARRAY_SIZE(divisions); k++)
				if (len[start - 1] == strlen(divisions[k]) &&
				    !strncmp(comp[start - 1], divisions[k], len[start - 1])) {
					start--;
					break;
				}
			break;
		}
	for (i = start; i < n; i++)
		strbuf_addf(out, "%s%.*s", i > start ? "/" : "", (int)len[i], comp[i]);
}

/*
 * One file, one transaction.  Returns 0 (ingested, skipped, ignored),
 * -AB_EDATA (rejected; err holds the message) or -AB_EIO.
 */
static int ingest_one_at(const char *path, int explicit_file, const struct ingest_opts *opts,
			 struct ingest_sink *sink, struct ingest_totals *totals,
			 unsigned char *headbuf, const struct sha256 *fresh,
			 struct ingest_prehash *ph, size_t idx, struct strbuf *err,
			 struct ingest_pipe *pipe, struct ingest_events *evs, int *inflight,
			 int *late_out, unsigned char **data, struct ingest_memo *memo)
{
	const unsigned char *head = headbuf;
	struct ingest_file f = { 0 };
	struct ingest_source src = { 0 };
	struct ingest_totals before = *totals;
	struct strbuf msg = STRBUF_INIT, ident = STRBUF_INIT;
	const struct ingest_format *fmt;
	char hex[65];
	size_t head_len;
	uint64_t size;
	size_t late = SIZE_MAX;
	FILE *fp;
	int rc, pre, score = 0;

	totals->files_seen++;
	/* with the pipeline, a digest not there yet is not waited for: the
	 * writer waits for it instead, while this file is parsed */
	pre = pipe ? ingest_prehash_try(ph, idx, hex, &size, data)
		   : ingest_prehash_get(ph, idx, hex, &size, data);
	/* read whole with its digest: parsers read those bytes, the file is
	 * not opened again (an empty one is: a memory stream needs a byte) */
	fp = pre == 0 && *data && size ? fmemopen(*data, (size_t)size, "rb") : NULL;
	if (fp) {
		head = *data;
		head_len = size < INGEST_HEAD_MAX ? (size_t)size : INGEST_HEAD_MAX;
		rc = 0;
	} else {
		fp = ab_fopen_input(path, err); /* never blocks on a FIFO or reads a device */
		if (!fp) {
			rc = -AB_EDATA;
			goto rejected;
		}
		if (pre == 0 && *data) {
			head = *data;
			head_len = size < INGEST_HEAD_MAX ? (size_t)size : INGEST_HEAD_MAX;
			rc = 0;
		} else if (pre == 0) {
			rc = read_head(fp, path, headbuf, &head_len, err);
		} else if (pre == 1 || pre == 2) {
			/* not hashed ahead (a likely companion): detection first,
			 * the digest only if the file is stored after all; or
			 * not hashed yet (2): its size for now */
			struct stat st;
			rc = read_head(fp, path, headbuf, &head_len, err);
			size = rc == 0 && fstat(fileno(fp), &st) == 0 ? (uint64_t)st.st_size : 0;
		} else {
			rc = hash_file(fp, path, fresh, hex, headbuf, &head_len, &size, err);
		}
	}
	if (rc < 0) {
		fclose(fp);
		goto rejected;
	}
	if (opts->format) {
		fmt = ingest_format_find(opts->format);
		if (!fmt) {
			fclose(fp);
			return ab_fail(err, AB_EINTERNAL, "unknown format '%s'", opts->format);
		}
	} else {
		fmt = ingest_detect(path, head, head_len, &score);
		/* a file named with --perflog-format is a perflog wherever it is */
		if (explicit_file && opts->perflog_format && *opts->perflog_format &&
		    (!fmt || strncmp(fmt->name, "reframe-", 8)))
			fmt = ingest_format_find("reframe-perflog");
	}
	if (pre == 1 && !(fmt && (fmt->flags & FMT_COMPANION) && !explicit_file && !opts->format)) {
		rc = hash_file(fp, path, fresh, hex, headbuf, &head_len, &size, err);
		if (rc < 0) {
			fclose(fp);
			goto rejected;
		}
	}
	if (!fmt) {
		fclose(fp);
		totals->bytes_done += size;
		if (!explicit_file) {
			totals->unknown++;
			emit(opts, evs, INGEST_EV_UNKNOWN, path, "format not recognised", totals);
			return 0;
		}
		if (size == 0)
			rc = ab_fail(err, AB_EDATA, "%s: empty file", path);
		else if (ingest_looks_binary(head, head_len))
			rc = ab_fail(err, AB_EDATA, "%s: binary data, not a benchmark result", path);
		else
			rc = ab_fail(err, AB_EDATA, "%s: format not recognised (use --format)", path);
		goto rejected;
	}
	if ((fmt->flags & FMT_COMPANION) && !explicit_file && !opts->format) {
		fclose(fp);
		totals->bytes_done += size;
		totals->companion++;
		emit(opts, evs, INGEST_EV_COMPANION, path, fmt->name, totals);
		return 0;
	}
	if (pre == 2) {
		/* the digest may have come meanwhile */
		unsigned char *d2 = NULL;
		uint64_t hsize;

		pre = ingest_prehash_try(ph, idx, hex, &hsize, &d2);
		ingest_prehash_release(ph, d2); /* the file is open: read from there */
		if (pre == 0) {
			size = hsize;
		} else if (pre == 2) {
			late = idx;
		} else {
			rc = hash_file(fp, path, fresh, hex, headbuf, &head_len, &size, err);
			if (rc < 0) {
				fclose(fp);
				goto rejected;
			}
		}
	}
	src.path = path;
	src.sha256 = late == SIZE_MAX ? hex : NULL; /* late: the writer's */
	src.format = fmt->name;
	src.size = size;
	src.replace = (opts->flags & INGEST_REPLACE) != 0;
	src.identity = NULL;
	if (fmt->flags & FMT_PATH_IDENTITY) {
		ingest_identity(path, &ident);
		src.identity = ident.buf;
	}
	if (pipe) {
		/* the writer stores the file later: skip what is known now
		 * without parsing it (the writer checks again in order) */
		if (late == SIZE_MAX && !src.replace && sink->known &&
		    sink->known(sink->self, &src) == 1)
			rc = 1;
		else
			rc = ingest_pipe_begin(pipe, &src, late, err);
	} else {
		rc = sink->begin(sink->self, &src, err);
	}
	strbuf_release(&ident);
	if (rc < 0) {
		fclose(fp);
		ab_error_prefix(err, path, 0);
		return rc;
	}
	if (rc == 1) {
		fclose(fp);
		totals->bytes_done += size;
		totals->skipped++;
		emit(opts, evs, INGEST_EV_SKIPPED, path, "already ingested", totals);
		return 0;
	}
	if (rc == 2)
		totals->replaced++;
	f.path = path;
	f.fp = fp;
	f.size = size;
	f.data = *data;
	f.head = head;
	f.head_len = head_len;
	f.opts = opts;
	f.sink = sink;
	f.totals = totals;
	f.memo = memo;
	if (pipe) {
		*inflight = 1;
		*late_out = late != SIZE_MAX;
		f.sink = ingest_pipe_sink(pipe);
		f.deferred = 1;
		f.events = evs;
		rc = fmt->parse(&f, err);
		fclose(fp);
		if (*late_out && ingest_pipe_skipped(pipe)) {
			/* stopped: the writer found it ingested before (its
			 * outcome says so; what the parse said is dropped) */
			ingest_pipe_end(pipe, 0);
			totals->bytes_done += size;
			return 0;
		}
		ingest_pipe_end(pipe, rc >= 0); /* the outcome is reported later */
		if (rc < 0) {
			if (!strstr(err->buf, path))
				ab_error_prefix(err, path, 0);
			if (rc == -AB_EIO)
				return rc;
			goto rejected_noclose;
		}
		totals->bytes_done += size;
		return 0;
	}
	rc = fmt->parse(&f, err);
	fclose(fp);
	if (rc < 0) {
		struct strbuf e2 = STRBUF_INIT;
		sink->end(sink->self, 0, &e2);
		strbuf_release(&e2);
		/* counts of a rolled-back file do not count */
		before.files_seen = totals->files_seen;
		before.warnings = totals->warnings;
		*totals = before;
		if (!strstr(err->buf, path))
			ab_error_prefix(err, path, 0);
		if (rc == -AB_EIO)
			return rc;
		goto rejected_noclose;
	}
	rc = sink->end(sink->self, 1, err);
	if (rc < 0) {
		/* the COMMIT failed (a full disk): nothing of this file is stored */
		before.files_seen = totals->files_seen;
		before.warnings = totals->warnings;
		*totals = before;
		ab_error_prefix(err, path, 0);
		return rc;
	}
	totals->bytes_done += size;
	totals->ingested++;
	summary(&msg, &before, totals);
	emit(opts, evs, INGEST_EV_INGESTED, path, msg.buf, totals);
	strbuf_release(&msg);
	return 0;

rejected:
rejected_noclose:
	totals->rejected++;
	totals->bytes_done += 0;
	emit(opts, evs, INGEST_EV_REJECTED, path, err->buf, totals);
	strbuf_release(&msg);
	return -AB_EDATA;
}

static int ingest_one(const char *path, int explicit_file, const struct ingest_opts *opts,
		      struct ingest_sink *sink, struct ingest_totals *totals, unsigned char *head,
		      const struct sha256 *fresh, struct ingest_prehash *ph, size_t idx,
		      struct strbuf *err, struct ingest_pipe *pipe, struct ingest_events *evs,
		      int *inflight, int *late, struct ingest_memo *memo)
{
	unsigned char *data = NULL;
	int rc = ingest_one_at(path, explicit_file, opts, sink, totals, head, fresh, ph, idx, err,
			       pipe, evs, inflight, late, &data, memo);

	ingest_prehash_release(ph, data);
	return rc;
}

/*
 * The pipeline's writer finished a file (o): count what it stored and
 * report it as the sequential ingest would have.  Returns 0, or -AB_EIO
 * with err when the write failed.
 */
static int report_outcome(struct ingest_outcome *po, const char *path,
			  const struct ingest_opts *opts, struct ingest_totals *totals,
			  struct strbuf *err)
{
	struct ingest_totals before = *totals;
	struct ingest_outcome o = *po;
	struct strbuf msg = STRBUF_INIT;

	switch (o.status) {
	case INGEST_OUT_INGESTED:
		totals->ingested++;
		totals->runs += o.runs;
		totals->metrics += o.metrics;
		totals->power_samples += o.power_samples;
		totals->duplicates += o.duplicates;
		totals->systems += o.systems;
		totals->replaced += o.replaced;
		summary(&msg, &before, totals);
		notify(opts, INGEST_EV_INGESTED, path, msg.buf, totals);
		strbuf_release(&msg);
		return 0;
	case INGEST_OUT_SKIPPED:
		totals->skipped++;
		notify(opts, INGEST_EV_SKIPPED, path, "already ingested", totals);
		return 0;
	case INGEST_OUT_ROLLED_BACK:
		return 0;
	case INGEST_OUT_REJECTED:
		totals->rejected++;
		notify(opts, INGEST_EV_REJECTED, path, o.err, totals);
		free(o.err);
		return 0;
	default:
		strbuf_reset(err);
		strbuf_addstr(err, o.err ? o.err : "database write failed");
		free(o.err);
		if (!strstr(err->buf, path))
			ab_error_prefix(err, path, 0);
		return -AB_EIO;
	}
}

/*
 * Files parsed ahead of the writer: up to PIPE_LAG files whose outcome is
 * not reported yet, each with the events its parse gave.  Waiting for the
 * writer after every file (one file of slack) left the parser idle
 * whenever the writer took longer on a file (a WAL checkpoint's fsync, a
 * large power log): the writer's queue bounds the memory either way.
 * Everything is still reported in file order: a file's events, its
 * progress, its outcome, then the next file's.
 */
#define PIPE_LAG 32

struct pending_file {
	const char *path;
	struct ingest_events evs;
	int inflight;                     /* the writer has it: an outcome follows */
	/* parsed before its digest was known; if the writer finds it was
	 * ingested before, the parse's warnings (nwarn) and rejection (nrej)
	 * go, as the file would not have been parsed */
	int late;
	long nwarn, nrej;
};
struct pending {
	struct pending_file v[PIPE_LAG];
	size_t first, n;
	int undone;                       /* the last file reported was such a file */
	/* the totals as of the last outcome the writer had committed (with
	 * every file before it), and the first file reported ingested after
	 * it: the writer commits files in groups, and a group that fails
	 * takes its files with it (pipeline.c) */
	struct ingest_totals durable;
	const char *uncommitted;
};

/* What the files reported since the last commit added is not stored:
 * the totals say what is.  Returns how many files that were. */
static long pending_uncount(struct pending *pd, struct ingest_totals *totals)
{
	long lost = totals->ingested - pd->durable.ingested;

	totals->ingested = pd->durable.ingested;
	totals->runs = pd->durable.runs;
	totals->metrics = pd->durable.metrics;
	totals->power_samples = pd->durable.power_samples;
	totals->duplicates = pd->durable.duplicates;
	totals->systems = pd->durable.systems;
	totals->replaced = pd->durable.replaced;
	pd->uncommitted = NULL;
	return lost;
}

static void pending_push(struct pending *pd, const char *path, struct ingest_events *evs,
			 int inflight, int late, long nwarn, long nrej)
{
	struct pending_file *e = &pd->v[(pd->first + pd->n) % PIPE_LAG];

	e->path = path;
	e->evs = *evs;
	e->inflight = inflight;
	e->late = late;
	e->nwarn = nwarn;
	e->nrej = nrej;
	memset(evs, 0, sizeof(*evs));
	pd->n++;
}

static void events_free(struct ingest_events *evs)
{
	size_t i;

	for (i = 0; i < evs->n; i++) {
		free(evs->v[i].path);
		free(evs->v[i].msg);
	}
	free(evs->v);
	memset(evs, 0, sizeof(*evs));
}

static int report_outcome(struct ingest_outcome *o, const char *path,
			  const struct ingest_opts *opts, struct ingest_totals *totals,
			  struct strbuf *err);

/* Report the oldest pending file: its events, progress, outcome.  Returns
 * 0, or -AB_EIO with err when the writer failed on it. */
static int pending_pop(struct pending *pd, struct ingest_pipe *pipe,
		       const struct ingest_opts *opts, struct ingest_totals *totals,
		       struct strbuf *err)
{
	struct pending_file *e = &pd->v[pd->first];
	struct ingest_outcome o;
	int rc = 0;

	pd->undone = 0;
	if (e->inflight) {
		ingest_pipe_outcome(pipe, &o);
		/* the writer skipped it: one thread would not have parsed
		 * it (its digest came late, or a copy of the same bytes
		 * earlier in this ingest was not committed yet when the
		 * parse began) */
		if (o.status == INGEST_OUT_SKIPPED ||
		    (e->late && o.status == INGEST_OUT_REJECTED)) {
			events_free(&e->evs);
			totals->warnings -= e->nwarn;
			totals->rejected -= e->nrej;
			pd->undone = 1;
		}
	}
	flush_events(opts, &e->evs, totals);
	events_free(&e->evs);
	notify(opts, INGEST_EV_PROGRESS, e->path, NULL, totals);
	if (e->inflight) {
		int committed = o.committed;

		if (o.status == INGEST_OUT_INGESTED && !committed && !pd->uncommitted)
			pd->uncommitted = e->path;
		rc = report_outcome(&o, e->path, opts, totals, err);
		if (rc < 0) {
			long lost = pending_uncount(pd, totals);
			if (lost > 0)
				strbuf_addf(err, " (the %ld file%s stored before it since the last "
					    "commit %s lost with it)", lost, lost == 1 ? "" : "s",
					    lost == 1 ? "is" : "are");
		} else if (committed) {
			pd->durable = *totals;
			pd->uncommitted = NULL;
		}
	}
	pd->first = (pd->first + 1) % PIPE_LAG;
	pd->n--;
	return rc;
}

/* After a write error: the outcomes of the files still pending are taken
 * (the writer stored none of them) and nothing of them is reported. */
static void pending_drop(struct pending *pd, struct ingest_pipe *pipe,
			 const struct ingest_opts *opts, struct ingest_totals *totals)
{
	struct strbuf e2 = STRBUF_INIT;

	while (pd->n) {
		struct pending_file *e = &pd->v[pd->first];
		if (e->inflight) {
			struct ingest_outcome o;
			ingest_pipe_outcome(pipe, &o);
			free(o.err);
		}
		events_free(&e->evs);
		pd->first = (pd->first + 1) % PIPE_LAG;
		pd->n--;
	}
	strbuf_release(&e2);
}

/* Report pending files until at most keep are left; on a write error the
 * rest are dropped and -AB_EIO returned with err. */
static int pending_report(struct pending *pd, size_t keep, struct ingest_pipe *pipe,
			  const struct ingest_opts *opts, struct ingest_totals *totals,
			  struct strbuf *err)
{
	while (pd->n > keep) {
		int rc = pending_pop(pd, pipe, opts, totals, err);
		if (rc < 0) {
			pending_drop(pd, pipe, opts, totals);
			return rc;
		}
	}
	return 0;
}

/* Two cores when the sink can be written from a thread of its own (it
 * answers known()); AB_INGEST_THREADS=1 keeps one (for comparisons). */
static struct ingest_pipe *maybe_pipe(const struct ingest_opts *opts, struct ingest_sink *sink,
				      struct ingest_prehash *ph)
{
	const char *t = getenv("AB_INGEST_THREADS");

	if (!sink->known || (opts->flags & INGEST_DRY_RUN) || (t && !strcmp(t, "1")))
		return NULL;
	return ingest_pipe_start(sink, ph);
}

int ingest_paths(const char *const *paths, size_t npaths, const struct ingest_opts *opts,
		 struct ingest_sink *sink, struct ingest_totals *totals, struct strbuf *err)
{
	struct file_list files = { 0 };
	unsigned char *head = ab_malloc(INGEST_HEAD_MAX);
	struct ingest_events evs = { 0 };
	struct ingest_pipe *pipe = NULL;
	struct ingest_prehash *ph = NULL;
	struct pending pend = { .first = 0, .n = 0 };
	struct ingest_memo *memo = ingest_memo_new();
	struct sha256 fresh;
	char *explicit_flags, *skip = NULL;
	size_t i;
	int rc = 0, any_rejected = 0, held = 0;

	memset(totals, 0, sizeof(*totals));
	explicit_flags = NULL;
	for (i = 0; i < npaths; i++) {
		struct stat st;
		size_t before = files.n;

		if (stat(paths[i], &st) < 0) {
			rc = ab_fail(err, AB_EIO, "cannot access '%s': %s", paths[i], strerror(errno));
			goto out;
		}
		if (S_ISDIR(st.st_mode)) {
			rc = walk(paths[i], &files, 0, opts, totals, err);
			if (rc < 0)
				goto out;
		} else if (!S_ISREG(st.st_mode)) {
			rc = ab_fail(err, AB_EIO, "cannot ingest '%s': not a regular file (%s)",
				     paths[i], ab_file_kind((unsigned)st.st_mode));
			goto out;
		} else {
			list_add(&files, paths[i]);
		}
		explicit_flags = ab_realloc(explicit_flags, files.n ? files.n : 1);
		memset(explicit_flags + before, S_ISDIR(st.st_mode) ? 0 : 1, files.n - before);
	}
	for (i = 0; i < files.n; i++) {
		struct stat st;
		if (stat(files.v[i], &st) == 0)
			totals->bytes_total += (uint64_t)st.st_size;
	}
	sha256_init(&fresh);
	/* likely companions (walked, no --format) are not hashed ahead */
	skip = ab_calloc(files.n ? files.n : 1, 1);
	for (i = 0; i < files.n; i++)
		skip[i] = !explicit_flags[i] && !opts->format && ingest_maybe_companion(files.v[i]);
	ph = ingest_prehash_new(files.v, files.n, &fresh, skip);
	if (sink->hold) {
		sink->hold(sink->self, 1);
		held = 1;
	}
	pipe = maybe_pipe(opts, sink, ph);
	pend.durable = *totals;
	for (i = 0; i < files.n; i++) {
		struct strbuf ferr = STRBUF_INIT;
		int inflight = 0, late = 0;
		long w0 = totals->warnings, r0 = totals->rejected;
		int r = ingest_one(files.v[i], explicit_flags[i], opts, sink, totals, head, &fresh,
				   ph, i, &ferr, pipe, pipe ? &evs : NULL, &inflight, &late, memo);

		if (pipe) {
			/* reported in order once the writer is PIPE_LAG files behind,
			 * or at once when the walk stops here */
			int stop = r < 0 && (r != -AB_EDATA || (opts->flags & INGEST_STRICT));
			pending_push(&pend, files.v[i], &evs, inflight, late, totals->warnings - w0,
				     totals->rejected - r0);
			if (pending_report(&pend, stop ? 0 : PIPE_LAG - 1, pipe, opts, totals,
					   err) < 0) {
				/* a write error: its message wins */
				strbuf_release(&ferr);
				rc = r < 0 && r != -AB_EDATA ? r : -AB_EIO;
				goto out;
			}
			/* rejected, and ingested before after all: skipped, as
			 * without the pipeline */
			if (stop && r == -AB_EDATA && pend.undone)
				r = 0;
		} else {
			notify(opts, INGEST_EV_PROGRESS, files.v[i], NULL, totals);
		}
		if (r == -AB_EDATA) {
			any_rejected = 1;
			if (opts->flags & INGEST_STRICT) {
				strbuf_reset(err);
				strbuf_addbuf(err, &ferr);
				strbuf_release(&ferr);
				rc = -AB_EDATA;
				goto out;
			}
		} else if (r < 0) {
			strbuf_reset(err);
			strbuf_addbuf(err, &ferr);
			strbuf_release(&ferr);
			rc = r;
			goto out;
		}
		strbuf_release(&ferr);
	}
	if (pipe && pending_report(&pend, 0, pipe, opts, totals, err) < 0) {
		rc = -AB_EIO;
		goto out;
	}
	/* (a file whose late digest could not be read is rejected by its
	 * outcome; one rejected before its late digest may be skipped) */
	if (any_rejected || totals->rejected > 0)
		any_rejected = totals->rejected > 0;
	if (any_rejected)
		rc = ab_fail(err, AB_EDATA, "%ld file%s rejected", totals->rejected,
			     totals->rejected == 1 ? "" : "s");
out:
	if (pipe) /* stopped early: nothing more is reported */
		pending_drop(&pend, pipe, opts, totals);
	{
		/* the writer is done with the sink, its last group committed */
		struct strbuf ferr = STRBUF_INIT;
		const char *first = pend.uncommitted;

		if (ingest_pipe_finish(pipe, &ferr) < 0 && rc != -AB_EIO) {
			long lost = pending_uncount(&pend, totals);

			strbuf_reset(err);
			if (first && lost > 1)
				strbuf_addf(err, "%s and the %ld files after it: ", first, lost - 1);
			else if (first)
				strbuf_addf(err, "%s: ", first);
			strbuf_addf(err, "not stored: %s", ferr.buf);
			rc = -AB_EIO;
		}
		strbuf_release(&ferr);
	}
	if (held)
		sink->hold(sink->self, 0);
	ingest_prehash_free(ph);
	ingest_memo_free(memo);
	free(skip);
	for (i = 0; i < evs.n; i++) { /* not flushed: a write error ended the walk */
		free(evs.v[i].path);
		free(evs.v[i].msg);
	}
	free(evs.v);
	free(explicit_flags);
	free(head);
	list_free(&files);
	return rc;
}

/* ---- counting sink --------------------------------------------------- */

static int count_begin(void *self, const struct ingest_source *src, struct strbuf *err)
{
	return 0;
}

static int count_run(void *self, const struct ingest_run *run, int64_t *run_id,
		     struct strbuf *err)
{
	struct ingest_count_sink *cs = self;

	cs->runs++;
	cs->metrics += (long)run->nmetrics;
	*run_id = cs->runs;
	return 0;
}

static int count_power(void *self, int64_t run_id, const char *device, double t, double w,
		       struct strbuf *err)
{
	((struct ingest_count_sink *)self)->power_samples++;
	return 0;
}

static int count_end(void *self, int commit, struct strbuf *err)
{
	return 0;
}

void ingest_count_sink_init(struct ingest_count_sink *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->sink.self = cs;
	cs->sink.begin = count_begin;
	cs->sink.run = count_run;
	cs->sink.power = count_power;
	cs->sink.end = count_end;
}
