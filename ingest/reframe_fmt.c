/*
 * reframe_fmt.c - ReFrame logging format strings compiled into a line
 * layout, and perflog lines matched against it.
 *
 * A ReFrame perflog line is `format % record` (Python %-formatting) with
 * `%(check_perfvalues)s` replaced by one `format_perfvars` chunk per
 * variable (its last character joins the chunks) and `%(check_#ALL)s` by
 * every loggable attribute joined by the delimiter.  Nothing is escaped,
 * so a '|' inside a description or a display name shifts the columns.
 *
 * A layout is the flat sequence literal, column, literal, ..., literal.
 * Matching tries the cheap split first (every inner literal is the same
 * character and the line has exactly the expected number of them); when
 * that fails it counts every way to place the columns between literal
 * occurrences, with each column restricted to what it can hold (a result
 * word, a time, a number, an identifier, a JSON object, ...).  One way:
 * the line is read (and the caller warns that a field held a separator).
 * None or several: the caller reports the line as bad or ambiguous - a
 * line is never misaligned silently.
 *
 * The header ReFrame 4.0+ writes names the columns of %(check_#ALL)s and
 * the variables of %(check_perfvalues)s.  Before 4.6.1 only one character
 * of literal text after each placeholder went into the header, so headers
 * of site formats are only trusted for those names, never for positions.
 */
#include "core/compat.h"
#include "reframe_priv.h"

#include <ctype.h>
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define RFM_SSE2 1
#endif
#include <limits.h>
#include <sys/stat.h>

#define PERFVARS_43 \
	"%(check_perf_value)s|%(check_perf_unit)s|%(check_perf_ref)s|" \
	"%(check_perf_lower_thres)s|%(check_perf_upper_thres)s|"

const struct rfm_builtin rfm_builtins[] = {
	{ "ReFrame 4.3+ default", "%(check_result)s|%(check_job_completion_time)s|%(check_#ALL)s",
	  PERFVARS_43 },
	{ "ReFrame 4.2 default",
	  "%(check_job_completion_time)s,%(version)s,%(check_display_name)s,%(check_system)s,"
	  "%(check_partition)s,%(check_environ)s,%(check_jobid)s,%(check_result)s,"
	  "%(check_perfvalues)s",
	  "%(check_perf_value)s,%(check_perf_unit)s,%(check_perf_ref)s,"
	  "%(check_perf_lower_thres)s,%(check_perf_upper_thres)s," },
	{ "ReFrame 4.0-4.1 default",
	  "%(check_job_completion_time)s,%(version)s,%(check_display_name)s,%(check_system)s,"
	  "%(check_partition)s,%(check_environ)s,%(check_jobid)s,%(check_result)s,"
	  "%(check_perfvalues)s",
	  "%(check_perf_value)s,%(check_perf_unit)s,%(check_perf_ref)s,"
	  "%(check_perf_lower)s,%(check_perf_upper)s," },
	{ "ReFrame 3.x default",
	  "%(check_job_completion_time)s|reframe %(version)s|%(check_info)s|jobid=%(check_jobid)s|"
	  "%(check_perf_var)s=%(check_perf_value)s|ref=%(check_perf_ref)s "
	  "(l=%(check_perf_lower_thres)s, u=%(check_perf_upper_thres)s)|%(check_perf_unit)s",
	  NULL },
	{ "EPCC compat",
	  "%(check_display_name)s|%(check_result)s|%(check_job_completion_time)s|"
	  "%(check_perf_var)s|%(check_perf_value)s %(check_perf_unit)s|"
	  "(%(check_perf_ref)s, %(check_perf_lower_thres)s, %(check_perf_upper_thres)s)|",
	  NULL },
};
const size_t rfm_nbuiltins = AB_ARRAY_SIZE(rfm_builtins);

const struct rfm_builtin rfm_perf_out_format = {
	"EPCC reframe_perf.out",
	"[%(asctime)s] %(check_info)s: %(check_perf_var)s=%(check_perf_value)s "
	"(ref=%(check_perf_ref)s;l=%(check_perf_lower_thres)s;u=%(check_perf_upper_thres)s)) "
	"%(check_perf_unit)s",
	NULL
};

/* ---- compiling a %-format ------------------------------------------------ */

