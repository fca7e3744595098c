/*
 * reframe_case.c - one ReFrame test case (from a perflog line group, a
 * run report or the results DB) becomes one ingest_run.
 *
 * Mapping (docs: formats/reframe.md, "Mapping" in the issue):
 *   system     "<system>:<partition>"; site = system, meta {site, partition}
 *   benchmark  the test class (display name up to the first blank), suite "reframe"
 *   metrics    one per performance variable, unit as ReFrame gives it; meta
 *              holds reference, thresholds, the bounds they imply and the
 *              per-variable result (ReFrame's, or computed the ReFrame way
 *              when the source has none, marked result_computed)
 *   headline   the first performance variable of the test (ReFrame's own
 *              order); higher is better unless its unit is a time unit
 *   params     display-name parameters (%num_nodes=4 -> num_nodes: 4), every
 *              other attribute the source logged, session data
 *   nodes      num_nodes; devices: num_gpus / num_ipus / num_csx /
 *              num_devices, else num_gpus_per_node x nodes; local/global
 *              batch: lbs / gbs (EPCC's parameter names) when present
 *
 * Dedupe key (JSON array): ["reframe", display name, system, partition,
 * environment, T].  A perflog cannot know the session, so the session is
 * implied by T:
 *   - ReFrame < 4.7 (3.x and 4.0-4.2 perflogs carry the version; reports of
 *     data_version < 4.0 have no completion time): T = "job:<job id>",
 *     the only field those perflogs and reports share;
 *   - otherwise T = "t:<completion time, whole UTC seconds>" (ReFrame
 *     formats the perflog time from the same float, truncating);
 *   - without either, a report-specific id (testcase uuid).
 * Tests that differ in a parameter differ in the display name, retries
 * differ in job id and completion time.
 */
#include "core/compat.h"
#include "reframe_priv.h"

#include <ctype.h>
#include <float.h>
#include <math.h>

void rfm_case_init(struct rfm_case *c)
{
	memset(c, 0, sizeof(*c));
	strbuf_init(&c->display, 0);
	strbuf_init(&c->system, 0);
	strbuf_init(&c->partition, 0);
	strbuf_init(&c->environ, 0);
	strbuf_init(&c->jobid, 0);
	strbuf_init(&c->result, 0);
	strbuf_init(&c->fail_phase, 0);
	strbuf_init(&c->fail_reason, 0);
	strbuf_init(&c->time_raw, 0);
	strbuf_init(&c->key_extra, 0);
	c->completion = NAN;
	c->submit = NAN;
	c->params = json_object();
	jtext_obj_init(&c->kv);
}

/* A perf entry's values dropped; its name and unit memory kept for the
 * next case (the perflog's next line names the same variables). */
static void perf_clear(struct rfm_perf *p)
{
	free(p->raw);
	free(p->result);
	if (p->unit) {
		free(p->spare_unit);
		p->spare_unit = p->unit;
	}
	p->raw = p->result = p->unit = NULL;
}

void rfm_case_reset(struct rfm_case *c)
{
	size_t i;

	strbuf_reset(&c->display);
	strbuf_reset(&c->system);
	strbuf_reset(&c->partition);
	strbuf_reset(&c->environ);
	strbuf_reset(&c->jobid);
	strbuf_reset(&c->result);
	strbuf_reset(&c->fail_phase);
	strbuf_reset(&c->fail_reason);
	strbuf_reset(&c->time_raw);
	strbuf_reset(&c->key_extra);
	c->completion = NAN;
	c->submit = NAN;
	c->time_basis = NULL;
	c->old_era = 0;
	for (i = 0; i < c->nperf; i++)
		perf_clear(&c->perf[i]);
	c->nperf = 0;
	if (json_object_size(c->params))
		json_object_clear(c->params);
	jtext_obj_clear(&c->kv);
	c->line = 0;
}

/* The "%k=v" parameters of display as (key, value text) pairs: keys and
 * values appended to keys/vals, four offsets per pair appended to ent. */
struct dparams {
	struct strbuf keys, vals;
	size_t *ent;            /* key off, key len, value off, value len */
	size_t n, cap;
};

static void dparams_release(struct dparams *d);

/* What rfm_case_emit builds for one run: kept between runs so that a
 * perflog of 100,000 lines does not allocate a dozen buffers per line. */
enum { EB_SYSNAME, EB_CLS, EB_REASON, EB_FINISHED, EB_STARTED, EB_MISSING,
       EB_METAS, EB_PTEXT, EB_ACCEL, EB_KEY, EB_KEYT, EB_N };

/* The meta text of one perf variable, kept for the next case: a test's runs
 * repeat reference, thresholds and result line after line. */
#define EB_META_MEMO 8
struct meta_memo {
	int valid, has_ref, has_lower, has_upper, computed;
	uint64_t ref, lower, upper;     /* bits, when has_* */
	struct strbuf res, text;
};

/* params rfm_case_emit reads back, every run: hashed once per case */
enum { PK_NUM_NODES, PK_NODES, PK_N_NODES, PK_NUM_TASKS, PK_NUM_TASKS_PER_NODE, PK_NUM_GPUS,
       PK_NUM_IPUS, PK_NUM_CSX, PK_NUM_DEVICES, PK_NUM_GPUS_PER_NODE, PK_LBS,
       PK_LOCAL_BATCH_SIZE, PK_GBS, PK_GLOBAL_BATCH_SIZE, PK_NODE_TYPE, PK_JOB_NODELIST,
       PK_NODELIST, PK_SESSION_EXTRAS, PK_N };
static const char *const pk_name[PK_N] = {
	"num_nodes", "nodes", "n_nodes", "num_tasks", "num_tasks_per_node", "num_gpus",
	"num_ipus", "num_csx", "num_devices", "num_gpus_per_node", "lbs",
	"local_batch_size", "gbs", "global_batch_size", "node_type", "job_nodelist", "nodelist",
	"session_extras"
};

/* JSON text made from up to TM_PARTS strings, kept while they repeat (a
 * test's runs share display name, system, partition, environment...) */
#define TM_PARTS 4
struct text_memo {
	struct strbuf part[TM_PARTS], text;
	int valid;
};
enum { TM_DISPLAY, TM_ENVIRON, TM_RESULT, TM_SYSMETA, TM_KEY, TM_N };

/* param_long() of a value text met before (values repeat run after run) */
#define PV_LEN 24
struct param_memo {
	unsigned char len;      /* 0: nothing yet */
	char text[PV_LEN];
	long val;
};

struct rfm_emit_buf {
	struct jtext_keyref pk[PK_N]; /* in c->kv (the case's, like this buffer) */
	struct param_memo pv[PK_N];
	struct text_memo tm[TM_N];
	struct rfm_iso_memo iso;      /* finished / started dates */
	const char *basis;            /* the static time_basis text escaped in basis_text */
	struct strbuf basis_text;
	struct strbuf sb[EB_N];
	struct ingest_metric *m;
	const char **mj;
	size_t *moff, cap;
	/* rfm_lower_is_better() of the case before (a test's cases come
	 * together): its name and unit ("\n" between), -1 when none yet */
	struct strbuf lib_key;
	size_t lib_nn;
	int lib;
	/* the display name's parameters, for the display name in disp */
	struct strbuf disp;
	struct dparams dp;
	int dp_valid;
	struct meta_memo mm[EB_META_MEMO];
	uint32_t *ends;         /* where params' pairs end (ingest_run.params_pair_ends) */
	size_t ends_cap;
};

