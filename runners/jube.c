/*
 * jube.c - `accelbench run jube CONFIG [--tag T ...]`: run the real JUBE
 * (`jube run`), follow the benchmark with `jube continue` until no
 * workpackage is running (polling with back-off, a timeout; Ctrl-C leaves
 * JUBE's state intact and says how to resume), then `jube result -a -s
 * csv` and name the result tables (<outpath>/<id>/result/) for ingest; the
 * CARAML parser reads them header-driven and resolves their energy files.
 *
 * Debian's JUBE 2.5.1 aborts `jube result` with '"nan" is not of type
 * "float"' when a derived pattern has no input (a failed run); newer JUBE
 * prints nan.  Then we never edit JUBE's own state: we build a pruned view
 * of the benchmark in the run folder (its configuration.xml, a
 * workpackages.xml without the failed workpackages, symlinks to the kept
 * workpackage directories) and run `jube result -a` on that.  Failed
 * workpackages are those JUBE marks as error, and, if that is not enough,
 * each leaf whose own result cannot be evaluated.  They are reported by
 * name and written as rows of a CARAML-style table (failed_<table>.csv:
 * parameters filled in, derived values "nan", like newer JUBE prints) so
 * they land as failed runs of the same configurations.
 */
#include "core/compat.h"
#include "run_priv.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- small XML helpers (JUBE's own files, trusted layout) ------------ */

static void xml_decode(struct strbuf *out, const char *s, size_t n)
{
	static const struct {
		const char *ent;
		char ch;
	} ents[] = { { "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' }, { "&quot;", '"' },
		     { "&apos;", '\'' } };
	size_t i, k;

	for (i = 0; i < n; i++) {
		int done = 0;
		if (s[i] == '&')
			for (k = 0; k < AB_ARRAY_SIZE(ents); k++) {
				size_t l = strlen(ents[k].ent);
				if (i + l <= n && !memcmp(s + i, ents[k].ent, l)) {
					strbuf_addch(out, ents[k].ch);
					i += l - 1;
					done = 1;
					break;
				}
			}
		if (!done)
			strbuf_addch(out, s[i]);
	}
}

/* Value of attribute name in the start tag at tag (up to '>'), or 0. */
static int xml_attr(const char *tag, const char *name, struct strbuf *out)
{
	const char *end = strchr(tag, '>'), *p = tag;
	size_t n = strlen(name);

	strbuf_reset(out);
	while (end && (p = strstr(p, name)) && p < end) {
		if ((p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n') && p[n] == '=' && p[n + 1] == '"') {
			const char *v = p + n + 2, *q = strchr(v, '"');
			if (!q || q > end)
				return 0;
			xml_decode(out, v, (size_t)(q - v));
			return 1;
		}
		p += n;
	}
	return 0;
}

/* Text of the first <name ...>text</name> in [s, end), or 0. */
static int xml_text(const char *s, const char *end, const char *name, struct strbuf *out)
{
	struct strbuf open = STRBUF_INIT, close = STRBUF_INIT;
	const char *p, *q, *gt;
	int rc = 0;

	strbuf_reset(out);
	strbuf_addf(&open, "<%s", name);
	strbuf_addf(&close, "</%s>", name);
	for (p = s; (p = strstr(p, open.buf)) && p < end; p += open.len) {
		char nx = p[open.len];
		if (nx != '>' && nx != ' ')
			continue;
		gt = strchr(p, '>');
		q = gt ? strstr(gt, close.buf) : NULL;
		if (!q || q > end)
			break;
		xml_decode(out, gt + 1, (size_t)(q - gt - 1));
		rc = 1;
		break;
	}
	strbuf_release(&open);
	strbuf_release(&close);
	return rc;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int read_all(const char *path, struct strbuf *out)
{
	FILE *fp = fopen(path, "rb");
	char buf[65536];
	size_t n;

	strbuf_reset(out);
	if (!fp)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(out, buf, n);
	fclose(fp);
	return 0;
}

/* Append path to list as an absolute path (run.json's list is relative to
 * the run folder otherwise). */
static void list_add(json_t *list, const char *path)
{
	char *abs = realpath(path, NULL);

	json_array_append_new(list, json_string(abs ? abs : path));
	free(abs);
}

/* ---- workpackages ----------------------------------------------------- */

struct jwp {
	long id;
	char *step;
	long *parents;
	size_t npar;
	size_t start, end;       /* the <workpackage> element in workpackages.xml */
	json_t *params;          /* {name: value} of this workpackage */
	int error;               /* JUBE marked it as error */
	int bad;                 /* left out of the result */
	int failed;              /* reported as a failed run */
	int has_children;
};

struct jwps {
	struct jwp *v;
	size_t n;
	struct strbuf xml;
};

static void jwps_release(struct jwps *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		free(w->v[i].step);
		free(w->v[i].parents);
		json_decref(w->v[i].params);
	}
	free(w->v);
	strbuf_release(&w->xml);
	memset(w, 0, sizeof(*w));
}

static struct jwp *jwp_find(struct jwps *w, long id)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->v[i].id == id)
			return &w->v[i];
	return NULL;
}