void rfm_fmt_init(struct rfm_fmt *f)
{
	memset(f, 0, sizeof(*f));
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void rfm_fmt_release(struct rfm_fmt *f)
{
	free_strv(f->lit, f->lit ? f->nph + 1 : 0);
	free_strv(f->ph, f->nph);
	free_strv(f->plit, f->plit ? f->npph + 1 : 0);
	free_strv(f->pph, f->npph);
	free(f->text);
	rfm_fmt_init(f);
}

/* Split s[0..len) into literals and %(name)X placeholders. */
static int compile_one(const char *s, size_t len, char ***lit, char ***ph, size_t *nph,
		       const char *what, struct strbuf *err)
{
	struct strbuf cur = STRBUF_INIT;
	size_t i = 0, cap = 0;

	*lit = NULL;
	*ph = NULL;
	*nph = 0;
	while (i < len) {
		const char *name, *close;

		if (s[i] != '%') {
			strbuf_addch(&cur, s[i++]);
			continue;
		}
		if (i + 1 < len && s[i + 1] == '%') {
			strbuf_addch(&cur, '%');
			i += 2;
			continue;
		}
		if (i + 1 >= len || s[i + 1] != '(')
			goto bad;
		name = s + i + 2;
		close = memchr(name, ')', len - (size_t)(name - s));
		if (!close || close == name)
			goto bad;
		i = (size_t)(close - s) + 1;
		/* flags, width, precision, then the conversion */
		while (i < len && strchr("#0- +.123456789", s[i]))
			i++;
		if (i >= len || !strchr("sdifFeEgGra", s[i]))
			goto bad;
		i++;
		if (*nph + 1 >= cap) {
			cap = cap ? 2 * cap : 16;
			*lit = ab_realloc(*lit, (cap + 1) * sizeof(**lit));
			*ph = ab_realloc(*ph, cap * sizeof(**ph));
		}
		(*lit)[*nph] = strbuf_detach(&cur, NULL);
		(*ph)[*nph] = ab_strndup(name, (size_t)(close - name));
		(*nph)++;
	}
	if (!*lit)
		*lit = ab_malloc(sizeof(**lit));
	(*lit)[*nph] = strbuf_detach(&cur, NULL);
	return 0;
bad:
	strbuf_release(&cur);
	free_strv(*lit, *nph);
	free_strv(*ph, *nph);
	*lit = NULL;
	*ph = NULL;
	*nph = 0;
	return ab_fail(err, AB_EDATA, "bad placeholder in %s at offset %zu", what, i);
}

int rfm_fmt_compile(struct rfm_fmt *f, const char *format, const char *perfvars,
		    struct strbuf *err)
{
	int rc;

	rfm_fmt_release(f);
	rc = compile_one(format, strlen(format), &f->lit, &f->ph, &f->nph, "the perflog format",
			 err);
	if (rc < 0)
		return rc;
	if (!f->nph) {
		rfm_fmt_release(f);
		return ab_fail(err, AB_EDATA, "perflog format '%s' has no %%(...)s placeholder",
			       format);
	}
	if (perfvars && *perfvars) {
		size_t n = strlen(perfvars);
		/* ReFrame: the last character joins the chunks of several variables */
		f->psep = perfvars[n - 1];
		rc = compile_one(perfvars, n - 1, &f->plit, &f->pph, &f->npph, "format_perfvars",
				 err);
		if (rc < 0) {
			rfm_fmt_release(f);
			return rc;
		}
	}
	f->text = ab_strdup(format);
	return 0;
}

static int is_special(const char *ph)
{
	return !strcmp(ph, "check_perfvalues") || !strcmp(ph, "check_#ALL");
}

int rfm_fmt_needs_header(const struct rfm_fmt *f)
{
	size_t i;

	for (i = 0; i < f->nph; i++)
		if (is_special(f->ph[i]))
			return 1;
	return 0;
}

static const char *header_name(const char *ph)
{
	return !strncmp(ph, "check_", 6) ? ph + 6 : ph;
}

/* ---- what columns mean ---------------------------------------------------- */

struct attr_name {
	const char *name;   /* header-style (check_ removed) */
	enum rfm_attr attr;
	enum rfm_kind kind;
};

static const struct attr_name attr_names[] = {
	{ "result", RA_RESULT, RK_RESULT },
	{ "job_completion_time", RA_TIME, RK_TIME },
	{ "job_completion_time_unix", RA_TIME_UNIX, RK_NUM },
	{ "job_submit_time", RA_SUBMIT_UNIX, RK_NUM },
	{ "asctime", RA_ASCTIME, RK_TIME },
	{ "display_name", RA_DISPLAY, RK_DISPLAY },
	{ "name", RA_NAME, RK_DISPLAY },
	{ "system", RA_SYSTEM, RK_IDENT },
	{ "partition", RA_PARTITION, RK_IDENT },
	{ "environ", RA_ENVIRON, RK_ENV },
	{ "jobid", RA_JOBID, RK_WORD },
	{ "version", RA_VERSION, RK_VERSION },
	{ "info", RA_INFO, RK_INFO },
	{ "perf_var", RA_PERF_VAR, RK_FREE },
	{ "perf_value", RA_PERF_VALUE, RK_NUM },
	{ "perf_unit", RA_PERF_UNIT, RK_FREE },
	{ "perf_ref", RA_PERF_REF, RK_NUM },
	{ "perf_lower_thres", RA_PERF_LOWER, RK_NUM },
	{ "perf_upper_thres", RA_PERF_UPPER, RK_NUM },
	{ "perf_lower", RA_PERF_LOWER, RK_NUM },
	{ "perf_upper", RA_PERF_UPPER, RK_NUM },
	{ "perf_result", RA_PERF_RESULT, RK_RESULT },
	/* attributes that only shape alignment */
	{ "job_exitcode", RA_OTHER, RK_NUM },
	{ "exclusive_access", RA_OTHER, RK_BOOL },
	{ "use_multithreading", RA_OTHER, RK_BOOL },
	{ "local", RA_OTHER, RK_BOOL },
	{ "build_locally", RA_OTHER, RK_BOOL },
	{ "strict_check", RA_OTHER, RK_BOOL },
	{ "env_vars", RA_OTHER, RK_JSON },
	{ "extra_resources", RA_OTHER, RK_JSON },
	{ "variables", RA_OTHER, RK_JSON },
	{ "job_nodelist", RA_OTHER, RK_WORD },
	{ "modules", RA_OTHER, RK_WORD },
	{ "short_name", RA_OTHER, RK_WORD },
	{ "unique_name", RA_OTHER, RK_WORD },
	{ "hashcode", RA_OTHER, RK_WORD },
	{ "maintainers", RA_OTHER, RK_WORD },
	{ "tags", RA_OTHER, RK_WORD },
	{ "", RA_IGNORE, RK_EMPTY },
};

static void col_meaning(const char *name, enum rfm_attr *attr, enum rfm_kind *kind)
{
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(attr_names); i++) {
		if (!strcmp(name, attr_names[i].name)) {
			*attr = attr_names[i].attr;
			*kind = attr_names[i].kind;
			return;
		}
	}
	*attr = RA_OTHER;
	*kind = !strncmp(name, "num_", 4) ? RK_NUM : RK_FREE;
}

/* ---- kinds ---------------------------------------------------------------- */

static int is_word(const char *s, size_t len, const char *w)
{
	return strlen(w) == len && !memcmp(s, w, len);
}

static int ident_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (i = 1; i < len; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-'))
			return 0;
	return 1;
}

/* Environment names: ReFrame's schema pattern is not anchored, so real ones
 * hold dots and more (builtin-gcc-7.2.0); anything without blanks or '|'. */
static int env_ok(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return 0;
	for (i = 0; i < len; i++)
		if (isspace((unsigned char)s[i]) || s[i] == '|')
			return 0;
	return 1;
}

/* "sys:part+env" */
static int syspartenv_ok(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len), *plus;

	if (!colon)
		return 0;
	plus = memchr(colon, '+', len - (size_t)(colon - s));
	if (!plus)
		return 0;
	return ident_ok(s, (size_t)(colon - s)) &&
	       ident_ok(colon + 1, (size_t)(plus - colon - 1)) &&
	       env_ok(plus + 1, len - (size_t)(plus + 1 - s));
}

static int json_shape_ok(const char *s, size_t len)
{
	size_t i;
	int depth = 0, in_str = 0;

	if (len < 2 || !((s[0] == '{' && s[len - 1] == '}') || (s[0] == '[' && s[len - 1] == ']')))
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"')
			in_str = 1;
		else if (c == '{' || c == '[')
			depth++;
		else if ((c == '}' || c == ']') && --depth == 0 && i != len - 1)
			return 0;
	}
	return depth == 0 && !in_str;
}

static const char *find_last(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	if (n > len)
		return NULL;
	for (i = len - n + 1; i-- > 0;)
		if (!memcmp(s + i, needle, n))
			return s + i;
	return NULL;
}

static int word_ci(const char *s, size_t len, const char *w)
{
	size_t i;

	if (strlen(w) != len)
		return 0;
	for (i = 0; i < len; i++)
		if (tolower((unsigned char)s[i]) != w[i])
			return 0;
	return 1;
}

/* num_parse_double(s) != NUM_BAD, by the grammar strtod reads (no strtod:
 * the aligner asks this for every candidate field) */
static int num_shape_ok(const char *s, size_t len)
{
	size_t i = 0, d1 = 0, d2 = 0, de = 0;

	num_trim(&s, &len);
	if (!len)
		return 1;
	/* the words all start with a letter or a sign: a digit or '.' skips them */
	if (!isdigit((unsigned char)*s) && *s != '.') {
		if (word_ci(s, len, "nan") || word_ci(s, len, "null") || word_ci(s, len, "none") ||
		    word_ci(s, len, "-nan"))
			return 1;
		if (*s == '+' || *s == '-') {
			if (word_ci(s + 1, len - 1, "inf") || word_ci(s + 1, len - 1, "infinity"))
				return 1;
			i = 1;
		} else if (word_ci(s, len, "inf") || word_ci(s, len, "infinity")) {
			return 1;
		}
	}
	if (len >= 128)
		return 0;
	for (; i < len && isdigit((unsigned char)s[i]); i++)
		d1++;
	if (i < len && s[i] == '.')
		for (i++; i < len && isdigit((unsigned char)s[i]); i++)
			d2++;
	if (!d1 && !d2)
		return 0;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		for (; i < len && isdigit((unsigned char)s[i]); i++)
			de++;
		if (!de)
			return 0;
	}
	return i == len;
}