static void eb_free(struct rfm_emit_buf *eb)
{
	size_t i;

	if (!eb)
		return;
	for (i = 0; i < EB_N; i++)
		strbuf_release(&eb->sb[i]);
	for (i = 0; i < TM_N; i++) {
		size_t k;
		for (k = 0; k < TM_PARTS; k++)
			strbuf_release(&eb->tm[i].part[k]);
		strbuf_release(&eb->tm[i].text);
	}
	strbuf_release(&eb->lib_key);
	strbuf_release(&eb->basis_text);
	strbuf_release(&eb->disp);
	dparams_release(&eb->dp);
	free(eb->ends);
	for (i = 0; i < EB_META_MEMO; i++) {
		strbuf_release(&eb->mm[i].res);
		strbuf_release(&eb->mm[i].text);
	}
	free(eb->m);
	free(eb->mj);
	free(eb->moff);
	free(eb);
}

static struct rfm_emit_buf *eb_get(struct rfm_case *c)
{
	struct rfm_emit_buf *eb = c->eb;
	size_t i;

	if (!eb) {
		eb = c->eb = ab_calloc(1, sizeof(*eb));
		for (i = 0; i < EB_N; i++)
			strbuf_init(&eb->sb[i], 0);
		for (i = 0; i < TM_N; i++) {
			size_t k;
			for (k = 0; k < TM_PARTS; k++)
				strbuf_init(&eb->tm[i].part[k], 0);
			strbuf_init(&eb->tm[i].text, 0);
		}
		strbuf_init(&eb->lib_key, 0);
		strbuf_init(&eb->basis_text, 0);
		eb->lib = -1;
		strbuf_init(&eb->disp, 0);
		strbuf_init(&eb->dp.keys, 0);
		strbuf_init(&eb->dp.vals, 0);
		for (i = 0; i < EB_META_MEMO; i++) {
			strbuf_init(&eb->mm[i].res, 0);
			strbuf_init(&eb->mm[i].text, 0);
		}
		for (i = 0; i < PK_N; i++) {
			eb->pk[i].key = pk_name[i];
			eb->pk[i].klen = strlen(pk_name[i]);
		}
	}
	for (i = 0; i < EB_N; i++)
		strbuf_reset(&eb->sb[i]);
	if (eb->cap < c->nperf || !eb->cap) {
		eb->cap = c->nperf > 8 ? c->nperf : 8;
		eb->m = ab_realloc(eb->m, eb->cap * sizeof(*eb->m));
		eb->mj = ab_realloc(eb->mj, eb->cap * sizeof(*eb->mj));
		eb->moff = ab_realloc(eb->moff, eb->cap * sizeof(*eb->moff));
	}
	return eb;
}

void rfm_case_release(struct rfm_case *c)
{
	size_t i;

	rfm_case_reset(c);
	strbuf_release(&c->display);
	strbuf_release(&c->system);
	strbuf_release(&c->partition);
	strbuf_release(&c->environ);
	strbuf_release(&c->jobid);
	strbuf_release(&c->result);
	strbuf_release(&c->fail_phase);
	strbuf_release(&c->fail_reason);
	strbuf_release(&c->time_raw);
	strbuf_release(&c->key_extra);
	for (i = 0; i < c->perf_cap; i++) {
		free(c->perf[i].name);
		free(c->perf[i].spare_unit);
	}
	free(c->perf);
	c->perf = NULL;
	c->perf_cap = 0;
	json_decref(c->params);
	c->params = NULL;
	jtext_obj_release(&c->kv);
	eb_free(c->eb);
	c->eb = NULL;
}

struct rfm_perf *rfm_case_perf(struct rfm_case *c, const char *name, size_t len)
{
	struct rfm_perf *p;
	size_t i;

	for (i = 0; i < c->nperf; i++)
		if (c->perf[i].name_len == len && ab_memeq(c->perf[i].name, name, len))
			return &c->perf[i];
	if (c->nperf == c->perf_cap) {
		size_t old = c->perf_cap;
		c->perf_cap = c->perf_cap ? 2 * c->perf_cap : 8;
		c->perf = ab_realloc(c->perf, c->perf_cap * sizeof(*c->perf));
		memset(c->perf + old, 0, (c->perf_cap - old) * sizeof(*c->perf));
	}
	p = &c->perf[c->nperf++];
	{	/* the entry's name and spare unit stay; its values start empty */
		char *keep = p->name, *spare = p->spare_unit;
		size_t keep_len = p->name_len;

		memset(p, 0, sizeof(*p));
		p->spare_unit = spare;
		if (keep && keep_len == len && ab_memeq(keep, name, len)) {
			p->name = keep;
			p->name_len = keep_len;
		} else {
			free(keep);
			p->name = ab_strndup(name, len);
			p->name_len = strlen(p->name); /* a NUL in name ends it */
		}
	}
	return p;
}

void rfm_perf_set_unit(struct rfm_perf *p, const char *s, size_t len)
{
	if (p->unit && strlen(p->unit) == len && ab_memeq(p->unit, s, len))
		return;
	free(p->unit);
	if (p->spare_unit && strlen(p->spare_unit) == len && ab_memeq(p->spare_unit, s, len)) {
		p->unit = p->spare_unit;
		p->spare_unit = NULL;
	} else {
		p->unit = ab_strndup(s, len);
	}
}

void rfm_case_take_perf(struct rfm_case *dst, struct rfm_perf *src)
{
	struct rfm_perf *p = rfm_case_perf(dst, src->name, src->name_len);

	p->has_value = src->has_value;
	p->value = src->value;
	free(p->raw);
	p->raw = src->raw;
	free(p->unit);
	p->unit = src->unit;
	p->has_ref = src->has_ref;
	p->has_lower = src->has_lower;
	p->has_upper = src->has_upper;
	p->ref = src->ref;
	p->lower = src->lower;
	p->upper = src->upper;
	free(p->result);
	p->result = src->result;
	src->raw = src->unit = src->result = NULL;
	src->has_value = src->has_ref = src->has_lower = src->has_upper = 0;
	/* the unit memory goes back and forth: src names it next line */
	if (!src->spare_unit) {
		src->spare_unit = p->spare_unit;
		p->spare_unit = NULL;
	}
}

enum rfm_value rfm_perf_set_value(struct rfm_perf *p, const char *s, size_t len)
{
	enum rfm_value k;
	double v;
	size_t i;

	free(p->raw);
	p->raw = NULL;
	p->has_value = 0;
	switch (ingest_parse_double(s, len, &v)) {
	case NUM_OK:
		/* a normal double cannot be an underflow: ask only about 0 and subnormals */
		if (fabs(v) >= DBL_MIN || !num_underflows(s, len)) {
			p->has_value = 1;
			p->value = v;
			return RFM_VALUE_OK;
		}
		k = RFM_VALUE_TINY;
		break;
	case NUM_EMPTY:
		k = RFM_VALUE_MISSING;
		break;
	case NUM_NAN:
		/* None and null say "not measured"; nan says a broken measurement */
		for (i = 0; i < len && strchr(" \t\r\n+-", s[i]); i++)
			;
		k = i < len && (s[i] == 'n' || s[i] == 'N') && i + 1 < len &&
				    (s[i + 1] == 'a' || s[i + 1] == 'A')
			    ? RFM_VALUE_NAN
			    : RFM_VALUE_MISSING;
		break;
	case NUM_INF:
		/* the word, or a number too large for a double (1e400) */
		for (i = 0; i < len && strchr(" \t\r\n+-", s[i]); i++)
			;
		k = i < len && (s[i] == 'i' || s[i] == 'I') ? RFM_VALUE_INF : RFM_VALUE_HUGE;
		break;
	default:
		k = RFM_VALUE_TEXT;
	}
	p->raw = ab_strndup(s, len);
	return k;
}

