/*
 * reframe_report.c - ReFrame JSON run reports (--report-file), data_version
 * 1.x to 4.2, and the same JSON as stored in results.db.
 *
 * Memory: a report can hold thousands of test cases (tens of MB), and
 * jansson would build the whole tree.  So the file is scanned as a byte
 * stream: only session_info and one test case at a time are handed to
 * jansson (json_loadb of that object's text, at most RFM_CASE_MAX bytes).
 * Two passes: the first stops at session_info (normally the first key), the
 * second walks runs[].testcases[] and restored_cases[]; so a report whose
 * keys come in another order still works (the stream is rewound).
 *
 * Python's json.dump writes NaN, Infinity and -Infinity, which are not
 * JSON and which jansson rejects.  The scanner rewrites such bare tokens
 * (outside strings) into the strings "NaN", "Infinity", "-Infinity"; a
 * value that is such a string reads as missing, with the token kept.
 *
 * Layouts: data_version >= 4.0 has perfvalues {"sys:part:var": [value, ref,
 * lower, upper, unit(, result)]}, system = name only plus partition,
 * environ, job_completion_time(_unix); earlier versions have perfvars
 * [{name, value, reference, thres_lower, thres_upper, unit}], system
 * "sys:part", environment and no completion time.  Both result vocabularies
 * (pass/fail/..., success/failure/...) are understood.  runs[1..] are
 * retries (separate runs); restored_cases are test cases of an earlier
 * session (stored once thanks to the dedupe key).  Counts in session_info
 * are never checked: real reports are edited by hand.
 */
#include "core/compat.h"
#include "reframe_priv.h"

#include <ctype.h>
#include <math.h>

#define RFM_CASE_MAX (64u << 20)
#define RFM_DEPTH_MAX 256

struct jscan {
	FILE *fp;
	unsigned char buf[65536];
	size_t pos, len;
	int eof;
	long line;
	long tok_line;   /* line where the last captured value started */
};

struct session {
	struct strbuf uuid, version, hostname, user, data_version, time_start;
	int dv_major;
	json_t *extras;
};

struct report {
	struct ingest_file *f;
	const char *label;
	struct jscan s;
	struct session ses;
	struct rfm_case c;
	struct rfm_skips *sk;
	struct strbuf text;
	long ncases;
};

/* ---- the byte scanner ------------------------------------------------------ */

static int js_fill(struct jscan *s)
{
	if (s->pos < s->len)
		return 1;
	if (s->eof)
		return 0;
	s->len = fread(s->buf, 1, sizeof(s->buf), s->fp);
	s->pos = 0;
	if (s->len == 0) {
		s->eof = 1;
		return 0;
	}
	return 1;
}

static int js_peek(struct jscan *s)
{
	return js_fill(s) ? s->buf[s->pos] : EOF;
}

static int js_get(struct jscan *s)
{
	int c;

	if (!js_fill(s))
		return EOF;
	c = s->buf[s->pos++];
	if (c == '\n')
		s->line++;
	return c;
}

static int js_ws(struct jscan *s)
{
	int c;

	while ((c = js_peek(s)) != EOF && (c == ' ' || c == '\t' || c == '\n' || c == '\r'))
		js_get(s);
	return c;
}

static int rp_fail(struct report *r, struct strbuf *err, long line, const char *fmt, ...)
	AB_PRINTF(4, 5);

/* the newest run report layout known (ReFrame 4.x writes data_version 4.x) */
#define RFM_DV_NEWEST 4

static int rp_fail(struct report *r, struct strbuf *err, long line, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (r->label)
		rc = ingest_fail_at(r->f, err, 0, "%s, line %ld: %s", r->label, line, msg.buf);
	else
		rc = ingest_fail_at(r->f, err, line, "%s", msg.buf);
	strbuf_release(&msg);
	return rc;
}

