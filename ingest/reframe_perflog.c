/*
 * reframe_perflog.c - ReFrame performance logs, every version and site
 * format, and EPCC's plain reframe_perf.out.
 *
 * The layout of a file is chosen from its first line: the site format
 * (--perflog-format or the nearest .accelbench-reframe.json) first, then
 * the built-in ones (4.3+ default with its check_#ALL header, 4.2 and
 * 4.0-4.1 defaults with a comma header, the 3.x default, EPCC's compat
 * format).  Formats with one performance variable per line (3.x, compat
 * or multiline mode, reframe_perf.out) are regrouped into one test case
 * per (display name, system, partition, environment, job id, completion
 * time); a variable seen twice starts a new case, so retries stay
 * separate.  Only a few cases are open at a time (memory stays bounded),
 * which is enough because ReFrame writes the lines of one case together.
 *
 * A header names the columns of any site format (rfm_layout_from_header);
 * under ReFrame's pre-4.6.1 header rule it lacks the "key=" text a format
 * puts before a field, which the first data line shows
 * (rfm_layout_adopt_prefixes).
 *
 * System and partition come from the line, else from the path
 * perflogs/<system>/<partition>/<file>.  Times without a UTC offset are
 * read in the offset of the config file (utc_offset, default UTC) and the
 * assumption is kept in params.time_basis.
 */
#include "core/compat.h"
#include "reframe_priv.h"

#include <ctype.h>
#include <math.h>
#include <sys/stat.h>
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define RFM_SSE2 1
#endif

#define RFM_OPEN_GROUPS 16
#define RFM_MAX_WARN 10

struct group {
	struct rfm_case c;
	struct strbuf key;
	int used;
};

/* The JSON text of a column's last value: site perflogs repeat most of
 * their columns line after line ({} for env_vars, the same num_tasks...). */
struct col_cache {
	struct strbuf raw, text;
	int set;            /* 0: the value says nothing (null, None, empty) */
	int valid;
	const char *name;   /* the column's name, and its length */
	size_t name_len;
	/* perf reference / threshold columns: rfm_perf_set_num of raw */
	int num_rc, num_has;
	double num;
};

/* A column's last text as escaped JSON (version and check_info repeat
 * line after line; escaping them was ~40M instructions of rf4) */
struct text_cache {
	struct strbuf raw, text;
	int valid;
	int old_era;        /* the version column: rfm_version_old_era(raw) */
};

struct perflog {
	struct ingest_file *f;
	int perf_out;                 /* the EPCC plain-file handler */
	struct rfm_fmt site, fmt;
	struct rfm_layout lay;
	struct rfm_match m;
	const char *label;
	struct strbuf where;          /* where the site format came from */
	long utc_offset;
	struct strbuf offset_json;    /* "+HH:MM" of utc_offset as JSON text, made once */
	struct text_cache ver, info;  /* the version and check_info columns */
	int have_site, offset_given;
	struct strbuf path_sys, path_part;
	struct strbuf file_test;      /* test name from the file name, "" when not a name */
	struct rfm_case tmp;
	struct group g[RFM_OPEN_GROUPS];
	/* the groups in order, open ones first (oldest first): a group
	 * emitted moves to the end as a pointer, not as a struct of ~1 KB */
	struct group *gp[RFM_OPEN_GROUPS];
	size_t ngroups;               /* open groups */
	struct rfm_skips sk;
	long warned;
	struct strbuf gkey;
	struct col_cache *cc;         /* one per layout column */
	size_t ncc;
};

/* ---- detection ---------------------------------------------------------- */

static size_t first_line(const unsigned char *head, size_t len, struct strbuf *out)
{
	size_t n = 0;

	while (n < len && head[n] != '\n')
		n++;
	strbuf_reset(out);
	strbuf_add(out, head, n);
	strbuf_rtrim(out);
	return n;
}

static int under_perflogs(const char *path)
{
	const char *base = ingest_basename(path), *h;

	if (!strstr(path, "perflogs/"))
		return 0;
	if (ingest_ends_with(base, ".log"))
		return 1;
	h = strstr(base, ".log.h");
	if (!h || !h[6])
		return 0;
	for (h += 6; *h; h++)
		if (!isdigit((unsigned char)*h))
			return 0;
	return 1;
}

static int detect_perflog(const char *path, const unsigned char *head, size_t len)
{
	struct strbuf l = STRBUF_INIT;
	int score = 0;

	first_line(head, len, &l);
	if (!strncmp(l.buf, "result|job_completion_time|", 27) ||
	    !strncmp(l.buf, "job_completion_time,version,display_name,system,partition,environ,"
			    "jobid,result", 76) ||
	    !strncmp(l.buf, "display_name|result|job_completion_time|perf_var|", 50))
		score = 95;
	else if (strstr(l.buf, "|reframe ") && strstr(l.buf, "|jobid=") && strstr(l.buf, "|ref="))
		score = 95;
	else if (strstr(l.buf, "job_completion_time") &&
		 (strstr(l.buf, "_value") || strstr(l.buf, "perf_var")))
		score = 80;
	else if (under_perflogs(path) && (strchr(l.buf, '|') || strchr(l.buf, ',')))
		score = 50;
	else {
		/* a header naming ReFrame columns, anywhere */
		struct rfm_layout lay;
		struct strbuf e = STRBUF_INIT;

		rfm_layout_init(&lay);
		if (rfm_layout_from_header(&lay, l.buf, &e) == 0)
			score = 40;
		rfm_layout_release(&lay);
		strbuf_release(&e);
	}
	strbuf_release(&l);
	return score;
}

