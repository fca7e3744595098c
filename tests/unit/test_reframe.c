/*
 * test_reframe.c - ReFrame perflogs, run reports and results DB: format
 * compiler, line matcher, case mapping, dedupe, and the known answers of
 * the fixtures (tests/fixtures/reframe) and of ../shared/samples/reframe.
 */
#include "unit.h"
#include "ingest/reframe_priv.h"

#include <math.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

/* a == b within tol (absolute) plus 1e-12 relative; NaN never equals */
#define assert_num_eq(a, b, tol) \
	assert_true(fabs((double)(a) - (double)(b)) <= (tol) + 1e-12 * fabs((double)(b)))

/* ---- a sink that keeps what it is given --------------------------------- */

#define CAP_METRICS 8

struct cap_run {
	char *path, *benchmark, *system, *accel, *metric, *unit, *job, *finished, *started;
	char *reason, *key, *params, *sysmeta;
	const char *status;
	long line, nodes, devices, local_batch, global_batch;
	int lower;
	size_t nm;
	char *mname[CAP_METRICS], *munit[CAP_METRICS], *mmeta[CAP_METRICS];
	double mval[CAP_METRICS];
};

struct cap {
	struct ingest_sink sink;
	struct cap_run *r;
	size_t n, alloc;
	long dups;
	size_t n_at_begin;            /* for rollback */
	const char *path;             /* source being ingested */
	struct strbuf warnings, rejects;
};

static char *dup0(const char *s)
{
	return s ? ab_strdup(s) : NULL;
}

static int cap_begin(void *self, const struct ingest_source *src, struct strbuf *err)
{
	struct cap *c = self;

	c->path = src->path;
	c->n_at_begin = c->n;
	return 0;
}

/* A parser's JSON text with sorted keys, as the assertions expect. */
static char *sorted_json(const char *text)
{
	json_t *j = json_loads(text, 0, NULL);
	char *s;

	assert_non_null(j);
	s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	return s;
}

static int cap_run_fn(void *self, const struct ingest_run *run, int64_t *id, struct strbuf *err)
{
	static const char *const st[] = { "ok", "failed", "aborted", "invalid" };
	struct cap *c = self;
	struct cap_run *r;
	size_t i;

	for (i = 0; run->dedupe_key && i < c->n; i++) {
		if (c->r[i].key && !strcmp(c->r[i].key, run->dedupe_key)) {
			c->dups++;
			*id = 0;
			return 1;
		}
	}
	if (c->n == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 64;
		c->r = ab_realloc(c->r, c->alloc * sizeof(*c->r));
	}
	r = &c->r[c->n++];
	memset(r, 0, sizeof(*r));
	r->path = dup0(c->path);
	r->benchmark = dup0(run->benchmark);
	r->system = dup0(run->system.name);
	r->accel = dup0(run->system.accelerator);
	r->metric = dup0(run->bench_metric);
	r->unit = dup0(run->bench_unit);
	r->job = dup0(run->job_id);
	r->finished = dup0(run->finished);
	r->started = dup0(run->started);
	r->reason = dup0(run->excluded_reason);
	r->key = dup0(run->dedupe_key);
	r->sysmeta = dup0(run->system.meta_json);
	r->params = run->params_json ? sorted_json(run->params_json)
		    : run->params ? json_dumps(run->params, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	r->status = st[run->status];
	r->line = run->line;
	r->nodes = run->nodes;
	r->devices = run->devices;
	r->local_batch = run->local_batch;
	r->global_batch = run->global_batch;
	r->lower = run->lower_is_better;
	assert_true(run->nmetrics <= CAP_METRICS);
	for (i = 0; i < run->nmetrics; i++) {
		r->mname[i] = dup0(run->metrics[i].name);
		r->munit[i] = dup0(run->metrics[i].unit);
		r->mval[i] = run->metrics[i].value;
		r->mmeta[i] = run->metrics_meta_json && run->metrics_meta_json[i]
			? sorted_json(run->metrics_meta_json[i])
			: run->metrics[i].meta
			? json_dumps(run->metrics[i].meta, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
		assert_true(isfinite(r->mval[i]));
	}
	r->nm = run->nmetrics;
	*id = (int64_t)c->n;
	return 0;
}

static int cap_power(void *self, int64_t id, const char *dev, double t, double w,
		     struct strbuf *err)
{
	return 0;
}

static void cap_run_free(struct cap_run *r)
{
	size_t k;

	free(r->path);
	free(r->benchmark);
	free(r->system);
	free(r->accel);
	free(r->metric);
	free(r->unit);
	free(r->job);
	free(r->finished);
	free(r->started);
	free(r->reason);
	free(r->key);
	free(r->sysmeta);
	free(r->params);
	for (k = 0; k < r->nm; k++) {
		free(r->mname[k]);
		free(r->munit[k]);
		free(r->mmeta[k]);
	}
}

/* Like the database: a rejected file leaves nothing behind. */
static int cap_end(void *self, int commit, struct strbuf *err)
{
	struct cap *c = self;

	if (!commit)
		while (c->n > c->n_at_begin)
			cap_run_free(&c->r[--c->n]);
	return 0;
}

static void cap_init(struct cap *c)
{
	memset(c, 0, sizeof(*c));
	c->sink.self = c;
	c->sink.begin = cap_begin;
	c->sink.run = cap_run_fn;
	c->sink.power = cap_power;
	c->sink.end = cap_end;
	strbuf_init(&c->warnings, 0);
	strbuf_init(&c->rejects, 0);
}

static void cap_release(struct cap *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		cap_run_free(&c->r[i]);
	free(c->r);
	strbuf_release(&c->warnings);
	strbuf_release(&c->rejects);
}

static void on_event(void *ctx, enum ingest_event ev, const char *path, const char *msg,
		     const struct ingest_totals *t)
{
	struct cap *c = ctx;

	if (ev == INGEST_EV_WARNING)
		strbuf_addf(&c->warnings, "%s\n", msg);
	else if (ev == INGEST_EV_REJECTED)
		strbuf_addf(&c->rejects, "%s\n", msg);
}

/* Ingest paths (roots = the directories among them); returns ingest_paths' status. */
static int ingest(struct cap *c, const char *format, const char *perflog_format,
		  const char *const *paths, size_t n)
{
	struct ingest_opts o = { 0 };
	struct ingest_totals t;
	struct strbuf err = STRBUF_INIT;
	const char *roots[8];
	size_t i, nr = 0;
	int rc;

	for (i = 0; i < n && nr < 8; i++) {
		struct stat st;
		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
			roots[nr++] = paths[i];
	}
	o.format = format;
	o.perflog_format = perflog_format;
	o.roots = roots;
	o.nroots = nr;
	o.notify = on_event;
	o.notify_ctx = c;
	rc = ingest_paths(paths, n, &o, &c->sink, &t, &err);
	strbuf_release(&err);
	return rc;
}

static const char *fixtures(void)
{
	const char *f = getenv("AB_FIXTURES");
	return f && *f ? f : "tests/fixtures";
}

static void path_of(struct strbuf *sb, const char *base, const char *rel)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/%s", base, rel);
}

/* The n-th (0-based) run of benchmark on system, or NULL. */
static struct cap_run *find(struct cap *c, const char *bench, const char *system, int nth)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->r[i].benchmark, bench) && !strcmp(c->r[i].system, system) && !nth--)
			return &c->r[i];
	return NULL;
}

static double metric(const struct cap_run *r, const char *name, const char **unit)
{
	size_t i;

	for (i = 0; i < r->nm; i++) {
		if (!strcmp(r->mname[i], name)) {
			if (unit)
				*unit = r->munit[i];
			return r->mval[i];
		}
	}
	return NAN;
}

static const char *meta(const struct cap_run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nm; i++)
		if (!strcmp(r->mname[i], name))
			return r->mmeta[i];
	return "";
}

static int has(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle) != NULL;
}

/* ---- building blocks ------------------------------------------------------ */

static void test_parse_time(void **state)
{
	double t;
	int off;

	(void)state;
	assert_int_equal(rfm_parse_time("2024-03-18T09:14:07", 19, 0, &t, &off), 0);
	assert_num_eq(t, 1710753247.0, 1e-9);
	assert_int_equal(off, 0);
	/* the same instant written in BST, three ways */
	assert_int_equal(rfm_parse_time("2024-06-01T10:00:00+01:00", 25, 0, &t, &off), 0);
	assert_num_eq(t, 1717232400.0, 1e-9);
	assert_int_equal(off, 1);
	assert_int_equal(rfm_parse_time("2024-06-01T10:00:00+0100", 24, 0, &t, &off), 0);
	assert_num_eq(t, 1717232400.0, 1e-9);
	assert_int_equal(rfm_parse_time("2024-06-01 10:00:00", 19, 3600, &t, &off), 0);
	assert_num_eq(t, 1717232400.0, 1e-9);
	assert_int_equal(off, 0);
	assert_int_equal(rfm_parse_time("2024-06-01T09:00:00.250Z", 24, 0, &t, &off), 0);
	assert_num_eq(t, 1717232400.25, 1e-9);
	assert_int_equal(rfm_parse_time("2024-03-11 10:02:17,123", 23, 0, &t, &off), 0);
	assert_num_eq(t, 1710151337.123, 1e-6);
	assert_int_equal(rfm_parse_time("yesterday", 9, 0, &t, &off), -1);
	assert_int_equal(rfm_parse_time("2024-13-01T00:00:00", 19, 0, &t, &off), -1);
	assert_int_equal(rfm_parse_time("2024-06-01T10:00:00+1", 21, 0, &t, &off), -1);
}

/* days since 1970-01-01, counted (no formula shared with the parser) */
static long civil_days_counted(long y, long mo, long d)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	long days = 0, k;

	for (k = 1970; k < y; k++)
		days += 365 + ((k % 4 == 0 && k % 100 != 0) || k % 400 == 0);
	for (k = 1; k < mo; k++)
		days += mdays[k - 1] + (k == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));
	return days + d - 1;
}