int rfm_kind_ok(enum rfm_kind kind, const char *s, size_t len)
{
	static const char *const results[] = {
		"pass", "fail", "xfail", "xpass", "abort", "aborted", "skip", "skipped",
		"fail_deps", "success", "failure", "null", "None", "<unknown>"
	};
	double d;
	int off;
	size_t i;
	const char *at;

	switch (kind) {
	case RK_FREE:
		return 1;
	case RK_NUM:
		return num_shape_ok(s, len);
	case RK_TIME:
		if (!len || is_word(s, len, "null") || is_word(s, len, "None"))
			return 1;
		if (rfm_parse_time(s, len, 0, &d, &off) == 0)
			return 1;
		return num_parse_double(s, len, &d) == NUM_OK;
	case RK_RESULT:
		if (!len)
			return 1;
		for (i = 0; i < AB_ARRAY_SIZE(results); i++)
			if (is_word(s, len, results[i]))
				return 1;
		return 0;
	case RK_IDENT:
		return !len || is_word(s, len, "null") || ident_ok(s, len);
	case RK_ENV:
		return !len || is_word(s, len, "null") || env_ok(s, len);
	case RK_WORD:
		for (i = 0; i < len; i++)
			if (isspace((unsigned char)s[i]) || s[i] == '|')
				return 0;
		return 1;
	case RK_BOOL:
		return !len || is_word(s, len, "true") || is_word(s, len, "false") ||
		       is_word(s, len, "null") || is_word(s, len, "None");
	case RK_JSON:
		return !len || is_word(s, len, "null") || json_shape_ok(s, len);
	case RK_DISPLAY:
		if (!len || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
			return 0;
		for (i = 1; i < len && (isalnum((unsigned char)s[i]) || s[i] == '_'); i++)
			;
		return i == len || (s[i] == ' ' && !isspace((unsigned char)s[len - 1]));
	case RK_INFO:
		at = find_last(s, len, " @");
		if (at && at > s)
			return syspartenv_ok(at + 2, len - (size_t)(at + 2 - s));
		/* ReFrame 3.0-3.9: "Name on sys:part using env" */
		at = find_last(s, len, " using ");
		return at && at > s && env_ok(at + 7, len - (size_t)(at + 7 - s)) &&
		       find_last(s, (size_t)(at - s), " on ");
	case RK_VERSION:
		if (len > 8 && !memcmp(s, "reframe ", 8)) {
			s += 8;
			len -= 8;
		}
		if (!len || !isdigit((unsigned char)s[0]))
			return 0;
		for (i = 0; i < len; i++)
			if (!isalnum((unsigned char)s[i]) && !strchr(".+-_ ():", s[i]))
				return 0;
		return 1;
	case RK_EMPTY:
		return len == 0;
	}
	return 0;
}

/* ---- layouts ------------------------------------------------------------- */

void rfm_layout_init(struct rfm_layout *l)
{
	memset(l, 0, sizeof(*l));
}

void rfm_layout_release(struct rfm_layout *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->col[i].name);
	free(l->col);
	free_strv(l->lit, l->lit ? l->n + 1 : 0);
	free(l->litlen);
	free_strv(l->perf_names, l->nperf);
	rfm_layout_init(l);
}

struct builder {
	struct rfm_layout *l;
	size_t cap;
	struct strbuf pending; /* literal text before the next column */
};

static void add_col(struct builder *b, const char *name, enum rfm_attr attr,
		    enum rfm_kind kind, int perf)
{
	struct rfm_layout *l = b->l;

	if (l->n + 1 >= b->cap) {
		b->cap = b->cap ? 2 * b->cap : 32;
		l->col = ab_realloc(l->col, b->cap * sizeof(*l->col));
		l->lit = ab_realloc(l->lit, (b->cap + 1) * sizeof(*l->lit));
	}
	l->lit[l->n] = strbuf_detach(&b->pending, NULL);
	l->col[l->n].name = ab_strdup(name);
	l->col[l->n].attr = attr;
	l->col[l->n].kind = kind;
	l->col[l->n].perf = perf;
	l->n++;
	l->lit[l->n] = NULL; /* a layout released half-built frees only what it has */
}

static void add_named_col(struct builder *b, const char *name)
{
	enum rfm_attr attr;
	enum rfm_kind kind;

	col_meaning(name, &attr, &kind);
	add_col(b, name, attr, kind, -1);
}

static int add_perf_name(struct rfm_layout *l, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < l->nperf; i++)
		if (strlen(l->perf_names[i]) == len && !memcmp(l->perf_names[i], name, len))
			return (int)i;
	l->perf_names = ab_realloc(l->perf_names, (l->nperf + 1) * sizeof(*l->perf_names));
	l->perf_names[l->nperf] = ab_strndup(name, len);
	return (int)l->nperf++;
}

/* Split header on one character. */
static size_t split_header(const char *h, char d, char ***out)
{
	const char *p = h, *q;
	size_t n = 0;

	*out = NULL;
	for (;;) {
		q = strchr(p, d);
		*out = ab_realloc(*out, (n + 1) * sizeof(**out));
		(*out)[n++] = q ? ab_strndup(p, (size_t)(q - p)) : ab_strdup(p);
		if (!q)
			break;
		p = q + 1;
	}
	return n;
}

/* The delimiter ReFrame would guess: the character right after the first placeholder. */
static char guess_delim(const struct rfm_fmt *f)
{
	size_t i;

	for (i = 1; i <= f->nph; i++)
		if (f->lit[i][0])
			return f->lit[i][0];
	return '|';
}

static const char *const perf_suffixes[] = {
	"_value", "_unit", "_ref", "_lower_thres", "_upper_thres", "_lower", "_upper", "_result"
};

static enum rfm_attr perf_suffix_attr(const char *suffix)
{
	if (!strcmp(suffix, "_value"))
		return RA_PERF_VALUE;
	if (!strcmp(suffix, "_unit"))
		return RA_PERF_UNIT;
	if (!strcmp(suffix, "_ref"))
		return RA_PERF_REF;
	if (!strcmp(suffix, "_lower_thres") || !strcmp(suffix, "_lower"))
		return RA_PERF_LOWER;
	if (!strcmp(suffix, "_upper_thres") || !strcmp(suffix, "_upper"))
		return RA_PERF_UPPER;
	return RA_PERF_RESULT;
}

static enum rfm_kind perf_attr_kind(enum rfm_attr a)
{
	switch (a) {
	case RA_PERF_VALUE:
	case RA_PERF_REF:
	case RA_PERF_LOWER:
	case RA_PERF_UPPER:
		return RK_NUM;
	case RA_PERF_RESULT:
		return RK_RESULT;
	default:
		return RK_FREE;
	}
}

/* Does name = X + suffix for this X? */
static int has_suffix_for(const char *name, const char *x, size_t xlen, const char **suffix)
{
	size_t i;

	if (strncmp(name, x, xlen))
		return 0;
	for (i = 0; i < AB_ARRAY_SIZE(perf_suffixes); i++) {
		if (!strcmp(name + xlen, perf_suffixes[i])) {
			*suffix = perf_suffixes[i];
			return 1;
		}
	}
	return 0;
}

static int known_name(const char *name)
{
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(attr_names); i++)
		if (attr_names[i].name[0] && !strcmp(name, attr_names[i].name))
			return 1;
	return 0;
}

/* Header columns X_value, X_<suffix>, ...: the block of one performance variable? */
static int perf_block_at(char **tok, size_t i, size_t ntok)
{
	const char *t = tok[i], *suffix;
	size_t tl = strlen(t);

	return tl > 6 && !strcmp(t + tl - 6, "_value") && !known_name(t) && i + 1 < ntok &&
	       has_suffix_for(tok[i + 1], t, tl - 6, &suffix) && strcmp(suffix, "_value");
}