static void wp_dir(struct strbuf *out, const char *bdir, const struct jwp *wp)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/%06ld_%s", bdir, wp->id, wp->step);
}

static int jwps_load(struct jwps *w, const char *bdir, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, tmp = STRBUF_INIT, val = STRBUF_INIT;
	const char *s, *p;
	size_t i, k;

	memset(w, 0, sizeof(*w));
	strbuf_addf(&path, "%s/workpackages.xml", bdir);
	if (read_all(path.buf, &w->xml) < 0) {
		ab_fail(err, AB_EIO, "cannot read '%s': %s", path.buf, strerror(errno));
		strbuf_release(&path);
		return -AB_EIO;
	}
	s = w->xml.buf;
	for (p = s; (p = strstr(p, "<workpackage ")); ) {
		const char *end = strstr(p, "</workpackage>"), *q;
		struct jwp wp;
		if (!end)
			break;
		end += strlen("</workpackage>");
		while (*end == '\n' || *end == '\r')
			end++;
		memset(&wp, 0, sizeof(wp));
		wp.start = (size_t)(p - s);
		/* the element starts at its line's indentation */
		while (wp.start > 0 && (s[wp.start - 1] == ' ' || s[wp.start - 1] == '\t'))
			wp.start--;
		wp.end = (size_t)(end - s);
		xml_attr(p, "id", &tmp);
		wp.id = strtol(tmp.buf, NULL, 10);
		xml_text(p, end, "step", &tmp);
		wp.step = ab_strdup(tmp.buf);
		if (xml_text(p, end, "parents", &tmp)) {
			char *c = tmp.buf;
			while (*c) {
				char *e;
				long v = strtol(c, &e, 10);
				if (e == c)
					break;
				wp.parents = ab_realloc(wp.parents, (wp.npar + 1) * sizeof(long));
				wp.parents[wp.npar++] = v;
				c = *e == ',' ? e + 1 : e;
			}
		}
		wp.params = json_object();
		for (q = p; (q = strstr(q, "<parameter ")) && q < end; q++) {
			const char *pe = strstr(q, "</parameter>");
			if (!pe || pe > end)
				break;
			if (xml_attr(q, "name", &tmp) &&
			    (xml_text(q, pe, "selection", &val) || xml_text(q, pe, "value", &val)))
				json_object_set_new(wp.params, tmp.buf, json_string(val.buf));
		}
		w->v = ab_realloc(w->v, (w->n + 1) * sizeof(*w->v));
		w->v[w->n++] = wp;
		p = end;
	}
	for (i = 0; i < w->n; i++) {
		struct stat st;
		wp_dir(&tmp, bdir, &w->v[i]);
		strbuf_addstr(&tmp, "/error");
		w->v[i].error = stat(tmp.buf, &st) == 0;
		for (k = 0; k < w->v[i].npar; k++) {
			struct jwp *par = jwp_find(w, w->v[i].parents[k]);
			if (par)
				par->has_children = 1;
		}
	}
	strbuf_release(&path);
	strbuf_release(&tmp);
	strbuf_release(&val);
	return 0;
}

/* Mark wp and everything below it bad. */
static void mark_bad_down(struct jwps *w, struct jwp *wp)
{
	size_t i, k;

	wp->bad = 1;
	for (i = 0; i < w->n; i++)
		for (k = 0; k < w->v[i].npar; k++)
			if (w->v[i].parents[k] == wp->id && !w->v[i].bad)
				mark_bad_down(w, &w->v[i]);
}

/* keep[] |= wp and its ancestors. */
static void mark_keep_up(struct jwps *w, struct jwp *wp, char *keep)
{
	size_t k;

	keep[wp - w->v] = 1;
	for (k = 0; k < wp->npar; k++) {
		struct jwp *par = jwp_find(w, wp->parents[k]);
		if (par && !keep[par - w->v])
			mark_keep_up(w, par, keep);
	}
}

/* Parameters of wp and its ancestors (the nearest wins). */
static void chain_params(struct jwps *w, struct jwp *wp, json_t *out)
{
	size_t k;

	json_object_update_missing(out, wp->params);
	for (k = 0; k < wp->npar; k++) {
		struct jwp *par = jwp_find(w, wp->parents[k]);
		if (par)
			chain_params(w, par, out);
	}
}

/* ---- running jube ------------------------------------------------------ */