/* rfm_parse_time's fixed-place reading of "YYYY-MM-DDTHH:MM:SS": random
 * times against a count of days, and every digit place and separator
 * spoilt in turn (refused, or read by the general path the same way) */
static void test_parse_time_fields(void **state)
{
	static const int digit_at[14] = { 0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18 };
	static const char *const tails[] = { "", "Z", "+01:00", "-0230", ".5", ",25Z", "  " };
	unsigned long x = 12345;
	char t[64];
	double v, w;
	int off, i, k;

	(void)state;
	for (i = 0; i < 20000; i++) {
		long y, mo, d, h, mi, se;
		const char *tail;
		double want;
		size_t n;

		x = x * 6364136223846793005UL + 1442695040888963407UL;
		y = 1970 + (long)((x >> 33) % 130);
		mo = 1 + (long)((x >> 20) % 12);
		d = 1 + (long)((x >> 10) % 28);
		h = (long)((x >> 40) % 24);
		mi = (long)((x >> 46) % 60);
		se = (long)((x >> 52) % 61);
		tail = tails[(x >> 58) % AB_ARRAY_SIZE(tails)];
		n = (size_t)snprintf(t, sizeof(t), "%s%04ld-%02ld-%02ld%c%02ld:%02ld:%02ld%s",
				     i % 5 ? "" : " ", y, mo, d, i % 3 ? 'T' : ' ', h, mi, se, tail);
		assert_int_equal(rfm_parse_time(t, n, 600, &v, &off), 0);
		want = (double)civil_days_counted(y, mo, d) * 86400.0 + (double)(h * 3600 + mi * 60 + se);
		if (!strcmp(tail, "+01:00"))
			want -= 3600;
		else if (!strcmp(tail, "-0230"))
			want += 9000;
		else if (!strcmp(tail, ".5"))
			want += 0.5 - 600;
		else if (!strcmp(tail, ",25Z"))
			want += 0.25;
		else if (!strcmp(tail, "") || !strcmp(tail, "  "))
			want -= 600;
		assert_num_eq(v, want, 1e-6);
		assert_int_equal(off, tail[0] == 'Z' || tail[0] == '+' || tail[0] == '-' ||
					      !strcmp(tail, ",25Z"));
	}
	/* a place spoilt: a digit where a separator goes, a letter or a
	 * separator where a digit goes */
	for (k = 0; k < 19; k++) {
		static const char bad[] = { 'x', '/', ' ', '-', ':', '9' };
		size_t b;

		for (b = 0; b < sizeof(bad); b++) {
			int is_digit_place = 0;

			memcpy(t, "2020-01-22T10:15:19", 20);
			for (i = 0; i < 14; i++)
				is_digit_place |= digit_at[i] == k;
			if (bad[b] == t[k] || (k == 10 && bad[b] == ' ') ||
			    (is_digit_place && bad[b] == '9'))
				continue;
			t[k] = bad[b];
			assert_int_equal(rfm_parse_time(t, 19, 0, &v, &off), -1);
		}
	}
	/* shorter than the shape: the general path (and its answer) */
	assert_int_equal(rfm_parse_time("2020-01-22T10:15:1", 18, 0, &v, &off), -1);
	assert_int_equal(rfm_parse_time("2020-01-22T10:15:19", 19, 0, &w, &off), 0);
	assert_int_equal(rfm_parse_time("  2020-01-22T10:15:19 ", 22, 0, &v, &off), 0);
	assert_true(v == w);
}

static void test_header_layouts(void **state)
{
	struct rfm_layout l;
	struct strbuf err = STRBUF_INIT;
	size_t i;

	(void)state;
	rfm_layout_init(&l);
	/* 4.6.1+ header of "...|reframe %(version)s|jobid=%(check_jobid)s|..." */
	assert_int_equal(rfm_layout_from_header(&l, "job_completion_time|reframe version|jobid=jobid|"
						"info|x y_value|x y_unit|x y_ref|num_tasks|foo",
						&err), 0);
	assert_int_equal(l.n, 9);
	assert_string_equal(l.lit[1], "|reframe ");
	assert_string_equal(l.lit[2], "|jobid=");
	assert_int_equal(l.col[1].attr, RA_VERSION);
	assert_int_equal(l.col[2].attr, RA_JOBID);
	assert_int_equal(l.col[4].attr, RA_PERF_VALUE);
	assert_int_equal(l.col[6].attr, RA_PERF_REF);
	assert_string_equal(l.perf_names[0], "x y");
	assert_int_equal(l.col[8].attr, RA_OTHER);
	/* the fast split checks and strips the literal text starting a field */
	assert_int_equal(l.delim, '|');
	assert_int_equal(l.prefixed, 1);
	{
		static const char line[] = "2024-01-01T00:00:00|reframe 4.6.2|jobid=77|"
					   "T /0a1b2c3d @s:p+e|1.5|s|0|4|x|y";
		struct rfm_match m;
		size_t a = 0, b = 0;

		rfm_match_init(&m);
		assert_int_equal(rfm_layout_match(&l, line, strlen(line), &m, &a, &b), RFM_MATCH_OK);
		assert_int_equal(m.len[1], 5);
		assert_memory_equal(line + m.off[1], "4.6.2", 5);
		assert_memory_equal(line + m.off[2], "77", 2);
		assert_int_equal(m.len[2], 2);
		/* the text is not there: no fast split, and the line does not fit */
		assert_int_equal(rfm_layout_match(&l, "t|4.6.2|jobid=77|T @s:p+e|1|s|0|4|x|y", 37,
						  &m, &a, &b), RFM_MATCH_NONE);
		rfm_match_release(&m);
	}
	/* "system:partition" in one field; a trailing delimiter */
	assert_int_equal(rfm_layout_from_header(&l, "result,system:partition,bw_value,bw_unit,", &err),
			 0);
	assert_int_equal(l.n, 5);
	assert_int_equal(l.col[1].attr, RA_SYSTEM);
	assert_int_equal(l.col[2].attr, RA_PARTITION);
	assert_string_equal(l.lit[2], ":");
	assert_string_equal(l.lit[5], ",");
	/* format_perfvars in another order, or the value alone */
	assert_int_equal(rfm_layout_from_header(&l, "display_name|bw_unit|bw_value|lat_value|x", &err),
			 0);
	assert_int_equal(l.nperf, 2);
	assert_string_equal(l.perf_names[0], "bw");
	assert_string_equal(l.perf_names[1], "lat");
	assert_int_equal(l.col[1].attr, RA_PERF_UNIT);
	assert_int_equal(l.col[2].attr, RA_PERF_VALUE);
	assert_int_equal(l.col[3].attr, RA_PERF_VALUE);
	assert_int_equal(l.col[3].perf, 1);
	assert_int_equal(l.col[4].attr, RA_OTHER);
	/* CSCS: "%(check_perf_var)s=%(check_perf_value)s|ref=%(check_perf_ref)s (l=..." */
	assert_int_equal(rfm_layout_from_header(&l, "info|perf_var=perf_value|ref=perf_ref (l="
						"perf_lower_thres, u=perf_upper_thres)|perf_unit",
						&err), 0);
	assert_int_equal(l.per_var, 1);
	assert_int_equal(l.nperf, 0);
	assert_int_equal(l.col[1].attr, RA_PERF_VAR);
	assert_string_equal(l.lit[2], "=");
	assert_int_equal(l.col[2].attr, RA_PERF_VALUE);
	assert_string_equal(l.lit[3], "|ref=");
	assert_string_equal(l.lit[4], " (l=");
	assert_string_equal(l.lit[6], ")|");
	/* per-variable columns are not a perf block called "perf" */
	assert_int_equal(rfm_layout_from_header(&l, "display_name|perf_var|perf_value|perf_unit",
						&err), 0);
	assert_int_equal(l.per_var, 1);
	assert_int_equal(l.nperf, 0);
	assert_int_equal(l.delim, '|');
	for (i = 0; i < l.n; i++)
		assert_int_equal(l.col[i].perf, -1);
	/* data lines and headers without performance columns are not such headers */
	assert_int_equal(rfm_layout_from_header(&l, "2024-01-01T00:00:00|x|1.5|s", &err), -AB_EDATA);
	assert_int_equal(rfm_layout_from_header(&l, "display_name|system|partition", &err),
			 -AB_EDATA);
	assert_int_equal(rfm_layout_from_header(&l, "no header here", &err), -AB_EDATA);
	rfm_layout_release(&l);
	strbuf_release(&err);

	assert_int_equal(rfm_lower_is_better("Performance", "days/ns"), 1);
	assert_int_equal(rfm_lower_is_better("Performance", "ns/day"), 0);
	assert_int_equal(rfm_lower_is_better("step", "s/step"), 1);
	assert_int_equal(rfm_lower_is_better("bw", "GB/s"), 0);
	assert_int_equal(rfm_lower_is_better("x", "ms"), 1);
	assert_int_equal(rfm_lower_is_better("scratch", "% inodes"), 1);
	assert_int_equal(rfm_lower_is_better("disk_used", "%"), 1);
	assert_int_equal(rfm_lower_is_better("gpu_util", "%"), 0);
	assert_int_equal(rfm_lower_is_better("time", ""), 1);
	assert_int_equal(rfm_lower_is_better("Total IO Time", NULL), 1);
	assert_int_equal(rfm_lower_is_better("Throughput", ""), 0);
	assert_int_equal(rfm_kind_ok(RK_INFO, "T @sys:part+builtin-gcc-7.2.0", 29), 1);
	assert_int_equal(rfm_kind_ok(RK_ENV, "builtin-gcc-7.2.0", 17), 1);
	assert_int_equal(rfm_kind_ok(RK_ENV, "a b", 3), 0);
}