static int expect_word(struct report *r, const char *rest, struct strbuf *out,
		       struct strbuf *err)
{
	for (; *rest; rest++) {
		int c = js_get(&r->s);
		if (c != *rest)
			return rp_fail(r, err, r->s.line, "bad JSON token");
		if (out)
			strbuf_addch(out, c);
	}
	return 0;
}

/*
 * The rest of a number whose first character is the last of out.  One
 * beyond a double (1e400, 1e-400: jansson rejects the case for the first
 * and reads 0 for the second) becomes a string, like NaN, so that the
 * value is reported as not stored rather than failing or becoming 0.
 */
static void js_number_rest(struct jscan *s, struct strbuf *out)
{
	size_t at = out->len - 1, n;
	int exp = 0, c;
	double v;
	char *end;

	while ((c = js_peek(s)) != EOF && c && strchr("0123456789.eE+-", c)) {
		js_get(s);
		exp |= c == 'e' || c == 'E';
		strbuf_addch(out, c);
	}
	if (!exp && out->len - at < 300)
		return;
	errno = 0;
	v = strtod(out->buf + at, &end);
	if (end != out->buf + out->len || errno != ERANGE ||
	    (v != 0 && fpclassify(v) == FP_NORMAL && !isinf(v)))
		return;
	n = out->len - at;
	strbuf_addstr(out, "\"\"");
	memmove(out->buf + at + 1, out->buf + at, n);
	out->buf[at] = '"';
	out->buf[at + n + 1] = '"';
}

/*
 * Copy (out != NULL) or skip one JSON value, rewriting NaN/Infinity.
 * Structure is checked only as far as needed to find the value's end;
 * jansson checks the copied text.
 */
static int js_value(struct report *r, struct strbuf *out, size_t max, struct strbuf *err)
{
	struct jscan *s = &r->s;
	int depth = 0, c;

	c = js_ws(s);
	s->tok_line = s->line;
	if (c == EOF)
		return rp_fail(r, err, s->line, "truncated JSON");
	do {
		c = js_get(s);
		if (c == EOF)
			return rp_fail(r, err, s->line, "truncated JSON");
		if (out && out->len >= max)
			return rp_fail(r, err, s->tok_line, "test case larger than %u MiB",
				       (unsigned)(max >> 20));
		switch (c) {
		case '"':
			if (out)
				strbuf_addch(out, c);
			for (;;) {
				c = js_get(s);
				if (c == EOF)
					return rp_fail(r, err, s->line, "truncated JSON string");
				if (out)
					strbuf_addch(out, c);
				if (c == '\\') {
					c = js_get(s);
					if (c == EOF)
						return rp_fail(r, err, s->line, "truncated JSON string");
					if (out)
						strbuf_addch(out, c);
				} else if (c == '"') {
					break;
				}
			}
			break;
		case '{':
		case '[':
			if (++depth > RFM_DEPTH_MAX)
				return rp_fail(r, err, s->line, "JSON nested deeper than %d",
					       RFM_DEPTH_MAX);
			if (out)
				strbuf_addch(out, c);
			break;
		case '}':
		case ']':
			if (--depth < 0)
				return rp_fail(r, err, s->line, "unbalanced JSON");
			if (out)
				strbuf_addch(out, c);
			break;
		case 'N':
			if (out)
				strbuf_addstr(out, "\"N");
			if (expect_word(r, "aN", out, err) < 0)
				return -AB_EDATA;
			if (out)
				strbuf_addch(out, '"');
			break;
		case 'I':
			if (out)
				strbuf_addstr(out, "\"I");
			if (expect_word(r, "nfinity", out, err) < 0)
				return -AB_EDATA;
			if (out)
				strbuf_addch(out, '"');
			break;
		case '-':
			if (js_peek(s) == 'I') {
				js_get(s);
				if (out)
					strbuf_addstr(out, "\"-I");
				if (expect_word(r, "nfinity", out, err) < 0)
					return -AB_EDATA;
				if (out)
					strbuf_addch(out, '"');
				break;
			}
			if (out)
				strbuf_addch(out, c);
			goto scalar_rest;
		default:
			if (out)
				strbuf_addch(out, c);
scalar_rest:
			if (out && (c == '-' || (c >= '0' && c <= '9')))
				js_number_rest(s, out);
			/* a scalar ends before , } ] or blank */
			if (!depth) {
				int n;
				while ((n = js_peek(s)) != EOF && !strchr(",}] \t\r\n", n)) {
					c = js_get(s);
					if (out)
						strbuf_addch(out, c);
				}
			}
			break;
		}
	} while (depth > 0);
	return 0;
}