struct jube_ctx {
	const struct run_common *c;
	const char *folder;
	const char *handle;     /* outpath as JUBE printed it */
	long id;
	char idstr[32];
	char bdir6[16];         /* "000003" */
	struct strbuf bdir;     /* <handle>/<id6> */
	int attempts;
	double run_timeout_s;   /* bounds `jube run` itself; 0 = none */
};

/* Run a jube command into folder/<log>; returns its exit status or <0. */
static int jube_cmd(struct jube_ctx *j, const char *const *argv, const char *log,
		    struct run_proc_result *pr, struct strbuf *err)
{
	struct run_proc_opts po = { 0 };
	struct strbuf out = STRBUF_INIT;
	int rc;

	strbuf_addf(&out, "%s/%s", j->folder, log);
	po.argv = argv;
	po.out_path = out.buf;
	po.tee = j->c->verbose;
	/* only `jube run` itself is stopped by Ctrl-C; the bookkeeping
	 * commands finish, so JUBE's state stays consistent */
	po.no_forward = strcmp(argv[1], "run") != 0;
	if (!po.no_forward)
		po.timeout_s = j->run_timeout_s;
	rc = run_proc(&po, pr, err);
	strbuf_release(&out);
	return rc < 0 ? rc : pr->exit_status;
}

static int nan_abort(const char *folder, const char *log)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int yes;

	strbuf_addf(&path, "%s/%s", folder, log);
	read_all(path.buf, &text);
	yes = strstr(text.buf, "is not of type") != NULL;
	strbuf_release(&path);
	strbuf_release(&text);
	return yes;
}

/* `jube result -a ROOT -i ID -s csv`; 0 ok, 1 failed (nan), <0 error. */
static int try_result(struct jube_ctx *j, const char *root, const char *log, struct strbuf *err)
{
	const char *argv[] = { "jube", "result", "-a", root, "-i", j->idstr, "-s", "csv", NULL };
	struct run_proc_result pr;
	int rc = jube_cmd(j, argv, log, &pr, err);

	if (rc < 0)
		return rc;
	if (rc == 0)
		return 0;
	if (nan_abort(j->folder, log))
		return 1;
	return ab_fail(err, AB_EDATA, "jube result failed (exit %d); see %s/%s", rc, j->folder, log);
}

/* A pruned view of the benchmark in folder/<name>/<id6>/ with the
 * workpackages keep[] says; returns its root in out. */
static int make_view(struct jube_ctx *j, struct jwps *w, const char *keep, const char *name,
		     struct strbuf *out, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, from = STRBUF_INIT, to = STRBUF_INIT,
		      xml = STRBUF_INIT, data = STRBUF_INIT;
	static const char *const copies[] = { "configuration.xml", "timestamps" };
	size_t i, pos = 0;
	int rc;

	strbuf_reset(out);
	strbuf_addf(out, "%s/%s", j->folder, name);
	strbuf_addf(&dir, "%s/%s", out->buf, j->bdir6);
	rc = ab_mkdirs(dir.buf, err);
	for (i = 0; rc == 0 && i < AB_ARRAY_SIZE(copies); i++) {
		strbuf_reset(&from);
		strbuf_addf(&from, "%s/%s", j->bdir.buf, copies[i]);
		if (read_all(from.buf, &data) < 0)
			continue;
		strbuf_reset(&to);
		strbuf_addf(&to, "%s/%s", dir.buf, copies[i]);
		rc = ab_write_file(to.buf, data.buf, data.len, err);
	}
	/* workpackages.xml without the left-out elements */
	for (i = 0; rc == 0 && i < w->n; i++) {
		if (keep[i])
			continue;
		strbuf_add(&xml, w->xml.buf + pos, w->v[i].start - pos);
		pos = w->v[i].end;
	}
	strbuf_add(&xml, w->xml.buf + pos, w->xml.len - pos);
	if (rc == 0) {
		strbuf_reset(&to);
		strbuf_addf(&to, "%s/workpackages.xml", dir.buf);
		rc = ab_write_file(to.buf, xml.buf, xml.len, err);
	}
	for (i = 0; rc == 0 && i < w->n; i++) {
		char *abs;
		if (!keep[i])
			continue;
		wp_dir(&from, j->bdir.buf, &w->v[i]);
		abs = realpath(from.buf, NULL);
		wp_dir(&to, dir.buf, &w->v[i]);
		if (abs && symlink(abs, to.buf) < 0 && errno != EEXIST)
			rc = ab_fail(err, AB_EIO, "cannot link '%s': %s", to.buf, strerror(errno));
		free(abs);
	}
	strbuf_release(&dir);
	strbuf_release(&from);
	strbuf_release(&to);
	strbuf_release(&xml);
	strbuf_release(&data);
	return rc;
}