const char *rfm_value_why(enum rfm_value k)
{
	switch (k) {
	case RFM_VALUE_NAN:
		return "not a number";
	case RFM_VALUE_INF:
		return "infinite";
	case RFM_VALUE_HUGE:
		return "too large for a double";
	case RFM_VALUE_TINY:
		return "too small for a double: underflow";
	default:
		return NULL;
	}
}

int rfm_perf_set_num(int *has, double *out, const char *s, size_t len)
{
	double v;

	switch (ingest_parse_double(s, len, &v)) {
	case NUM_OK:
		*has = 1;
		*out = v;
		return 0;
	case NUM_EMPTY:
	case NUM_NAN:
		*has = 0;
		return 0;
	case NUM_INF:
		/* an infinite threshold is an unbounded one */
		*has = 0;
		return 0;
	default:
		*has = 0;
		return -1;
	}
}

/* ---- small parsers ---------------------------------------------------- */

/* strncasecmp is POSIX, not C11: ASCII only is all we need. */
static int strncasecmp_c(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int ca = tolower((unsigned char)a[i]), cb = tolower((unsigned char)b[i]);
		if (ca != cb)
			return ca - cb;
		if (!ca)
			return 0;
	}
	return 0;
}

static int is_ident_char(int c)
{
	return isalnum(c) || c == '_';
}

static void number_or_string(struct strbuf *out, const char *s, size_t len)
{
	long long ll;
	double d;

	/* a number starts with a digit, a sign or a point, after the blanks
	 * num_trim() skips: anything else is text (node lists, hashes, names) */
	if (len && !memchr(" \t\r\n0123456789+-.", s[0], 17)) {
		jtext_str(out, s, len);
		return;
	}
	if (num_parse_ll(s, len, &ll) == NUM_OK)
		jtext_int(out, ll);
	else if (ingest_parse_double(s, len, &d) == NUM_OK && isfinite(d))
		jtext_real(out, d);
	else
		jtext_str(out, s, len);
}

static void dparams_parse(const char *display, struct dparams *d)
{
	const char *p = strstr(display, " %");

	d->n = 0;
	strbuf_reset(&d->keys);
	strbuf_reset(&d->vals);
	while (p) {
		const char *k = p + 2, *eq = k, *next, *v;
		size_t mark;

		while (is_ident_char((unsigned char)*eq))
			eq++;
		if (*eq != '=' || eq == k) {
			p = strstr(p + 1, " %");
			continue;
		}
		v = eq + 1;
		/* the value runs to the next " %ident=" (values may hold blanks) */
		next = strstr(v, " %");
		while (next) {
			const char *q = next + 2;
			while (is_ident_char((unsigned char)*q))
				q++;
			if (*q == '=' && q > next + 2)
				break;
			next = strstr(next + 1, " %");
		}
		if (d->n == d->cap) {
			d->cap = d->cap ? 2 * d->cap : 8;
			d->ent = ab_realloc(d->ent, d->cap * 4 * sizeof(*d->ent));
		}
		d->ent[4 * d->n] = d->keys.len;
		d->ent[4 * d->n + 1] = (size_t)(eq - k);
		strbuf_add(&d->keys, k, (size_t)(eq - k));
		mark = d->vals.len;
		number_or_string(&d->vals, v, next ? (size_t)(next - v) : strlen(v));
		d->ent[4 * d->n + 2] = mark;
		d->ent[4 * d->n + 3] = d->vals.len - mark;
		d->n++;
		p = next;
	}
}

static void dparams_put(const struct dparams *d, struct jtext_obj *kv)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		size_t mark = kv->vals.len;
		strbuf_add(&kv->vals, d->vals.buf + d->ent[4 * i + 2], d->ent[4 * i + 3]);
		jtext_obj_put(kv, d->keys.buf + d->ent[4 * i], d->ent[4 * i + 1], mark);
	}
}

static void dparams_release(struct dparams *d)
{
	strbuf_release(&d->keys);
	strbuf_release(&d->vals);
	free(d->ent);
	memset(d, 0, sizeof(*d));
}

void rfm_display_params(const char *display, struct jtext_obj *kv)
{
	struct dparams d;

	memset(&d, 0, sizeof(d));
	strbuf_init(&d.keys, 0);
	strbuf_init(&d.vals, 0);
	dparams_parse(display, &d);
	dparams_put(&d, kv);
	dparams_release(&d);
}

int rfm_param_value(struct strbuf *out, const char *s, size_t len)
{
	if (!len || (len == 4 && !memcmp(s, "null", 4)) || (len == 4 && !memcmp(s, "None", 4)) ||
	    (len == 11 && !memcmp(s, "<undefined>", 11)))
		return 0;
	if ((len == 4 && !memcmp(s, "true", 4)) || (len == 5 && !memcmp(s, "false", 5))) {
		strbuf_add(out, s, len);
		return 1;
	}
	if (s[0] == '{' || s[0] == '[') {
		json_t *j = json_loadb(s, len, JSON_DECODE_ANY, NULL);
		int rc = j ? jtext_json(out, j) : -1;
		json_decref(j);
		if (rc == 0)
			return 1;
	}
	number_or_string(out, s, len);
	return 1;
}

void rfm_param_text(struct jtext_obj *kv, const char *key, const char *s, size_t len)
{
	size_t mark = kv->vals.len;

	if (rfm_param_value(&kv->vals, s, len))
		jtext_obj_put(kv, key, strlen(key), mark);
}

int rfm_unit_is_time(const char *unit)
{
	static const char *const units[] = {
		"s", "sec", "secs", "second", "seconds", "ms", "msec", "us", "usec",
		"\xc2\xb5s", "\xce\xbcs", "ns", "min", "mins", "minute", "minutes", "h", "hr",
		"hrs", "hour", "hours"
	};
	size_t i;

	if (!unit)
		return 0;
	for (i = 0; i < AB_ARRAY_SIZE(units); i++)
		if (!strcmp(unit, units[i]))
			return 1;
	return 0;
}

/* Seconds in a time unit, 0 when not one. */
static double time_unit_seconds(const char *u)
{
	static const struct { const char *u; double s; } t[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "\xc2\xb5s", 1e-6 }, { "\xce\xbcs", 1e-6 },
		{ "usec", 1e-6 }, { "ms", 1e-3 }, { "msec", 1e-3 }, { "s", 1 }, { "sec", 1 },
		{ "secs", 1 }, { "second", 1 }, { "seconds", 1 }, { "min", 60 }, { "mins", 60 },
		{ "minute", 60 }, { "minutes", 60 }, { "h", 3600 }, { "hr", 3600 },
		{ "hrs", 3600 }, { "hour", 3600 }, { "hours", 3600 }, { "day", 86400 },
		{ "days", 86400 }
	};
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(t); i++)
		if (!strcmp(u, t[i].u))
			return t[i].s;
	return 0;
}

static int has_word_ci(const char *s, const char *w)
{
	size_t n = strlen(w), i;

	for (i = 0; s[i]; i++) {
		if ((i && isalpha((unsigned char)s[i - 1])) || strncasecmp_c(s + i, w, n))
			continue;
		if (!isalpha((unsigned char)s[i + n]))
			return 1;
	}
	return 0;
}