/* ingest_parse_double's fast path gives what num_parse_double (strtod) gives */
static void test_parse_double(void **state)
{
	static const char *const fixed[] = {
		"14.8", "-0.1", "0", "-0", "+5", "5.", ".5", "-", ".", "1e5", " 7", "None",
		"1579688119.6235445", "123456789012345", "1234567890123456", "0.0000000000000000000001",
		"0.00000000000000000000001", "9007199254740993", "1.7976931348623157e308", "nan",
		"00012.5000", "3.14159265358979", "-999999999999999.9"
	};
	uint64_t x = 1234567ULL;
	size_t i, k;

	(void)state;
	for (i = 0; i < AB_ARRAY_SIZE(fixed) + 50000; i++) {
		char buf[40];
		const char *t = buf;
		double a = 0, b = 0;
		enum num_kind ka, kb;

		if (i < AB_ARRAY_SIZE(fixed)) {
			t = fixed[i];
		} else {
			size_t n, dot;
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			n = 1 + x % 18;
			dot = (x >> 8) % (n + 2);
			k = 0;
			if ((x >> 20) & 1)
				buf[k++] = '-';
			for (size_t d = 0; d < n; d++) {
				if (d == dot)
					buf[k++] = '.';
				buf[k++] = (char)('0' + (x >> (24 + d % 30)) % 10);
			}
			buf[k] = '\0';
		}
		ka = ingest_parse_double(t, strlen(t), &a);
		kb = num_parse_double(t, strlen(t), &b);
		assert_int_equal(ka, kb);
		if (ka == NUM_OK && memcmp(&a, &b, sizeof(a)))
			fail_msg("'%s': %.17g vs %.17g", t, a, b);
	}
}

static void test_small_helpers(void **state)
{
	struct jtext_obj p;
	struct strbuf s = STRBUF_INIT;

	(void)state;
	jtext_obj_init(&p);
	rfm_display_params("Foo %num_gpus=4 %p={'nodes': 128, 'tasks_per_node': 128} %x=a b", &p);
	jtext_obj_dump(&p, &s);
	assert_string_equal(s.buf, "{\"num_gpus\":4,\"p\":\"{'nodes': 128, 'tasks_per_node': 128}\","
			       "\"x\":\"a b\"}");
	strbuf_release(&s);
	jtext_obj_release(&p);
	assert_int_equal(rfm_version_old_era("3.10.0-dev.2+bf404ae1", 21), 1);
	assert_int_equal(rfm_version_old_era("3.0-dev6 (rev: 3f0c45d4)", 24), 1);
	assert_int_equal(rfm_version_old_era("4.6.0", 5), 1);
	assert_int_equal(rfm_version_old_era("4.7.0", 5), 0);
	assert_int_equal(rfm_version_old_era("4.10.0", 6), 0);
	assert_int_equal(rfm_unit_is_time("s"), 1);
	assert_int_equal(rfm_unit_is_time("ms"), 1);
	assert_int_equal(rfm_unit_is_time("inputs/s"), 0);
	assert_int_equal(rfm_unit_is_time(""), 0);
	assert_int_equal(rfm_kind_ok(RK_INFO, "T %a=1 /0123abcd @sys:part+env", 30), 1);
	assert_int_equal(rfm_kind_ok(RK_INFO, "Name_1 on sys:part using gnu", 28), 1);
	assert_int_equal(rfm_kind_ok(RK_INFO, "Name", 4), 0);
	assert_int_equal(rfm_kind_ok(RK_JSON, "{\"a\": \"x|y\"}", 12), 1);
	assert_int_equal(rfm_kind_ok(RK_JSON, "{\"a\": \"x", 8), 0);
	assert_int_equal(rfm_kind_ok(RK_NUM, "None", 4), 1);
	assert_int_equal(rfm_kind_ok(RK_NUM, "-inf", 4), 1);
	assert_int_equal(rfm_kind_ok(RK_NUM, "4x", 2), 0);
}

static void test_compile(void **state)
{
	struct rfm_fmt f;
	struct strbuf err = STRBUF_INIT;
	const struct rfm_builtin *epcc = &rfm_builtins[4];

	(void)state;
	rfm_fmt_init(&f);
	assert_int_equal(rfm_fmt_compile(&f, "a %%(x)s %(check_jobid)-8s|%(y)d", NULL, &err), 0);
	assert_int_equal(f.nph, 2);
	assert_string_equal(f.lit[0], "a %(x)s ");
	assert_string_equal(f.ph[0], "check_jobid");
	assert_string_equal(f.lit[1], "|");
	assert_string_equal(f.ph[1], "y");
	assert_int_equal(rfm_fmt_compile(&f, "%(x", NULL, &err), -AB_EDATA);
	assert_string_equal(err.buf, "bad placeholder in the perflog format at offset 0");
	assert_int_equal(rfm_fmt_compile(&f, "plain", NULL, &err), -AB_EDATA);
	assert_string_equal(err.buf, "perflog format 'plain' has no %(...)s placeholder");

	/* EPCC's header as ReFrame < 4.6.1 wrote it (one character per literal) */
	assert_string_equal(epcc->label, "EPCC compat");
	assert_int_equal(rfm_fmt_compile(&f, epcc->format, epcc->perfvars, &err), 0);
	assert_int_equal(rfm_fmt_is_header(&f, "display_name|result|job_completion_time|perf_var|"
					       "perf_value perf_unit|perf_ref,perf_lower_thres,"
					       "perf_upper_thres)"),
			 1);
	/* and from 4.6.1 on (all the literal text) */
	assert_int_equal(rfm_fmt_is_header(&f, "display_name|result|job_completion_time|perf_var|"
					       "perf_value perf_unit|(perf_ref, perf_lower_thres, "
					       "perf_upper_thres)|"),
			 1);
	assert_int_equal(rfm_fmt_is_header(&f, "ResNet50CPUCheck|pass|2024-03-11T10:02:17|x|1 s|"
					       "(0, null, null)|"),
			 0);
	rfm_fmt_release(&f);
	strbuf_release(&err);
}

/* Layout of a builtin format, header optional. */
static void layout_of(struct rfm_layout *l, int builtin, const char *header)
{
	struct rfm_fmt f;
	struct strbuf err = STRBUF_INIT;

	rfm_fmt_init(&f);
	assert_int_equal(rfm_fmt_compile(&f, rfm_builtins[builtin].format,
					 rfm_builtins[builtin].perfvars, &err), 0);
	rfm_layout_init(l);
	assert_int_equal(rfm_layout_build(l, &f, header, &err), 0);
	rfm_fmt_release(&f);
	strbuf_release(&err);
}

static void assert_field(const struct rfm_match *m, const char *line, size_t i, const char *want)
{
	assert_int_equal(m->len[i], strlen(want));
	assert_memory_equal(line + m->off[i], want, m->len[i]);
}

static void test_match_epcc(void **state)
{
	struct rfm_layout l;
	struct rfm_match m;
	size_t a, b;
	const char *l1 = "DeepCam %n=1|pass|2024-03-11T10:02:17|Delta Loss|0.12 |(0, null, null)|";
	const char *l2 = "INode|pass|2024-03-11T10:02:17|MDT-0|8.82 % inodes|(75, null, 0.0)|";
	const char *l3 = "X|pass|2024-03-11T10:02:17|v|1.5 s|(0, null, null)";

	(void)state;
	layout_of(&l, 4, NULL);
	rfm_match_init(&m);
	assert_int_equal(l.n, 9);
	assert_int_equal(l.per_var, 1);
	assert_int_equal(l.delim, 0);
	/* empty unit */
	assert_int_equal(rfm_layout_match(&l, l1, strlen(l1), &m, &a, &b), RFM_MATCH_OK);
	assert_field(&m, l1, 0, "DeepCam %n=1");
	assert_field(&m, l1, 3, "Delta Loss");
	assert_field(&m, l1, 4, "0.12");
	assert_field(&m, l1, 5, "");
	/* unit with a blank */
	assert_int_equal(rfm_layout_match(&l, l2, strlen(l2), &m, &a, &b), RFM_MATCH_OK);
	assert_field(&m, l2, 4, "8.82");
	assert_field(&m, l2, 5, "% inodes");
	assert_field(&m, l2, 8, "0.0");
	/* the trailing ')|' is part of the format */
	assert_int_equal(rfm_layout_match(&l, l3, strlen(l3), &m, &a, &b), RFM_MATCH_NONE);
	rfm_match_release(&m);
	rfm_layout_release(&l);
}

/* The matcher remembers the texts each column's kind accepted: a text
 * of the same length, a text met under another kind, a text too long to
 * remember, are all judged again. */