/* Read an object key (the '"' is next); keys we look for have no escapes. */
static int js_key(struct report *r, struct strbuf *key, struct strbuf *err)
{
	int c;

	strbuf_reset(key);
	if (js_ws(&r->s) != '"')
		return rp_fail(r, err, r->s.line, "expected a JSON object key");
	js_get(&r->s);
	while ((c = js_get(&r->s)) != '"') {
		if (c == EOF)
			return rp_fail(r, err, r->s.line, "truncated JSON");
		strbuf_addch(key, c);
		if (c == '\\') {
			c = js_get(&r->s);
			if (c == EOF)
				return rp_fail(r, err, r->s.line, "truncated JSON");
			strbuf_addch(key, c);
		}
	}
	if (js_ws(&r->s) != ':')
		return rp_fail(r, err, r->s.line, "expected ':' after key '%s'", key->buf);
	js_get(&r->s);
	return 0;
}

/* After a member or element: ',' (returns 1) or the closing char (returns 0). */
static int js_next(struct report *r, int close, struct strbuf *err)
{
	int c = js_ws(&r->s);

	if (c == ',') {
		js_get(&r->s);
		return 1;
	}
	if (c == close) {
		js_get(&r->s);
		return 0;
	}
	return rp_fail(r, err, r->s.line, "expected ',' or '%c'", close);
}

/* Start of an object or array: returns 1 when it has members, 0 when empty. */
static int js_open(struct report *r, int open, const char *what, struct strbuf *err)
{
	int c = js_ws(&r->s);

	if (c != open)
		return rp_fail(r, err, r->s.line, "%s is not a JSON %s", what,
			       open == '{' ? "object" : "array");
	js_get(&r->s);
	if (js_ws(&r->s) == (open == '{' ? '}' : ']')) {
		js_get(&r->s);
		return 0;
	}
	return 1;
}

static json_t *js_load(struct report *r, struct strbuf *err)
{
	json_error_t je;
	/* a key given twice would store one of two disagreeing values, or a
	 * test case twice: refuse it, as the systems and prices files do */
	json_t *j = json_loadb(r->text.buf, r->text.len, JSON_REJECT_DUPLICATES, &je);

	if (!j)
		rp_fail(r, err, r->s.tok_line + je.line - 1, "bad JSON: %s", je.text);
	return j;
}

/* ---- session_info ------------------------------------------------------------ */

static const char *const session_known[] = {
	"data_version", "hostname", "uuid", "time_start", "time_start_unix", "time_end",
	"time_end_unix", "time_elapsed", "cmdline", "config_files", "config_file", "log_files",
	"prefix_output", "prefix_stage", "user", "version", "workdir", "num_cases",
	"num_failures", "num_aborted", "num_skipped"
};