/* Columns of table name in configuration.xml: titles and source names. */
static void conf_columns(const char *conf, const char *table, json_t *titles, json_t *names)
{
	struct strbuf tmp = STRBUF_INIT, txt = STRBUF_INIT;
	const char *p, *end;

	for (p = conf; (p = strstr(p, "<table ")); p++) {
		if (!xml_attr(p, "name", &tmp) || strcmp(tmp.buf, table))
			continue;
		end = strstr(p, "</table>");
		for (p = strstr(p, "<column"); p && end && p < end; p = strstr(p + 1, "<column")) {
			const char *gt = strchr(p, '>'), *ce = strstr(p, "</column>");
			if (!gt || !ce || ce > end)
				break;
			strbuf_reset(&txt);
			xml_decode(&txt, gt + 1, (size_t)(ce - gt - 1));
			strbuf_trim(&txt);
			json_array_append_new(names, json_string(txt.buf));
			if (!xml_attr(p, "title", &tmp))
				strbuf_setstr(&tmp, txt.buf);
			json_array_append_new(titles, json_string(tmp.buf));
		}
		break;
	}
	strbuf_release(&tmp);
	strbuf_release(&txt);
}

/* 1 if pattern name (or its statistic name_avg, ...) is a derived pattern. */
static int is_derived(const char *conf, const char *name)
{
	static const char *const stats[] = { "_first", "_last", "_min", "_max", "_avg", "_sum",
					     "_cnt", "_std" };
	struct strbuf tmp = STRBUF_INIT, base = STRBUF_INIT;
	const char *p;
	size_t k;
	int yes = 0;

	strbuf_addstr(&base, name);
	for (k = 0; k < AB_ARRAY_SIZE(stats); k++)
		if (ends_with(name, stats[k]))
			strbuf_setlen(&base, strlen(name) - strlen(stats[k]));
	for (p = conf; !yes && (p = strstr(p, "<pattern ")); p++) {
		if (!xml_attr(p, "name", &tmp) || (strcmp(tmp.buf, name) && strcmp(tmp.buf, base.buf)))
			continue;
		yes = xml_attr(p, "mode", &tmp) && strcmp(tmp.buf, "pattern") && strcmp(tmp.buf, "text");
	}
	strbuf_release(&tmp);
	strbuf_release(&base);
	return yes;
}

static void wp_reason(struct jube_ctx *j, struct jwp *wp, struct strbuf *reason,
		      struct strbuf *tail);

/*
 * failed_<table>.csv for every table of the view's result/: the header
 * JUBE wrote, one row per failed workpackage with its parameters filled
 * in, derived values "nan" and patterns empty (what JUBE >= 2.6 prints).
 * Written into the view's result/ directory, which is ingested whole.
 * Returns how many files were written.
 */
static int write_failed_rows(struct jube_ctx *j, struct jwps *w, const char *result_dir,
			     struct strbuf *err)
{
	struct strbuf conf = STRBUF_INIT, path = STRBUF_INIT, dat = STRBUF_INIT,
		      out = STRBUF_INIT, name = STRBUF_INIT, reason = STRBUF_INIT, tail = STRBUF_INIT;
	DIR *d = opendir(result_dir);
	struct dirent *e;
	int written = 0;

