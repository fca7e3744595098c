/*
 * jpwr.c - read jpwr energy and power files (formats/caraml.md section 4)
 * for a CARAML result table and for the standalone formats (jpwr_fmt.c).
 *
 * Files (all written by pandas to_csv, index first):
 *   combined_energy.csv   ",nodename,rank,[,]pynvml:0,..." one row per rank;
 *                         the 2025 script adds an empty-named column (0)
 *   <TAG>_power.<r>.energy.csv   a Series: ",0" then "pynvml:0,<Wh>" lines,
 *                         "nodename,<host>", "rank,<r>"
 *   <TAG>_power.<r>.energy_from_counter.csv   the same without node/rank
 *   <TAG>_power.<r>.csv   ",timestamps,pynvml:0,...,nodename,rank", W at
 *                         ~10 rows/s, epoch seconds
 *   jpwr CLI: power.<host>.<pid>.csv, energy.<host>.<pid>.csv and
 *   energy_from_counter.<host>.<pid>.csv (",rocm:0" / "0,<Wh>", not
 *   transposed)
 *
 * Never double count.  Every rank of a node measures ALL devices of that
 * node, so exactly one row (the lowest rank) counts per nodename.  Of the
 * column families one is summed: pynvml (GPU) > rocm (GPU) > gc (IPU) >
 * gh:Module (GH200 superchip, which contains the GPU: never added to
 * pynvml).  The choice is the measurement boundary, "gpu" or "module",
 * recorded in the metric meta.
 *
 * Energy from power samples uses jpwr's own rule, E = sum_{i>=1} P_i
 * (t_i - t_{i-1}) / 3600, so it can be checked against jpwr's files.
 */
#include "core/compat.h"
#include "caraml_priv.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <sys/stat.h>

/* ---- column families -------------------------------------------------------- */


static int has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

enum jpwr_family jpwr_column_family(const char *name)
{
	if (has_prefix(name, "pynvml:"))
		return JPWR_PYNVML;
	if (has_prefix(name, "rocm:"))
		return JPWR_ROCM;
	if (has_prefix(name, "gc:"))
		return JPWR_GC;
	if (has_prefix(name, "gh:Module"))
		return JPWR_GH_MODULE;
	if (has_prefix(name, "gh:"))
		return JPWR_GH_OTHER;
	return JPWR_NONE;
}

static const char *fam_name(enum jpwr_family f)
{
	switch (f) {
	case JPWR_PYNVML: return "pynvml";
	case JPWR_ROCM: return "rocm";
	case JPWR_GC: return "gc";
	case JPWR_GH_MODULE: return "gh:Module";
	default: return NULL;
	}
}

static const char *fam_boundary(enum jpwr_family f)
{
	if (f == JPWR_GH_MODULE)
		return JPWR_BOUNDARY_MODULE;
	return f >= JPWR_GC ? JPWR_BOUNDARY_GPU : NULL;
}

static const char *fam_vendor(enum jpwr_family f)
{
	switch (f) {
	case JPWR_PYNVML:
	case JPWR_GH_MODULE: return "NVIDIA";
	case JPWR_ROCM: return "AMD";
	case JPWR_GC: return "Graphcore";
	default: return NULL;
	}
}

static enum jpwr_family best_family(enum jpwr_family a, enum jpwr_family b)
{
	return a > b ? a : b;
}

/* ---- energy files ----------------------------------------------------------- */

void jpwr_energy_init(struct jpwr_energy *e)
{
	memset(e, 0, sizeof(*e));
	e->rank = -1;
}

void jpwr_energy_release(struct jpwr_energy *e)
{
	free(e->first_node);
	json_decref(e->per_device);
	jpwr_energy_init(e);
}

static int fail_at(struct strbuf *err, const char *path, long line, const char *fmt, ...)
	AB_PRINTF(4, 5);
static int fail_at(struct strbuf *err, const char *path, long line, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(err);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	ab_error_prefix(err, path, line);
	return -AB_EDATA;
}