static void set_text(struct strbuf *sb, json_t *v)
{
	strbuf_reset(sb);
	if (json_is_string(v))
		strbuf_addstr(sb, json_string_value(v));
	else if (json_is_integer(v))
		strbuf_addf(sb, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		num_format(sb, json_real_value(v));
}

static void session_read(struct session *ses, json_t *si)
{
	const char *key;
	json_t *v;
	size_t i;

	set_text(&ses->uuid, json_object_get(si, "uuid"));
	set_text(&ses->version, json_object_get(si, "version"));
	set_text(&ses->hostname, json_object_get(si, "hostname"));
	set_text(&ses->user, json_object_get(si, "user"));
	set_text(&ses->data_version, json_object_get(si, "data_version"));
	set_text(&ses->time_start, json_object_get(si, "time_start"));
	ses->dv_major = atoi(ses->data_version.buf);
	json_object_foreach(si, key, v) {
		for (i = 0; i < AB_ARRAY_SIZE(session_known); i++)
			if (!strcmp(key, session_known[i]))
				break;
		if (i == AB_ARRAY_SIZE(session_known)) {
			if (!ses->extras)
				ses->extras = json_object();
			json_object_set(ses->extras, key, v);
		}
	}
}

/* ---- one test case ------------------------------------------------------------ */

/* Keys that are mapped elsewhere or are paths, commands and logs (not configuration). */
static const char *const tc_skip[] = {
	"display_name", "name", "system", "partition", "environ", "environment", "jobid",
	"result", "fail_phase", "fail_reason", "job_completion_time", "job_completion_time_unix",
	"job_submit_time", "perfvalues", "perfvars", "check_params", "check_vars", "uuid",
	"session_uuid", "run_index", "runid", "build_stderr", "build_stdout",
	"dependencies_actual", "dependencies_conceptual", "fail_info", "filename", "job_stderr",
	"job_stdout", "outputdir", "stagedir", "prefix", "executable", "executable_opts",
	"prebuild_cmds", "postbuild_cmds", "prerun_cmds", "postrun_cmds", "sourcepath",
	"sourcesdir", "readonly_files", "keep_files", "valid_prog_environs", "valid_systems",
	"maintainers", "build_locally", "build_time_limit", "time_limit", "local",
	"max_pending_time", "strict_check", "tags", "variables"
};

static int skip_key(const char *key)
{
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(tc_skip); i++)
		if (!strcmp(key, tc_skip[i]))
			return 1;
	return 0;
}

static void copy_params(json_t *params, json_t *obj, int filter)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		if (json_is_null(v) || (filter && skip_key(key)))
			continue;
		if (json_is_string(v) && !strcmp(json_string_value(v), "<undefined>"))
			continue;
		json_object_set(params, key, v);
	}
}

/* A JSON perf number: numbers, null, and the strings the scanner makes of
 * NaN, Infinity and numbers beyond a double (1e400, 1e-400), which are
 * said with the test case's line, not dropped in silence. */
static void perf_json_value(struct report *r, struct rfm_perf *p, json_t *v)
{
	struct strbuf sb = STRBUF_INIT;
	enum rfm_value kind;

	if (json_is_number(v)) {
		p->has_value = 1;
		p->value = json_number_value(v);
		return;
	}
	if (json_is_null(v) || !v)
		strbuf_addstr(&sb, "null");
	else if (json_is_string(v))
		strbuf_addstr(&sb, json_string_value(v));
	else
		strbuf_addstr(&sb, "?");
	kind = rfm_perf_set_value(p, sb.buf, sb.len);
	if (rfm_value_why(kind) && r->sk->warned++ < RFM_REPORT_MAX_WARN) {
		if (r->label)
			ingest_warn(r->f, 0, "%s, line %ld: performance value of '%s' is '%s' (%s); "
				    "not stored", r->label, r->s.tok_line, p->name, sb.buf,
				    rfm_value_why(kind));
		else
			ingest_warn(r->f, r->s.tok_line, "performance value of '%s' is '%s' (%s); "
				    "not stored", p->name, sb.buf, rfm_value_why(kind));
	}
	strbuf_release(&sb);
}