static void test_match_kind_memo(void **state)
{
	static const char *const lines[][2] = {
		/* line, expected: "ok" or "none" */
		{ "2024-03-11T10:02:17|reframe 3.12.0|T %n=1 @s:p+gnu|jobid=7|bw=0.12|ref=0 (l=null, u=null)|GB/s", "ok" },
		{ "2024-03-11T10:02:17|reframe 3.12.0|T %n=1 @s:p+gnu|jobid=7|lat=1.5|ref=2 (l=-0.1, u=null)|s", "ok" },
		/* the value, then the time, then the lower threshold: same lengths, not numbers/times */
		{ "2024-03-11T10:02:17|reframe 3.12.0|T %n=1 @s:p+gnu|jobid=7|bw=0.1x|ref=0 (l=null, u=null)|GB/s", "none" },
		{ "2024-03-11T10:02:1x|reframe 3.12.0|T %n=1 @s:p+gnu|jobid=7|bw=0.12|ref=0 (l=null, u=null)|GB/s", "none" },
		{ "2024-03-11T10:02:17|reframe 3.12.0|T %n=1 @s:p+gnu|jobid=7|lat=1.5|ref=2 (l=-0.x, u=null)|s", "none" },
		/* both remembered texts again, then a third */
		{ "2024-03-11T10:02:17|reframe 3.12.0|T %n=1 @s:p+gnu|jobid=7|bw=0.12|ref=0 (l=null, u=null)|GB/s", "ok" },
		{ "2024-03-11T10:02:17|reframe 3.12.0|T %n=1 @s:p+gnu|jobid=7|lat=1.5|ref=2 (l=-0.1, u=null)|s", "ok" },
		{ "2024-03-11T10:02:18|reframe 3.12.0|T %n=1 @s:p+gnu|jobid=8|bw=0.13|ref=0 (l=null, u=null)|GB/s", "ok" },
		/* an info too long to remember, twice, then broken (no sys:part+env) */
		{ "2024-03-11T10:02:18|reframe 3.12.0|TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT %n=1 @s:p+gnu|jobid=8|bw=0.13|ref=0 (l=null, u=null)|GB/s", "ok" },
		{ "2024-03-11T10:02:18|reframe 3.12.0|TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT %n=1 @s:p+gnu|jobid=8|bw=0.13|ref=0 (l=null, u=null)|GB/s", "ok" },
		{ "2024-03-11T10:02:18|reframe 3.12.0|TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT %n=1 @s:pXgnu|jobid=8|bw=0.13|ref=0 (l=null, u=null)|GB/s", "none" },
	};
	/* column 0: EPCC's display name, 3.x's time; "T" is a name, not a time */
	const char *epcc = "T|pass|2024-03-11T10:02:17|v|1.5 s|(0, null, null)|";
	const char *v3 = "T|reframe 4.6.1|T %n=1 @s:p+gnu|jobid=7|bw=0.12|ref=0 (l=null, u=null)|GB/s";
	struct rfm_layout l, e;
	struct rfm_match m;
	size_t a, b, i;

	(void)state;
	layout_of(&l, 3, NULL);
	layout_of(&e, 4, NULL);
	assert_int_equal(l.delim, 0);
	rfm_match_init(&m);
	for (i = 0; i < AB_ARRAY_SIZE(lines); i++) {
		int rc = rfm_layout_match(&l, lines[i][0], strlen(lines[i][0]), &m, &a, &b);
		assert_int_equal(rc, !strcmp(lines[i][1], "ok") ? RFM_MATCH_OK : RFM_MATCH_NONE);
	}
	assert_int_equal(rfm_layout_match(&e, epcc, strlen(epcc), &m, &a, &b), RFM_MATCH_OK);
	assert_field(&m, epcc, 0, "T");
	assert_int_equal(rfm_layout_match(&l, v3, strlen(v3), &m, &a, &b), RFM_MATCH_NONE);
	assert_int_equal(rfm_layout_match(&l, lines[0][0], strlen(lines[0][0]), &m, &a, &b),
			 RFM_MATCH_OK);
	rfm_match_release(&m);
	rfm_layout_release(&l);
	rfm_layout_release(&e);
}

static void test_match_separator_in_field(void **state)
{
	static const char hdr[] = "result|job_completion_time|descr|extra|env_vars|environ|jobid|"
				  "name|num_gpus|partition|x_value|x_unit|x_ref|x_lower_thres|"
				  "x_upper_thres|system";
	struct rfm_layout l;
	struct rfm_match m;
	size_t a = 0, b = 0;
	/* a '|' inside the JSON of env_vars: only one reading keeps it an object */
	const char *ok = "pass|2024-01-01T00:00:00|a b|e|{\"K\": \"1|2\"}|gnu|7|T %n=1|2|p|1.5|s|0|"
			 "None|None|s";
	/* a '|' in descr or in extra: both free text, two readings */
	const char *amb = "pass|2024-01-01T00:00:00|a|b|c|{}|gnu|7|T|2|p|1.5|s|0|None|None|s";

	(void)state;
	layout_of(&l, 0, hdr);
	assert_int_equal(l.n, 16);
	assert_int_equal(l.delim, '|');
	assert_int_equal(l.nperf, 1);
	assert_string_equal(l.perf_names[0], "x");
	rfm_match_init(&m);
	assert_int_equal(rfm_layout_match(&l, ok, strlen(ok), &m, &a, &b), RFM_MATCH_OK);
	assert_int_equal(m.realigned, 1);
	assert_string_equal(l.col[m.realigned_col].name, "env_vars");
	assert_field(&m, ok, 2, "a b");
	assert_field(&m, ok, 3, "e");
	assert_field(&m, ok, 4, "{\"K\": \"1|2\"}");
	assert_field(&m, ok, 7, "T %n=1");
	assert_field(&m, ok, 10, "1.5");
	assert_int_equal(rfm_layout_match(&l, amb, strlen(amb), &m, &a, &b), RFM_MATCH_AMBIGUOUS);
	assert_string_equal(l.col[a].name, "descr");
	assert_string_equal(l.col[b].name, "extra");
	rfm_match_release(&m);
	rfm_layout_release(&l);
}

/* ReFrame 4.0-4.2: ',' separates columns and also appears in parameter values. */
static void test_match_comma_in_display_name(void **state)
{
	static const char hdr[] = "job_completion_time,version,display_name,system,partition,"
				  "environ,jobid,result,x_value,x_unit,x_ref,x_lower_thres,"
				  "x_upper_thres";
	const char *line = "2022-10-18T21:41:25,4.2.0,T %p={'a': 1, 'b': 2},sys,part,gnu,81351,"
			   "pass,1.5,GB/s,0,None,None";
	struct rfm_layout l;
	struct rfm_match m;
	size_t a, b;

	(void)state;
	layout_of(&l, 1, hdr);
	assert_int_equal(l.delim, ',');
	rfm_match_init(&m);
	assert_int_equal(rfm_layout_match(&l, line, strlen(line), &m, &a, &b), RFM_MATCH_OK);
	assert_int_equal(m.realigned, 1);
	assert_string_equal(l.col[m.realigned_col].name, "display_name");
	assert_field(&m, line, 2, "T %p={'a': 1, 'b': 2}");
	assert_field(&m, line, 3, "sys");
	assert_field(&m, line, 8, "1.5");
	/* the 4.0-4.1 names (_lower/_upper) do not fit a 4.2 header */
	rfm_layout_release(&l);
	{
		struct rfm_fmt f;
		struct strbuf err = STRBUF_INIT;
		rfm_fmt_init(&f);
		assert_int_equal(rfm_fmt_compile(&f, rfm_builtins[2].format, rfm_builtins[2].perfvars,
						 &err), 0);
		assert_int_equal(rfm_layout_build(&l, &f, hdr, &err), -AB_EDATA);
		assert_string_equal(err.buf, "header column 12 is 'x_lower_thres', expected 'x_lower'");
		rfm_fmt_release(&f);
		strbuf_release(&err);
	}
	rfm_match_release(&m);
}

/* ---- fixtures ---------------------------------------------------------------- */

static void test_fixture_good(void **state)
{
	struct strbuf p = STRBUF_INIT;
	struct cap c;
	struct cap_run *r;
	const char *paths[1], *unit = NULL;

	(void)state;
	cap_init(&c);
	path_of(&p, fixtures(), "reframe/good");
	paths[0] = p.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths, 1), 0);
	assert_int_equal(c.n, 6);

	/* 4.3+ default: headline = first perf variable, higher is better */
	r = find(&c, "Bench43", "sysa:part1", 0);
	assert_non_null(r);
	assert_string_equal(r->status, "ok");
	assert_string_equal(r->metric, "throughput");
	assert_string_equal(r->unit, "images/s");
	assert_int_equal(r->lower, 0);
	assert_int_equal(r->devices, 4);
	assert_string_equal(r->job, "101");
	assert_string_equal(r->finished, "2024-05-01T10:00:00.500Z");
	assert_num_eq(metric(r, "throughput", &unit), 1200.5, 0);
	assert_string_equal(unit, "images/s");
	assert_string_equal(meta(r, "throughput"),
			    "{\"lower_bound\":900.0,\"lower_thres\":-0.10000000000000001,"
			    "\"reference\":1000.0,\"result\":\"pass\",\"result_computed\":true,"
			    "\"upper_thres\":null}");
	assert_num_eq(metric(r, "time", &unit), 35.2, 0);
	assert_string_equal(unit, "s");
	assert_string_equal(r->key, "[\"reframe\",\"Bench43 %num_gpus=4\",\"sysa\",\"part1\",\"gnu\","
				    "\"t:1714557600\"]");

	/* '|' inside descr: read, with a warning naming the line; nan -> missing */
	r = find(&c, "Bench43", "sysa:part1", 1);
	assert_true(has(c.warnings.buf, "good/perflogs/sysa/part1/Bench43.log:3: field 'descr' "
					"contains '|'; columns aligned by their content"));
	assert_num_eq(metric(r, "throughput", NULL), 2300, 0);
	assert_true(isnan(metric(r, "time", NULL)));
	assert_true(has(r->params, "\"descr\":\"Bench | with pipe\""));
	assert_true(has(r->params, "\"env_vars\":{\"OMP_NUM_THREADS\":\"8\"}"));
	assert_true(has(r->params, "\"perf_missing\":{\"time\":\"nan\"}"));

	/* reference 0 with absolute thresholds: 250 is outside [100, 200] */
	r = find(&c, "Bench43", "sysa:part1", 2);
	assert_string_equal(r->status, "failed");
	assert_string_equal(r->reason, "performance: throughput=250 outside [100, 200]");
	assert_string_equal(meta(r, "throughput"),
			    "{\"lower_bound\":100.0,\"lower_thres\":100.0,\"reference\":0.0,"
			    "\"result\":\"fail\",\"result_computed\":true,\"thresholds\":\"absolute\","
			    "\"upper_bound\":200.0,\"upper_thres\":200.0}");
	assert_true(has(r->params, "\"perf_missing\":{\"time\":\"inf\"}"));

	/* empty value: only the other variable is a metric */
	r = find(&c, "Bench43", "sysa:part1", 3);
	assert_string_equal(r->status, "ok");
	assert_int_equal(r->nm, 1);
	assert_num_eq(metric(r, "time", NULL), 12, 0);

	/* 3.0-era perflog: "Name on sys:part using env", times with +01:00, None */
	r = find(&c, "Old3x_1", "sysb:part2", 0);
	assert_non_null(r);
	assert_int_equal(r->line, 1);
	assert_string_equal(r->finished, "2020-09-08T17:01:05Z");
	assert_string_equal(r->job, "77");
	assert_int_equal(r->nm, 2);
	assert_num_eq(metric(r, "bw", &unit), 12.5, 0);
	assert_string_equal(unit, "GB/s");
	/* a '=' inside the variable name: the value must be a number */
	assert_num_eq(metric(r, "a=b", &unit), 1.5, 0);
	assert_string_equal(unit, "");
	assert_true(has(r->params, "\"perf_missing\":{\"lat\":\"None\"}"));
	assert_true(has(r->params, "\"time_basis\":\"job_completion_time with UTC offset\""));
	assert_string_equal(r->key, "[\"reframe\",\"Old3x_1\",\"sysb\",\"part2\",\"gnu\",\"job:77\"]");
	assert_true(has(c.warnings.buf, "Old3x_1.log:3: field 'perf_var' contains '='"));
	r = find(&c, "Old3x_1", "sysb:part2", 1);
	assert_int_equal(r->line, 4);
	assert_string_equal(r->job, "78");
	assert_int_equal(r->nm, 1);
	cap_release(&c);
	strbuf_release(&p);
}