/* next line; converts reader errors into positioned messages */
static int next_line(struct lines *lr, const char *path, struct strbuf *err)
{
	int rc = lines_next(lr, err);

	if (rc == -AB_EDATA)
		return fail_at(err, path, lr->lineno, "line longer than %zu bytes", lr->max_len);
	if (rc < 0)
		ab_error_prefix(err, path, 0);
	else if (rc > 0 && memchr(lr->line.buf, '\0', lr->line.len))
		return fail_at(err, path, lr->lineno, "binary data (NUL byte)");
	else if (rc > 0 && lr->unterminated && lr->line.len)
		/* jpwr ends every row with a newline: without one the file was cut */
		return fail_at(err, path, lr->lineno, "last line has no newline: the file is "
			       "cut short (truncated row?)");
	return rc;
}

static int parse_value(const char *path, long line, const char *col, const char *v, size_t len,
		       double *out, struct strbuf *err)
{
	struct strbuf shown = STRBUF_INIT;
	enum num_kind k = ingest_parse_double(v, len, out);
	int rc;

	if (k == NUM_OK)
		return 1;
	if (k == NUM_EMPTY || k == NUM_NAN)
		return 0;
	strbuf_add_printable(&shown, v, len, 40);
	rc = fail_at(err, path, line, "'%s' is not a number: '%s'", col, shown.buf);
	strbuf_release(&shown);
	return rc;
}

static void per_device_set(struct jpwr_energy *e, const char *node, const char *col, double v)
{
	struct strbuf key = STRBUF_INIT;

	if (!e->per_device)
		e->per_device = json_object();
	if (node && *node)
		strbuf_addf(&key, "%s/%s", node, col);
	else
		strbuf_addstr(&key, col);
	json_object_set_new(e->per_device, key.buf, json_real(v));
	strbuf_release(&key);
}

/* A per-rank pandas Series: ",0" then "key,value" lines. */
static int read_series(struct lines *lr, struct fields *fl, const char *path,
		       struct jpwr_energy *e, struct strbuf *err)
{
	struct kv { char *key; double v; int has; long line; } *kv = NULL;
	size_t n = 0, i;
	enum jpwr_family best = JPWR_NONE;
	int rc;

	while ((rc = next_line(lr, path, err)) > 0) {
		const char *key;
		double v = 0;
		int has;

		if (!lr->line.len)
			continue;
		if (fields_split(fl, lr->line.buf, lr->line.len, ',', FIELDS_QUOTED | FIELDS_TRIM) < 0 ||
		    fl->n != 2) {
			rc = fail_at(err, path, lr->lineno, "expected 'name,value', got %zu field%s",
				     fl->n, fl->n == 1 ? "" : "s");
			break;
		}
		key = fl->v[0];
		if (!strcmp(key, "nodename")) {
			free(e->first_node);
			e->first_node = fl->len[1] ? ab_strdup(fl->v[1]) : NULL;
			continue;
		}
		if (!strcmp(key, "rank")) {
			long long r;
			if (num_parse_ll(fl->v[1], fl->len[1], &r) != NUM_OK) {
				rc = fail_at(err, path, lr->lineno, "'rank' is not an integer");
				break;
			}
			e->rank = (long)r;
			continue;
		}
		if (jpwr_column_family(key) == JPWR_NONE)
			continue; /* not a device column */
		has = parse_value(path, lr->lineno, key, fl->v[1], fl->len[1], &v, err);
		if (has < 0) {
			rc = has;
			break;
		}
		kv = ab_realloc(kv, (n + 1) * sizeof(*kv));
		kv[n].key = ab_strdup(key);
		kv[n].v = v;
		kv[n].has = has;
		kv[n].line = lr->lineno;
		n++;
		best = best_family(best, jpwr_column_family(key));
	}
	if (rc == 0) {
		e->nodes = 1;
		e->rows = 1;
		e->boundary = fam_boundary(best);
		e->family = fam_name(best);
		e->vendor = fam_vendor(best);
		for (i = 0; i < n; i++) {
			if (!kv[i].has)
				continue;
			per_device_set(e, e->first_node, kv[i].key, kv[i].v);
			if (best != JPWR_NONE && jpwr_column_family(kv[i].key) == best) {
				e->wh += kv[i].v;
				e->devices++;
			}
		}
	}
	for (i = 0; i < n; i++)
		free(kv[i].key);
	free(kv);
	return rc;
}