static void perf_json_num(int *has, double *out, json_t *v)
{
	*has = 0;
	if (json_is_number(v) && isfinite(json_number_value(v))) {
		*has = 1;
		*out = json_number_value(v);
	} else if (json_is_string(v)) {
		rfm_perf_set_num(has, out, json_string_value(v), strlen(json_string_value(v)));
	}
}

static void perf_json_text(char **dst, json_t *v)
{
	free(*dst);
	*dst = json_is_string(v) ? ab_strdup(json_string_value(v)) : NULL;
}

static int case_from_json(struct report *r, json_t *tc, size_t run_index, size_t idx,
			  int restored, struct strbuf *err)
{
	struct rfm_case *c = &r->c;
	json_t *v, *pv;
	const char *sys;
	double t;
	int has_offset;

	rfm_case_reset(c);
	c->line = r->label ? 0 : r->s.tok_line;
	if (!json_is_object(tc))
		return rp_fail(r, err, r->s.tok_line, "test case is not a JSON object");
	v = json_object_get(tc, "display_name");
	if (!json_is_string(v))
		v = json_object_get(tc, "name");
	set_text(&c->display, v);
	v = json_object_get(tc, "system");
	sys = json_string_value(v);
	if (sys && strchr(sys, ':')) {
		strbuf_add(&c->system, sys, strcspn(sys, ":"));
		strbuf_addstr(&c->partition, strchr(sys, ':') + 1);
	} else {
		set_text(&c->system, v);
		set_text(&c->partition, json_object_get(tc, "partition"));
	}
	v = json_object_get(tc, "environ");
	set_text(&c->environ, v ? v : json_object_get(tc, "environment"));
	set_text(&c->jobid, json_object_get(tc, "jobid"));
	set_text(&c->result, json_object_get(tc, "result"));
	set_text(&c->fail_phase, json_object_get(tc, "fail_phase"));
	set_text(&c->fail_reason, json_object_get(tc, "fail_reason"));
	c->old_era = (r->ses.dv_major && r->ses.dv_major < 4) ||
		     rfm_version_old_era(r->ses.version.buf, r->ses.version.len);

	v = json_object_get(tc, "job_completion_time_unix");
	if (json_is_number(v)) {
		c->completion = json_number_value(v);
		c->time_basis = "job_completion_time_unix";
	} else if (json_is_string(json_object_get(tc, "job_completion_time"))) {
		const char *s = json_string_value(json_object_get(tc, "job_completion_time"));
		strbuf_addstr(&c->time_raw, s);
		if (rfm_parse_time(s, strlen(s), 0, &t, &has_offset) == 0) {
			c->completion = t;
			c->time_basis = has_offset ? "job_completion_time with UTC offset"
						   : "job_completion_time without UTC offset: assumed UTC";
		}
	}
	v = json_object_get(tc, "job_submit_time");
	if (json_is_number(v))
		c->submit = json_number_value(v);

	pv = json_object_get(tc, "perfvalues");
	if (json_is_object(pv)) {
		const char *key;
		json_t *arr;

		json_object_foreach(pv, key, arr) {
			/* "<sys>:<part>:<var>": names before the var match [A-Za-z0-9_-]+ */
			const char *var = key, *c1 = strchr(key, ':');
			const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
			struct rfm_perf *p;

			if (c2)
				var = c2 + 1;
			if (!json_is_array(arr) || json_array_size(arr) < 5)
				return rp_fail(r, err, r->s.tok_line,
					       "perfvalues '%s' of test case '%s' is not a list of 5 or 6",
					       key, c->display.buf);
			p = rfm_case_perf(c, var, strlen(var));
			perf_json_value(r, p, json_array_get(arr, 0));
			perf_json_num(&p->has_ref, &p->ref, json_array_get(arr, 1));
			perf_json_num(&p->has_lower, &p->lower, json_array_get(arr, 2));
			perf_json_num(&p->has_upper, &p->upper, json_array_get(arr, 3));
			perf_json_text(&p->unit, json_array_get(arr, 4));
			if (json_array_size(arr) > 5)
				perf_json_text(&p->result, json_array_get(arr, 5));
		}
	}
	pv = json_object_get(tc, "perfvars");
	if (json_is_array(pv)) {
		size_t i;
		json_t *o;

		json_array_foreach(pv, i, o) {
			const char *name = json_string_value(json_object_get(o, "name"));
			struct rfm_perf *p;

			if (!name)
				return rp_fail(r, err, r->s.tok_line,
					       "perfvars entry %zu of test case '%s' has no name", i,
					       c->display.buf);
			p = rfm_case_perf(c, name, strlen(name));
			perf_json_value(r, p, json_object_get(o, "value"));
			perf_json_num(&p->has_ref, &p->ref, json_object_get(o, "reference"));
			perf_json_num(&p->has_lower, &p->lower, json_object_get(o, "thres_lower"));
			perf_json_num(&p->has_upper, &p->upper, json_object_get(o, "thres_upper"));
			perf_json_text(&p->unit, json_object_get(o, "unit"));
		}
	}

	copy_params(c->params, json_object_get(tc, "check_vars"), 1);
	copy_params(c->params, json_object_get(tc, "check_params"), 0);
	copy_params(c->params, tc, 1);
	if (r->ses.uuid.len)
		json_object_set_new(c->params, "session_uuid", json_string(r->ses.uuid.buf));
	if (r->ses.version.len)
		json_object_set_new(c->params, "reframe_version", json_string(r->ses.version.buf));
	if (r->ses.hostname.len)
		json_object_set_new(c->params, "hostname", json_string(r->ses.hostname.buf));
	if (r->ses.user.len)
		json_object_set_new(c->params, "user", json_string(r->ses.user.buf));
	if (r->ses.data_version.len)
		json_object_set_new(c->params, "data_version", json_string(r->ses.data_version.buf));
	if (r->ses.extras)
		json_object_set(c->params, "session_extras", r->ses.extras);
	json_object_set_new(c->params, "run_index", json_integer((json_int_t)run_index));
	if (restored)
		json_object_set_new(c->params, "restored", json_true());
	v = json_object_get(tc, "uuid");
	if (json_is_string(v)) {
		json_object_set(c->params, "testcase_uuid", v);
		strbuf_addf(&c->key_extra, "uuid:%s", json_string_value(v));
	} else {
		strbuf_addf(&c->key_extra, "report:%s:%s:%zu:%zu", r->ses.uuid.buf,
			    r->ses.time_start.buf, run_index, idx);
	}
	return 0;
}