static void test_fixture_bad(void **state)
{
	static const char *const want[] = {
		"reframe/bad/ambiguous.log:2: ambiguous line: a '|' inside a field could belong "
		"to 'descr' or 'extra_info'\n",
		"reframe/bad/badtime.log:2: cannot read the time 'yesterday'\n",
		"reframe/bad/short.log:3: 13 fields separated by '|', the ReFrame 4.3+ default "
		"layout has 14 and no alignment fits the column contents\n",
		"reframe/bad/truncated-report.json:1: truncated JSON\n",
	};
	struct strbuf p = STRBUF_INIT;
	struct cap c;
	const char *paths[1];
	size_t i;

	(void)state;
	cap_init(&c);
	path_of(&p, fixtures(), "reframe/bad");
	paths[0] = p.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths, 1), -AB_EDATA);
	/* short.log's good line 2 was rolled back with the file */
	assert_int_equal(c.n, 0);
	for (i = 0; i < AB_ARRAY_SIZE(want); i++)
		assert_true(has(c.rejects.buf, want[i]));
	cap_release(&c);
	strbuf_release(&p);
}

static void test_fixture_site(void **state)
{
	struct strbuf p = STRBUF_INIT, q = STRBUF_INIT;
	struct cap c;
	struct cap_run *r;
	const char *paths[2], *unit;

	(void)state;
	cap_init(&c);
	path_of(&p, fixtures(), "reframe/site");
	path_of(&q, fixtures(), "reframe/reports/site-dv31.json");
	paths[0] = p.buf;
	paths[1] = q.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths, 2), 0);
	/* the report's test case is the perflog's first line (ReFrame 4.3: by job id) */
	assert_int_equal(c.n, 2);
	assert_int_equal(c.dups, 1);
	r = find(&c, "SiteTest", "sysc:gpu", 0);
	assert_non_null(r);
	assert_true(has(r->path, "SiteTest.log"));
	assert_num_eq(metric(r, "flops", &unit), 812.5, 0);
	assert_string_equal(unit, "GFLOP/s");
	assert_num_eq(metric(r, "bw", &unit), 1500, 0);
	/* no offset in the log: the config file's utc_offset +01:00 */
	assert_string_equal(r->finished, "2024-06-01T08:00:00Z");
	assert_true(has(r->params, "\"utc_offset_assumed\":\"+01:00\""));
	assert_true(has(r->params, "\"reframe_version\":\"4.3.2\""));
	assert_string_equal(r->key, "[\"reframe\",\"SiteTest %n=2\",\"sysc\",\"gpu\",\"nvhpc\","
				    "\"job:5001\"]");
	cap_release(&c);

	/* the option names the format; the config file's offset still applies */
	cap_init(&c);
	path_of(&p, fixtures(), "reframe/site/perflogs/sysc/gpu/SiteTest.log");
	paths[0] = p.buf;
	assert_int_equal(ingest(&c, NULL, "{\"utc_offset\": \"-02:00\"}", paths, 1), 0);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.r[0].finished, "2024-06-01T11:00:00Z");
	cap_release(&c);
	strbuf_release(&p);
	strbuf_release(&q);
}

static void test_fixture_option(void **state)
{
	static const char fmt[] = "%(check_display_name)s,%(check_system)s,%(check_partition)s,"
				  "%(check_environ)s,%(check_job_completion_time)s,"
				  "%(check_perf_var)s,%(check_perf_value)s,%(check_perf_unit)s";
	struct strbuf p = STRBUF_INIT;
	struct cap c;
	struct cap_run *r;
	const char *paths[1];

	(void)state;
	cap_init(&c);
	path_of(&p, fixtures(), "reframe/headerless");
	paths[0] = p.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths, 1), -AB_EDATA);
	assert_true(has(c.rejects.buf, "CsvTest.log:1: not a ReFrame perflog layout I know"));
	cap_release(&c);

	cap_init(&c);
	assert_int_equal(ingest(&c, NULL, fmt, paths, 1), 0);
	assert_int_equal(c.n, 2);
	r = find(&c, "CsvTest", "sysd:cpu", 1);
	assert_string_equal(r->metric, "latency");
	assert_string_equal(r->unit, "us");
	assert_int_equal(r->lower, 1);
	assert_num_eq(metric(r, "latency", NULL), 4.25, 0);
	assert_num_eq(metric(r, "bandwidth", NULL), 19.5, 0);
	assert_string_equal(r->finished, "2024-07-01T12:05:00Z");
	assert_true(has(r->params, "\"size\":2"));
	cap_release(&c);

	cap_init(&c);
	assert_int_equal(ingest(&c, NULL, "%(x", paths, 1), -AB_EDATA);
	assert_true(has(c.rejects.buf,
			"CsvTest.log: --perflog-format: bad placeholder in the perflog format"));
	cap_release(&c);
	strbuf_release(&p);
}

static void test_fixture_reports(void **state)
{
	struct strbuf p = STRBUF_INIT;
	struct cap c;
	struct cap_run *r;
	const char *paths[1], *unit;

	(void)state;
	cap_init(&c);
	path_of(&p, fixtures(), "reframe/reports");
	paths[0] = p.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths, 1), 0);
	assert_int_equal(c.n, 8);
	assert_true(has(c.warnings.buf, "compressed-nan.json: 1 passing test case without "
					"performance variables not stored"));
	assert_true(has(c.warnings.buf, "compressed-nan.json: 2 skipped test cases not stored "
					"(never ran)"));

	/* NaN / Infinity tokens: missing values; an Infinity threshold is unbounded */
	r = find(&c, "NanTest", "sysr:gpu", 0);
	assert_non_null(r);
	assert_string_equal(r->metric, "tput");
	assert_int_equal(r->nm, 1);
	assert_num_eq(metric(r, "tput2", &unit), 512.5, 0);
	assert_string_equal(meta(r, "tput2"),
			    "{\"lower_bound\":450.0,\"lower_thres\":-0.10000000000000001,"
			    "\"reference\":500.0,\"result\":\"pass\",\"upper_thres\":null}");
	assert_true(has(r->params, "\"perf_missing\":{\"lat\":\"-Infinity\",\"tput\":\"NaN\"}"));
	assert_true(has(r->params, "\"session_extras\":{\"campaign\":\"fixture\",\"gbs\":\"64\"}"));
	assert_int_equal(r->local_batch, 16);
	assert_int_equal(r->global_batch, 64);
	assert_int_equal(r->devices, 2);
	assert_string_equal(r->finished, "2024-06-01T09:10:00.250Z");
	/* ReFrame gives the submit time, not the start: kept in params only */
	assert_null(r->started);
	assert_true(has(r->params, "\"job_submit_time\":\"2024-06-01T09:09:50Z\""));

	/* a failure and its retry in runs[1] */
	r = find(&c, "FailTest", "sysr:gpu", 0);
	assert_string_equal(r->status, "failed");
	assert_string_equal(r->reason, "performance error: failed to meet reference");
	assert_true(has(meta(r, "tput"), "\"result\":\"fail\""));
	r = find(&c, "FailTest", "sysr:gpu", 1);
	assert_string_equal(r->status, "ok");
	assert_string_equal(r->job, "905");
	assert_true(has(r->params, "\"run_index\":1"));

	/* restored_cases */
	r = find(&c, "OldTest", "sysr:gpu", 0);
	assert_true(has(r->params, "\"restored\":true"));

	/* data_version 1.3: perfvars, system "sys:part", environment, name only */
	r = find(&c, "OldReport_2", "syso:part", 0);
	assert_string_equal(r->status, "ok");
	assert_num_eq(metric(r, "gflops", NULL), 55.5, 0);
	assert_true(has(r->params, "\"perf_missing\":{\"eff\":\"n/a\"}"));
	assert_string_equal(r->key,
			    "[\"reframe\",\"OldReport_2\",\"syso\",\"part\",\"intel\",\"job:3141\"]");
	r = find(&c, "OldReport_2", "syso:part", 1);
	assert_string_equal(r->status, "failed");
	assert_string_equal(r->reason, "sanity error: x");
	assert_int_equal(r->nm, 0);

	/* data_version 4.0: 5-tuples, a ':' in the variable name, time with offset */
	r = find(&c, "FiveTest", "sysq:cpu", 0);
	assert_num_eq(metric(r, "t:sub", &unit), 2.5, 0);
	assert_string_equal(unit, "s");
	assert_int_equal(r->lower, 1);
	assert_string_equal(r->finished, "2023-12-31T23:30:00Z");
	assert_true(has(meta(r, "t:sub"), "\"result\":\"pass\",\"result_computed\":true"));
	cap_release(&c);
	strbuf_release(&p);
}