struct node_set {
	char **v;
	size_t n;
};

static int node_seen(struct node_set *s, const char *node)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], node))
			return 1;
	s->v = ab_realloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n++] = ab_strdup(node);
	return 0;
}

static void node_set_release(struct node_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* combined_energy.csv or another wide table: header already in fl. */
static int read_wide(struct lines *lr, struct fields *fl, const char *path,
		     struct jpwr_energy *e, struct strbuf *err)
{
	struct node_set nodes = { 0 };
	char **cols;
	enum jpwr_family *fams, best = JPWR_NONE;
	size_t ncols = fl->n, i;
	long node_col = -1, rank_col = -1;
	int rc;

	cols = ab_calloc(ncols, sizeof(*cols));
	fams = ab_calloc(ncols, sizeof(*fams));
	for (i = 0; i < ncols; i++) {
		cols[i] = ab_strdup(fl->v[i]);
		if (i == 0)
			continue; /* the pandas index */
		if (!strcmp(cols[i], "nodename"))
			node_col = (long)i;
		else if (!strcmp(cols[i], "rank"))
			rank_col = (long)i;
		fams[i] = *cols[i] ? jpwr_column_family(cols[i]) : JPWR_NONE; /* skip the empty-named 0 */
		best = best_family(best, fams[i]);
	}
	while ((rc = next_line(lr, path, err)) > 0) {
		const char *node;

		if (!lr->line.len)
			continue;
		if (fields_split(fl, lr->line.buf, lr->line.len, ',', FIELDS_QUOTED | FIELDS_TRIM) < 0) {
			rc = fail_at(err, path, lr->lineno, "unterminated quote");
			break;
		}
		if (fl->n != ncols) {
			rc = fail_at(err, path, lr->lineno, "row has %zu field%s, header has %zu",
				     fl->n, fl->n == 1 ? "" : "s", ncols);
			break;
		}
		e->rows++;
		if (rank_col >= 0 && fl->len[rank_col]) {
			long long r;
			if (num_parse_ll(fl->v[rank_col], fl->len[rank_col], &r) != NUM_OK) {
				rc = fail_at(err, path, lr->lineno, "'rank' is not an integer");
				break;
			}
		}
		node = node_col >= 0 ? fl->v[node_col] : "";
		/* validate every row, count only the first of each node */
		for (i = 1; i < ncols; i++) {
			double v;
			int has;
			if (fams[i] == JPWR_NONE)
				continue;
			has = parse_value(path, lr->lineno, cols[i], fl->v[i], fl->len[i], &v, err);
			if (has < 0) {
				rc = has;
				goto out;
			}
		}
		if (node_seen(&nodes, node))
			continue;
		if (!e->first_node && *node)
			e->first_node = ab_strdup(node);
		for (i = 1; i < ncols; i++) {
			double v;
			if (fams[i] == JPWR_NONE ||
			    parse_value(path, lr->lineno, cols[i], fl->v[i], fl->len[i], &v, err) != 1)
				continue;
			per_device_set(e, node, cols[i], v);
			if (fams[i] == best) {
				e->wh += v;
				e->devices++;
			}
		}
	}
out:
	if (rc == 0) {
		if (!e->rows)
			rc = fail_at(err, path, lr->lineno, "energy table has no rows");
		e->nodes = (long)nodes.n;
		e->boundary = fam_boundary(best);
		e->family = fam_name(best);
		e->vendor = fam_vendor(best);
	}
	for (i = 0; i < ncols; i++)
		free(cols[i]);
	free(cols);
	free(fams);
	node_set_release(&nodes);
	return rc;
}

int jpwr_energy_read_fp(FILE *fp, const char *path, struct jpwr_energy *e, struct strbuf *err)
{
	struct lines lr;
	struct fields fl;
	int rc;

	jpwr_energy_release(e);
	e->counter = strstr(ingest_basename(path), "energy_from_counter") != NULL;
	lines_init(&lr, fp, LINES_DEFAULT_MAX, 0);
	fields_init(&fl);
	rc = next_line(&lr, path, err);
	if (rc == 0)
		rc = fail_at(err, path, 0, "empty energy file");
	if (rc > 0) {
		fields_split(&fl, lr.line.buf, lr.line.len, ',', FIELDS_QUOTED | FIELDS_TRIM);
		if (fl.n < 2 || fl.len[0]) {
			struct strbuf shown = STRBUF_INIT;
			strbuf_add_printable(&shown, lr.line.buf, lr.line.len, 40);
			rc = fail_at(err, path, 1, "not a jpwr energy file (header '%s')", shown.buf);
			strbuf_release(&shown);
		}
		else if (fl.n == 2 && !strcmp(fl.v[1], "0"))
			rc = read_series(&lr, &fl, path, e, err);
		else if (!strcmp(fl.v[1], "timestamps"))
			rc = fail_at(err, path, 1, "a power series, not an energy file");
		else
			rc = read_wide(&lr, &fl, path, e, err);
	}
	fields_release(&fl);
	lines_release(&lr);
	return rc < 0 ? rc : 0;
}

int jpwr_energy_read(const char *path, struct jpwr_energy *e, struct strbuf *err)
{
	FILE *fp = ab_fopen_input(path, err);
	int rc;

	if (!fp)
		return -AB_EIO;
	rc = jpwr_energy_read_fp(fp, path, e, err);
	fclose(fp);
	return rc;
}

/* ---- power series ------------------------------------------------------------- */

void jpwr_series_init(struct jpwr_series *s)
{
	memset(s, 0, sizeof(*s));
	s->t_first = s->t_last = NAN;
}

void jpwr_series_release(struct jpwr_series *s)
{
	free(s->node);
	jpwr_series_init(s);
}

int jpwr_series_pass(FILE *fp, const char *path, struct ingest_file *f, int64_t run_id,
		     struct jpwr_series *st, struct strbuf *err)
{
	struct lines lr;
	struct fields fl;
	struct strbuf *dev = NULL;
	size_t ncols = 0, i;
	long t_col = -1, node_col = -1;
	enum jpwr_family *fams = NULL, best = JPWR_NONE;
	char **names = NULL;
	double prev_t = NAN;
	int rc;

	lines_init(&lr, fp, LINES_DEFAULT_MAX, 0);
	fields_init(&fl);
	rc = next_line(&lr, path, err);
	if (rc == 0)
		rc = fail_at(err, path, 0, "empty power file");
	if (rc < 0)
		goto out;
	fields_split(&fl, lr.line.buf, lr.line.len, ',', FIELDS_QUOTED | FIELDS_TRIM);
	ncols = fl.n;
	fams = ab_calloc(ncols, sizeof(*fams));
	names = ab_calloc(ncols, sizeof(*names));
	dev = ab_calloc(ncols, sizeof(*dev));
	for (i = 0; i < ncols; i++) {
		names[i] = ab_strdup(fl.v[i]);
		strbuf_init(&dev[i], 0);
		if (i == 0)
			continue;
		if (!strcmp(names[i], "timestamps"))
			t_col = (long)i;
		else if (!strcmp(names[i], "nodename"))
			node_col = (long)i;
		else
			fams[i] = jpwr_column_family(names[i]);
		best = best_family(best, fams[i]);
	}
	if (t_col < 0) {
		rc = fail_at(err, path, 1, "no 'timestamps' column");
		goto out;
	}
	if (fam_boundary(best) == NULL) {
		rc = fail_at(err, path, 1, "no device power columns (pynvml:, rocm:, gc:, gh:Module)");
		goto out;
	}
	st->family = fam_name(best);
	st->boundary = fam_boundary(best);
	st->vendor = fam_vendor(best);
	for (i = 1; i < ncols; i++)
		st->devices += fams[i] == best;
	while ((rc = next_line(&lr, path, err)) > 0) {
		double t, sum = 0;
		int any = 0;

		if (!lr.line.len)
			continue;
		if (fields_split(&fl, lr.line.buf, lr.line.len, ',', FIELDS_QUOTED | FIELDS_TRIM) < 0 ||
		    fl.n != ncols) {
			rc = fail_at(err, path, lr.lineno, "row has %zu field%s, header has %zu", fl.n,
				     fl.n == 1 ? "" : "s", ncols);
			goto out;
		}
		rc = parse_value(path, lr.lineno, "timestamps", fl.v[t_col], fl.len[t_col], &t, err);
		if (rc <= 0) {
			if (rc == 0)
				rc = fail_at(err, path, lr.lineno, "missing timestamp");
			goto out;
		}
		rc = 0;
		if (!isnan(prev_t) && t < prev_t) {
			rc = fail_at(err, path, lr.lineno, "timestamps go backwards");
			goto out;
		}
		if (st->rows == 0) {
			const char *node = node_col >= 0 ? fl.v[node_col] : "";
			free(st->node);
			st->node = *node ? ab_strdup(node) : NULL;
			for (i = 1; i < ncols; i++) {
				if (fams[i] != best)
					continue;
				if (st->node)
					strbuf_addf(&dev[i], "%s/", st->node);
				strbuf_addstr(&dev[i], names[i]);
			}
			st->t_first = t;
		}
		for (i = 1; i < ncols; i++) {
			double w;
			int has;
			if (fams[i] == JPWR_NONE)
				continue;
			has = parse_value(path, lr.lineno, names[i], fl.v[i], fl.len[i], &w, err);
			if (has < 0) {
				rc = has;
				goto out;
			}
			if (!has || fams[i] != best)
				continue;
			if (w < 0) {
				rc = fail_at(err, path, lr.lineno, "'%s' is negative", names[i]);
				goto out;
			}
			if (!isnan(prev_t))
				st->wh += w * (t - prev_t) / 3600.0;
			sum += w;
			any = 1;
			st->samples++;
			if (f) {
				rc = ingest_emit_power(f, run_id, dev[i].buf, t, w, err);
				if (rc < 0)
					goto out;
			}
		}
		if (any && sum > st->peak)
			st->peak = sum;
		st->t_last = t;
		prev_t = t;
		st->rows++;
	}
	if (rc == 0 && !st->rows)
		rc = fail_at(err, path, lr.lineno, "power file has no rows");
out:
	for (i = 0; i < ncols; i++) {
		free(names[i]);
		strbuf_release(&dev[i]);
	}
	free(names);
	free(dev);
	free(fams);
	fields_release(&fl);
	lines_release(&lr);
	return rc < 0 ? rc : 0;
}

void jpwr_power_init(struct jpwr_power *p)
{
	memset(p, 0, sizeof(*p));
	p->t_start = p->t_end = NAN;
}

void jpwr_power_release(struct jpwr_power *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->paths[i]);
		free(p->nodes[i]);
	}
	free(p->paths);
	free(p->nodes);
	jpwr_power_init(p);
}