static int handle_case(struct report *r, size_t run_index, size_t idx, int restored,
		       struct strbuf *err)
{
	json_t *tc;
	int rc;

	strbuf_reset(&r->text);
	rc = js_value(r, &r->text, RFM_CASE_MAX, err);
	if (rc < 0)
		return rc;
	tc = js_load(r, err);
	if (!tc)
		return -AB_EDATA;
	rc = case_from_json(r, tc, run_index, idx, restored, err);
	if (rc == 0) {
		r->ncases++;
		rc = rfm_case_emit(r->f, &r->c, r->sk, err);
		if (rc > 0)
			rc = 0;
	}
	rfm_case_reset(&r->c); /* drops references into tc */
	json_decref(tc);
	return rc;
}

/* ---- the two passes -------------------------------------------------------------- */

static int pass_session(struct report *r, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT;
	int rc, more;

	more = js_open(r, '{', "the run report", err);
	if (more < 0)
		return more;
	while (more > 0) {
		rc = js_key(r, &key, err);
		if (rc < 0)
			goto out;
		if (!strcmp(key.buf, "session_info")) {
			json_t *si;
			strbuf_reset(&r->text);
			rc = js_value(r, &r->text, RFM_CASE_MAX, err);
			if (rc < 0)
				goto out;
			si = js_load(r, err);
			if (!si) {
				rc = -AB_EDATA;
				goto out;
			}
			if (!json_is_object(si)) {
				json_decref(si);
				rc = rp_fail(r, err, r->s.tok_line, "session_info is not an object");
				goto out;
			}
			session_read(&r->ses, si);
			json_decref(si);
			if (r->ses.dv_major > RFM_DV_NEWEST)
				ingest_warn(r->f, r->s.tok_line, "data_version '%s' is newer than the "
					    "newest this accelbench knows (%d.x); read as %d.x",
					    r->ses.data_version.buf, RFM_DV_NEWEST, RFM_DV_NEWEST);
			rc = 1;
			goto out;
		}
		rc = js_value(r, NULL, 0, err);
		if (rc < 0)
			goto out;
		more = js_next(r, '}', err);
		if (more < 0) {
			rc = more;
			goto out;
		}
	}
	rc = rp_fail(r, err, 1, "not a ReFrame run report: no 'session_info'");
out:
	strbuf_release(&key);
	return rc < 0 ? rc : 0;
}