	strbuf_addf(&path, "%s/configuration.xml", j->bdir.buf);
	read_all(path.buf, &conf);
	while (d && (e = readdir(d))) {
		json_t *titles = json_array(), *names = json_array();
		const char *nl;
		size_t i, k;

		if (!ends_with(e->d_name, ".dat"))
			goto next;
		strbuf_reset(&name);
		strbuf_add(&name, e->d_name, strlen(e->d_name) - 4);
		conf_columns(conf.buf, name.buf, titles, names);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", result_dir, e->d_name);
		if (read_all(path.buf, &dat) < 0 || !(nl = strchr(dat.buf, '\n')))
			goto next;
		strbuf_reset(&out);
		strbuf_add(&out, dat.buf, (size_t)(nl - dat.buf));
		/* two more columns, kept as params: which workpackage, and why */
		strbuf_addstr(&out, ",JUBEWorkpackage,Failure\n");
		/* only a csv header with one title per configured column */
		if (strchr(dat.buf, '|'))
			goto next;
		{
			size_t commas = 0;
			for (k = 0; dat.buf + k < nl; k++)
				commas += dat.buf[k] == ',';
			if (commas + 1 != json_array_size(names))
				goto next;
		}
		for (i = 0; i < w->n; i++) {
			json_t *params;
			if (!w->v[i].failed)
				continue;
			params = json_object();
			chain_params(w, &w->v[i], params);
			for (k = 0; k < json_array_size(names); k++) {
				const char *n = json_string_value(json_array_get(names, k));
				json_t *v = json_object_get(params, n);
				if (k)
					strbuf_addch(&out, ',');
				if (json_is_string(v)) {
					const char *c;
					for (c = json_string_value(v); *c; c++)
						strbuf_addch(&out, *c == ',' || *c == '\n' ? ' ' : *c);
				} else if (is_derived(conf.buf, n)) {
					strbuf_addstr(&out, "nan");
				}
			}
			wp_reason(j, &w->v[i], &reason, &tail);
			strbuf_addf(&out, ",%06ld_%s,", w->v[i].id, w->v[i].step);
			if (tail.len)
				strbuf_addf(&reason, "; output ends: %s", tail.buf);
			for (k = 0; k < reason.len; k++) {
				char ch = reason.buf[k];
				strbuf_addch(&out, ch == ',' ? ';' : ch == '\n' ? '|' : ch);
			}
			strbuf_addch(&out, '\n');
			json_decref(params);
		}
		/* beside the table, so the parser sees the same JUBE benchmark */
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/failed_%s.csv", result_dir, name.buf);
		if (ab_write_file(path.buf, out.buf, out.len, err) < 0) {
			json_decref(titles);
			json_decref(names);
			written = -1;
			break;
		}
		written++;
next:
		json_decref(titles);
		json_decref(names);
	}
	if (d)
		closedir(d);
	strbuf_release(&conf);
	strbuf_release(&path);
	strbuf_release(&dat);
	strbuf_release(&out);
	strbuf_release(&name);
	strbuf_release(&reason);
	strbuf_release(&tail);
	return written;
}

/* Why a failed workpackage failed, with the tail of what it wrote. */
static void wp_reason(struct jube_ctx *j, struct jwp *wp, struct strbuf *reason,
		      struct strbuf *tail)
{
	static const char *const logs[] = { "work/job.err", "work/stderr", "work/job.out",
					    "work/stdout" };
	struct strbuf p = STRBUF_INIT;
	size_t k;

	strbuf_reset(reason);
	strbuf_reset(tail);
	if (wp->error)
		strbuf_addf(reason, "JUBE workpackage %06ld_%s ended in error", wp->id, wp->step);
	else
		strbuf_addf(reason, "JUBE workpackage %06ld_%s has no result (a derived value "
			    "without input: \"nan\" is not of type \"float\")", wp->id, wp->step);
	for (k = 0; k < AB_ARRAY_SIZE(logs) && !tail->len; k++) {
		wp_dir(&p, j->bdir.buf, wp);
		strbuf_addf(&p, "/%s", logs[k]);
		run_output_tail(tail, p.buf, 5, 1024);
	}
	strbuf_release(&p);
}

/*
 * Result tables despite JUBE 2.5.1's "nan" abort.  Fills list with what to
 * ingest; returns the number of failed workpackages or <0.
 */
static int result_without_failed(struct jube_ctx *j, json_t *list, json_t *manifest,
				 struct strbuf *err)
{
	struct jwps w;
	struct strbuf root = STRBUF_INIT, reason = STRBUF_INIT, tail = STRBUF_INIT,
		      name = STRBUF_INIT, res_dir = STRBUF_INIT;
	char *keep = NULL;
	size_t i;
	int rc, nfailed = 0, ok = 0;