/* "<TAG>_power.<rank>.csv" or "power.<rank>.csv"; returns the rank or -1 */
static long power_rank(const char *name)
{
	size_t n = strlen(name), i, j;
	long rank = 0;

	if (n < 5 || strcmp(name + n - 4, ".csv"))
		return -1;
	i = n - 4;
	j = i;
	while (j > 0 && isdigit((unsigned char)name[j - 1]))
		j--;
	if (j == i || j == 0 || name[j - 1] != '.' || i - j > 6)
		return -1;
	if (j - 1 < 5 || strncmp(name + j - 6, "power", 5))
		return -1;
	if (j - 6 > 0 && name[j - 7] != '_')
		return -1;
	for (; j < i; j++)
		rank = rank * 10 + (name[j] - '0');
	return rank;
}

struct cand {
	char *path;
	long rank;
};

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->path, y->path);
}

static void scan_dir(const char *dir, int depth, struct cand **c, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct strbuf p = STRBUF_INIT;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		long rank;

		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, de->d_name);
		if (stat(p.buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth == 0)
				scan_dir(p.buf, 1, c, n);
			continue;
		}
		rank = power_rank(de->d_name);
		if (!S_ISREG(st.st_mode) || rank < 0)
			continue;
		*c = ab_realloc(*c, (*n + 1) * sizeof(**c));
		(*c)[*n].path = ab_strdup(p.buf);
		(*c)[*n].rank = rank;
		(*n)++;
	}
	closedir(d);
	strbuf_release(&p);
}