/* The columns of %(check_#ALL)s: perf groups X_value, X_unit, ... found by suffix. */
static int add_all_cols(struct builder *b, char **tok, size_t ntok, char d, struct strbuf *err)
{
	size_t i = 0, k;

	while (i < ntok) {
		const char *t = tok[i], *suffix;
		size_t tl = strlen(t);

		if (i)
			strbuf_addch(&b->pending, d);
		if (perf_block_at(tok, i, ntok)) {
			int perf = add_perf_name(b->l, t, tl - 6);
			for (k = i; k < ntok && has_suffix_for(tok[k], t, tl - 6, &suffix); k++) {
				enum rfm_attr a = perf_suffix_attr(suffix);
				if (k > i)
					strbuf_addch(&b->pending, d);
				add_col(b, tok[k], a, perf_attr_kind(a), perf);
			}
			i = k;
			continue;
		}
		if ((tl > 12 && !strcmp(t + tl - 12, "_lower_thres")) ||
		    (tl > 12 && !strcmp(t + tl - 12, "_upper_thres")))
			return ab_fail(err, AB_EDATA,
				       "header column '%s' is not part of a performance variable "
				       "(a variable name containing '%c'?)",
				       t, d);
		add_named_col(b, t);
		i++;
	}
	return 0;
}

/* Names of the variables of %(check_perfvalues)s, read from the header. */
static void header_perf_names(struct rfm_layout *l, const struct rfm_fmt *f, const char *header)
{
	const char *s1, *p;
	size_t n1;

	if (!f->npph || strncmp(f->pph[0], "check_perf", 10))
		return;
	s1 = f->pph[0] + 10; /* "_value" */
	n1 = strlen(s1);
	if (!n1)
		return;
	p = header;
	while ((p = strstr(p, s1))) {
		const char *end = p + n1, *start = p;
		char sep = f->psep ? f->psep : guess_delim(f);

		if (*end && (isalnum((unsigned char)*end) || *end == '_')) {
			p = end;
			continue;
		}
		while (start > header && start[-1] != sep && start[-1] != guess_delim(f))
			start--;
		if (p > start)
			add_perf_name(l, start, (size_t)(p - start));
		p = end;
	}
}

static void add_perf_chunk(struct builder *b, const struct rfm_fmt *f, int perf)
{
	size_t k;
	const char *var = b->l->perf_names[perf];

	for (k = 0; k < f->npph; k++) {
		struct strbuf name = STRBUF_INIT;
		enum rfm_attr attr;
		enum rfm_kind kind;
		const char *ph = f->pph[k];

		strbuf_addstr(&b->pending, f->plit[k]);
		if (!strncmp(ph, "check_perf", 10)) {
			strbuf_addf(&name, "%s%s", var, ph + 10);
			col_meaning(ph + 6, &attr, &kind);
		} else {
			strbuf_addstr(&name, header_name(ph));
			col_meaning(name.buf, &attr, &kind);
		}
		add_col(b, name.buf, attr, kind, attr >= RA_PERF_VAR ? perf : -1);
		strbuf_release(&name);
	}
	strbuf_addstr(&b->pending, f->plit[f->npph]);
}

static void finish_layout(struct rfm_layout *l)
{
	size_t i;
	char d = 0;

	/* the literals' lengths, for the matcher of every line */
	l->litlen = ab_realloc(l->litlen, (l->n + 1) * sizeof(*l->litlen));
	for (i = 0; i <= l->n; i++)
		l->litlen[i] = strlen(l->lit[i]);
	l->delim = 0;
	l->prefixed = 0;
	if (!l->n || l->lit[0][0] || (l->lit[l->n][0] && l->lit[l->n][1]))
		return;
	/* inner literals: the delimiter, maybe followed by fixed text without
	 * it ("|reframe ", "|jobid="), which the fast path checks and strips */
	for (i = 1; i < l->n; i++) {
		if (!l->lit[i][0])
			return;
		if (!d)
			d = l->lit[i][0];
		else if (l->lit[i][0] != d)
			return;
		if (l->lit[i][1]) {
			if (strchr(l->lit[i] + 1, d))
				return;
			l->prefixed = 1;
		}
	}
	if (l->lit[l->n][0] && l->lit[l->n][0] != d)
		return;
	l->delim = d ? d : (l->lit[l->n][0] ? l->lit[l->n][0] : 0);
}

int rfm_layout_build(struct rfm_layout *l, const struct rfm_fmt *f, const char *header,
		     struct strbuf *err)
{
	struct builder b = { l, 0, STRBUF_INIT };
	char **tok = NULL;
	size_t ntok = 0, i, j, all_at = f->nph;
	char d = guess_delim(f);
	int rc = 0;

	rfm_layout_release(l);
	for (i = 0; i < f->nph; i++)
		if (!strcmp(f->ph[i], "check_#ALL"))
			all_at = i;
	if (rfm_fmt_needs_header(f)) {
		if (!header)
			return ab_fail(err, AB_EDATA, "no header line to name the columns");
		ntok = split_header(header, d, &tok);
		if (all_at < f->nph && ntok < f->nph - 1) {
			rc = ab_fail(err, AB_EDATA, "header has %zu columns, the format needs at least %zu",
				     ntok, f->nph - 1);
			goto out;
		}
		for (i = 0; i < f->nph; i++)
			if (!strcmp(f->ph[i], "check_perfvalues"))
				header_perf_names(l, f, header);
	}
	for (i = 0; i < f->nph; i++) {
		const char *ph = f->ph[i];

		strbuf_addstr(&b.pending, f->lit[i]);
		if (!strcmp(ph, "check_#ALL")) {
			size_t after = f->nph - 1 - i;
			rc = add_all_cols(&b, tok + i, ntok - i - after, d, err);
			if (rc < 0)
				goto out;
		} else if (!strcmp(ph, "check_perfvalues")) {
			for (j = 0; j < l->nperf; j++) {
				if (j)
					strbuf_addch(&b.pending, f->psep);
				add_perf_chunk(&b, f, (int)j);
			}
		} else {
			enum rfm_attr attr;
			enum rfm_kind kind;
			const char *hn = header_name(ph);
			size_t ti = i < all_at ? i : ntok - (f->nph - i);

			/* the header must name the fixed columns of an #ALL format */
			if (all_at < f->nph && strcmp(tok[ti], hn)) {
				rc = ab_fail(err, AB_EDATA, "header column %zu is '%s', expected '%s'",
					     ti + 1, tok[ti], hn);
				goto out;
			}
			col_meaning(hn, &attr, &kind);
			add_col(&b, hn, attr, kind, -1);
		}
	}
	strbuf_addstr(&b.pending, f->lit[f->nph]);
	l->lit = ab_realloc(l->lit, (l->n + 1) * sizeof(*l->lit));
	l->lit[l->n] = strbuf_detach(&b.pending, NULL);
	finish_layout(l);
	for (i = 0; i < l->n; i++)
		if (l->col[i].attr == RA_PERF_VAR || l->col[i].attr == RA_PERF_VALUE)
			if (l->col[i].perf < 0)
				l->per_var = 1;
	/* a header that splits cleanly must name exactly our columns */
	if (header && l->delim && !l->prefixed) {
		char **ht = NULL;
		size_t nh = split_header(header, l->delim, &ht), want = l->n;
		if (l->lit[l->n][0])
			want++; /* trailing delimiter gives one empty header field */
		if (nh != want) {
			rc = ab_fail(err, AB_EDATA, "header has %zu columns, the format gives %zu",
				     nh, want);
		} else {
			for (i = 0; i < l->n && rc == 0; i++)
				if (strcmp(ht[i], l->col[i].name))
					rc = ab_fail(err, AB_EDATA,
						     "header column %zu is '%s', expected '%s'", i + 1,
						     ht[i], l->col[i].name);
		}
		free_strv(ht, nh);
	}
out:
	free_strv(tok, ntok);
	strbuf_release(&b.pending);
	if (rc < 0)
		rfm_layout_release(l);
	return rc;
}

/* ---- layouts described by their header alone -------------------------------- */

