/*
 * spec.c - the report spec (report.h): JSON in, struct report_spec out.
 * Every field is optional; unknown fields and wrong types are rejected
 * with the field's path so a typo never silently changes a report.
 */
#include "core/compat.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "reports/report.h"

#include <jansson.h>
#include <math.h>
#include <strings.h>

#define SPEC_MAX_BYTES (1 << 20)

const char *report_norm_name(enum report_norm n)
{
	switch (n) {
	case REPORT_NORM_DEVICE:
		return "device";
	case REPORT_NORM_NODE:
		return "node";
	case REPORT_NORM_SYSTEM:
		break;
	}
	return "system";
}

void report_spec_init(struct report_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->title = ab_strdup(REPORT_DEFAULT_TITLE);
	s->level = 0.95;
	s->page = REPORT_PAGE_A4;
}

static void free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void report_spec_release(struct report_spec *s)
{
	size_t i;

	free(s->title);
	free(s->author);
	free(s->organisation);
	free(s->baseline);
	free(s->prices);
	free_list(s->suites, s->nsuites);
	free_list(s->systems, s->nsystems);
	for (i = 0; i < s->nbenchmarks; i++) {
		free(s->benchmarks[i].name);
		free(s->benchmarks[i].metric);
	}
	free(s->benchmarks);
	memset(s, 0, sizeof(*s));
}

/* Parsing context: the spec's name for messages. */
struct sp {
	const char *name;
	struct strbuf *err;
};

static int bad(struct sp *p, const char *path, const char *what)
{
	return ab_fail(p->err, AB_EDATA, "%s: %s: %s", p->name, path, what);
}

static int want_string(struct sp *p, const char *path, json_t *v, char **out)
{
	const char *s;

	if (!json_is_string(v))
		return bad(p, path, "expected a string");
	s = json_string_value(v);
	if (!*s)
		return bad(p, path, "must not be empty");
	if (strlen(s) != json_string_length(v))
		return bad(p, path, "contains a NUL character");
	free(*out);
	*out = ab_strdup(s);
	return 0;
}

static int want_names(struct sp *p, const char *path, json_t *v, char ***out, size_t *n)
{
	struct strbuf at = STRBUF_INIT;
	size_t i;
	json_t *e;
	int rc = 0;

	if (!json_is_array(v))
		return bad(p, path, "expected an array of names");
	*out = ab_calloc(json_array_size(v) + 1, sizeof(**out));
	json_array_foreach(v, i, e) {
		strbuf_reset(&at);
		strbuf_addf(&at, "%s[%zu]", path, i);
		if ((rc = want_string(p, at.buf, e, &(*out)[i])))
			break;
		*n = i + 1;
	}
	strbuf_release(&at);
	return rc;
}

static int parse_norm(struct sp *p, const char *path, json_t *v, enum report_norm *out)
{
	const char *s = json_is_string(v) ? json_string_value(v) : NULL;

	if (s && !strcmp(s, "system"))
		*out = REPORT_NORM_SYSTEM;
	else if (s && !strcmp(s, "device"))
		*out = REPORT_NORM_DEVICE;
	else if (s && !strcmp(s, "node"))
		*out = REPORT_NORM_NODE;
	else
		return bad(p, path, "expected one of system, device, node");
	return 0;
}

static int parse_bench(struct sp *p, const char *path, json_t *v, struct report_bench *b)
{
	struct strbuf at = STRBUF_INIT;
	const char *key;
	json_t *e;
	int rc = 0;

	if (json_is_string(v))
		return want_string(p, path, v, &b->name);
	if (!json_is_object(v))
		return bad(p, path, "expected a benchmark name or an object with \"name\"");
	json_object_foreach(v, key, e) {
		strbuf_reset(&at);
		strbuf_addf(&at, "%s.%s", path, key);
		if (key[0] == '_')
			continue;
		if (!strcmp(key, "name"))
			rc = want_string(p, at.buf, e, &b->name);
		else if (!strcmp(key, "metric"))
			rc = want_string(p, at.buf, e, &b->metric);
		else if (!strcmp(key, "normalise") || !strcmp(key, "normalize"))
			rc = parse_norm(p, at.buf, e, &b->norm);
		else
			rc = bad(p, at.buf, "unknown field (known: name, metric, normalise)");
		if (rc)
			break;
	}
	if (!rc && !b->name)
		rc = bad(p, path, "missing \"name\"");
	strbuf_release(&at);
	return rc;
}

/* dir of the spec file + rel, unless rel is absolute. */
static char *resolve(const char *spec_name, const char *rel)
{
	const char *slash = strrchr(spec_name, '/');
	struct strbuf sb = STRBUF_INIT;

	if (rel[0] == '/' || !slash)
		return ab_strdup(rel);
	strbuf_add(&sb, spec_name, (size_t)(slash - spec_name) + 1);
	strbuf_addstr(&sb, rel);
	return strbuf_detach(&sb, NULL);
}

static int parse_cost(struct sp *p, json_t *v, struct report_spec *s)
{
	const char *key;
	json_t *e;
	int rc;

	if (!json_is_object(v))
		return bad(p, "cost", "expected an object");
	json_object_foreach(v, key, e) {
		if (key[0] == '_')
			continue;
		if (!strcmp(key, "prices")) {
			char *rel = NULL;

			if ((rc = want_string(p, "cost.prices", e, &rel)))
				return rc;
			free(s->prices);
			s->prices = resolve(p->name, rel);
			free(rel);
		} else {
			struct strbuf at = STRBUF_INIT;

			strbuf_addf(&at, "cost.%s", key);
			rc = bad(p, at.buf, "unknown field (known: prices)");
			strbuf_release(&at);
			return rc;
		}
	}
	return 0;
}