static int walk_cases(struct report *r, size_t run_index, int restored, const char *what,
		      struct strbuf *err)
{
	size_t idx = 0;
	int more = js_open(r, '[', what, err), rc;

	while (more > 0) {
		rc = handle_case(r, run_index, idx++, restored, err);
		if (rc < 0)
			return rc;
		more = js_next(r, ']', err);
	}
	return more;
}

/*
 * A key the reader acts on, met a second time in one object: jansson
 * (JSON_REJECT_DUPLICATES) refuses that inside a test case, and the stream
 * must too, or the cases of two "runs" lists would be read both.  *first
 * is the line of the first occurrence (0 = not seen yet).
 */
static int once(struct report *r, long *first, const char *key, const char *where,
		struct strbuf *err)
{
	if (*first)
		return rp_fail(r, err, r->s.line, "'%s' given twice in %s (first at line %ld)", key,
			       where, *first);
	*first = r->s.line;
	return 0;
}

static int pass_runs(struct report *r, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT, rkey = STRBUF_INIT;
	int rc = 0, more;
	long seen_runs = 0, seen_restored = 0, seen_session = 0;

	more = js_open(r, '{', "the run report", err);
	while (more > 0) {
		rc = js_key(r, &key, err);
		if (rc < 0)
			goto out;
		if (!strcmp(key.buf, "runs")) {
			size_t run_index = 0;
			int rmore;

			rc = once(r, &seen_runs, "runs", "the run report", err);
			if (rc < 0)
				goto out;
			rmore = js_open(r, '[', "runs", err);
			while (rmore > 0) {
				int omore = js_open(r, '{', "a run", err);
				long seen_cases = 0;
				while (omore > 0) {
					rc = js_key(r, &rkey, err);
					if (rc < 0)
						goto out;
					if (!strcmp(rkey.buf, "testcases")) {
						rc = once(r, &seen_cases, "testcases", "a run", err);
						if (rc == 0)
							rc = walk_cases(r, run_index, 0, "testcases",
									err);
					} else {
						rc = js_value(r, NULL, 0, err);
					}
					if (rc < 0)
						goto out;
					omore = js_next(r, '}', err);
				}
				if (omore < 0) {
					rc = omore;
					goto out;
				}
				run_index++;
				rmore = js_next(r, ']', err);
			}
			if (rmore < 0) {
				rc = rmore;
				goto out;
			}
		} else if (!strcmp(key.buf, "restored_cases")) {
			rc = once(r, &seen_restored, "restored_cases", "the run report", err);
			if (rc == 0)
				rc = walk_cases(r, 0, 1, "restored_cases", err);
		} else if (!strcmp(key.buf, "session_info")) {
			/* read by the first pass, which stops at the first one */
			rc = once(r, &seen_session, "session_info", "the run report", err);
			if (rc == 0)
				rc = js_value(r, NULL, 0, err);
		} else {
			rc = js_value(r, NULL, 0, err);
		}
		if (rc < 0)
			goto out;
		more = js_next(r, '}', err);
	}
	rc = more;
	if (rc >= 0 && !seen_runs)
		rc = rp_fail(r, err, 1, "not a ReFrame run report: no 'runs'");
out:
	strbuf_release(&key);
	strbuf_release(&rkey);
	return rc < 0 ? rc : 0;
}