int rfm_lower_is_better(const char *name, const char *unit)
{
	static const char *const lower_names[] = {
		"time", "latency", "elapsed", "duration", "runtime", "walltime", "wall"
	};
	size_t i, n;

	if (rfm_unit_is_time(unit))
		return 1;
	if (unit && *unit) {
		/* time per unit of work: s/step, ms/iter; days/ns (wall time per
		 * simulated time) but not ns/day (simulated time per wall time) */
		n = strcspn(unit, "/");
		if (unit[n] == '/') {
			struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
			double ta, tb;
			strbuf_add(&a, unit, n);
			strbuf_trim(&a);
			strbuf_addstr(&b, unit + n + 1);
			strbuf_trim(&b);
			ta = time_unit_seconds(a.buf);
			tb = time_unit_seconds(b.buf);
			strbuf_release(&a);
			strbuf_release(&b);
			if (ta > 0 && (tb == 0 || ta > tb))
				return 1;
			return 0;
		}
		/* space used: "% inodes", "%" of a *_used variable */
		if (has_word_ci(unit, "inodes") || has_word_ci(unit, "used"))
			return 1;
		if (unit[0] == '%' && name && (has_word_ci(name, "used") || has_word_ci(name, "usage")))
			return 1;
		return 0;
	}
	/* no unit: the name says it */
	for (i = 0; name && i < AB_ARRAY_SIZE(lower_names); i++)
		if (has_word_ci(name, lower_names[i]))
			return 1;
	return 0;
}

int rfm_version_old_era(const char *v, size_t len)
{
	size_t i = 0;
	long major = 0, minor = 0;

	if (!len || !isdigit((unsigned char)v[0]))
		return 0;
	while (i < len && isdigit((unsigned char)v[i]))
		major = major * 10 + (v[i++] - '0');
	if (i >= len || v[i] != '.' || i + 1 >= len || !isdigit((unsigned char)v[i + 1]))
		return 0;
	for (i++; i < len && isdigit((unsigned char)v[i]); i++)
		minor = minor * 10 + (v[i] - '0');
	return major < 4 || (major == 4 && minor < 7);
}

static int digits(const char *s, size_t len, size_t *i, int n, long *out)
{
	int k;

	*out = 0;
	for (k = 0; k < n; k++, (*i)++) {
		if (*i >= len || !isdigit((unsigned char)s[*i]))
			return -1;
		*out = *out * 10 + (s[*i] - '0');
	}
	return 0;
}

int rfm_parse_time(const char *s, size_t len, long assume_offset_s, double *epoch,
		   int *has_offset)
{
	long y, mo, d, h, mi, se, oh, om;
	double frac = 0.0;
	size_t i = 0;
	long off = assume_offset_s;

	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	while (i < len && isspace((unsigned char)s[i]))
		i++;
	if (len - i >= 19 && s[i + 4] == '-' && s[i + 7] == '-' &&
	    (s[i + 10] == 'T' || s[i + 10] == ' ') && s[i + 13] == ':' && s[i + 16] == ':') {
		/* "YYYY-MM-DDTHH:MM:SS", every ReFrame time: the digits at
		 * their places at once (the same fields as digits() reads,
		 * which cost ~200 instructions a time) */
		const unsigned char *u = (const unsigned char *)s + i;
#define RFM_DG(k) ((unsigned)u[k] - '0')
		unsigned bad = (RFM_DG(0) > 9) | (RFM_DG(1) > 9) | (RFM_DG(2) > 9) |
			       (RFM_DG(3) > 9) | (RFM_DG(5) > 9) | (RFM_DG(6) > 9) |
			       (RFM_DG(8) > 9) | (RFM_DG(9) > 9) | (RFM_DG(11) > 9) |
			       (RFM_DG(12) > 9) | (RFM_DG(14) > 9) | (RFM_DG(15) > 9) |
			       (RFM_DG(17) > 9) | (RFM_DG(18) > 9);

		if (!bad) {
			y = (long)(RFM_DG(0) * 1000 + RFM_DG(1) * 100 + RFM_DG(2) * 10 + RFM_DG(3));
			mo = (long)(RFM_DG(5) * 10 + RFM_DG(6));
			d = (long)(RFM_DG(8) * 10 + RFM_DG(9));
			h = (long)(RFM_DG(11) * 10 + RFM_DG(12));
			mi = (long)(RFM_DG(14) * 10 + RFM_DG(15));
			se = (long)(RFM_DG(17) * 10 + RFM_DG(18));
			i += 19;
			goto fields;
		}
#undef RFM_DG
	}
	if (digits(s, len, &i, 4, &y) || i >= len || s[i++] != '-' ||
	    digits(s, len, &i, 2, &mo) || i >= len || s[i++] != '-' ||
	    digits(s, len, &i, 2, &d) || i >= len || (s[i] != 'T' && s[i] != ' ') ||
	    (i++, digits(s, len, &i, 2, &h)) || i >= len || s[i++] != ':' ||
	    digits(s, len, &i, 2, &mi) || i >= len || s[i++] != ':' ||
	    digits(s, len, &i, 2, &se))
		return -1;
fields:
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
		return -1;
	if (i < len && (s[i] == '.' || s[i] == ',')) {
		double scale = 0.1;
		i++;
		if (i >= len || !isdigit((unsigned char)s[i]))
			return -1;
		for (; i < len && isdigit((unsigned char)s[i]); i++, scale /= 10)
			frac += (s[i] - '0') * scale;
	}
	*has_offset = 0;
	if (i < len && (s[i] == 'Z' || s[i] == 'z')) {
		off = 0;
		*has_offset = 1;
		i++;
	} else if (i < len && (s[i] == '+' || s[i] == '-')) {
		int sign = s[i++] == '-' ? -1 : 1;
		if (digits(s, len, &i, 2, &oh))
			return -1;
		if (i < len && s[i] == ':')
			i++;
		if (digits(s, len, &i, 2, &om) || oh > 23 || om > 59)
			return -1;
		off = sign * (oh * 3600 + om * 60);
		*has_offset = 1;
	}
	if (i != len)
		return -1;
	*epoch = (double)ingest_days_from_civil(y, mo, d) * 86400.0 + (double)(h * 3600 + mi * 60 + se) -
		 (double)off + frac;
	return 0;
}

void rfm_iso8601(struct rfm_iso_memo *m, struct strbuf *out, double epoch)
{
	long long secs;
	double frac;
	int ms;
	unsigned sod;
	char buf[24], *w;

	if (!(epoch >= 0 && epoch < 253402300800.0)) {
		ingest_iso8601(out, epoch);
		return;
	}
	/* as ingest_iso8601 reads it: whole seconds, milliseconds rounded */
	secs = (long long)floor(epoch);
	frac = epoch - (double)secs;
	ms = (int)lround(frac * 1000.0);
	if (ms == 1000) {
		secs++;
		ms = 0;
	}
	if (secs >= 253402300800LL || !m->date[0] || m->day != secs / 86400) {
		/* another day: ingest_iso8601 makes the text, its date is kept */
		size_t at = out->len;
		ingest_iso8601(out, epoch);
		if (secs < 253402300800LL && out->len - at >= 20 && out->buf[at + 10] == 'T') {
			memcpy(m->date, out->buf + at, 11);
			m->date[11] = '\0';
			m->day = secs / 86400;
		} else {
			m->date[0] = '\0';
		}
		return;
	}
	sod = (unsigned)(secs % 86400);
	memcpy(buf, m->date, 11);
	w = buf + 11;
	*w++ = (char)('0' + sod / 36000);
	*w++ = (char)('0' + sod / 3600 % 10);
	*w++ = ':';
	*w++ = (char)('0' + sod / 60 % 60 / 10);
	*w++ = (char)('0' + sod / 60 % 10);
	*w++ = ':';
	*w++ = (char)('0' + sod % 60 / 10);
	*w++ = (char)('0' + sod % 10);
	if (ms) {
		*w++ = '.';
		*w++ = (char)('0' + ms / 100);
		*w++ = (char)('0' + ms / 10 % 10);
		*w++ = (char)('0' + ms % 10);
	}
	*w++ = 'Z';
	strbuf_add(out, buf, (size_t)(w - buf));
}