static int ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/* A column of a header-described layout whose header token is t[0..n). */
static void add_header_col(struct builder *b, const char *t, size_t n)
{
	struct strbuf name = STRBUF_INIT;

	strbuf_add(&name, t, n);
	add_named_col(b, name.buf);
	strbuf_release(&name);
}

/*
 * One header token that is not a performance block.  ReFrame copies the
 * literal text after a placeholder into the header (all of it from 4.6.1,
 * one character before), so "reframe %(version)s" gives "reframe version",
 * "jobid=%(check_jobid)s" gives "jobid=jobid" and
 * "%(check_system)s:%(check_partition)s" gives "system:partition".  Known
 * attribute names at identifier boundaries become columns (in "K=K" the
 * first K is the literal key of key=value), the rest is literal text; a
 * token without a known name is one column of that name (a parameter).
 * Returns the number of columns added.
 */
static size_t add_header_token(struct builder *b, const char *t)
{
	size_t n = strlen(t), i = 0, lit_from = 0, added = 0;
	const char *eq = strchr(t, '=');

	if (!n || known_name(t)) {
		add_named_col(b, t);
		return 1;
	}
	/* "K=K": the literal "K=" and column K */
	if (eq && eq > t && (size_t)(eq - t) * 2 + 1 == n && !memcmp(t, eq + 1, (size_t)(eq - t))) {
		strbuf_add(&b->pending, t, (size_t)(eq - t) + 1);
		add_header_col(b, eq + 1, (size_t)(eq - t));
		return 1;
	}
	while (i < n) {
		size_t j = i;

		if (!ident_char((unsigned char)t[i]) || (i && ident_char((unsigned char)t[i - 1]))) {
			i++;
			continue;
		}
		while (j < n && ident_char((unsigned char)t[j]))
			j++;
		/* "K=K..." : the first K is the literal key of key=value */
		if (t[j] != '=' || strncmp(t + j + 1, t + i, j - i) ||
		    ident_char((unsigned char)t[j + 1 + (j - i)])) {
			struct strbuf w = STRBUF_INIT;
			int known;

			strbuf_add(&w, t + i, j - i);
			known = known_name(w.buf);
			if (known) {
				strbuf_add(&b->pending, t + lit_from, i - lit_from);
				add_named_col(b, w.buf);
				added++;
				lit_from = j;
			}
			strbuf_release(&w);
		}
		i = j;
	}
	if (!added) {
		add_named_col(b, t);
		return 1;
	}
	strbuf_add(&b->pending, t + lit_from, n - lit_from);
	return added;
}

static int looks_like_data(const char *t)
{
	double d;
	int off;
	size_t n = strlen(t);

	return num_parse_double(t, n, &d) == NUM_OK || rfm_parse_time(t, n, 0, &d, &off) == 0 ||
	       strchr(t, '{') || strchr(t, '[') || strchr(t, '/') || strchr(t, '@');
}

/*
 * The block of one performance variable in a header: the columns
 * format_perfvars gave it, X_value, X_unit, ... in any order, one of them
 * X_value (a lone X_value too: format_perfvars "%(check_perf_value)s|").
 * Returns how many columns, 0 when tok[i] starts none; *xlen = strlen(X).
 */
static size_t hdr_perf_block(char **tok, size_t i, size_t ntok, size_t *xlen)
{
	const char *t = tok[i], *suffix;
	size_t tl = strlen(t), j, k;

	if (known_name(t))
		return 0;
	for (j = 0; j < AB_ARRAY_SIZE(perf_suffixes); j++) {
		size_t sl = strlen(perf_suffixes[j]);
		int has_value = 0;

		if (tl <= sl || strcmp(t + tl - sl, perf_suffixes[j]))
			continue;
		*xlen = tl - sl;
		/* "perf_var=perf_value": the attribute perf_value, not a variable */
		if (*xlen >= 4 && !memcmp(t + *xlen - 4, "perf", 4) &&
		    (*xlen == 4 || !(isalnum((unsigned char)t[*xlen - 5]) || t[*xlen - 5] == '_')))
			return 0;
		for (k = i; k < ntok && has_suffix_for(tok[k], t, *xlen, &suffix); k++) {
			if (!strcmp(suffix, "_value")) {
				if (has_value)
					break;
				has_value = 1;
			}
		}
		if (has_value)
			return k - i;
	}
	return 0;
}

int rfm_layout_from_header(struct rfm_layout *l, const char *header, struct strbuf *err)
{
	struct builder b = { l, 0, STRBUF_INIT };
	char **tok = NULL;
	size_t ntok, nall, i = 0, k, nperf_cols = 0, nknown = 0;
	char d;
	int rc = 0;

	rfm_layout_release(l);
	if (strchr(header, '|'))
		d = '|';
	else if (strchr(header, ','))
		d = ',';
	else if (strchr(header, ';'))
		d = ';';
	else
		return ab_fail(err, AB_EDATA, "first line is not a header: no '|' or ','");
	nall = ntok = split_header(header, d, &tok);
	/* a trailing delimiter (format ending in '|') gives no column */
	if (ntok > 1 && !tok[ntok - 1][0])
		ntok--;
	for (k = 0; k < ntok; k++) {
		if (looks_like_data(tok[k])) {
			rc = ab_fail(err, AB_EDATA, "first line is not a header: '%s' is a value", tok[k]);
			goto out;
		}
	}
	while (i < ntok) {
		const char *t = tok[i], *suffix = "_value";
		size_t xlen = 0, nb;

		if (i)
			strbuf_addch(&b.pending, d);
		nb = hdr_perf_block(tok, i, ntok, &xlen);
		if (nb) {
			int perf = add_perf_name(l, t, xlen);
			for (k = i; k < i + nb; k++) {
				enum rfm_attr a;
				has_suffix_for(tok[k], t, xlen, &suffix);
				a = perf_suffix_attr(suffix);
				if (k > i)
					strbuf_addch(&b.pending, d);
				add_col(&b, tok[k], a, perf_attr_kind(a), perf);
				nperf_cols++;
			}
			i = k;
			continue;
		}
		add_header_token(&b, t);
		i++;
	}
	if (ntok < nall)
		strbuf_addch(&b.pending, d);
	l->lit = ab_realloc(l->lit, (l->n + 1) * sizeof(*l->lit));
	l->lit[l->n] = strbuf_detach(&b.pending, NULL);
	for (k = 0; k < l->n; k++) {
		enum rfm_attr a = l->col[k].attr;
		if (a == RA_PERF_VALUE)
			nperf_cols++;
		if (a != RA_OTHER && a != RA_IGNORE)
			nknown++;
		if ((a == RA_PERF_VAR || a == RA_PERF_VALUE) && l->col[k].perf < 0)
			l->per_var = 1;
	}
	if (!nperf_cols || nknown < 2) {
		rc = ab_fail(err, AB_EDATA, "first line does not name ReFrame performance columns");
		goto out;
	}
	finish_layout(l);
out:
	free_strv(tok, nall);
	strbuf_release(&b.pending);
	if (rc < 0)
		rfm_layout_release(l);
	return rc;
}

/*
 * ReFrame before 4.6.1 kept only the first character of the literal text
 * after a placeholder in the header, so "|jobid=%(check_jobid)s|" gave a
 * header column "jobid" over data "jobid=5512301".  When the first data
 * line splits into the header's columns and a field starts with its own
 * column's name and '=', that text is the format's literal: adopt it.
 */