/* results.db built here from a fixture report: read, deduped, left untouched. */
static void test_results_db(void **state)
{
	struct strbuf p = STRBUF_INIT, db = STRBUF_INIT, blob = STRBUF_INIT;
	char tmpl[] = "/tmp/ab-rfm-XXXXXX", buf[4096];
	struct cap c;
	struct stat before, after;
	sqlite3 *s;
	sqlite3_stmt *st;
	const char *paths[2];
	FILE *fp;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	path_of(&p, fixtures(), "reframe/reports/compressed-nan.json");
	fp = fopen(p.buf, "rb");
	assert_non_null(fp);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(&blob, buf, n);
	fclose(fp);
	strbuf_addf(&db, "%s/results.db", tmpl);
	assert_int_equal(sqlite3_open(db.buf, &s), SQLITE_OK);
	assert_int_equal(sqlite3_exec(s, "CREATE TABLE sessions(uuid TEXT PRIMARY KEY,"
				      " session_start_unix REAL, session_end_unix REAL,"
				      " json_blob TEXT, report_file TEXT);"
				      "CREATE TABLE metadata(schema_version TEXT);"
				      "INSERT INTO metadata VALUES ('1.0');",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(s, "INSERT INTO sessions VALUES ('sess-1', 1, 2, ?1, 'r')",
					    -1, &st, NULL),
			 SQLITE_OK);
	sqlite3_bind_text(st, 1, blob.buf, (int)blob.len, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(s);
	assert_int_equal(stat(db.buf, &before), 0);

	cap_init(&c);
	paths[0] = db.buf;
	assert_int_equal(ingest(&c, "reframe-db", NULL, paths, 1), 0);
	assert_int_equal(c.n, 4);
	assert_num_eq(metric(find(&c, "FailTest", "sysr:gpu", 1), "tput", NULL), 99, 0);
	/* the same session's report adds nothing */
	paths[1] = p.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths + 1, 1), 0);
	assert_int_equal(c.n, 4);
	assert_int_equal(c.dups, 4);
	cap_release(&c);
	assert_int_equal(stat(db.buf, &after), 0);
	assert_int_equal(before.st_size, after.st_size);
	assert_int_equal(before.st_mtime, after.st_mtime);
	strbuf_addstr(&db, "-journal");
	assert_int_not_equal(access(db.buf, F_OK), 0);

	/* not ReFrame's schema */
	strbuf_reset(&db);
	strbuf_addf(&db, "%s/other.db", tmpl);
	assert_int_equal(sqlite3_open(db.buf, &s), SQLITE_OK);
	assert_int_equal(sqlite3_exec(s, "CREATE TABLE t(x);", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	cap_init(&c);
	paths[0] = db.buf;
	assert_int_equal(ingest(&c, "reframe-db", NULL, paths, 1), -AB_EDATA);
	assert_true(has(c.rejects.buf, "other.db: not a ReFrame results database (no "
				       "sessions(uuid, json_blob)): no such table: sessions"));
	cap_release(&c);
	unlink(db.buf);
	strbuf_reset(&db);
	strbuf_addf(&db, "%s/results.db", tmpl);
	unlink(db.buf);
	rmdir(tmpl);
	strbuf_release(&p);
	strbuf_release(&db);
	strbuf_release(&blob);
}

/* Truncated, empty, binary, an over-long line: clean errors, nothing lands. */
static void test_bad_inputs(void **state)
{
	char tmpl[] = "/tmp/ab-rfm-XXXXXX";
	struct strbuf f = STRBUF_INIT;
	struct cap c;
	const char *paths[1];
	FILE *fp;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	strbuf_addf(&f, "%s/long.log", tmpl);
	fp = fopen(f.buf, "w");
	assert_non_null(fp);
	fputs("result|job_completion_time|name|partition|x_value|x_unit|x_ref|x_lower_thres|"
	      "x_upper_thres|system\npass|", fp);
	for (i = 0; i < (2u << 20); i++)
		fputc('a', fp);
	fputs("\n", fp);
	fclose(fp);
	cap_init(&c);
	paths[0] = f.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths, 1), -AB_EDATA);
	assert_true(has(c.rejects.buf, "long.log:2: line longer than 1048576 bytes"));
	assert_int_equal(c.n, 0);
	cap_release(&c);
	unlink(f.buf);

	/* a report forced on a perflog, a perflog forced on garbage */
	strbuf_reset(&f);
	strbuf_addf(&f, "%s/x.json", tmpl);
	fp = fopen(f.buf, "w");
	fputs("[1, 2]", fp);
	fclose(fp);
	cap_init(&c);
	assert_int_equal(ingest(&c, "reframe-report", NULL, paths, 1), -AB_EDATA);
	assert_true(has(c.rejects.buf, "x.json:1: the run report is not a JSON object"));
	cap_release(&c);
	cap_init(&c);
	assert_int_equal(ingest(&c, "reframe-perflog", NULL, paths, 1), -AB_EDATA);
	assert_true(has(c.rejects.buf, "x.json:1: not a ReFrame perflog layout I know"));
	cap_release(&c);
	unlink(f.buf);
	rmdir(tmpl);
	strbuf_release(&f);
}

/* What a case's runs share is made once and kept while it repeats (the
 * dedupe key's text before the time, the system's meta, the escaped
 * display name, environment, result): each run's must still be its own,
 * when one field changes, by one byte at the same length, when bytes move
 * from one field to the next, with escapes, and back. */
static void test_emit_memos(void **state)
{
	static const char *const rows[][5] = {
		/* result, name, environ, partition, system */
		{ "pass", "T %a=1", "gnu", "p", "sys" },
		{ "pass", "T %a=1", "gnu", "p", "sys" },
		{ "pass", "T %a=2", "gnu", "p", "sys" },
		{ "pass", "T %a=2", "gnv", "p", "sys" },
		{ "fail", "T %a=2", "gnv", "p", "sys" },
		{ "pass", "T %a=2", "gnv", "pc", "sab" },
		{ "pass", "T %a=2", "gnv", "bpc", "sa" },
		{ "pass", "T %a=2", "gnvb", "pc", "sa" },
		{ "pass", "T %a=\"\xc3\xa9\\", "g\"n", "p\\", "s\xc3\xa9" },
		{ "pass", "T %a=\"\xc3\xa9\\", "g\"n", "p\\", "s\xc3\xa9" },
		{ "pass", "T %a=1", "gnu", "p", "sys" },
	};
	char tmpl[] = "/tmp/ab-rfm-XXXXXX";
	struct strbuf f = STRBUF_INIT;
	const char *paths[1];
	struct cap c;
	FILE *fp;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	strbuf_addf(&f, "%s/m.log", tmpl);
	paths[0] = f.buf;
	fp = fopen(f.buf, "w");
	assert_non_null(fp);
	fputs("result|job_completion_time|name|environ|partition|x_value|x_unit|x_ref|"
	      "x_lower_thres|x_upper_thres|system\n", fp);
	for (i = 0; i < AB_ARRAY_SIZE(rows); i++)
		fprintf(fp, "%s|2024-05-01T10:00:%02u|%s|%s|%s|1.5|s|0|None|None|%s\n", rows[i][0],
			(unsigned)i, rows[i][1], rows[i][2], rows[i][3], rows[i][4]);
	fclose(fp);
	cap_init(&c);
	assert_int_equal(ingest(&c, NULL, NULL, paths, 1), 0);
	assert_int_equal(c.n, AB_ARRAY_SIZE(rows));
	for (i = 0; i < AB_ARRAY_SIZE(rows); i++) {
		const struct cap_run *r = &c.r[i];
		char t[32], *want;
		json_t *j, *pj;

		snprintf(t, sizeof(t), "t:%lld", 1714557600LL + (long long)i);
		j = json_pack("[sssss]", "reframe", rows[i][1], rows[i][4], rows[i][3], rows[i][2]);
		json_array_append_new(j, json_string(t));
		want = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
		assert_string_equal(r->key, want);
		free(want);
		json_decref(j);
		j = json_pack("{s:s,s:s}", "site", rows[i][4], "partition", rows[i][3]);
		want = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER);
		assert_string_equal(r->sysmeta, want);
		free(want);
		json_decref(j);
		pj = json_loads(r->params, 0, NULL);
		assert_non_null(pj);
		assert_string_equal(json_string_value(json_object_get(pj, "display_name")), rows[i][1]);
		assert_string_equal(json_string_value(json_object_get(pj, "environ")), rows[i][2]);
		assert_string_equal(json_string_value(json_object_get(pj, "result")), rows[i][0]);
		json_decref(pj);
	}
	cap_release(&c);
	/* the node count read from a value met before, and from new ones */
	{
		static const char *const nodes[][2] = {
			{ "4", "4" }, { "4", "4" }, { "8", "8" }, { "4.0", "0" }, { "4", "4" },
			{ "x4", "0" }, { "12", "12" }, { "-4", "0" }, { "12", "12" },
			{ "123456789012345678901234567", "0" }, { "123456789012345678901234567", "0" },
			{ "4", "4" },
		};
		static const char *const units[] = { "s", "s", "h", "ms", "us" };
		fp = fopen(f.buf, "w");
		assert_non_null(fp);
		fputs("result|job_completion_time|name|num_nodes|partition|x_value|x_unit|x_ref|"
		      "x_lower_thres|x_upper_thres|system\n", fp);
		/* and units: kept memory must not keep the text */
		for (i = 0; i < AB_ARRAY_SIZE(nodes); i++)
			fprintf(fp, "pass|2024-05-01T10:00:%02u|T|%s|p|1.5|%s|0|None|None|s\n",
				(unsigned)i, nodes[i][0], units[i % 5]);
		fclose(fp);
		cap_init(&c);
		assert_int_equal(ingest(&c, NULL, NULL, paths, 1), 0);
		assert_int_equal(c.n, AB_ARRAY_SIZE(nodes));
		for (i = 0; i < AB_ARRAY_SIZE(nodes); i++) {
			assert_int_equal(c.r[i].nodes, atol(nodes[i][1]));
			assert_string_equal(c.r[i].munit[0], units[i % 5]);
		}
		cap_release(&c);
	}
	/* one variable per line (3.x): each run's units, as written */
	{
		static const char *const v3[][3] = {
			{ "7", "bw", "GB/s" }, { "7", "lat", "us" }, { "8", "bw", "MB/s" },
			{ "8", "lat", "ms" }, { "9", "lat", "us" }, { "9", "bw", "GB/s" },
			{ "10", "bw", "GB/s" }, { "10", "lat", "us" },
		};
		fp = fopen(f.buf, "w");
		assert_non_null(fp);
		for (i = 0; i < AB_ARRAY_SIZE(v3); i++)
			fprintf(fp, "2024-05-01T10:00:%02u|reframe 3.12.0|T %%n=1 @s:p+gnu|jobid=%s|"
				"%s=1.5|ref=0 (l=null, u=null)|%s\n", (unsigned)(i / 2), v3[i][0],
				v3[i][1], v3[i][2]);
		fclose(fp);
		cap_init(&c);
		assert_int_equal(ingest(&c, NULL, NULL, paths, 1), 0);
		assert_int_equal(c.n, AB_ARRAY_SIZE(v3) / 2);
		for (i = 0; i < AB_ARRAY_SIZE(v3); i++) {
			const struct cap_run *r = &c.r[i / 2];
			size_t k;
			for (k = 0; k < r->nm && strcmp(r->mname[k], v3[i][1]); k++)
				;
			assert_true(k < r->nm);
			assert_string_equal(r->munit[k], v3[i][2]);
		}
		cap_release(&c);
	}
	/* results read up to a NUL byte, as strcmp read them: "skip\0x" is
	 * skip; "pas", "passx" and "xfai" are no result ReFrame has */
	{
		static const char res[][8] = { "skip\0x", "pas", "passx", "xfai", "pass" };
		static const char *const status[] = { "invalid", "invalid", "invalid", "ok" };

		fp = fopen(f.buf, "w");
		assert_non_null(fp);
		fputs("result|job_completion_time|name|partition|x_value|x_unit|x_ref|"
		      "x_lower_thres|x_upper_thres|system\n", fp);
		for (i = 0; i < AB_ARRAY_SIZE(res); i++) {
			fwrite(res[i], 1, i < 1 ? 6 : strlen(res[i]), fp);
			fprintf(fp, "|2024-05-01T10:00:%02u|T|p|1.5|s|0|None|None|s\n", (unsigned)i);
		}
		fclose(fp);
		cap_init(&c);
		/* a NUL makes the file look binary: the format is given */
		assert_int_equal(ingest(&c, "reframe-perflog", NULL, paths, 1), 0);
		assert_int_equal(c.n, 4);
		for (i = 0; i < 4; i++)
			assert_string_equal(c.r[i].status, status[i]);
		assert_true(has(c.warnings.buf, "1 skipped test case not stored"));
		cap_release(&c);
	}
	unlink(f.buf);
	rmdir(tmpl);
	strbuf_release(&f);
}