/* ---- mapping ------------------------------------------------------------ */

/* !strcmp(sb->buf, w) (text up to a NUL, as before), inline: with w a
 * literal its length is known and no call is made (a dozen per run) */
static inline int word_is(const struct strbuf *sb, const char *w)
{
	size_t n = strlen(w);

	return sb->len >= n && !memcmp(sb->buf, w, n) && sb->buf[n] == '\0';
}

static int missing_word(const char *s)
{
	return !*s || !strcmp(s, "null") || !strcmp(s, "None") || !strcmp(s, "<undefined>");
}

/* Bounds the ReFrame way: thresholds are fractions of ref, absolute when ref == 0. */
static void perf_bounds(const struct rfm_perf *p, double *lo, double *hi)
{
	*lo = -INFINITY;
	*hi = INFINITY;
	if (!p->has_ref)
		return;
	if (p->ref == 0) {
		if (p->has_lower)
			*lo = p->lower;
		if (p->has_upper)
			*hi = p->upper;
	} else if (p->ref > 0) {
		if (p->has_lower)
			*lo = p->ref * (1 + p->lower);
		if (p->has_upper)
			*hi = p->ref * (1 + p->upper);
	} else {
		if (p->has_lower)
			*lo = p->ref * (1 - p->lower);
		if (p->has_upper)
			*hi = p->ref * (1 - p->upper);
	}
}

/*
 * A bound ReFrame computes as ref * (1 + threshold) carries the rounding of
 * that product (13 * 0.9 = 11.700000000000001): in a reason shown to
 * people, 15 significant digits, then the shortest form of that.  The
 * exact bounds stay in the metric's meta.
 */
static void bound_format(struct strbuf *out, double v)
{
	char b[40];
	int n = snprintf(b, sizeof(b), "%.15g", v);

	if (n > 0 && (size_t)n < sizeof(b))
		v = strtod(b, NULL);
	num_format(out, v);
}

/* Long json params are fine, but a failure reason is shown in tables: one line, bounded. */
static void short_reason(struct strbuf *out, const char *s)
{
	size_t n = strcspn(s, "\n");

	if (n > 240)
		n = 240;
	strbuf_add(out, s, n);
	strbuf_rtrim(out);
}

static long param_long_json(json_t *params, const char *key)
{
	json_t *v = json_object_get(params, key);
	long long ll;

	if (json_is_integer(v))
		return json_integer_value(v) > 0 ? (long)json_integer_value(v) : 0;
	if (json_is_string(v) &&
	    num_parse_ll(json_string_value(v), strlen(json_string_value(v)), &ll) == NUM_OK &&
	    ll > 0)
		return (long)ll;
	return 0;
}

/* The text of a string value of kv (unescaped into tmp when it has escapes), or NULL. */
static const char *kv_string(const struct jtext_obj *kv, struct jtext_keyref *key,
			     struct strbuf *tmp)
{
	size_t n;
	const char *v = jtext_obj_get_ref(kv, key, &n);
	json_t *j;
	int ok;

	if (!v || n < 2 || v[0] != '"')
		return NULL;
	strbuf_reset(tmp);
	if (!memchr(v, '\\', n)) {
		strbuf_add(tmp, v + 1, n - 2);
		return tmp->buf;
	}
	j = json_loadb(v, n, JSON_DECODE_ANY, NULL);
	ok = json_is_string(j);
	if (ok)
		strbuf_add(tmp, json_string_value(j), json_string_length(j));
	json_decref(j);
	return ok ? tmp->buf : NULL;
}

/* A positive integer param (integer, or a string of one); 0 when none. */
static long param_long_text(const char *v, size_t n);

static long param_long_memo(struct rfm_emit_buf *eb, int key, const char *v, size_t n)
{
	struct param_memo *pm = &eb->pv[key];
	long r;

	if (pm->len == n && ab_memeq(pm->text, v, n))
		return pm->val;
	r = param_long_text(v, n);
	if (n <= PV_LEN) {
		pm->len = (unsigned char)n;
		memcpy(pm->text, v, n);
		pm->val = r;
	}
	return r;
}

/* inline: most keys asked for (~2 million times for rf4) are absent,
 * answered by jtext_obj_get_ref's inline path without a call */
static inline AB_ALWAYS_INLINE long param_long(const struct jtext_obj *kv,
					       struct rfm_emit_buf *eb, int key)
{
	size_t n;
	const char *v = jtext_obj_get_ref(kv, &eb->pk[key], &n);

	return v && n ? param_long_memo(eb, key, v, n) : 0;
}

/* The value text v[0..n) (n > 0) as param_long() reads it. */
static long param_long_text(const char *v, size_t n)
{
	long long ll;

	if (v[0] == '"') {
		/* digits need no escapes: a string with any is not a number */
		if (n < 2 || memchr(v, '\\', n))
			return 0;
		v++;
		n -= 2;
	} else if (!(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) || memchr(v, '.', n) ||
		   memchr(v, 'e', n) || memchr(v, 'E', n)) {
		return 0; /* a real, true, an object: not an integer */
	}
	if (num_parse_ll(v, n, &ll) == NUM_OK && ll > 0)
		return ll > LONG_MAX ? 0 : (long)ll;
	return 0;
}

/* Slurm-style "nid[001-004,010]" item: how many hosts; 0 when unreadable. */
static long host_range_count(const char *s, size_t n)
{
	const char *lb = memchr(s, '[', n), *p, *end;
	long total = 0;

	if (!lb)
		return n ? 1 : 0;
	end = s + n;
	if (end[-1] != ']')
		return 0;
	p = lb + 1;
	while (p < end - 1) {
		char *q;
		long a = strtol(p, &q, 10), b = a;
		if (q == p)
			return 0;
		if (*q == '-') {
			p = q + 1;
			b = strtol(p, &q, 10);
			if (q == p || b < a)
				return 0;
		}
		total += b - a + 1;
		p = q;
		if (*p == ',')
			p++;
		else if (p != end - 1)
			return 0;
	}
	return total;
}

/* Hosts in a node list: a JSON array, or ReFrame's comma-joined text. */
static long nodelist_count(const struct jtext_obj *kv, struct jtext_keyref *key)
{
	const char *s, *start;
	long total = 0;
	int depth = 0;
	size_t n;
	const char *v = jtext_obj_get_ref(kv, key, &n);
	struct strbuf tmp = STRBUF_INIT;

	if (v && n && v[0] == '[') {
		json_t *a = json_loadb(v, n, JSON_DECODE_ANY, NULL);
		total = json_is_array(a) ? (long)json_array_size(a) : 0;
		json_decref(a);
		return total;
	}
	s = start = kv_string(kv, key, &tmp);
	if (!s) {
		strbuf_release(&tmp);
		return 0;
	}
	for (;; s++) {
		if (*s == '[')
			depth++;
		else if (*s == ']')
			depth--;
		if (!*s || (*s == ',' && !depth)) {
			long c = host_range_count(start, (size_t)(s - start));
			if (s > start && c <= 0) {
				total = 0;
				break;
			}
			total += c;
			if (!*s)
				break;
			start = s + 1;
		}
	}
	strbuf_release(&tmp);
	return total;
}