size_t rfm_layout_adopt_prefixes(struct rfm_layout *l, const char *line, size_t len)
{
	size_t i, k = 0, start = 0, cnt = 0, adopted = 0, end = len;

	if (!l->delim || !l->n)
		return 0;
	if (l->lit[l->n][0]) {
		if (!end || line[end - 1] != l->delim)
			return 0;
		end--;
	}
	for (i = 0; i < end; i++)
		cnt += line[i] == l->delim;
	if (cnt != l->n - 1)
		return 0;
	for (i = 0; i <= end; i++) {
		const char *name, *f = line + start;
		size_t nl, fl;
		struct strbuf lit = STRBUF_INIT;

		if (i < end && line[i] != l->delim)
			continue;
		fl = i - start;
		start = i + 1;
		name = l->col[k].name;
		nl = strlen(name);
		/* a column that already starts with fixed text keeps it */
		if (strlen(l->lit[k]) == (k ? 1u : 0u) && nl && fl > nl && f[nl] == '=' &&
		    !memcmp(f, name, nl)) {
			strbuf_addstr(&lit, l->lit[k]);
			strbuf_add(&lit, f, nl + 1);
			free(l->lit[k]);
			l->lit[k] = strbuf_detach(&lit, NULL);
			adopted++;
		}
		k++;
	}
	if (adopted)
		finish_layout(l);
	return adopted;
}

/* ---- header recognition ---------------------------------------------------- */

/* Match text against segments separated by wildcards ('\x01'). */
static int glob_match(const char *pat, const char *s)
{
	const char *star = strchr(pat, '\x01');
	size_t n;

	if (!star)
		return !strcmp(pat, s);
	n = (size_t)(star - pat);
	if (strncmp(pat, s, n))
		return 0;
	s += n;
	pat = star + 1;
	for (;;) {
		const char *next = strchr(pat, '\x01');
		const char *hit;
		struct strbuf seg = STRBUF_INIT;
		int ok;

		if (!next) {
			size_t pl = strlen(pat), sl = strlen(s);
			return sl >= pl && !strcmp(s + sl - pl, pat);
		}
		strbuf_add(&seg, pat, (size_t)(next - pat));
		hit = strstr(s, seg.buf);
		ok = hit != NULL;
		if (ok)
			s = hit + seg.len;
		strbuf_release(&seg);
		if (!ok)
			return 0;
		pat = next + 1;
	}
}

int rfm_fmt_is_header(const struct rfm_fmt *f, const char *line)
{
	struct strbuf oldh = STRBUF_INIT, newh = STRBUF_INIT;
	size_t i;
	int ok;

	for (i = 0; i < f->nph; i++) {
		const char *after = f->lit[i + 1];
		if (is_special(f->ph[i])) {
			strbuf_addch(&oldh, '\x01');
			strbuf_addch(&newh, '\x01');
		} else {
			strbuf_addstr(&oldh, header_name(f->ph[i]));
			strbuf_addstr(&newh, header_name(f->ph[i]));
		}
		/* before 4.6.1 one character of literal text, from 4.6.1 all of it */
		if (after[0])
			strbuf_addch(&oldh, after[0]);
		strbuf_add(&newh, after, strcspn(after, "%"));
	}
	ok = glob_match(oldh.buf, line) || glob_match(newh.buf, line);
	strbuf_release(&oldh);
	strbuf_release(&newh);
	return ok;
}

/* ---- matching -------------------------------------------------------------- */

void rfm_match_init(struct rfm_match *m)
{
	memset(m, 0, sizeof(*m));
}

void rfm_match_release(struct rfm_match *m)
{
	free(m->off);
	free(m->len);
	free(m->memo);
	free(m->cum);
	free(m->km);
	rfm_match_init(m);
}

struct dp {
	const struct rfm_layout *l;
	const char *s;
	size_t len;
	unsigned char *memo;   /* (n) x (len + 1): 0 unknown, else count + 1 (count <= 2) */
	size_t stride;
	size_t *litlen;
	/* when every literal between columns is the one separator character:
	 * cum[x] separators in s[0, x) for x <= end (where the last literal
	 * starts), else NULL */
	const size_t *cum;
	size_t end;
};

/* Column i ends at q: can the columns after it still each get a separator
 * of their own before d->end?  When not, neither can a later q (the
 * separators after q only get fewer), so the callers stop looking: the
 * same count, without trying every separator of the line for every
 * column (a '|' inside one field made that 1 % of the lines cost several
 * % of the parse). */
static int dp_room(const struct dp *d, size_t i, size_t q)
{
	size_t need, from;

	if (!d->cum || i + 2 >= d->l->n)
		return 1;
	need = d->l->n - 2 - i; /* the literals of columns i + 2 .. n - 1 */
	from = q + 1 < d->end ? q + 1 : d->end;
	return d->cum[d->end] - d->cum[from] >= need;
}

static const char *find_lit(const char *s, size_t len, size_t from, const char *lit, size_t nl)
{
	size_t i;

	if (!nl)
		return from <= len ? s + from : NULL;
	if (nl == 1) {
		const char *p = from < len ? memchr(s + from, lit[0], len - from) : NULL;
		return p;
	}
	/* memchr to each candidate first byte (the byte loop was ~3 % of rf4) */
	for (i = from; i + nl <= len;) {
		const char *p = memchr(s + i, lit[0], len - nl + 1 - i);
		if (!p)
			return NULL;
		if (ab_memeq(p + 1, lit + 1, nl - 1))
			return p;
		i = (size_t)(p - s) + 1;
	}
	return NULL;
}

/* Number of ways (capped at 2) to place columns i.. with column i starting at p. */
static int dp_count(struct dp *d, size_t i, size_t p)
{
	unsigned char *slot = &d->memo[i * d->stride + p];
	const struct rfm_col *c = &d->l->col[i];
	size_t nl = d->litlen[i + 1];
	int total = 0;

	if (*slot)
		return *slot - 1;
	if (i + 1 == d->l->n) {
		if (d->len >= p + nl && !memcmp(d->s + d->len - nl, d->l->lit[i + 1], nl) &&
		    rfm_kind_ok(c->kind, d->s + p, d->len - nl - p))
			total = 1;
	} else {
		size_t q = p;
		const char *hit;

		while ((hit = find_lit(d->s, d->len, q, d->l->lit[i + 1], nl))) {
			q = (size_t)(hit - d->s);
			if (!dp_room(d, i, q))
				break;
			if (rfm_kind_ok(c->kind, d->s + p, q - p)) {
				total += dp_count(d, i + 1, q + nl);
				if (total >= 2) {
					total = 2;
					break;
				}
			}
			q++;
			if (q > d->len)
				break;
		}
	}
	*slot = (unsigned char)(total + 1);
	return total;
}

/* Walk one parse: the earliest (latest = 0) or latest choice at each column. */
static void dp_walk(struct dp *d, int latest, size_t *off, size_t *len)
{
	size_t i, p = d->litlen[0];

	for (i = 0; i < d->l->n; i++) {
		size_t nl = d->litlen[i + 1], q = p, best = (size_t)-1;
		const char *hit;

		off[i] = p;
		if (i + 1 == d->l->n) {
			len[i] = d->len - nl - p;
			return;
		}
		while ((hit = find_lit(d->s, d->len, q, d->l->lit[i + 1], nl))) {
			q = (size_t)(hit - d->s);
			if (!dp_room(d, i, q))
				break;
			if (rfm_kind_ok(d->l->col[i].kind, d->s + p, q - p) &&
			    dp_count(d, i + 1, q + nl) > 0) {
				best = q;
				if (!latest)
					break;
			}
			q++;
			if (q > d->len)
				break;
		}
		len[i] = best - p;
		p = best + nl;
	}
}

#define RFM_MEMO_MAX (16u << 20)
#define RFM_FORCED_MAX 64