static void scan_start(struct jscan *s, FILE *fp)
{
	s->fp = fp;
	s->pos = s->len = 0;
	s->eof = 0;
	s->line = 1;
	s->tok_line = 1;
	/* a UTF-8 byte order mark is not JSON */
	if (js_peek(s) == 0xEF && s->len >= 3 && s->buf[1] == 0xBB && s->buf[2] == 0xBF)
		s->pos = 3;
}

int rfm_report_parse_stream(struct ingest_file *f, FILE *fp, const char *label,
			    struct rfm_skips *sk, struct strbuf *err)
{
	struct report *r = ab_calloc(1, sizeof(*r));
	int rc;

	r->f = f;
	r->label = label;
	r->sk = sk;
	strbuf_init(&r->text, 0);
	strbuf_init(&r->ses.uuid, 0);
	strbuf_init(&r->ses.version, 0);
	strbuf_init(&r->ses.hostname, 0);
	strbuf_init(&r->ses.user, 0);
	strbuf_init(&r->ses.data_version, 0);
	strbuf_init(&r->ses.time_start, 0);
	rfm_case_init(&r->c);

	scan_start(&r->s, fp);
	rc = pass_session(r, err);
	if (rc == 0) {
		if (fseek(fp, 0, SEEK_SET) != 0)
			rc = ab_fail(err, AB_EIO, "%s: cannot rewind: %s", f->path, strerror(errno));
	}
	if (rc == 0) {
		scan_start(&r->s, fp);
		rc = pass_runs(r, err);
	}
	if (rc == 0 && js_ws(&r->s) != EOF)
		rc = rp_fail(r, err, r->s.line, "text after the end of the run report");
	if (rc == 0 && ferror(fp))
		rc = ab_fail(err, AB_EIO, "%s: read error", f->path);

	rfm_case_release(&r->c);
	json_decref(r->ses.extras);
	strbuf_release(&r->ses.uuid);
	strbuf_release(&r->ses.version);
	strbuf_release(&r->ses.hostname);
	strbuf_release(&r->ses.user);
	strbuf_release(&r->ses.data_version);
	strbuf_release(&r->ses.time_start);
	strbuf_release(&r->text);
	free(r);
	return rc;
}

/* ---- the format ----------------------------------------------------------------- */

static int detect_report(const char *path, const unsigned char *head, size_t len)
{
	size_t i = 0;
	struct strbuf h = STRBUF_INIT;
	int score = 0;

	if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
		i = 3;
	while (i < len && isspace(head[i]))
		i++;
	if (i >= len || head[i] != '{')
		return 0;
	strbuf_add(&h, head, len);
	if (strstr(h.buf, "\"session_info\"") &&
	    (strstr(h.buf, "\"data_version\"") || strstr(h.buf, "\"runs\"")))
		score = 95;
	else if (strstr(h.buf, "\"runs\"") && strstr(h.buf, "\"testcases\""))
		score = 85;
	strbuf_release(&h);
	return score;
}

static int parse_report(struct ingest_file *f, struct strbuf *err)
{
	struct rfm_skips sk = { 0, 0, 0 };
	int rc = rfm_report_parse_stream(f, f->fp, NULL, &sk, err);

	if (rc == 0)
		rfm_skips_warn(f, &sk);
	return rc;
}

const struct ingest_format ingest_fmt_reframe_report = {
	"reframe-report", 0, detect_report, parse_report
};