/* Whether m's text was made from parts p[0..n) (the same bytes); if not,
 * the parts are kept and its text emptied for the caller to make. */
static int tm_same(struct text_memo *m, const struct strbuf *const p[], size_t n)
{
	size_t i;

	if (m->valid) {
		for (i = 0; i < n; i++)
			if (m->part[i].len != p[i]->len ||
			    !ab_memeq(m->part[i].buf, p[i]->buf, p[i]->len))
				break;
		if (i == n)
			return 1;
	}
	for (i = 0; i < n; i++) {
		strbuf_reset(&m->part[i]);
		strbuf_addbuf(&m->part[i], p[i]);
	}
	strbuf_reset(&m->text);
	m->valid = 1;
	return 0;
}

/* jtext_obj_set_str(kv, key, sb) with the escaped text from m when sb repeats */
static void kv_set_memo(struct jtext_obj *kv, const char *key, size_t klen, struct text_memo *m,
			const struct strbuf *sb)
{
	size_t mark = kv->vals.len;

	if (!tm_same(m, &sb, 1))
		jtext_str(&m->text, sb->buf, sb->len);
	strbuf_addbuf(&kv->vals, &m->text);
	jtext_obj_put(kv, key, klen, mark);
}

static void add_key_text(struct strbuf *key, const struct strbuf *sb)
{
	strbuf_addch(key, ',');
	jtext_str(key, sb->buf, sb->len);
}

/* The key as the JSON array text jansson printed before (its hash is the
 * stored key, so the bytes must not change), into key (t: scratch);
 * NULL when the case has no identity. */
static const char *dedupe_key(const struct rfm_case *c, struct strbuf *key, struct strbuf *t,
			      struct text_memo *prefix)
{
	const struct strbuf *parts[4];

	strbuf_reset(t);
	strbuf_reset(key);
	if (c->old_era && c->jobid.len) {
		strbuf_addstr(t, "job:");
		strbuf_addbuf(t, &c->jobid);
	} else if (c->completion >= 1 && c->completion < 9e15) {
		strbuf_addstr(t, "t:");
		jtext_int(t, (long long)floor(c->completion)); /* the digits "%.0f" gives */
	} else if (isfinite(c->completion)) {
		strbuf_addf(t, "t:%.0f", floor(c->completion));
	} else if (c->jobid.len) {
		strbuf_addstr(t, "job:");
		strbuf_addbuf(t, &c->jobid);
	} else if (c->key_extra.len) {
		strbuf_addbuf(t, &c->key_extra);
	} else {
		return NULL;
	}
	/* the text before the time or job: the same for a test's runs */
	parts[0] = &c->display;
	parts[1] = &c->system;
	parts[2] = &c->partition;
	parts[3] = &c->environ;
	if (!tm_same(prefix, parts, 4)) {
		strbuf_addstr(&prefix->text, "[\"reframe\"");
		add_key_text(&prefix->text, &c->display);
		add_key_text(&prefix->text, &c->system);
		add_key_text(&prefix->text, &c->partition);
		add_key_text(&prefix->text, &c->environ);
	}
	strbuf_addbuf(key, &prefix->text);
	add_key_text(key, t);
	strbuf_addch(key, ']');
	return key->buf;
}

enum verdict { V_OK, V_FAILED, V_ABORTED, V_INVALID, V_COMPUTE };

static enum verdict result_verdict(const struct strbuf *r)
{
	if (word_is(r, "pass") || word_is(r, "success") || word_is(r, "xfail"))
		return V_OK;
	if (word_is(r, "fail") || word_is(r, "failure") || word_is(r, "xpass"))
		return V_FAILED;
	if (word_is(r, "abort") || word_is(r, "aborted"))
		return V_ABORTED;
	if (!r->len || word_is(r, "null") || word_is(r, "None") || word_is(r, "<unknown>"))
		return V_COMPUTE;
	return V_INVALID;
}

/* {"reference":..,"lower_thres":..,...} of one perf variable, as the jansson object was */
static void perf_meta(struct jtext_obj *kv, struct strbuf *o, const struct rfm_perf *p,
		      double lo, double hi, const char *res, int computed)
{
	strbuf_addstr(o, "{\"reference\":");
	if (p->has_ref && isfinite(p->ref))
		jtext_real_cached(kv, o, p->ref);
	else
		strbuf_addstr(o, "null");
	strbuf_addstr(o, ",\"lower_thres\":");
	if (p->has_lower && isfinite(p->lower))
		jtext_real_cached(kv, o, p->lower);
	else
		strbuf_addstr(o, "null");
	strbuf_addstr(o, ",\"upper_thres\":");
	if (p->has_upper && isfinite(p->upper))
		jtext_real_cached(kv, o, p->upper);
	else
		strbuf_addstr(o, "null");
	if (p->has_ref && p->ref == 0 && (p->has_lower || p->has_upper))
		strbuf_addstr(o, ",\"thresholds\":\"absolute\"");
	if (isfinite(lo)) {
		strbuf_addstr(o, ",\"lower_bound\":");
		jtext_real_cached(kv, o, lo);
	}
	if (isfinite(hi)) {
		strbuf_addstr(o, ",\"upper_bound\":");
		jtext_real_cached(kv, o, hi);
	}
	strbuf_addstr(o, ",\"result\":");
	jtext_str(o, res, strlen(res));
	if (computed)
		strbuf_addstr(o, ",\"result_computed\":true");
	strbuf_addch(o, '}');
}

static uint64_t dbits(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof(b));
	return b;
}

/* perf_meta() through the memo of metric slot i (lo and hi follow from
 * reference and thresholds: perf_bounds) */
static void perf_meta_memo(struct rfm_emit_buf *eb, size_t i, struct jtext_obj *kv,
			   struct strbuf *o, const struct rfm_perf *p, double lo, double hi,
			   const char *res, int computed)
{
	struct meta_memo *mm;
	size_t rn = strlen(res), mark;

	if (i >= EB_META_MEMO) {
		perf_meta(kv, o, p, lo, hi, res, computed);
		return;
	}
	mm = &eb->mm[i];
	if (mm->valid && mm->has_ref == p->has_ref && mm->has_lower == p->has_lower &&
	    mm->has_upper == p->has_upper && mm->computed == computed &&
	    (!p->has_ref || mm->ref == dbits(p->ref)) &&
	    (!p->has_lower || mm->lower == dbits(p->lower)) &&
	    (!p->has_upper || mm->upper == dbits(p->upper)) && mm->res.len == rn &&
	    !memcmp(mm->res.buf, res, rn)) {
		strbuf_addbuf(o, &mm->text);
		return;
	}
	mark = o->len;
	perf_meta(kv, o, p, lo, hi, res, computed);
	mm->valid = 1;
	mm->has_ref = p->has_ref;
	mm->has_lower = p->has_lower;
	mm->has_upper = p->has_upper;
	mm->computed = computed;
	mm->ref = p->has_ref ? dbits(p->ref) : 0;
	mm->lower = p->has_lower ? dbits(p->lower) : 0;
	mm->upper = p->has_upper ? dbits(p->upper) : 0;
	strbuf_reset(&mm->res);
	strbuf_add(&mm->res, res, rn);
	strbuf_reset(&mm->text);
	strbuf_add(&mm->text, o->buf + mark, o->len - mark);
}