/*
 * Every literal placed as early as possible (left to right) and as late
 * as possible (right to left), column kinds aside: any alignment puts
 * each literal between the two, so where they agree the line leaves no
 * choice and the DP is not needed (most lines of formats whose literals
 * are more than one delimiter: "|jobid=", "=", "|ref=", " (l=").
 * Returns RFM_MATCH_OK or RFM_MATCH_NONE (kinds checked like the DP), or
 * 1 when the placement is not forced (the caller runs the DP).
 */
/* rfm_kind_ok(kind, s), from memo (RFM_KIND_MEMO entries, newest first)
 * when it accepted the same text before */
static int kind_ok_memo(struct rfm_kind_memo *km, enum rfm_kind kind, const char *s, size_t len)
{
	unsigned char kb = (unsigned char)(kind + 1);
	size_t i;

	if (kind == RK_FREE)
		return 1;
	if (len > RFM_KIND_MEMO_LEN)
		return rfm_kind_ok(kind, s, len);
	for (i = 0; i < RFM_KIND_MEMO; i++)
		if (km[i].kind == kb && km[i].len == len && ab_memeq(km[i].text, s, len))
			return 1;
	if (!rfm_kind_ok(kind, s, len))
		return 0;
	memmove(km + 1, km, (RFM_KIND_MEMO - 1) * sizeof(*km));
	km[0].kind = kb;
	km[0].len = (unsigned char)len;
	memcpy(km[0].text, s, len);
	return 1;
}

static int forced_match(const struct rfm_layout *l, const char *s, size_t len,
			const size_t *litlen, struct rfm_match *m)
{
	size_t e[RFM_FORCED_MAX + 1], n = l->n, k, p;
	const char *hit;

	if (n > RFM_FORCED_MAX || len < litlen[0] + litlen[n])
		return 1;
	e[0] = 0;
	p = litlen[0];
	for (k = 1; k < n; k++) {
		if (!litlen[k])
			return 1;
		hit = find_lit(s, len, p, l->lit[k], litlen[k]);
		if (!hit)
			return 1;
		e[k] = (size_t)(hit - s);
		p = e[k] + litlen[k];
	}
	e[n] = len - litlen[n];
	if (e[n] < p || memcmp(s + e[n], l->lit[n], litlen[n]))
		return 1;
	/* right to left: each literal must end before the next one starts,
	 * and its last place there be the first one found (e[k], an
	 * occurrence): no occurrence may start in (e[k], p - litlen[k]] -
	 * found forwards with memchr, not a byte at a time backwards */
	p = e[n];
	for (k = n; k-- > 1;) {
		if (p < litlen[k] || e[k] > p - litlen[k] ||
		    find_lit(s, p, e[k] + 1, l->lit[k], litlen[k]))
			return 1;
		p = e[k];
	}
	if (m->km_cap < n * RFM_KIND_MEMO) {
		m->km = ab_realloc(m->km, n * RFM_KIND_MEMO * sizeof(*m->km));
		memset(m->km + m->km_cap, 0, (n * RFM_KIND_MEMO - m->km_cap) * sizeof(*m->km));
		m->km_cap = n * RFM_KIND_MEMO;
	}
	for (k = 0; k < n; k++) {
		m->off[k] = e[k] + litlen[k];
		m->len[k] = e[k + 1] - m->off[k];
		if (!kind_ok_memo(&m->km[k * RFM_KIND_MEMO], l->col[k].kind, s + m->off[k],
				  m->len[k]))
			return RFM_MATCH_NONE;
	}
	return RFM_MATCH_OK;
}

int rfm_layout_match(const struct rfm_layout *l, const char *line, size_t len,
		     struct rfm_match *m, size_t *col_a, size_t *col_b)
{
	size_t i, n = l->n, lit0 = l->litlen ? l->litlen[0] : strlen(l->lit[0]);
	struct dp d;
	size_t litlen_fixed[64], *litlen = litlen_fixed;
	int count, rc = RFM_MATCH_OK;

	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	if (m->cap < n) {
		m->cap = n;
		m->off = ab_realloc(m->off, n * sizeof(*m->off));
		m->len = ab_realloc(m->len, n * sizeof(*m->len));
	}
	m->realigned = 0;
	if (l->delim && n) {
		/* fast path: exactly the expected number of delimiters */
		size_t end = len, cnt = 0, start = 0, k = 0;
		const char *p = line, *stop;

		if (l->lit[n][0]) {
			if (!end || line[end - 1] != l->delim)
				goto slow;
			end--;
		}
		stop = line + end;
		/* the fields as the delimiters cut them, in the same pass */
#ifdef RFM_SSE2
		{	/* sixteen bytes at a time, every delimiter of them from a mask */
			const __m128i dv = _mm_set1_epi8(l->delim);
			while (stop - p >= 16 && cnt <= n - 1) {
				unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
					_mm_loadu_si128((const __m128i *)(const void *)p), dv));
				while (mask) {
					size_t at = (size_t)(p - line) + (size_t)__builtin_ctz(mask);
					mask &= mask - 1;
					if (++cnt > n - 1)
						break;
					m->off[k] = start;
					m->len[k++] = at - start;
					start = at + 1;
				}
				p += 16;
			}
		}
#endif
		while (cnt <= n - 1 && (p = memchr(p, l->delim, (size_t)(stop - p)))) {
			if (++cnt > n - 1)
				break;
			m->off[k] = start;
			m->len[k++] = (size_t)(p - line) - start;
			start = (size_t)(p - line) + 1;
			p++;
		}
		if (cnt == n - 1) {
			m->off[k] = start;
			m->len[k] = end - start;
			for (k = 1; l->prefixed && k < n; k++) {
				size_t pl = (l->litlen ? l->litlen[k] : strlen(l->lit[k])) - 1;
				if (!pl)
					continue;
				if (m->len[k] < pl || memcmp(line + m->off[k], l->lit[k] + 1, pl))
					goto slow;
				m->off[k] += pl;
				m->len[k] -= pl;
			}
			return RFM_MATCH_OK;
		}
	}
slow:
	if (len < lit0 || memcmp(line, l->lit[0], lit0))
		return RFM_MATCH_NONE;
	if ((n + 1) > RFM_MEMO_MAX / (len + 1))
		return RFM_MATCH_TOO_LONG;
	if (l->litlen) {
		litlen = l->litlen;
	} else {
		if (n + 1 > AB_ARRAY_SIZE(litlen_fixed))
			litlen = ab_malloc((n + 1) * sizeof(*litlen));
		for (i = 0; i <= n; i++)
			litlen[i] = strlen(l->lit[i]);
	}
	rc = forced_match(l, line, len, litlen, m);
	if (rc != 1) {
		if (litlen != litlen_fixed && litlen != l->litlen)
			free(litlen);
		return rc;
	}
	rc = RFM_MATCH_OK;
	d.l = l;
	d.s = line;
	d.len = len;
	d.stride = len + 1;
	d.litlen = litlen;
	if (m->memo_cap < n * d.stride) {
		m->memo_cap = n * d.stride;
		m->memo = ab_realloc(m->memo, m->memo_cap);
	}
	memset(m->memo, 0, n * d.stride);
	d.memo = m->memo;
	d.cum = NULL;
	d.end = len >= litlen[n] ? len - litlen[n] : 0;
	for (i = 1; i < n && litlen[i] == 1 && l->lit[i][0] == l->lit[1][0]; i++)
		;
	if (n > 2 && i == n && len >= litlen[n]) {
		char sep = l->lit[1][0];

		if (m->cum_cap < d.end + 1) {
			m->cum_cap = d.end + 1;
			m->cum = ab_realloc(m->cum, m->cum_cap * sizeof(*m->cum));
		}
		m->cum[0] = 0;
		for (i = 0; i < d.end; i++)
			m->cum[i + 1] = m->cum[i] + (line[i] == sep);
		d.cum = m->cum;
	}
	count = dp_count(&d, 0, lit0);
	if (count == 0) {
		rc = RFM_MATCH_NONE;
	} else if (count == 1) {
		dp_walk(&d, 0, m->off, m->len);
		/* a field that holds its own terminating literal was realigned */
		for (i = 0; i + 1 < n; i++) {
			if (litlen[i + 1] &&
			    find_lit(line, m->off[i] + m->len[i], m->off[i], l->lit[i + 1],
				     litlen[i + 1])) {
				m->realigned = 1;
				m->realigned_col = i;
				break;
			}
		}
	} else {
		size_t *off2 = ab_malloc(n * sizeof(*off2)), *len2 = ab_malloc(n * sizeof(*len2));
		size_t first = n, last = n;

		dp_walk(&d, 0, m->off, m->len);
		dp_walk(&d, 1, off2, len2);
		for (i = 0; i < n; i++) {
			if (off2[i] != m->off[i] || len2[i] != m->len[i]) {
				if (first == n)
					first = i;
				last = i;
			}
		}
		*col_a = first < n ? first : 0;
		*col_b = last < n ? last : 0;
		free(off2);
		free(len2);
		rc = RFM_MATCH_AMBIGUOUS;
	}
	if (litlen != litlen_fixed && litlen != l->litlen)
		free(litlen);
	return rc;
}