/* rfm_iso8601 (the date kept for the next call of the same day) ==
 * ingest_iso8601, for times in order, jumping about, at the edges of a
 * day, of a millisecond, of the years it formats itself. */
static void test_iso8601_memo(void **state)
{
	static const double edge[] = {
		0, 0.0004, 0.0005, 0.9994, 0.9995, 0.9999999, 86399.9994, 86399.9995, 86400,
		951782400 - 0.0004, 951782400 - 0.0006, 1579688119.6235445, 1579688089.6235445,
		253402300799.0, 253402300799.9994, 253402300799.9996, 253402300800.0,
		-0.0004, -0.4, -86400.5, -1e9, 4102444800.25, 1e12
	};
	struct rfm_iso_memo m;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	double t = 1577836800.0;
	unsigned x = 7;
	size_t i;

	(void)state;
	memset(&m, 0, sizeof(m));
	for (i = 0; i < 200000 + AB_ARRAY_SIZE(edge); i++) {
		double v;

		x = x * 1103515245u + 12345u;
		if (i < AB_ARRAY_SIZE(edge)) {
			v = edge[i];
		} else if ((x >> 16) % 50 == 0) {
			v = (double)((x >> 4) % 4000000000u) + (double)(x % 10000) / 10000.0;
		} else {
			t += (double)((x >> 16) % 40000) + (double)((x >> 3) % 1000) / 1000.0 +
			     ((x >> 12) % 7 == 0 ? 0.9996 : 0);
			v = t;
		}
		strbuf_setstr(&a, "<");
		strbuf_setstr(&b, "<");
		ingest_iso8601(&a, v);
		rfm_iso8601(&m, &b, v);
		assert_string_equal(b.buf, a.buf);
	}
	strbuf_release(&a);
	strbuf_release(&b);
}

/* The UTF-8 check reads ASCII 32 bytes at a time: a bad byte (or a good
 * multibyte character) anywhere in the line, on either side of a 32-byte
 * step, is judged as byte by byte. */
static void test_utf8_positions(void **state)
{
	static const char *const bad[] = { "\351", "\303(", "\355\240\200", "\300\200", "\303" };
	char tmpl[] = "/tmp/ab-rfm-XXXXXX";
	struct strbuf f = STRBUF_INIT, line = STRBUF_INIT;
	const char *paths[1];
	size_t pad, b;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	strbuf_addf(&f, "%s/u.log", tmpl);
	paths[0] = f.buf;
	for (b = 0; b <= AB_ARRAY_SIZE(bad); b++) {
		for (pad = 0; pad < 80; pad++) {
			struct cap c;
			FILE *fp = fopen(f.buf, "w");
			size_t i;
			int rc;

			assert_non_null(fp);
			strbuf_reset(&line);
			strbuf_addstr(&line, "pass|2024-05-01T10:00:00|T|p|1|");
			for (i = 0; i < pad; i++)
				strbuf_addch(&line, 'x');
			/* b == AB_ARRAY_SIZE(bad): a good 2-byte character */
			strbuf_addstr(&line, b < AB_ARRAY_SIZE(bad) ? bad[b] : "\303\251");
			strbuf_addstr(&line, "s|0|None|None|sys");
			fputs("result|job_completion_time|name|partition|x_value|x_unit|x_ref|"
			      "x_lower_thres|x_upper_thres|system\n", fp);
			fputs(line.buf, fp);
			fputs("\n", fp);
			fclose(fp);
			cap_init(&c);
			rc = ingest(&c, NULL, NULL, paths, 1);
			if (b < AB_ARRAY_SIZE(bad)) {
				assert_int_equal(rc, -AB_EDATA);
				assert_true(has(c.rejects.buf, "u.log:2: not UTF-8 text"));
			} else {
				assert_int_equal(rc, 0);
				assert_int_equal(c.n, 1);
			}
			cap_release(&c);
		}
	}
	unlink(f.buf);
	rmdir(tmpl);
	strbuf_release(&f);
	strbuf_release(&line);
}

/* ---- the samples ------------------------------------------------------------- */

static int samples(struct strbuf *sb, const char *rel)
{
	const char *s = unit_samples_dir();

	if (!s)
		return 0;
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/reframe/%s", s, rel);
	return 1;
}