	rc = jwps_load(&w, j->bdir.buf, err);
	if (rc < 0)
		return rc;
	keep = ab_calloc(w.n + 1, 1);
	/* 1: leave out what JUBE marks as error, and what depends on it */
	for (i = 0; i < w.n; i++)
		if (w.v[i].error) {
			w.v[i].failed = 1;
			mark_bad_down(&w, &w.v[i]);
		}
	for (i = 0; i < w.n; i++)
		keep[i] = !w.v[i].bad;
	rc = make_view(j, &w, keep, "jube-result", &root, err);
	if (rc == 0)
		rc = try_result(j, root.buf, "jube-result.out", err);
	if (rc == 1) {
		/* 2: each leaf on its own; those that cannot be evaluated fail */
		memset(keep, 0, w.n + 1);
		for (i = 0; i < w.n; i++) {
			char *one;
			int r;
			if (w.v[i].bad || w.v[i].has_children)
				continue;
			one = ab_calloc(w.n + 1, 1);
			mark_keep_up(&w, &w.v[i], one);
			strbuf_reset(&name);
			strbuf_addf(&name, "jube-check/%06ld", w.v[i].id);
			r = make_view(j, &w, one, name.buf, &root, err);
			if (r == 0)
				r = try_result(j, root.buf, "jube-check.out", err);
			if (r == 0)
				mark_keep_up(&w, &w.v[i], keep);
			else if (r == 1)
				w.v[i].failed = w.v[i].bad = 1;
			free(one);
			if (r < 0) {
				rc = r;
				goto out;
			}
		}
		rc = make_view(j, &w, keep, "jube-result2", &root, err);
		if (rc == 0)
			rc = try_result(j, root.buf, "jube-result.out", err);
	}
	if (rc < 0)
		goto out;
	ok = rc == 0;
	if (ok) {
		strbuf_addf(&res_dir, "%s/%s/result", root.buf, j->bdir6);
		list_add(list, res_dir.buf);
	}
	for (i = 0; i < w.n; i++) {
		if (!w.v[i].failed)
			continue;
		nfailed++;
		wp_reason(j, &w.v[i], &reason, &tail);
		fprintf(j->c->out, "  failed: %06ld_%s: %s\n", w.v[i].id, w.v[i].step,
			w.v[i].error ? "ended in error" : "no result (a derived value without input)");
		if (tail.len)
			fprintf(stderr, "accelbench: %s; output ends:\n%s\n", reason.buf, tail.buf);
	}
	/* the failed ones as rows of the same tables, else as runs of run.json */
	rc = ok && nfailed ? write_failed_rows(j, &w, res_dir.buf, err) : 0;
	if (rc < 0)
		goto out;
	if (rc == 0) {
		for (i = 0; i < w.n; i++) {
			json_t *params = json_object(), *sys, *entry;
			if (!w.v[i].failed)
				continue;
			wp_reason(j, &w.v[i], &reason, &tail);
			chain_params(&w, &w.v[i], params);
			strbuf_reset(&name);
			wp_dir(&name, j->bdir.buf, &w.v[i]);
			strbuf_addstr(&name, "/work/stderr");
			entry = run_entry_failed((long)i + 1, "failed", reason.buf, NULL, 0, 0);
			json_object_set_new(entry, "output_tail", json_string(tail.buf));
			sys = json_object_get(params, "system");
			if (json_is_string(sys))
				json_object_set(entry, "system", sys);
			json_object_set_new(entry, "params", json_pack("{s:o}", "jube_parameters", params));
			run_manifest_add(manifest, entry);
		}
	}
	rc = nfailed;
out:
	free(keep);
	jwps_release(&w);
	strbuf_release(&root);
	strbuf_release(&reason);
	strbuf_release(&tail);
	strbuf_release(&name);
	strbuf_release(&res_dir);
	return rc;
}

/* The workpackages JUBE marks as error, reported by name with the tail of
 * their output (the result table has them as nan rows). */
static int report_error_wps(struct jube_ctx *j, int *nfailed, struct strbuf *err)
{
	struct strbuf reason = STRBUF_INIT, tail = STRBUF_INIT;
	struct jwps w;
	size_t i;
	int rc = jwps_load(&w, j->bdir.buf, err);

	if (rc < 0)
		return rc;
	for (i = 0; i < w.n; i++) {
		if (!w.v[i].error)
			continue;
		(*nfailed)++;
		wp_reason(j, &w.v[i], &reason, &tail);
		fprintf(j->c->out, "  failed: %06ld_%s: ended in error (a nan row of the result table)\n",
			w.v[i].id, w.v[i].step);
		if (tail.len)
			fprintf(stderr, "accelbench: %s; output ends:\n%s\n", reason.buf, tail.buf);
	}
	jwps_release(&w);
	strbuf_release(&reason);
	strbuf_release(&tail);
	return 0;
}

/* From `jube run` output: "# benchmark: NAME", "# id: N", "handle: H". */
static void parse_run_output(const char *text, struct strbuf *name, long *id,
			     struct strbuf *handle)
{
	const char *p;

	*id = -1;
	if ((p = strstr(text, "# benchmark: ")))
		strbuf_add(name, p + 13, strcspn(p + 13, "\r\n"));
	if ((p = strstr(text, "# id: ")))
		*id = strtol(p + 6, NULL, 10);
	if ((p = strstr(text, "handle: ")))
		strbuf_add(handle, p + 8, strcspn(p + 8, "\r\n"));
	strbuf_trim(name);
	strbuf_trim(handle);
}

int run_jube(const struct run_common *c, const struct run_jube_opts *o, struct run_result *res,
	     struct strbuf *err)
{
	struct strbuf exe = STRBUF_INIT, folder = STRBUF_INIT, stem = STRBUF_INIT,
		      text = STRBUF_INIT, name = STRBUF_INIT, handle = STRBUF_INIT,
		      sb = STRBUF_INIT, host = STRBUF_INIT;
	struct jube_ctx j;
	struct run_session_power sp;
	struct run_proc_result pr;
	const char **argv = NULL;
	json_t *manifest = NULL, *prov, *list;
	double poll = o->poll_s > 0 ? o->poll_s : 5, t0;
	const char *base;
	size_t i, n = 0;
	int rc = 0, interrupted = 0, timed_out = 0, nfailed = 0;