static int parse_top(struct sp *p, json_t *root, struct report_spec *s)
{
	const char *key;
	json_t *v;
	int rc = 0;

	if (!json_is_object(root))
		return ab_fail(p->err, AB_EDATA, "%s: expected a JSON object", p->name);
	json_object_foreach(root, key, v) {
		if (key[0] == '_')
			continue;
		if (!strcmp(key, "title"))
			rc = want_string(p, key, v, &s->title);
		else if (!strcmp(key, "author"))
			rc = want_string(p, key, v, &s->author);
		else if (!strcmp(key, "organisation") || !strcmp(key, "organization"))
			rc = want_string(p, key, v, &s->organisation);
		else if (!strcmp(key, "baseline"))
			rc = want_string(p, key, v, &s->baseline);
		else if (!strcmp(key, "page_size")) {
			const char *ps = json_is_string(v) ? json_string_value(v) : "";

			if (!strcasecmp(ps, "A4"))
				s->page = REPORT_PAGE_A4;
			else if (!strcasecmp(ps, "Letter"))
				s->page = REPORT_PAGE_LETTER;
			else
				rc = bad(p, key, "expected \"A4\" or \"Letter\"");
		} else if (!strcmp(key, "confidence_level")) {
			double l = json_is_number(v) ? json_number_value(v) : NAN;

			if (!json_is_number(v))
				rc = bad(p, key, "expected a number");
			else if (!(l >= 0.5 && l <= 0.999))
				rc = bad(p, key, "must be between 0.5 and 0.999");
			else
				s->level = l;
		} else if (!strcmp(key, "suites"))
			rc = want_names(p, key, v, &s->suites, &s->nsuites);
		else if (!strcmp(key, "systems"))
			rc = want_names(p, key, v, &s->systems, &s->nsystems);
		else if (!strcmp(key, "benchmarks")) {
			struct strbuf at = STRBUF_INIT;
			size_t i;
			json_t *e;

			if (!json_is_array(v))
				return bad(p, key, "expected an array");
			s->benchmarks = ab_calloc(json_array_size(v) + 1, sizeof(*s->benchmarks));
			json_array_foreach(v, i, e) {
				strbuf_reset(&at);
				strbuf_addf(&at, "benchmarks[%zu]", i);
				s->nbenchmarks = i + 1;
				if ((rc = parse_bench(p, at.buf, e, &s->benchmarks[i])))
					break;
			}
			strbuf_release(&at);
		} else if (!strcmp(key, "cost"))
			rc = parse_cost(p, v, s);
		else
			rc = bad(p, key, "unknown field (known: title, author, organisation, page_size, "
				 "baseline, confidence_level, suites, systems, benchmarks, cost)");
		if (rc)
			return rc;
	}
	return 0;
}

int report_spec_parse(const char *text, size_t len, const char *name, struct report_spec *s,
		      struct strbuf *err)
{
	struct sp p = { name, err };
	json_error_t je;
	json_t *root;
	int rc;

	report_spec_init(s);
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return ab_fail(err, AB_EDATA, "%s:%d:%d: %s", name, je.line, je.column, je.text);
	rc = parse_top(&p, root, s);
	json_decref(root);
	if (rc) {
		report_spec_release(s);
		report_spec_init(s);
	}
	return rc;
}

int report_spec_load(const char *path, struct report_spec *s, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	FILE *fp = ab_fopen_input(path, err); /* a FIFO would block, a device never end */
	char buf[8192];
	size_t got;
	int rc;

	report_spec_init(s);
	if (!fp)
		return ab_fail(err, AB_EIO, "cannot open report spec '%s': %s", path,
			       errno == EINVAL ? "not a regular file" : strerror(errno));
	while ((got = fread(buf, 1, sizeof(buf), fp)) > 0) {
		strbuf_add(&text, buf, got);
		if (text.len > SPEC_MAX_BYTES) {
			fclose(fp);
			strbuf_release(&text);
			return ab_fail(err, AB_EDATA, "%s: larger than %d bytes", path, SPEC_MAX_BYTES);
		}
	}
	if (ferror(fp)) {
		fclose(fp);
		strbuf_release(&text);
		return ab_fail(err, AB_EIO, "cannot read report spec '%s': %s", path, strerror(errno));
	}
	fclose(fp);
	report_spec_release(s);
	rc = report_spec_parse(text.buf, text.len, path, s, err);
	strbuf_release(&text);
	return rc;
}

static int in_list(char *const *v, size_t n, const char *name)
{
	size_t i;

	if (!n)
		return 1;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return 1;
	return 0;
}

int report_spec_has_suite(const struct report_spec *s, const char *suite)
{
	return in_list(s->suites, s->nsuites, suite);
}

int report_spec_has_system(const struct report_spec *s, const char *system)
{
	return in_list(s->systems, s->nsystems, system);
}

const struct report_bench *report_spec_bench(const struct report_spec *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nbenchmarks; i++)
		if (!strcmp(s->benchmarks[i].name, name))
			return &s->benchmarks[i];
	return NULL;
}