/* nodename of the first data row ("" when the file has none) */
static int first_node(const char *path, struct strbuf *node, struct strbuf *err)
{
	FILE *fp = ab_fopen_input(path, err);
	struct lines lr;
	struct fields fl;
	long node_col = -1;
	size_t ncols, i;
	int rc;

	strbuf_reset(node);
	if (!fp)
		return -AB_EDATA;
	lines_init(&lr, fp, LINES_DEFAULT_MAX, 0);
	fields_init(&fl);
	rc = next_line(&lr, path, err);
	if (rc > 0) {
		fields_split(&fl, lr.line.buf, lr.line.len, ',', FIELDS_QUOTED | FIELDS_TRIM);
		ncols = fl.n;
		for (i = 1; i < ncols; i++)
			if (!strcmp(fl.v[i], "nodename"))
				node_col = (long)i;
		rc = next_line(&lr, path, err);
		if (rc > 0) {
			fields_split(&fl, lr.line.buf, lr.line.len, ',', FIELDS_QUOTED | FIELDS_TRIM);
			if (node_col >= 0 && (size_t)node_col < fl.n)
				strbuf_addstr(node, fl.v[node_col]);
		}
	}
	fields_release(&fl);
	lines_release(&lr);
	fclose(fp);
	return rc < 0 ? rc : 0;
}