/* jtext_obj_set_str(kv, key, sb) for a key literal (its length known) */
#define kv_set_buf(kv, key, sb) kv_set_buf_n(kv, key, sizeof(key) - 1, sb)
static void kv_set_buf_n(struct jtext_obj *kv, const char *key, size_t klen,
			 const struct strbuf *sb)
{
	size_t mark = kv->vals.len;

	jtext_str(&kv->vals, sb->buf, sb->len);
	jtext_obj_put(kv, key, klen, mark);
}

/* rfm_lower_is_better(), a pure function, remembered for the case before */
static int lower_is_better(struct rfm_emit_buf *eb, const char *name, const char *unit)
{
	size_t nn = name ? strlen(name) : 0, nu = unit ? strlen(unit) : 0;

	/* a tag byte before each says whether it is NULL ('\x01') */
	if (eb->lib >= 0 && eb->lib_nn == nn && eb->lib_key.len == nn + nu + 3 &&
	    eb->lib_key.buf[0] == (name ? 'n' : '\x01') && eb->lib_key.buf[nn + 1] == '\n' &&
	    eb->lib_key.buf[nn + 2] == (unit ? 'u' : '\x01') &&
	    !memcmp(eb->lib_key.buf + 1, name ? name : "", nn) &&
	    !memcmp(eb->lib_key.buf + nn + 3, unit ? unit : "", nu))
		return eb->lib;
	strbuf_reset(&eb->lib_key);
	strbuf_addch(&eb->lib_key, name ? 'n' : '\x01');
	strbuf_add(&eb->lib_key, name ? name : "", nn);
	strbuf_addch(&eb->lib_key, '\n');
	strbuf_addch(&eb->lib_key, unit ? 'u' : '\x01');
	strbuf_add(&eb->lib_key, unit ? unit : "", nu);
	eb->lib_nn = nn;
	eb->lib = rfm_lower_is_better(name, unit);
	return eb->lib;
}

int rfm_case_emit(struct ingest_file *f, struct rfm_case *c, struct rfm_skips *sk,
		  struct strbuf *err)
{
	struct rfm_emit_buf *eb;
	struct strbuf *sysname, *cls, *reason, *finished, *started, *sysmeta, *missing, *metas;
	struct strbuf *ptext, *accel_buf;
	struct ingest_metric *m;
	const char **mj;
	size_t *moff;
	struct ingest_run run = { 0 };
	struct jtext_obj *kv = &c->kv;
	enum verdict verdict;
	const char *accel = NULL, *bad_var = NULL;
	double bad_lo = 0, bad_hi = 0, bad_val = 0;
	size_t i, nm = 0, nvalues = 0;
	const char *key = NULL;
	int rc;

	if (word_is(&c->jobid, "null") || word_is(&c->jobid, "None") ||
	    word_is(&c->jobid, "<undefined>"))
		strbuf_reset(&c->jobid);
	if (word_is(&c->result, "skip") || word_is(&c->result, "skipped") ||
	    word_is(&c->result, "fail_deps")) {
		sk->not_run++;
		return 1;
	}
	verdict = result_verdict(&c->result);
	if (!c->nperf && (verdict == V_OK || verdict == V_COMPUTE)) {
		sk->no_perf++;
		return 1;
	}
	if (!c->display.len)
		return ingest_fail_at(f, err, c->line, "test case without a name");
	if (!c->system.len || !c->partition.len)
		return ingest_fail_at(f, err, c->line, "test case '%s' has no system:partition",
				      c->display.buf);

	eb = eb_get(c);
	sysname = &eb->sb[EB_SYSNAME];
	cls = &eb->sb[EB_CLS];
	reason = &eb->sb[EB_REASON];
	finished = &eb->sb[EB_FINISHED];
	started = &eb->sb[EB_STARTED];
	missing = &eb->sb[EB_MISSING];
	metas = &eb->sb[EB_METAS];
	ptext = &eb->sb[EB_PTEXT];
	accel_buf = &eb->sb[EB_ACCEL];
	m = eb->m;
	mj = eb->mj;
	moff = eb->moff;
	strbuf_addbuf(sysname, &c->system);
	strbuf_addch(sysname, ':');
	strbuf_addbuf(sysname, &c->partition);
	strbuf_add(cls, c->display.buf, strcspn(c->display.buf, " "));
	{
		const struct strbuf *sp[2] = { &c->system, &c->partition };
		struct text_memo *tm = &eb->tm[TM_SYSMETA];

		if (!tm_same(tm, sp, 2)) {
			strbuf_addstr(&tm->text, "{\"site\":");
			jtext_str(&tm->text, c->system.buf, c->system.len);
			strbuf_addstr(&tm->text, ",\"partition\":");
			jtext_str(&tm->text, c->partition.buf, c->partition.len);
			strbuf_addch(&tm->text, '}');
		}
		sysmeta = &tm->text;
	}

	/* a run report's attributes come first, in its order */
	if (json_object_size(c->params))
		jtext_obj_add_json(kv, c->params);
	/* a test's runs come together: its display name's parameters once */
	if (!eb->dp_valid || eb->disp.len != c->display.len ||
	    !ab_memeq(eb->disp.buf, c->display.buf, c->display.len)) {
		strbuf_reset(&eb->disp);
		strbuf_addbuf(&eb->disp, &c->display);
		dparams_parse(c->display.buf, &eb->dp);
		eb->dp_valid = 1;
	}
	dparams_put(&eb->dp, kv);
	kv_set_memo(kv, "display_name", 12, &eb->tm[TM_DISPLAY], &c->display);
	if (c->environ.len)
		kv_set_memo(kv, "environ", 7, &eb->tm[TM_ENVIRON], &c->environ);
	if (c->result.len)
		kv_set_memo(kv, "result", 6, &eb->tm[TM_RESULT], &c->result);
	if (c->fail_phase.len)
		kv_set_buf(kv, "fail_phase", &c->fail_phase);
	if (c->fail_reason.len)
		kv_set_buf(kv, "fail_reason", &c->fail_reason);
	if (c->time_basis) {
		/* one of a few static texts: escaped once per text */
		size_t mark = kv->vals.len;

		if (eb->basis != c->time_basis) {
			strbuf_reset(&eb->basis_text);
			jtext_str(&eb->basis_text, c->time_basis, strlen(c->time_basis));
			eb->basis = c->time_basis;
		}
		strbuf_addbuf(&kv->vals, &eb->basis_text);
		jtext_obj_put(kv, "time_basis", 10, mark);
	}
	/* the text is worth keeping when the instant was read from it */
	if (c->time_raw.len && c->time_basis && strcmp(c->time_basis, "job_completion_time_unix"))
		kv_set_buf(kv, "time_as_written", &c->time_raw);
	accel = kv_string(kv, &eb->pk[PK_NODE_TYPE], accel_buf);

	for (i = 0; i < c->nperf; i++) {
		struct rfm_perf *p = &c->perf[i];
		double lo, hi;
		const char *res = p->result;
		int computed = 0;

		perf_bounds(p, &lo, &hi);
		if (!p->has_value) {
			strbuf_addch(missing, missing->len ? ',' : '{');
			jtext_str(missing, p->name, p->name_len);
			strbuf_addch(missing, ':');
			if (p->raw)
				jtext_str(missing, p->raw, strlen(p->raw));
			else
				strbuf_addstr(missing, "null");
			continue;
		}
		nvalues++;
		if (!isfinite(p->value))
			continue;
		if (!res || missing_word(res)) {
			res = (p->value >= lo && p->value <= hi) ? "pass" : "fail";
			computed = 1;
		}
		if (!strcmp(res, "fail") && !bad_var) {
			bad_var = p->name;
			bad_val = p->value;
			bad_lo = lo;
			bad_hi = hi;
		}
		moff[nm] = metas->len;
		perf_meta_memo(eb, nm, kv, metas, p, lo, hi, res, computed);
		strbuf_addch(metas, '\0');
		m[nm].name = p->name;
		m[nm].value = p->value;
		m[nm].unit = p->unit ? p->unit : "";
		m[nm].meta = NULL;
		nm++;
	}
	for (i = 0; i < nm; i++)
		mj[i] = metas->buf + moff[i];
	if (missing->len) {
		strbuf_addch(missing, '}');
		jtext_obj_set_raw(kv, "perf_missing", missing->buf, missing->len);
	}