static void test_samples_493(void **state)
{
	struct strbuf p = STRBUF_INIT, q = STRBUF_INIT;
	struct cap c;
	struct cap_run *r, *r2;
	const char *paths[2], *unit;

	(void)state;
	if (!samples(&p, "constructed_reframe-4.9.3/perflogs") ||
	    !samples(&q, "constructed_reframe-4.9.3/reports"))
		skip();
	cap_init(&c);
	paths[0] = p.buf;
	paths[1] = q.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths, 2), 0);
	/* 16 test cases + the retry + the pilot session's .h0; the JSON reports
	 * and results.db (detected as binary) add nothing: 18 duplicates each */
	assert_int_equal(c.n, 18);
	assert_int_equal(c.dups, 36);

	r = find(&c, "ResNet50CPUCheck", "archer2:compute", 0);
	assert_non_null(r);
	assert_string_equal(r->status, "ok");
	assert_num_eq(metric(r, "effective_throughput", &unit), 40.1, 0);
	assert_string_equal(unit, "inputs/s");
	assert_num_eq(metric(r, "compute_throughput", &unit), 40.5, 0);
	assert_string_equal(unit, "inputs/s");
	assert_string_equal(r->metric, "effective_throughput");
	assert_int_equal(r->nodes, 4);
	assert_string_equal(r->job, "13128");
	assert_string_equal(r->finished, "2024-03-18T09:14:07.182Z");
	assert_true(has(meta(r, "effective_throughput"), "\"lower_bound\":38.0"));
	assert_true(has(meta(r, "effective_throughput"), "\"upper_bound\":44.0"));
	assert_true(has(meta(r, "compute_throughput"), "\"reference\":0.0"));

	/* CosmoFlow on MI210 fails its reference and is retried once */
	r = find(&c, "CosmoFlowGPUBenchmark", "archer2:compute-gpu-torch", 0);
	r2 = find(&c, "CosmoFlowGPUBenchmark", "archer2:compute-gpu-torch", 1);
	assert_non_null(r2);
	assert_null(find(&c, "CosmoFlowGPUBenchmark", "archer2:compute-gpu-torch", 2));
	assert_string_equal(r->status, "failed");
	assert_string_equal(r2->status, "failed");
	assert_string_equal(r->job, "13199");
	assert_string_equal(r2->job, "13658");
	assert_string_equal(r->reason, "performance: effective_throughput=72.5 outside [360, inf]");
	assert_num_eq(metric(r2, "effective_throughput", NULL), 72.5, 0);
	assert_num_eq(metric(r2, "compute_throughput", NULL), 479.9, 0);
	assert_int_equal(r->devices, 4);

	/* the sanity failure: logged by 4.9 with None */
	r = find(&c, "DeepCAMGraphcoreBenchmark", "eidf:graphcore", 0);
	assert_string_equal(r->status, "failed");
	assert_int_equal(r->nm, 0);
	assert_true(has(r->params, "\"perf_missing\":{\"effective_throughput\":\"None\"}"));

	/* the pilot session (.log.h0) is its own run */
	r = find(&c, "ResNetGPUServiceBenchmark", "eidf:gpu-service", 0);
	r2 = find(&c, "ResNetGPUServiceBenchmark", "eidf:gpu-service", 1);
	assert_true(has(r->path, ".log") && has(r2->path, ".log"));
	assert_int_equal(r->nm + r2->nm, 3);
	assert_string_equal(r->accel, "NVIDIA-A100-SXM4-40GB");
	assert_int_equal(r->local_batch, 8);
	cap_release(&c);

	/* the reports alone: retry in runs[1], session extras, the same answers */
	cap_init(&c);
	paths[0] = q.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths, 1), 0);
	assert_int_equal(c.n, 18);
	r = find(&c, "CosmoFlowGPUBenchmark", "archer2:compute-gpu-torch", 1);
	assert_true(has(r->params, "\"run_index\":1"));
	assert_true(has(meta(r, "effective_throughput"), "\"result\":\"fail\",\"upper_thres\":null}"));
	r = find(&c, "ResNet50CSXBenchmark", "eidf:cs2", 0);
	assert_true(has(r->params, "\"session_extras\":{\"campaign\":\"hpdc24\",\"gbs\":\"32\"}"));
	assert_int_equal(r->global_batch, 32);
	r = find(&c, "DeepCAMGraphcoreBenchmark", "eidf:graphcore", 0);
	assert_string_equal(r->reason, "sanity error: pattern 'Effective Throughput' not found in "
				       "'rfm_job.out'");
	/* results.db was read in the walk (its bytes again are skipped) */
	samples(&p, "constructed_reframe-4.9.3/reports/results.db");
	paths[0] = p.buf;
	assert_int_equal(ingest(&c, "reframe-db", NULL, paths, 1), 0);
	assert_int_equal(c.n, 18);
	assert_int_equal(c.dups, 36);
	cap_release(&c);
	strbuf_release(&p);
	strbuf_release(&q);
}

static void test_samples_312(void **state)
{
	struct strbuf p = STRBUF_INIT;
	struct cap c;
	struct cap_run *r;
	const char *paths[1];

	(void)state;
	if (!samples(&p, "constructed_reframe-3.12.0"))
		skip();
	cap_init(&c);
	paths[0] = p.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths, 1), 0);
	/* 15 perflog cases; the reports repeat them (by job id) and add the sanity failure */
	assert_int_equal(c.n, 16);
	assert_int_equal(c.dups, 15);
	r = find(&c, "ResNet50CPUCheck", "archer2:compute", 0);
	assert_num_eq(metric(r, "effective_throughput", NULL), 40.1, 0);
	assert_num_eq(metric(r, "compute_throughput", NULL), 40.5, 0);
	assert_string_equal(r->finished, "2023-02-06T10:21:45Z");
	r = find(&c, "CosmoFlowGPUBenchmark", "archer2:compute-gpu-torch", 0);
	assert_string_equal(r->status, "failed");
	r = find(&c, "DeepCAMGraphcoreBenchmark", "eidf:graphcore", 0);
	assert_non_null(r);
	assert_true(has(r->path, "run-report-2.json"));
	assert_string_equal(r->status, "failed");
	assert_int_equal(r->nm, 0);
	assert_string_equal(r->reason, "sanity error: pattern 'Effective Throughput' not found in "
				       "'rfm_DeepCAMGraphcoreBenchmark_8_job.out'");
	r = find(&c, "CosmoFlowGPUServiceBenchmark", "eidf:gpu-service", 0);
	assert_true(has(r->params, "\"lbs\":8"));
	assert_true(has(r->params, "\"node_type\":\"NVIDIA-A100-SXM4-40GB\""));
	cap_release(&c);
	strbuf_release(&p);
}

static void test_samples_epcc(void **state)
{
	struct strbuf p = STRBUF_INIT;
	struct cap c;
	struct cap_run *r;
	const char *paths[1], *unit;

	(void)state;
	if (!samples(&p, "constructed_reframe-4.6.0_epcc-site-format"))
		skip();
	cap_init(&c);
	paths[0] = p.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths, 1), 0);
	/* compat lines regrouped; reframe_perf.out repeats them and is left out */
	assert_int_equal(c.n, 15);
	assert_true(has(c.warnings.buf, "reframe_perf.out: not read: perflogs/ beside it holds "
					"the same records"));
	r = find(&c, "ResNet50CPUCheck", "archer2:compute", 0);
	assert_non_null(r);
	assert_int_equal(r->line, 2);
	assert_num_eq(metric(r, "effective_throughput", &unit), 40.1, 0);
	assert_string_equal(unit, "inputs/s");
	assert_num_eq(metric(r, "compute_throughput", NULL), 40.5, 0);
	assert_string_equal(r->finished, "2024-03-11T10:02:17Z");
	assert_true(has(r->params, "\"utc_offset_assumed\":\"+00:00\""));
	r = find(&c, "CosmoFlowGPUBenchmark", "archer2:compute-gpu-torch", 0);
	assert_string_equal(r->status, "failed");
	cap_release(&c);

	/* on its own, reframe_perf.out is read: 27 lines, 15 test cases */
	cap_init(&c);
	samples(&p, "constructed_reframe-4.6.0_epcc-site-format/reframe_perf.out");
	assert_int_equal(ingest(&c, NULL, NULL, paths, 1), 0);
	assert_int_equal(c.n, 15);
	r = find(&c, "ResNet50CPUCheck", "archer2:compute", 0);
	assert_num_eq(metric(r, "effective_throughput", NULL), 40.1, 0);
	assert_num_eq(metric(r, "compute_throughput", NULL), 40.5, 0);
	assert_true(has(r->params, "\"hashcode\":\"091ea76f\""));
	assert_true(has(r->params, "\"environ\":\"PrgEnv-gnu\""));
	assert_true(has(r->params, "log time (asctime)"));
	r = find(&c, "CosmoFlowGPUBenchmark", "archer2:compute-gpu-torch", 0);
	assert_string_equal(r->status, "failed");
	cap_release(&c);
	strbuf_release(&p);
}

static void test_samples_real(void **state)
{
	struct strbuf p = STRBUF_INIT;
	struct cap c;
	struct cap_run *r;
	const char *paths[1], *unit;

	(void)state;
	if (!samples(&p, "real"))
		skip();
	cap_init(&c);
	paths[0] = p.buf;
	assert_int_equal(ingest(&c, NULL, NULL, paths, 1), 0);
	assert_int_equal(c.n, 10);
	/* EPCC ARCHER2 report: 43 cases, 38 functional checks without perf variables */
	assert_true(has(c.warnings.buf, "38 passing test cases without performance variables"));
	r = find(&c, "INodeCheckARCHER2", "archer2:login", 0);
	assert_num_eq(metric(r, "MDT-0", &unit), 8.82, 0);
	assert_string_equal(unit, "% inodes");
	assert_true(has(meta(r, "MDT-0"), "\"result\":\"pass\""));
	assert_true(has(meta(r, "MDT-0"), "\"upper_bound\":75.0"));
	assert_true(has(r->params, "\"filesystem\":\"/mnt/lustre/a2fs-work1\""));
	assert_string_equal(r->finished, "2025-07-31T19:53:42.551Z");
	/* docs 3.x: 2 runs of 4 variables; docs 4.0: 3 runs, two failing */
	r = find(&c, "StreamWithRefTest", "catalina:default", 1);
	assert_string_equal(r->status, "failed");
	assert_string_equal(r->reason, "performance: Copy=24584.3 outside [52440, 57960] "
				       "(verdict derived by accelbench: the file gives no result)");
	assert_int_equal(r->nm, 4);
	r = find(&c, "StreamWithRefTest", "catalina:default", 3);
	assert_string_equal(r->job, "81377");
	assert_string_equal(r->status, "failed");
	assert_num_eq(metric(r, "Triad", &unit), 18284.1, 0);
	assert_string_equal(unit, "MB/s");
	assert_true(has(r->params, "\"reframe_version\":\"4.0.0-dev.2+90fbd3ef\""));
	cap_release(&c);
	strbuf_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_time),
		cmocka_unit_test(test_parse_time_fields),
		cmocka_unit_test(test_small_helpers),
		cmocka_unit_test(test_parse_double),
		cmocka_unit_test(test_header_layouts),
		cmocka_unit_test(test_compile),
		cmocka_unit_test(test_match_epcc),
		cmocka_unit_test(test_match_kind_memo),
		cmocka_unit_test(test_match_separator_in_field),
		cmocka_unit_test(test_match_comma_in_display_name),
		cmocka_unit_test(test_fixture_good),
		cmocka_unit_test(test_fixture_bad),
		cmocka_unit_test(test_fixture_site),
		cmocka_unit_test(test_fixture_option),
		cmocka_unit_test(test_fixture_reports),
		cmocka_unit_test(test_results_db),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_utf8_positions),
		cmocka_unit_test(test_emit_memos),
		cmocka_unit_test(test_iso8601_memo),
		cmocka_unit_test(test_samples_493),
		cmocka_unit_test(test_samples_312),
		cmocka_unit_test(test_samples_epcc),
		cmocka_unit_test(test_samples_real),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