int jpwr_power_find(const char *energy_path, struct jpwr_power *p, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, node = STRBUF_INIT;
	struct node_set seen = { 0 };
	struct cand *c = NULL;
	size_t n = 0, i;
	int rc = 0;

	jpwr_power_release(p);
	ingest_dirname(&dir, energy_path);
	scan_dir(dir.buf, 0, &c, &n);
	if (n)
		qsort(c, n, sizeof(*c), cand_cmp);
	for (i = 0; i < n && rc == 0; i++) {
		rc = first_node(c[i].path, &node, err);
		if (rc < 0 || node_seen(&seen, node.buf))
			continue; /* another rank of a node already taken */
		p->paths = ab_realloc(p->paths, (p->n + 1) * sizeof(*p->paths));
		p->nodes = ab_realloc(p->nodes, (p->n + 1) * sizeof(*p->nodes));
		p->paths[p->n] = ab_strdup(c[i].path);
		p->nodes[p->n] = ab_strdup(node.buf);
		p->n++;
	}
	/* validate and integrate everything before anything is emitted */
	for (i = 0; i < p->n && rc == 0; i++) {
		struct jpwr_series st;
		FILE *fp = ab_fopen_input(p->paths[i], err);

		if (!fp) {
			rc = -AB_EDATA;
			break;
		}
		jpwr_series_init(&st);
		rc = jpwr_series_pass(fp, p->paths[i], NULL, 0, &st, err);
		fclose(fp);
		if (rc == 0) {
			if (isnan(p->t_start) || st.t_first < p->t_start)
				p->t_start = st.t_first;
			if (isnan(p->t_end) || st.t_last > p->t_end)
				p->t_end = st.t_last;
			p->wh += st.wh;
			if (st.peak > p->peak_w)
				p->peak_w = st.peak; /* per node; nodes are not in lock step */
			p->samples += st.samples;
			p->family = st.family;
		}
		jpwr_series_release(&st);
	}
	for (i = 0; i < n; i++)
		free(c[i].path);
	free(c);
	node_set_release(&seen);
	strbuf_release(&dir);
	strbuf_release(&node);
	if (rc < 0)
		jpwr_power_release(p);
	return rc;
}

int jpwr_power_emit(struct ingest_file *f, int64_t run_id, const struct jpwr_power *p,
		    struct strbuf *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < p->n && rc == 0; i++) {
		struct jpwr_series st;
		FILE *fp = ab_fopen_input(p->paths[i], err);

		if (!fp)
			return -AB_EIO;
		jpwr_series_init(&st);
		rc = jpwr_series_pass(fp, p->paths[i], f, run_id, &st, err);
		jpwr_series_release(&st);
		fclose(fp);
	}
	return rc;
}