/* ---- site formats: --perflog-format and .accelbench-reframe.json ---------- */

#define RFM_CONFIG_NAME ".accelbench-reframe.json"

static int parse_offset(const char *s, long *out)
{
	long h = 0, m = 0;
	int sign = 1;
	size_t i = 0, n = strlen(s);

	if (!strcmp(s, "Z") || !strcmp(s, "UTC") || !strcmp(s, "utc")) {
		*out = 0;
		return 0;
	}
	if (n < 3 || (s[0] != '+' && s[0] != '-'))
		return -1;
	sign = s[0] == '-' ? -1 : 1;
	for (i = 1; i < 3; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		h = h * 10 + (s[i] - '0');
	}
	if (i < n && s[i] == ':')
		i++;
	if (n - i != 2 || !isdigit((unsigned char)s[i]) || !isdigit((unsigned char)s[i + 1]))
		return -1;
	m = (s[i] - '0') * 10 + (s[i + 1] - '0');
	if (h > 23 || m > 59)
		return -1;
	*out = sign * (h * 3600 + m * 60);
	return 0;
}

/* {"format": ..., "format_perfvars": ..., "utc_offset": "+01:00"}; 1 = has a format.
 * fmt == NULL: only the offset is wanted. */
static int apply_config(json_t *cfg, const char *where, struct rfm_fmt *fmt, long *off,
			int *off_set, struct strbuf *err)
{
	json_t *jf = json_object_get(cfg, "format"), *jp = json_object_get(cfg, "format_perfvars");
	json_t *jo = json_object_get(cfg, "utc_offset");
	const char *key;
	json_t *v;
	int rc;

	if (!json_is_object(cfg))
		return ab_fail(err, AB_EDATA, "%s: not a JSON object", where);
	json_object_foreach(cfg, key, v) {
		if (strcmp(key, "format") && strcmp(key, "format_perfvars") &&
		    strcmp(key, "utc_offset"))
			return ab_fail(err, AB_EDATA,
				       "%s: unknown key '%s' (format, format_perfvars, utc_offset)",
				       where, key);
	}
	if ((jf && !json_is_string(jf)) || (jp && !json_is_string(jp)) ||
	    (jo && !json_is_string(jo)))
		return ab_fail(err, AB_EDATA, "%s: format, format_perfvars and utc_offset are strings",
			       where);
	if (jo) {
		if (parse_offset(json_string_value(jo), off) < 0)
			return ab_fail(err, AB_EDATA,
				       "%s: bad utc_offset '%s' (want +HH:MM, -HH:MM or UTC)", where,
				       json_string_value(jo));
		*off_set = 1;
	}
	if (!jf || !fmt)
		return 0;
	rc = rfm_fmt_compile(fmt, json_string_value(jf),
			     jp ? json_string_value(jp) : PERFVARS_43, err);
	if (rc < 0) {
		struct strbuf msg = STRBUF_INIT;
		strbuf_addf(&msg, "%s: %s", where, err->buf);
		strbuf_reset(err);
		strbuf_addbuf(err, &msg);
		strbuf_release(&msg);
		return rc;
	}
	return 1;
}

int rfm_site_format(const struct ingest_file *f, struct rfm_fmt *fmt, long *utc_offset_s,
		    int *offset_given, struct strbuf *where, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	const char *opt = f->opts ? f->opts->perflog_format : NULL;
	char *abs;
	int rc = 0, have_fmt = 0;

	*utc_offset_s = 0;
	*offset_given = 0;
	strbuf_reset(where);
	if (opt && *opt) {
		if (opt[0] == '{') {
			json_error_t je;
			json_t *cfg = json_loads(opt, 0, &je);
			if (!cfg)
				return ab_fail(err, AB_EDATA, "--perflog-format: bad JSON: %s", je.text);
			rc = apply_config(cfg, "--perflog-format", fmt, utc_offset_s, offset_given,
					  err);
			json_decref(cfg);
		} else {
			rc = rfm_fmt_compile(fmt, opt, PERFVARS_43, err);
			if (rc < 0)
				ab_error_prefix(err, "--perflog-format", 0);
			else
				rc = 1;
		}
		if (rc < 0)
			return rc;
		have_fmt = rc;
		if (have_fmt)
			strbuf_addstr(where, "--perflog-format");
	}
	/* the nearest config file in the file's directory or an ancestor */
	ingest_dirname(&dir, f->path);
	abs = realpath(dir.buf, NULL);
	if (abs) {
		strbuf_setstr(&dir, abs);
		free(abs);
	}
	rc = 0;
	for (;;) {
		struct stat st;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s%s%s", dir.buf,
			    dir.len && dir.buf[dir.len - 1] == '/' ? "" : "/", RFM_CONFIG_NAME);
		if (stat(path.buf, &st) == 0 && S_ISREG(st.st_mode)) {
			json_error_t je;
			json_t *cfg;
			FILE *cfp;
			long off = 0;
			int off_set = 0;

			if (st.st_size > 65536) {
				rc = ab_fail(err, AB_EDATA, "%s: larger than 64 KiB", path.buf);
				break;
			}
			/* checked again on the opened file: it may be swapped for a FIFO */
			cfp = ab_fopen_input(path.buf, err);
			if (!cfp) {
				rc = -AB_EDATA;
				break;
			}
			cfg = json_loadf(cfp, 0, &je);
			fclose(cfp);
			if (!cfg) {
				rc = ab_fail(err, AB_EDATA, "%s:%d: bad JSON: %s", path.buf, je.line,
					     je.text);
				break;
			}
			/* the option wins over the file for what it says */
			rc = apply_config(cfg, path.buf, have_fmt ? NULL : fmt, &off, &off_set,
					  err);
			json_decref(cfg);
			if (rc < 0)
				break;
			if (rc == 1) {
				have_fmt = 1;
				strbuf_setstr(where, path.buf);
			}
			if (off_set && !*offset_given) {
				*utc_offset_s = off;
				*offset_given = 1;
			}
			break;
		}
		if (!strcmp(dir.buf, "/") || !strcmp(dir.buf, ".") || !dir.len)
			break;
		ingest_dirname(&path, dir.buf);
		strbuf_setstr(&dir, path.buf);
	}
	strbuf_release(&dir);
	strbuf_release(&path);
	if (rc < 0)
		return rc;
	return have_fmt;
}