static int detect_perf_out(const char *path, const unsigned char *head, size_t len)
{
	struct strbuf l = STRBUF_INIT;
	int score = 0;

	first_line(head, len, &l);
	if (l.buf[0] == '[' && strstr(l.buf, "] ") && strstr(l.buf, " @") &&
	    strstr(l.buf, " (ref=") && strstr(l.buf, ";l=") && strstr(l.buf, ";u="))
		score = 90;
	strbuf_release(&l);
	return score;
}

/* ---- one line -> a test case ---------------------------------------------- */

/* ReFrame writes UTF-8; anything else would be dropped by JSON params later. */
static int utf8_ok(const unsigned char *s, size_t len)
{
	size_t i = 0;

	/* all ASCII so far, 32 bytes at a time (a perflog line of 300 bytes
	 * cost ~250 instructions 8 bytes at a time); the first byte that is
	 * not is read by the loop below */
	for (; i + 32 <= len; i += 32) {
#ifdef RFM_SSE2
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16));
		if (_mm_movemask_epi8(_mm_or_si128(a, b)))
			break;
#else
		uint64_t w[4];
		memcpy(w, s + i, 32);
		if ((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ull)
			break;
#endif
	}
	while (i < len) {
		unsigned char c = s[i];
		size_t n, k;
		uint32_t cp;

		if (c < 0x80) {
			uint64_t w;

			/* ASCII, eight bytes at a time (most lines are all ASCII) */
			for (i++; i + 8 <= len; i += 8) {
				memcpy(&w, s + i, 8);
				if (w & 0x8080808080808080ull)
					break;
			}
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF) {
			n = 1;
			cp = c & 0x1F;
		} else if (c >= 0xE0 && c <= 0xEF) {
			n = 2;
			cp = c & 0x0F;
		} else if (c >= 0xF0 && c <= 0xF4) {
			n = 3;
			cp = c & 0x07;
		} else {
			return 0;
		}
		for (k = 1; k <= n; k++) {
			if (i + k >= len || (s[i + k] & 0xC0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if ((n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
		    (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
			return 0;
		i += n + 1;
	}
	return 1;
}

static void warn_capped(struct perflog *pl, long line, const char *what, const char *name)
{
	if (pl->warned < RFM_MAX_WARN)
		ingest_warn(pl->f, line, what, name);
	pl->warned++;
}

/* nan, inf, 1e400, 1e-400: a value that cannot be stored is said, not dropped */
static void warn_value(struct perflog *pl, long line, const struct rfm_perf *p,
		       enum rfm_value kind)
{
	if (pl->warned < RFM_MAX_WARN)
		ingest_warn(pl->f, line, "performance value of '%s' is '%s' (%s); not stored",
			    p->name, p->raw ? p->raw : "", rfm_value_why(kind));
	pl->warned++;
}

static void parse_info(struct rfm_case *c, const char *s, size_t len)
{
	const char *at = NULL, *p;
	size_t i;

	for (i = len; i-- > 1;)
		if (s[i] == '@' && s[i - 1] == ' ') {
			at = s + i;
			break;
		}
	if (at) {
		/* "display[ /hash] @sys:part+env" */
		const char *colon = memchr(at, ':', len - (size_t)(at - s));
		const char *plus = colon ? memchr(colon, '+', len - (size_t)(colon - s)) : NULL;
		size_t dl = (size_t)(at - 1 - s);

		if (!colon || !plus)
			return;
		strbuf_setstr(&c->system, "");
		strbuf_add(&c->system, at + 1, (size_t)(colon - at - 1));
		strbuf_reset(&c->partition);
		strbuf_add(&c->partition, colon + 1, (size_t)(plus - colon - 1));
		strbuf_reset(&c->environ);
		strbuf_add(&c->environ, plus + 1, len - (size_t)(plus + 1 - s));
		if (dl > 10 && s[dl - 10] == ' ' && s[dl - 9] == '/') {
			for (p = s + dl - 8; p < s + dl && isxdigit((unsigned char)*p); p++)
				;
			if (p == s + dl) {
				jtext_obj_set_str(&c->kv, "hashcode", s + dl - 8, 8);
				dl -= 10;
			}
		}
		strbuf_reset(&c->display);
		strbuf_add(&c->display, s, dl);
		return;
	}
	/* ReFrame 3.0-3.9: "Name on sys:part using env" */
	for (i = len; i-- > 0;) {
		if (i + 7 <= len && !memcmp(s + i, " using ", 7)) {
			const char *on = NULL, *colon;
			size_t k;
			for (k = i; k-- > 0;)
				if (k + 4 <= i && !memcmp(s + k, " on ", 4)) {
					on = s + k;
					break;
				}
			if (!on)
				return;
			colon = memchr(on + 4, ':', (size_t)(s + i - on - 4));
			if (!colon)
				return;
			strbuf_reset(&c->display);
			strbuf_add(&c->display, s, (size_t)(on - s));
			strbuf_reset(&c->system);
			strbuf_add(&c->system, on + 4, (size_t)(colon - on - 4));
			strbuf_reset(&c->partition);
			strbuf_add(&c->partition, colon + 1, (size_t)(s + i - colon - 1));
			strbuf_reset(&c->environ);
			strbuf_add(&c->environ, s + i + 7, len - i - 7);
			return;
		}
	}
}

/* [completion time, log time][offset written, configured offset assumed, UTC assumed] */
static const char *const time_basis[2][3] = {
	{ "job_completion_time with UTC offset",
	  "job_completion_time without UTC offset: assumed the configured utc_offset",
	  "job_completion_time without UTC offset: assumed UTC" },
	{ "log time (asctime; no job completion time in this format)",
	  "log time (asctime), no UTC offset: assumed the configured utc_offset",
	  "log time (asctime), no UTC offset: assumed UTC" },
};

static void set_time(struct perflog *pl, struct rfm_case *c, const char *s, size_t len,
		     int asctime)
{
	double t;
	int has_offset;

	strbuf_reset(&c->time_raw);
	strbuf_add(&c->time_raw, s, len);
	if (rfm_parse_time(s, len, pl->utc_offset, &t, &has_offset) < 0)
		return;
	c->completion = t;
	if (!has_offset) {
		/* formatted once per file: printf per line was ~4 % of a perflog's parse */
		if (!pl->offset_json.len) {
			struct strbuf o = STRBUF_INIT;
			long a = labs(pl->utc_offset);
			strbuf_addf(&o, "%c%02ld:%02ld", pl->utc_offset < 0 ? '-' : '+', a / 3600,
				    (a % 3600) / 60);
			jtext_str(&pl->offset_json, o.buf, o.len);
			strbuf_release(&o);
		}
		{	/* jtext_obj_set_raw, without its strlen of the key */
			size_t mark = c->kv.vals.len;

			strbuf_addbuf(&c->kv.vals, &pl->offset_json);
			jtext_obj_put(&c->kv, "utc_offset_assumed", 18, mark);
		}
	}
	c->time_basis = time_basis[asctime ? 1 : 0][has_offset ? 0 : pl->offset_given ? 1 : 2];
}

/* jtext_obj_set_str(&c->kv, key, v, n) with the escaped text from tc when
 * v repeats; 1 when it did */
static int set_cached(struct rfm_case *c, struct text_cache *tc, const char *key, size_t klen,
		      const char *v, size_t n)
{
	size_t mark = c->kv.vals.len;
	int same = tc->valid && tc->raw.len == n && ab_memeq(tc->raw.buf, v, n);

	if (!same) {
		strbuf_reset(&tc->raw);
		strbuf_add(&tc->raw, v, n);
		strbuf_reset(&tc->text);
		jtext_str(&tc->text, v, n);
		tc->valid = 1;
	}
	strbuf_addbuf(&c->kv.vals, &tc->text);
	jtext_obj_put(&c->kv, key, klen, mark);
	return same;
}

/* system / partition / environ: the column wins over check_info (same value
 * in practice); null or empty says nothing. */
static void set_name(struct strbuf *sb, const char *v, size_t n)
{
	if (!n || (n == 4 && (!memcmp(v, "null", 4) || !memcmp(v, "None", 4))))
		return;
	strbuf_reset(sb);
	strbuf_add(sb, v, n);
}

/* one cache per layout column (the layout is chosen at line 1, some
 * columns are adopted at line 2: sized again whenever it grew) */
static void col_cache_size(struct perflog *pl)
{
	if (pl->ncc < pl->lay.n) {
		size_t k;
		pl->cc = ab_realloc(pl->cc, pl->lay.n * sizeof(*pl->cc));
		for (k = pl->ncc; k < pl->lay.n; k++) {
			strbuf_init(&pl->cc[k].raw, 0);
			strbuf_init(&pl->cc[k].text, 0);
			pl->cc[k].set = pl->cc[k].valid = 0;
			pl->cc[k].name = NULL;
			pl->cc[k].name_len = 0;
		}
		pl->ncc = pl->lay.n;
	}
}

/* params[column name] = the column's value, from the cache when it repeats */
static void other_param(struct perflog *pl, struct rfm_case *c, size_t i, const char *v, size_t n)
{
	struct col_cache *cc = &pl->cc[i];
	size_t mark;

	if (!cc->valid || cc->raw.len != n || !ab_memeq(cc->raw.buf, v, n)) {
		strbuf_reset(&cc->raw);
		strbuf_add(&cc->raw, v, n);
		strbuf_reset(&cc->text);
		cc->set = rfm_param_value(&cc->text, v, n);
		cc->valid = 1;
	}
	if (!cc->set)
		return;
	if (cc->name != pl->lay.col[i].name) {
		cc->name = pl->lay.col[i].name;
		cc->name_len = strlen(cc->name);
	}
	mark = c->kv.vals.len;
	strbuf_addbuf(&c->kv.vals, &cc->text);
	jtext_obj_put(&c->kv, cc->name, cc->name_len, mark);
}

/* rfm_perf_set_num of column i, from the cache when the text repeats
 * (references and thresholds do, line after line) */
static inline AB_ALWAYS_INLINE int perf_num(struct perflog *pl, size_t i, int *has, double *out,
					    const char *v, size_t n)
{
	struct col_cache *cc = &pl->cc[i];

	if (!cc->valid || cc->raw.len != n || !ab_memeq(cc->raw.buf, v, n)) {
		strbuf_reset(&cc->raw);
		strbuf_add(&cc->raw, v, n);
		cc->num_has = 0;
		cc->num = 0;
		cc->num_rc = rfm_perf_set_num(&cc->num_has, &cc->num, v, n);
		cc->valid = 1;
	}
	*has = cc->num_has;
	if (cc->num_has)
		*out = cc->num;
	return cc->num_rc;
}

/*
 * Fill c from the matched columns of one line.  For per-variable lines,
 * the group key is left in pl->gkey.
 */
static int line_case(struct perflog *pl, const char *line, long lineno, struct rfm_case *c,
		     struct strbuf *err)
{
	const struct rfm_layout *l = &pl->lay;
	struct rfm_perf *lone = NULL;
	const char *time_s = NULL, *asc_s = NULL, *name_s = NULL;
	size_t time_n = 0, asc_n = 0, name_n = 0, i;
	double tnum;
	enum rfm_value kind;
	int have_unix = 0, last_perf = -1;
	struct rfm_perf *last_p = NULL;

	rfm_case_reset(c);
	c->line = lineno;
	col_cache_size(pl);
	if (l->per_var) {
		for (i = 0; i < l->n; i++)
			if (l->col[i].attr == RA_PERF_VAR && l->col[i].perf < 0)
				lone = rfm_case_perf(c, line + pl->m.off[i], pl->m.len[i]);
		if (!lone)
			return ingest_fail_at(pl->f, err, lineno,
					      "the perflog format has no %%(check_perf_var)s");
	}
	for (i = 0; i < l->n; i++) {
		const struct rfm_col *col = &l->col[i];
		const char *v = line + pl->m.off[i];
		size_t n = pl->m.len[i];
		struct rfm_perf *p = lone;
		double d;

		if (col->perf >= 0) {
			/* a variable's columns come together: looked up once
			 * (a lookup may move the array: only the last is kept) */
			if (col->perf != last_perf) {
				const char *pn = l->perf_names[col->perf];
				last_p = rfm_case_perf(c, pn, strlen(pn));
				last_perf = col->perf;
			}
			p = last_p;
		}

		switch (col->attr) {
		case RA_OTHER:
			other_param(pl, c, i, v, n);
			break;
		case RA_IGNORE:
		case RA_PERF_VAR:
			break;
		case RA_RESULT:
			strbuf_add(&c->result, v, n);
			break;
		case RA_TIME:
			time_s = v;
			time_n = n;
			break;
		case RA_ASCTIME:
			asc_s = v;
			asc_n = n;
			break;
		/* unix times have 17 digits, past ingest_parse_double's fast
		 * path: straight to num_parse_double's exact one (same value) */
		case RA_TIME_UNIX:
			if (num_parse_double(v, n, &d) == NUM_OK) {
				c->completion = d;
				have_unix = 1;
			}
			break;
		case RA_SUBMIT_UNIX:
			if (num_parse_double(v, n, &d) == NUM_OK)
				c->submit = d;
			break;
		case RA_DISPLAY:
			strbuf_reset(&c->display);
			strbuf_add(&c->display, v, n);
			break;
		case RA_NAME:
			name_s = v;
			name_n = n;
			break;
		case RA_SYSTEM:
			set_name(&c->system, v, n);
			break;
		case RA_PARTITION:
			set_name(&c->partition, v, n);
			break;
		case RA_ENVIRON:
			set_name(&c->environ, v, n);
			break;
		case RA_JOBID:
			strbuf_add(&c->jobid, v, n);
			break;
		case RA_VERSION:
			/* "reframe %(version)s" under a header older than 4.6.1 */
			if (n > 8 && !memcmp(v, "reframe ", 8)) {
				v += 8;
				n -= 8;
			}
			if (!set_cached(c, &pl->ver, "reframe_version", 15, v, n))
				pl->ver.old_era = rfm_version_old_era(v, n);
			c->old_era = pl->ver.old_era;
			break;
		case RA_INFO:
			set_cached(c, &pl->info, "info", 4, v, n);
			parse_info(c, v, n);
			break;
		case RA_PERF_VALUE:
			if (!p)
				break;
			kind = rfm_perf_set_value(p, v, n);
			if (kind == RFM_VALUE_TEXT)
				warn_capped(pl, lineno, "performance value of '%s' is not a number",
					    p->name);
			else if (rfm_value_why(kind))
				warn_value(pl, lineno, p, kind);
			break;
		case RA_PERF_UNIT:
			if (p)
				rfm_perf_set_unit(p, v, n);
			break;
		case RA_PERF_REF:
			if (p && perf_num(pl, i, &p->has_ref, &p->ref, v, n) < 0)
				warn_capped(pl, lineno, "reference of '%s' is not a number", p->name);
			break;
		case RA_PERF_LOWER:
			if (p && perf_num(pl, i, &p->has_lower, &p->lower, v, n) < 0)
				warn_capped(pl, lineno, "lower threshold of '%s' is not a number",
					    p->name);
			break;
		case RA_PERF_UPPER:
			if (p && perf_num(pl, i, &p->has_upper, &p->upper, v, n) < 0)
				warn_capped(pl, lineno, "upper threshold of '%s' is not a number",
					    p->name);
			break;
		case RA_PERF_RESULT:
			if (p && n && !(n == 4 && !memcmp(v, "None", 4))) {
				free(p->result);
				p->result = ab_strndup(v, n);
			}
			break;
		}
	}
	if (!c->display.len && name_s)
		strbuf_add(&c->display, name_s, name_n);
	/* ReFrame names a perflog file after its test: formats without the name */
	if (!c->display.len)
		strbuf_addbuf(&c->display, &pl->file_test);
	if (time_s && have_unix) {
		/* the float ReFrame formatted the time from: exact, no offset question */
		strbuf_reset(&c->time_raw);
		strbuf_add(&c->time_raw, time_s, time_n);
		c->time_basis = "job_completion_time_unix";
	} else if (time_s) {
		set_time(pl, c, time_s, time_n, 0);
		/* null / None: no job ran, no time; anything else must read */
		if (!isfinite(c->completion) && time_n &&
		    num_parse_double(time_s, time_n, &tnum) != NUM_NAN) {
			return ingest_fail_at(pl->f, err, lineno, "cannot read the time '%.*s'",
					      (int)time_n, time_s);
		}
	} else if (have_unix) {
		c->time_basis = "job_completion_time_unix";
	} else if (asc_s) {
		set_time(pl, c, asc_s, asc_n, 1);
		if (!isfinite(c->completion))
			return ingest_fail_at(pl->f, err, lineno, "cannot read the time '%.*s'",
					      (int)asc_n, asc_s);
	}
	if (!c->system.len && !c->partition.len) {
		strbuf_addbuf(&c->system, &pl->path_sys);
		strbuf_addbuf(&c->partition, &pl->path_part);
	}
	if (l->per_var) {
		strbuf_reset(&pl->gkey);
		strbuf_addbuf(&pl->gkey, &c->display);
		strbuf_addch(&pl->gkey, '\x1f');
		strbuf_addbuf(&pl->gkey, &c->system);
		strbuf_addch(&pl->gkey, '\x1f');
		strbuf_addbuf(&pl->gkey, &c->partition);
		strbuf_addch(&pl->gkey, '\x1f');
		strbuf_addbuf(&pl->gkey, &c->environ);
		strbuf_addch(&pl->gkey, '\x1f');
		strbuf_addbuf(&pl->gkey, &c->jobid);
		strbuf_addch(&pl->gkey, '\x1f');
		if (!asc_s)
			strbuf_addbuf(&pl->gkey, &c->time_raw);
	}
	return 0;
}

/* ---- grouping of per-variable lines ---------------------------------------- */

static int emit_group(struct perflog *pl, size_t k, struct strbuf *err)
{
	struct group *g = pl->gp[k];
	int rc = rfm_case_emit(pl->f, &g->c, &pl->sk, err);

	memmove(&pl->gp[k], &pl->gp[k + 1], (pl->ngroups - k - 1) * sizeof(*pl->gp));
	pl->ngroups--;
	pl->gp[pl->ngroups] = g;  /* its buffers are reused */
	rfm_case_reset(&g->c);
	return rc < 0 ? rc : 0;
}

static int group_line(struct perflog *pl, struct strbuf *err)
{
	struct rfm_case *t = &pl->tmp;
	struct rfm_perf *p = &t->perf[0];
	size_t k, i, gl = strlen(pl->gkey.buf);
	struct group *g;
	int rc;

	for (k = pl->ngroups; k-- > 0;) {
		g = pl->gp[k];
		/* strcmp's equality (keys are kept as C strings): lengths first */
		if (g->key.len != gl || !ab_memeq(g->key.buf, pl->gkey.buf, gl))
			continue;
		for (i = 0; i < g->c.nperf; i++)
			if (!strcmp(g->c.perf[i].name, p->name))
				break;
		if (i < g->c.nperf) {
			/* a variable twice: that case is complete, this is a new one */
			rc = emit_group(pl, k, err);
			if (rc < 0)
				return rc;
			break;
		}
		rfm_case_take_perf(&g->c, p);
		return 0;
	}
	if (pl->ngroups == RFM_OPEN_GROUPS) {
		rc = emit_group(pl, 0, err);
		if (rc < 0)
			return rc;
	}
	g = pl->gp[pl->ngroups++];
	if (!g->used) {
		rfm_case_init(&g->c);
		strbuf_init(&g->key, 0);
		g->used = 1;
	}
	/* swap the line's case into the group: no copying of params */
	{
		struct rfm_case tmpc = g->c;
		g->c = *t;
		*t = tmpc;
	}
	strbuf_setstr(&g->key, pl->gkey.buf);
	return 0;
}

/* ---- choosing the layout ---------------------------------------------------- */

/* why: set when line1 looks like this format's header but cannot be used */
static int try_layout(struct perflog *pl, const struct rfm_fmt *fmt, const char *line1,
		      int *header, struct strbuf *why)
{
	struct strbuf e = STRBUF_INIT;
	size_t a, b;
	int rc;

	*header = 0;
	if (rfm_fmt_needs_header(fmt)) {
		/* the columns come from the header: it must be this format's */
		*header = 1;
		if (!rfm_fmt_is_header(fmt, line1))
			return -1;
		rc = rfm_layout_build(&pl->lay, fmt, line1, &e);
		if (rc < 0 && why && !why->len)
			strbuf_addbuf(why, &e);
		strbuf_release(&e);
		return rc;
	}
	rc = rfm_layout_build(&pl->lay, fmt, NULL, &e);
	strbuf_release(&e);
	if (rc < 0)
		return rc;
	if (rfm_fmt_is_header(fmt, line1)) {
		*header = 1;
		return 0;
	}
	rc = rfm_layout_match(&pl->lay, line1, strlen(line1), &pl->m, &a, &b);
	return rc == RFM_MATCH_NONE ? -1 : 0;
}

static int choose_layout(struct perflog *pl, const char *line1, int *header, struct strbuf *err)
{
	struct strbuf e = STRBUF_INIT, why = STRBUF_INIT;
	const char *why_label = NULL;
	size_t i;
	int rc;

	if (pl->have_site && try_layout(pl, &pl->site, line1, header, &why) == 0) {
		pl->label = "site format";
		strbuf_release(&why);
		return 0;
	}
	if (why.len)
		why_label = "site format";
	if (pl->perf_out) {
		rc = rfm_fmt_compile(&pl->fmt, rfm_perf_out_format.format, NULL, &e);
		strbuf_release(&e);
		if (rc == 0 && try_layout(pl, &pl->fmt, line1, header, NULL) == 0) {
			pl->label = rfm_perf_out_format.label;
			strbuf_release(&why);
			return 0;
		}
	} else {
		for (i = 0; i < rfm_nbuiltins; i++) {
			size_t had = why.len;
			rc = rfm_fmt_compile(&pl->fmt, rfm_builtins[i].format, rfm_builtins[i].perfvars,
					     &e);
			if (rc == 0 && try_layout(pl, &pl->fmt, line1, header, &why) == 0) {
				strbuf_release(&e);
				strbuf_release(&why);
				pl->label = rfm_builtins[i].label;
				return 0;
			}
			if (!had && why.len)
				why_label = rfm_builtins[i].label;
		}
		strbuf_release(&e);
	}
	/* a header names the columns of any site format: read it without options */
	if (!pl->perf_out && rfm_layout_from_header(&pl->lay, line1, &e) == 0) {
		strbuf_release(&e);
		strbuf_release(&why);
		pl->label = "header-described";
		*header = 1;
		return 0;
	}
	strbuf_release(&e);
	if (why.len) {
		/* the header is recognisably this format's but unusable: say why */
		rc = ingest_fail_at(pl->f, err, 1, "bad %s header: %s", why_label, why.buf);
		strbuf_release(&why);
		return rc;
	}
	strbuf_release(&why);
	if (pl->have_site)
		return ingest_fail_at(pl->f, err, 1,
				      "line matches neither the site perflog format from %s "
				      "nor a built-in ReFrame format",
				      pl->where.buf);
	return ingest_fail_at(pl->f, err, 1,
			      "not a ReFrame perflog layout I know (no header naming its "
			      "columns; not the 3.x, 4.0-4.2 or 4.3+ default or EPCC compat); "
			      "give the site format with --perflog-format or in "
			      ".accelbench-reframe.json");
}

/* ---- the file ------------------------------------------------------------- */

static int syspart_from_path(struct perflog *pl)
{
	struct strbuf dir = STRBUF_INIT, up = STRBUF_INIT;
	int ok;

	ingest_dirname(&dir, pl->f->path);
	ingest_dirname(&up, dir.buf);
	strbuf_setstr(&pl->path_part, ingest_basename(dir.buf));
	strbuf_setstr(&pl->path_sys, ingest_basename(up.buf));
	ok = rfm_kind_ok(RK_IDENT, pl->path_part.buf, pl->path_part.len) &&
	     rfm_kind_ok(RK_IDENT, pl->path_sys.buf, pl->path_sys.len) && pl->path_sys.len;
	if (!ok) {
		strbuf_reset(&pl->path_sys);
		strbuf_reset(&pl->path_part);
	}
	strbuf_release(&dir);
	strbuf_release(&up);
	return ok;
}

/* perflogs/<system>/<partition>/<Test>.log (or .log.hN): the test's name */
static void test_from_path(struct perflog *pl)
{
	const char *base = ingest_basename(pl->f->path);
	const char *dot = strstr(base, ".log");
	size_t i, n;

	strbuf_reset(&pl->file_test);
	if (!dot)
		return;
	n = (size_t)(dot - base);
	if (!n || !(isalpha((unsigned char)base[0]) || base[0] == '_'))
		return;
	for (i = 0; i < n; i++)
		if (!(isalnum((unsigned char)base[i]) || base[i] == '_'))
			return;
	strbuf_add(&pl->file_test, base, n);
}

static int line_error(struct perflog *pl, int rc, long lineno, size_t len, size_t a, size_t b,
		      const char *line, struct strbuf *err)
{
	const struct rfm_layout *l = &pl->lay;
	char sep = l->delim ? l->delim : '|';

	if (rc == RFM_MATCH_AMBIGUOUS) {
		if (!l->delim && l->lit[a + 1][0])
			sep = l->lit[a + 1][0];
		return ingest_fail_at(pl->f, err, lineno,
				      "ambiguous line: a '%c' inside a field could belong to '%s' "
				      "or '%s'",
				      sep, l->col[a].name, l->col[b].name);
	}
	if (rc == RFM_MATCH_TOO_LONG)
		return ingest_fail_at(pl->f, err, lineno, "line too long to align (%zu bytes)", len);
	if (l->delim) {
		size_t i, cnt = 1, want = l->n + (l->lit[l->n][0] ? 1 : 0);
		for (i = 0; i < len; i++)
			cnt += line[i] == l->delim;
		return ingest_fail_at(pl->f, err, lineno,
				      "%zu fields separated by '%c', the %s layout has %zu and no "
				      "alignment fits the column contents",
				      cnt, l->delim, pl->label, want);
	}
	return ingest_fail_at(pl->f, err, lineno, "line does not match the %s format", pl->label);
}

static int under_a_root(const struct ingest_file *f)
{
	char *abs = realpath(f->path, NULL);
	size_t i;
	int yes = 0;

	if (!abs)
		return 0;
	for (i = 0; f->opts && i < f->opts->nroots && !yes; i++) {
		char *r = realpath(f->opts->roots[i], NULL);
		size_t n = r ? strlen(r) : 0;
		if (r && !strncmp(abs, r, n) && (abs[n] == '/' || !strcmp(r, "/")))
			yes = 1;
		free(r);
	}
	free(abs);
	return yes;
}

/* EPCC writes reframe_perf.out and perflogs/ with the same records. */
static int perf_out_shadowed(const struct ingest_file *f)
{
	struct strbuf dir = STRBUF_INIT;
	struct stat st;
	int yes;

	ingest_dirname(&dir, f->path);
	strbuf_addstr(&dir, "/perflogs");
	yes = stat(dir.buf, &st) == 0 && S_ISDIR(st.st_mode) && under_a_root(f);
	strbuf_release(&dir);
	return yes;
}

static int parse(struct ingest_file *f, int perf_out, struct strbuf *err)
{
	struct perflog pl;
	struct lines lr;
	struct strbuf header = STRBUF_INIT;
	size_t i;
	int rc, first = 1, has_header = 0, adopt = 0;

	if (perf_out && perf_out_shadowed(f)) {
		ingest_warn(f, 0, "not read: perflogs/ beside it holds the same records "
				  "(ingest this file on its own to read it)");
		return 0;
	}
	memset(&pl, 0, sizeof(pl));
	for (i = 0; i < RFM_OPEN_GROUPS; i++)
		pl.gp[i] = &pl.g[i];
	pl.f = f;
	pl.perf_out = perf_out;
	rfm_fmt_init(&pl.site);
	rfm_fmt_init(&pl.fmt);
	rfm_layout_init(&pl.lay);
	rfm_match_init(&pl.m);
	rfm_case_init(&pl.tmp);
	strbuf_init(&pl.where, 0);
	strbuf_init(&pl.path_sys, 0);
	strbuf_init(&pl.path_part, 0);
	strbuf_init(&pl.file_test, 0);
	strbuf_init(&pl.gkey, 0);
	strbuf_init(&pl.offset_json, 0);
	strbuf_init(&pl.ver.raw, 0);
	strbuf_init(&pl.ver.text, 0);
	strbuf_init(&pl.info.raw, 0);
	strbuf_init(&pl.info.text, 0);
	lines_init(&lr, f->fp, LINES_DEFAULT_MAX, 0);

	rc = rfm_site_format(f, &pl.site, &pl.utc_offset, &pl.offset_given, &pl.where, err);
	if (rc < 0)
		goto out;
	pl.have_site = rc == 1;
	syspart_from_path(&pl);
	test_from_path(&pl);

	while ((rc = lines_next(&lr, err)) == 1) {
		const char *line = lr.line.buf;
		size_t len = lr.line.len, a = 0, b = 0;

		while (len && line[len - 1] == '\r')
			len--;
		if (!utf8_ok((const unsigned char *)line, len)) {
			rc = ingest_fail_at(f, err, lr.lineno, "not UTF-8 text");
			goto out;
		}
		if (first) {
			struct strbuf l1 = STRBUF_INIT;
			first = 0;
			strbuf_add(&l1, line, len);
			rc = choose_layout(&pl, l1.buf, &has_header, err);
			if (has_header)
				strbuf_addbuf(&header, &l1);
			adopt = !strcmp(pl.label ? pl.label : "", "header-described");
			strbuf_release(&l1);
			if (rc < 0)
				goto out;
			if (has_header)
				continue;
		}
		if (!len || (header.len && len == header.len && !memcmp(line, header.buf, len)))
			continue;

		if (adopt) {
			adopt = 0;
			rfm_layout_adopt_prefixes(&pl.lay, line, len);
		}
		rc = rfm_layout_match(&pl.lay, line, len, &pl.m, &a, &b);
		if (rc != RFM_MATCH_OK) {
			rc = line_error(&pl, rc, lr.lineno, len, a, b, line, err);
			goto out;
		}
		if (pl.m.realigned) {
			const struct rfm_col *c = &pl.lay.col[pl.m.realigned_col];
			const char *lit = pl.lay.lit[pl.m.realigned_col + 1];
			if (pl.warned < RFM_MAX_WARN)
				ingest_warn(f, lr.lineno,
					    "field '%s' contains '%s'; columns aligned by their content",
					    c->name, lit);
			pl.warned++;
		}
		rc = line_case(&pl, line, lr.lineno, &pl.tmp, err);
		if (rc < 0)
			goto out;
		if (pl.lay.per_var) {
			rc = group_line(&pl, err);
		} else {
			rc = rfm_case_emit(f, &pl.tmp, &pl.sk, err);
			if (rc > 0)
				rc = 0;
		}
		if (rc < 0)
			goto out;
	}
	if (rc < 0) {
		/* over-long line or read error: position it */
		struct strbuf msg = STRBUF_INIT;
		strbuf_addbuf(&msg, err);
		rc = strstr(msg.buf, "longer than")
			? ingest_fail_at(f, err, lr.lineno, "line longer than %u bytes",
					 (unsigned)LINES_DEFAULT_MAX)
			: ab_fail(err, AB_EIO, "%s: %s", f->path, msg.buf);
		strbuf_release(&msg);
		goto out;
	}
	if (first) {
		rc = ingest_fail_at(f, err, 0, "empty file");
		goto out;
	}
	while (pl.ngroups) {
		rc = emit_group(&pl, 0, err);
		if (rc < 0)
			goto out;
	}
	if (pl.warned > RFM_MAX_WARN)
		ingest_warn(f, 0, "%ld more warnings like the above", pl.warned - RFM_MAX_WARN);
	rfm_skips_warn(f, &pl.sk);
	rc = 0;
out:
	for (i = 0; i < RFM_OPEN_GROUPS; i++) {
		if (pl.g[i].used) {
			rfm_case_release(&pl.g[i].c);
			strbuf_release(&pl.g[i].key);
		}
	}
	lines_release(&lr);
	rfm_case_release(&pl.tmp);
	rfm_match_release(&pl.m);
	rfm_layout_release(&pl.lay);
	rfm_fmt_release(&pl.fmt);
	rfm_fmt_release(&pl.site);
	strbuf_release(&pl.where);
	strbuf_release(&pl.path_sys);
	strbuf_release(&pl.path_part);
	strbuf_release(&pl.file_test);
	strbuf_release(&pl.gkey);
	strbuf_release(&pl.offset_json);
	strbuf_release(&pl.ver.raw);
	strbuf_release(&pl.ver.text);
	strbuf_release(&pl.info.raw);
	strbuf_release(&pl.info.text);
	for (i = 0; i < pl.ncc; i++) {
		strbuf_release(&pl.cc[i].raw);
		strbuf_release(&pl.cc[i].text);
	}
	free(pl.cc);
	strbuf_release(&header);
	return rc;
}

static int parse_perflog(struct ingest_file *f, struct strbuf *err)
{
	return parse(f, 0, err);
}

static int parse_perf_out(struct ingest_file *f, struct strbuf *err)
{
	return parse(f, 1, err);
}

const struct ingest_format ingest_fmt_reframe_perflog = {
	"reframe-perflog", 0, detect_perflog, parse_perflog
};

const struct ingest_format ingest_fmt_reframe_perf_out = {
	"reframe-perf-out", 0, detect_perf_out, parse_perf_out
};