	memset(&j, 0, sizeof(j));
	memset(&sp, 0, sizeof(sp));
	strbuf_init(&j.bdir, 0);
	if (!o->config || access(o->config, R_OK) != 0)
		return ab_fail(err, AB_EUSAGE, "run jube: cannot read the JUBE config '%s'%s%s",
			       o->config ? o->config : "", errno ? ": " : "",
			       errno ? strerror(errno) : "");
	if (!run_which("jube", &exe)) {
		strbuf_release(&exe);
		return ab_fail(err, AB_EUSAGE, "run jube: JUBE is not installed ('jube' is not in "
			       "PATH); install it (Debian: apt-get install jube)");
	}
	base = strrchr(o->config, '/');
	base = base ? base + 1 : o->config;
	strbuf_add(&stem, base, strcspn(base, "."));
	if (c->slurm.enabled) {
		rc = run_via_slurm(c, "caraml", stem.buf, "throughput", "", 0, res, err);
		goto out;
	}
	argv = ab_calloc(o->ntags + 10, sizeof(*argv));
	argv[n++] = "jube";
	argv[n++] = "run";
	argv[n++] = "--hide-animation";
	if (o->outpath) {
		argv[n++] = "-o";
		argv[n++] = o->outpath;
	}
	argv[n++] = o->config;
	if (o->ntags) {
		argv[n++] = "--tag"; /* nargs='+': the tags come last */
		for (i = 0; i < o->ntags; i++)
			argv[n++] = o->tags[i];
	}
	argv[n] = NULL;
	if (c->dry_run) {
		fputs("dry run: would run\n  ", c->out);
		run_print_argv(c->out, argv);
		fprintf(c->out, "then 'jube continue' until no workpackage runs (first poll after %g s), "
			"'jube result -a -s csv', and ingest the result tables\n", poll);
		goto out;
	}
	rc = run_folder_use(c, stem.buf, &folder, err);
	if (rc < 0)
		goto out;
	j.c = c;
	j.folder = folder.buf;
	fprintf(c->out, "run jube %s in %s\n", o->config, folder.buf);
	fflush(c->out);
	run_hostname(&host);
	prov = run_provenance_new(c, "jube", argv);
	{
		const char *ver[] = { "jube", "--version", NULL };
		if (jube_cmd(&j, ver, "jube-version.out", &pr, err) == 0) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s/jube-version.out", folder.buf);
			read_all(sb.buf, &text);
			strbuf_trim(&text);
			json_object_set_new(prov, "jube_version", json_string(text.buf));
		}
	}
	if (getenv("SLURM_JOB_ID"))
		json_object_set_new(prov, "slurm_job_id", json_string(getenv("SLURM_JOB_ID")));
	rc = run_session_power_start(&sp, o->power, o->interval_ms, folder.buf, "jube", c->out, err);
	fflush(c->out);
	if (rc < 0) {
		json_decref(prov);
		goto out;
	}
	t0 = run_now();
	/* --timeout bounds the whole campaign: `jube run` (which runs every
	 * synchronous step itself) and the following after it */
	j.run_timeout_s = c->timeout_s;
	rc = jube_cmd(&j, argv, "jube-run.out", &pr, err);
	if (rc < 0) {
		json_decref(prov);
		goto out;
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/jube-run.out", folder.buf);
	read_all(sb.buf, &text);
	parse_run_output(text.buf, &name, &j.id, &handle);
	manifest = run_manifest_new("caraml", name.len ? name.buf : stem.buf,
				    c->system ? c->system : host.buf, "throughput", "", 0, prov);
	list = json_array();
	json_object_set_new(manifest, "ingest", list);
	if (pr.exit_status != 0 || j.id < 0 || !handle.len) {
		strbuf_reset(&sb);
		run_proc_reason(&sb, &pr, "jube run");
		if (pr.timed_out)
			strbuf_addf(&sb, " after %g s (--timeout); JUBE was stopped", c->timeout_s);
		else if (pr.exit_status == 0)
			strbuf_addstr(&sb, " but printed no benchmark id");
		fprintf(stderr, "accelbench: %s\n", sb.buf);
		strbuf_reset(&text);
		strbuf_addf(&text, "%s/jube-run.out", folder.buf);
		run_manifest_add(manifest, run_entry_failed(1, pr.interrupted ? "aborted" : "failed",
							    sb.buf, text.buf, pr.t_start, pr.t_end));
		nfailed = 1;
		interrupted = pr.interrupted;
		timed_out = pr.timed_out;
		goto finish;
	}
	j.handle = handle.buf;
	if (snprintf(j.idstr, sizeof(j.idstr), "%ld", j.id) < 0 ||
	    snprintf(j.bdir6, sizeof(j.bdir6), "%06ld", j.id) < 0) {
		rc = ab_fail(err, AB_EINTERNAL, "bad benchmark id");
		goto out;
	}
	strbuf_addf(&j.bdir, "%s/%s", handle.buf, j.bdir6);
	json_object_set_new(json_object_get(manifest, "provenance"), "jube",
			    json_pack("{s:s, s:s, s:I}", "benchmark", name.buf, "outpath", handle.buf,
				      "id", (json_int_t)j.id));
	fprintf(c->out, "  JUBE benchmark %s, id %ld, outpath %s\n", name.buf, j.id, handle.buf);
	fflush(c->out);
	/* follow: continue until no workpackage is running */
	for (;;) {
		const char *st[] = { "jube", "status", j.handle, "-i", j.idstr, NULL };
		const char *cont[] = { "jube", "continue", j.handle, "-i", j.idstr, "--hide-animation",
				       NULL };
		rc = jube_cmd(&j, st, "jube-status.out", &pr, err);
		if (rc < 0)
			goto out;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/jube-status.out", folder.buf);
		read_all(sb.buf, &text);
		unlink(sb.buf);
		if (!strstr(text.buf, "RUNNING") && !run_interrupted())
			break;
		if (!run_interrupted())
			run_sleep_ms((long)(poll * 1000));
		if (run_interrupted()) {
			interrupted = 1;
			fprintf(c->out, "interrupted: JUBE's state is intact; resume with 'jube continue "
				"%s --id %ld', then 'jube result -a %s --id %ld' and 'accelbench ingest "
				"%s/result'; what finished so far is stored now\n", j.handle, j.id,
				j.handle, j.id, j.bdir.buf);
			break;
		}
		if (c->timeout_s > 0 && run_now() - t0 > c->timeout_s) {
			timed_out = 1;
			fprintf(c->out, "timed out after %.0f s with workpackages still running; resume "
				"with 'jube continue %s --id %ld'\n", c->timeout_s, j.handle, j.id);
			break;
		}
		rc = jube_cmd(&j, cont, "jube-continue.out", &pr, err);
		if (rc < 0)
			goto out;
		poll = poll * 2 > 30 ? 30 : poll * 2;
	}
	strbuf_trim(&text);
	fprintf(c->out, "  JUBE status: %s\n", interrupted ? "interrupted" : timed_out ? "timed out" :
		text.len ? text.buf : "unknown");
	/* results: what finished, even after Ctrl-C or a timeout */
	rc = try_result(&j, j.handle, "jube-result.out", err);
	if (rc == 0) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/result", j.bdir.buf);
		list_add(list, sb.buf);
		/* JUBE >= 2.6 prints failed runs as nan rows, which the parser
		 * stores as failed; name them here as with 2.5.1 */
		if (strstr(text.buf, "ERROR")) {
			rc = report_error_wps(&j, &nfailed, err);
			if (rc < 0)
				goto out;
		}
	} else if (rc == 1) {
		fputs("  jube result aborted (\"nan\" is not of type \"float\": JUBE 2.5.1 and a failed "
		      "run); taking the results without the failed workpackages\n", c->out);
		rc = result_without_failed(&j, list, manifest, err);
		if (rc < 0)
			goto out;
		nfailed = rc;
	} else {
		goto out;
	}
finish:
	prov = json_object_get(manifest, "provenance");
	rc = run_session_power_stop(&sp, prov, err);
	if (rc < 0)
		goto out;
	strbuf_reset(&sb);
	run_iso(&sb, t0);
	json_object_set_new(prov, "started", json_string(sb.buf));
	strbuf_reset(&sb);
	run_iso(&sb, run_now());
	json_object_set_new(prov, "finished", json_string(sb.buf));
	rc = run_finish(c, folder.buf, manifest, res, err);
	if (rc == 0 && interrupted)
		rc = -RUN_INTERRUPTED;
	else if (rc == 0 && (nfailed || timed_out))
		rc = ab_fail(err, AB_EDATA, "run jube: %s", timed_out ? "timed out (what finished is stored)" :
			     "some workpackages failed (stored as failed)");
out:
	run_session_power_release(&sp);
	free(argv);
	json_decref(manifest);
	strbuf_release(&j.bdir);
	strbuf_release(&exe);
	strbuf_release(&folder);
	strbuf_release(&stem);
	strbuf_release(&text);
	strbuf_release(&name);
	strbuf_release(&handle);
	strbuf_release(&sb);
	strbuf_release(&host);
	return rc;
}