	run.status = RUN_OK;
	switch (verdict) {
	case V_OK:
		break;
	case V_FAILED:
		run.status = RUN_FAILED;
		if (c->fail_reason.len)
			short_reason(reason, c->fail_reason.buf);
		else if (word_is(&c->result, "xpass"))
			strbuf_addstr(reason, "xpass: passed although expected to fail");
		break;
	case V_ABORTED:
		run.status = RUN_ABORTED;
		if (c->fail_reason.len)
			short_reason(reason, c->fail_reason.buf);
		else
			strbuf_addstr(reason, "aborted");
		break;
	case V_INVALID:
		run.status = RUN_INVALID;
		strbuf_addf(reason, "unknown ReFrame result '%s'", c->result.buf);
		break;
	case V_COMPUTE:
		jtext_obj_set_raw(kv, "result_computed", "true", 4);
		if (bad_var) {
			run.status = RUN_FAILED;
		} else if (!nvalues) {
			run.status = RUN_FAILED;
			strbuf_addstr(reason, "no performance values");
		}
		break;
	}
	if (run.status == RUN_FAILED && !reason->len) {
		if (bad_var) {
			strbuf_addf(reason, "performance: %s=", bad_var);
			num_format(reason, bad_val);
			strbuf_addstr(reason, " outside [");
			if (isfinite(bad_lo))
				bound_format(reason, bad_lo);
			else
				strbuf_addstr(reason, "-inf");
			strbuf_addstr(reason, ", ");
			if (isfinite(bad_hi))
				bound_format(reason, bad_hi);
			else
				strbuf_addstr(reason, "inf");
			strbuf_addch(reason, ']');
		} else if (!nvalues) {
			strbuf_addstr(reason, c->fail_phase.len ? c->fail_phase.buf : "failed");
			strbuf_addstr(reason, ": no performance values");
		} else {
			strbuf_addf(reason, "ReFrame result '%s'", c->result.buf);
		}
		if (verdict == V_COMPUTE)
			strbuf_addstr(reason, " (verdict derived by accelbench: the file gives no result)");
	}

	if (isfinite(c->completion))
		rfm_iso8601(&eb->iso, finished, c->completion);
	/* ReFrame logs when the job was submitted, not when it started: the
	 * submit time is kept in params, `started` stays unknown */
	if (isfinite(c->submit)) {
		rfm_iso8601(&eb->iso, started, c->submit);
		kv_set_buf(kv, "job_submit_time", started);
		strbuf_reset(started);
	}
	key = dedupe_key(c, &eb->sb[EB_KEY], &eb->sb[EB_KEYT], &eb->tm[TM_KEY]);

	run.line = c->line;
	run.system.name = sysname->buf;
	run.system.display_name = sysname->buf;
	run.system.accelerator = accel;
	run.system.site = c->system.buf;
	run.system.meta_json = sysmeta->buf;
	run.suite = "reframe";
	run.benchmark = cls->buf;
	run.bench_metric = c->nperf ? c->perf[0].name : "";
	run.bench_unit = c->nperf && c->perf[0].unit ? c->perf[0].unit : "";
	run.lower_is_better = c->nperf && lower_is_better(eb, c->perf[0].name, c->perf[0].unit);
	run.job_id = c->jobid.len ? c->jobid.buf : NULL;
	run.started = started->len ? started->buf : NULL;
	run.finished = finished->len ? finished->buf : NULL;
	run.nodes = param_long(kv, eb, PK_NUM_NODES);
	if (!run.nodes)
		run.nodes = param_long(kv, eb, PK_NODES);
	if (!run.nodes)
		run.nodes = param_long(kv, eb, PK_N_NODES);
	if (!run.nodes) {
		long t = param_long(kv, eb, PK_NUM_TASKS);
		long tpn = t ? param_long(kv, eb, PK_NUM_TASKS_PER_NODE) : 0;
		if (t && tpn)
			run.nodes = (t + tpn - 1) / tpn;
	}
	if (!run.nodes)
		run.nodes = nodelist_count(kv, &eb->pk[PK_JOB_NODELIST]);
	if (!run.nodes)
		run.nodes = nodelist_count(kv, &eb->pk[PK_NODELIST]);
	run.devices = param_long(kv, eb, PK_NUM_GPUS);
	if (!run.devices)
		run.devices = param_long(kv, eb, PK_NUM_IPUS);
	if (!run.devices)
		run.devices = param_long(kv, eb, PK_NUM_CSX);
	if (!run.devices)
		run.devices = param_long(kv, eb, PK_NUM_DEVICES);
	if (!run.devices && run.nodes) {
		long g = param_long(kv, eb, PK_NUM_GPUS_PER_NODE);
		if (g)
			run.devices = run.nodes * g;
	}
	run.local_batch = param_long(kv, eb, PK_LBS);
	if (!run.local_batch)
		run.local_batch = param_long(kv, eb, PK_LOCAL_BATCH_SIZE);
	run.global_batch = param_long(kv, eb, PK_GBS);
	if (!run.global_batch)
		run.global_batch = param_long(kv, eb, PK_GLOBAL_BATCH_SIZE);
	if (!run.global_batch) {
		size_t n;
		const char *v = jtext_obj_get_ref(kv, &eb->pk[PK_SESSION_EXTRAS], &n);
		if (v) {
			json_t *extras = json_loadb(v, n, JSON_DECODE_ANY, NULL);
			run.global_batch = param_long_json(extras, "gbs");
			json_decref(extras);
		}
	}
	if (kv->n > eb->ends_cap) {
		eb->ends_cap = 2 * kv->n;
		eb->ends = ab_realloc(eb->ends, eb->ends_cap * sizeof(*eb->ends));
	}
	if (jtext_obj_dump_ends(kv, ptext, eb->ends) == 0) {
		run.params_pair_ends = eb->ends;
		run.params_npairs = kv->n;
	}
	run.params_json = ptext->buf;
	run.params_json_len = ptext->len;
	run.excluded_reason = reason->len ? reason->buf : NULL;
	run.dedupe_key = key;
	run.metrics = m;
	run.nmetrics = nm;
	run.metrics_meta_json = mj;
	rc = ingest_emit_run(f, &run, NULL, err);
	if (rc < 0 && !strstr(err->buf, f->path))
		ab_error_prefix(err, f->path, c->line);
	return rc;
}

void rfm_skips_warn(struct ingest_file *f, const struct rfm_skips *sk)
{
	if (sk->warned > RFM_REPORT_MAX_WARN)
		ingest_warn(f, 0, "%ld more warnings like the above", sk->warned - RFM_REPORT_MAX_WARN);
	if (sk->no_perf)
		ingest_warn(f, 0, "%ld passing test case%s without performance variables not stored",
			    sk->no_perf, sk->no_perf == 1 ? "" : "s");
	if (sk->not_run)
		ingest_warn(f, 0, "%ld skipped test case%s not stored (never ran)", sk->not_run,
			    sk->not_run == 1 ? "" : "s");
}
